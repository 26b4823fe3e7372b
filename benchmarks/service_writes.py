"""How long one flavor's extra-spec write holds the reference service's write lock, whatever it
carries, and what it costs the writes around it.

The service checks the flavor's extra specs together inside the write's transaction, under the
flavor's lock: on SQLite that is ``BEGIN IMMEDIATE``, the whole database's write lock; on
PostgreSQL a transaction-scoped advisory lock per flavor. For each backend, through the real
application (Flask's test client, in this process):

* the longest transaction of a hostile write (the longest values Nova's 255-character limit
  lets through, in every key the rules read as CPU lists, page sizes or counts), in ``refuse``
  and in ``warn`` mode, measured from the transaction's BEGIN to its COMMIT or ROLLBACK by the
  engine's own events;
* writes to other flavors while hostile writes run in threads: how many fail, and the slowest;
* after ``warn`` mode stored the hostile values (and a page size ``int()`` cannot read, stored
  by a microversion that does not validate), an unrelated write to that flavor against the same
  write to a valid flavor.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import event

from onespec.validators_runtime.service.app import create_app
from onespec.validators_runtime.service.db.engine import create_engine
from onespec.validators_runtime.service.db.migrate import upgrade

LOCK_TARGET_MS = 50.0

ADMIN = {"X-Project-Id": "p", "X-User-Id": "admin", "X-Roles": "admin,member"}
V286 = {**ADMIN, "OpenStack-API-Version": "compute 2.86"}
#: Before 2.86 Nova stored extra specs unchecked: what such a write stored is what later
#: writes must live with.
V285 = {**ADMIN, "OpenStack-API-Version": "compute 2.85"}

#: The longest value of wide ranges Nova's 255-character limit lets through.
WIDE = ",".join(["0-4095"] * 36)


def hostile_writes() -> list[tuple[str, dict[str, str]]]:
    """Bodies whose every value passes its own key's check, each as costly to the rules
    between keys as one write can be."""
    numa = {"hw:numa_nodes": "8"}
    for node in range(8):
        numa[f"hw:numa_cpus.{node}"] = WIDE
        numa[f"hw:numa_mem.{node}"] = "1" * 12
    return [
        ("hw:numa_cpus.N, 8 nodes of 255 characters", numa),
        (
            "hw:cpu_realtime_mask of 255 characters",
            {
                "hw:cpu_policy": "dedicated",
                "hw:cpu_realtime": "yes",
                "hw:cpu_realtime_mask": ",".join(["^0-4095"] * 31),
            },
        ),
        (
            "hw:cpu_dedicated_mask of 255 characters",
            {"hw:cpu_policy": "mixed", "hw:cpu_dedicated_mask": ",".join(["0-4095"] * 36)},
        ),
        ("hw:mem_page_size of 255 digits", {"hw:mem_page_size": "9" * 255}),
        ("hw:numa_nodes of 255 digits", {"hw:numa_nodes": "9" * 255}),
    ]


class LockClock:
    """The durations of an engine's write transactions, from the engine's own events."""

    def __init__(self, engine: Any) -> None:
        self.durations: list[float] = []
        self._started: dict[int, float] = {}
        self._lock = threading.Lock()
        event.listen(engine, "begin", self._begin)
        event.listen(engine, "commit", self._end)
        event.listen(engine, "rollback", self._end)

    def _begin(self, connection: Any) -> None:
        self._started[id(connection)] = time.perf_counter()

    def _end(self, connection: Any) -> None:
        started = self._started.pop(id(connection), None)
        if started is not None and connection.get_execution_options().get("onespec_write"):
            with self._lock:
                self.durations.append(time.perf_counter() - started)

    def worst_ms(self) -> float:
        with self._lock:
            worst = max(self.durations, default=0.0)
            self.durations.clear()
        return worst * 1000


def _each_database() -> Iterator[tuple[str, str | None]]:
    with tempfile.TemporaryDirectory(prefix="onespec-bench-") as folder:
        yield "SQLite", f"sqlite:///{Path(folder) / 'service.db'}"
    from tests.servers import PostgresCluster, postgres_bindir

    bindir = postgres_bindir()
    if bindir is None:
        yield "PostgreSQL", None
        return
    cluster = PostgresCluster(bindir)
    try:
        cluster.start()
        yield "PostgreSQL", cluster.create_database()
    finally:
        cluster.stop()


def _app(url: str, mode: str) -> tuple[Any, LockClock]:
    app = create_app({"DATABASE_URL": url, "FLAVOR_CHECK": mode, "PLUGINS": []})
    return app, LockClock(app.extensions["onespec"].engine)


def _post(client: Any, flavor: str, specs: dict[str, str], headers: dict[str, str]) -> Any:
    return client.post(
        f"/flavors/{flavor}/os-extra_specs", json={"extra_specs": specs}, headers=headers
    )


def _line(label: str, figure: str, ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"{label:<62}{figure}{mark}")


def _median_ms(call: Any, loops: int = 15) -> float:
    runs = []
    for _ in range(loops):
        started = time.perf_counter()
        call()
        runs.append(time.perf_counter() - started)
    return statistics.median(runs) * 1000


def _backend(name: str, url: str) -> int:
    missed = 0
    engine = create_engine(url)
    upgrade(engine)
    engine.dispose()
    refuse, refuse_clock = _app(url, "refuse")
    client = refuse.test_client()
    print(f"  {name}")
    for label, specs in hostile_writes():
        for attempt in range(3):
            answer = _post(client, f"hostile-{attempt}", specs, V286)
            assert answer.status_code in (200, 400), (label, answer.status_code, answer.text)
        worst = refuse_clock.worst_ms()
        ok = worst <= LOCK_TARGET_MS
        missed += not ok
        _line(f"    refuse: {label}", f"{worst:6.1f} ms held ({answer.status_code})", ok)

    # Other flavors while hostile writes run in threads.
    failures: list[int] = []
    latencies: list[float] = []
    stop = threading.Event()

    def hostile() -> None:
        own = refuse.test_client()
        while not stop.is_set():
            for _, specs in hostile_writes():
                _post(own, "hostile-busy", specs, V286)

    def others(worker: int) -> None:
        own = refuse.test_client()
        for n in range(40):
            started = time.perf_counter()
            answer = _post(own, f"other-{worker}-{n % 4}", {"hw:pmu": "false"}, V286)
            latencies.append(time.perf_counter() - started)
            if answer.status_code != 200:
                failures.append(answer.status_code)

    busy = [threading.Thread(target=hostile) for _ in range(3)]
    writers = [threading.Thread(target=others, args=(n,)) for n in range(3)]
    for thread in busy + writers:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    for thread in busy:
        thread.join()
    held = refuse_clock.worst_ms()
    ok = not failures
    missed += not ok
    # The six threads share this interpreter, so a transaction also waits for the others'
    # Python: the lock figure here is an upper bound, the lines above measure it alone.
    _line(
        "    3 hostile writers beside 3 writers of other flavors",
        f"{len(failures)} of {len(latencies)} failed, slowest {max(latencies) * 1000:.1f} ms, "
        f"longest transaction {held:.1f} ms (threads of one interpreter)",
        ok,
    )

    # What warn mode stores, and what it costs a later write.
    warn, warn_clock = _app(url, "warn")
    client = warn.test_client()
    stored_body: dict[str, str] = {}
    for _, specs in hostile_writes():
        stored_body.update(specs)
    answer = _post(client, "stored", stored_body, V286)
    held = warn_clock.worst_ms()
    ok = answer.status_code == 200 and held <= LOCK_TARGET_MS
    missed += not ok
    _line("    warn: every hostile value in one write, stored", f"{held:6.1f} ms held", ok)
    for flavor in ("stored", "valid"):
        # A page size int() cannot read, stored as Nova stored extra specs before 2.86.
        _post(client, flavor, {"hw:mem_page_size": "\u00b2"}, V285)
    _post(client, "valid", {"hw:mem_page_size": "large"}, V285)
    statuses = {_post(client, "stored", {"hw:pmu": "false"}, V286).status_code}
    unrelated = _median_ms(
        lambda: statuses.add(_post(client, "stored", {"hw:pmu": "true"}, V286).status_code)
    )
    valid = _median_ms(lambda: _post(client, "valid", {"hw:pmu": "true"}, V286))
    held = warn_clock.worst_ms()
    ok = statuses == {200} and unrelated <= 2 * valid + 5 and held <= LOCK_TARGET_MS
    missed += not ok
    _line(
        "    warn: a later unrelated write to that flavor, median",
        f"{unrelated:6.1f} ms vs {valid:.1f} ms to a valid flavor (target <= 2x + 5 ms), "
        f"status {sorted(statuses)}, lock {held:.1f} ms",
        ok,
    )
    for app in (refuse, warn):
        app.extensions["onespec"].engine.dispose()
    return missed


def run() -> int:
    print(
        f"Service writes: the write lock held by any write (target <= {LOCK_TARGET_MS:.0f} ms), "
        "other flavors never blocked"
    )
    missed = 0
    for name, url in _each_database():
        if url is None:
            print(f"  {name}: skipped (initdb and postgres are not installed)")
            continue
        missed += _backend(name, url)
    return missed


if __name__ == "__main__":
    import sys

    sys.exit(1 if run() else 0)
