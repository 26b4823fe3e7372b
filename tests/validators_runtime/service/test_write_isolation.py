"""One flavor's writes never cost another flavor's, and what a write stored never breaks a
later one: hostile values (the longest CPU lists and digit strings Nova's 255-character limit
lets through), on SQLite (where the check runs under the database's write lock) and on
PostgreSQL. ``make bench`` measures how long the lock is held; this holds the behaviour."""

from __future__ import annotations

import threading

from tests.validators_runtime.service.conftest import ADMIN

V286 = {**ADMIN, "OpenStack-API-Version": "compute 2.86"}
V285 = {**ADMIN, "OpenStack-API-Version": "compute 2.85"}
WIDE = ",".join(["0-4095"] * 36)


def specs_path(flavor: str) -> str:
    return f"/flavors/{flavor}/os-extra_specs"


def hostile() -> dict[str, str]:
    specs = {"hw:numa_nodes": "8"}
    for node in range(8):
        specs[f"hw:numa_cpus.{node}"] = WIDE
        specs[f"hw:numa_mem.{node}"] = "1" * 12
    return specs


def test_other_flavors_are_written_while_hostile_writes_run(serve):
    api = serve(threads=8)
    stop = threading.Event()
    hostile_answers: list[int] = []
    others: list[int] = []

    def attack() -> None:
        while not stop.is_set():
            answer = api.post(specs_path("hostile"), json={"extra_specs": hostile()}, headers=V286)
            hostile_answers.append(answer.status_code)

    def write(worker: int) -> None:
        for n in range(10):
            answer = api.post(
                specs_path(f"other-{worker}"),
                json={"extra_specs": {"hw:pmu": "true" if n % 2 else "false"}},
                headers=V286,
            )
            others.append(answer.status_code)

    attackers = [threading.Thread(target=attack) for _ in range(2)]
    writers = [threading.Thread(target=write, args=(n,)) for n in range(3)]
    for thread in attackers + writers:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    for thread in attackers:
        thread.join()
    assert others == [200] * 30
    assert hostile_answers and set(hostile_answers) == {400}  # refused, never a 500


def test_values_warn_mode_stored_never_break_a_later_unrelated_write(serve):
    api = serve(FLAVOR_CHECK="warn")
    stored = api.post(specs_path("kept"), json={"extra_specs": hostile()}, headers=V286)
    assert stored.status_code == 200
    assert stored.raw.headers.getlist("Warning")
    # A page size int() cannot read, stored as Nova stored extra specs before 2.86.
    old = api.post(
        specs_path("kept"), json={"extra_specs": {"hw:mem_page_size": "\u00b2"}}, headers=V285
    )
    assert old.status_code == 200
    later = api.post(specs_path("kept"), json={"extra_specs": {"hw:pmu": "false"}}, headers=V286)
    assert later.status_code == 200, later.text
    assert api.get(specs_path("kept"), headers=ADMIN).json()["extra_specs"]["hw:pmu"] == "false"


def test_a_stored_unreadable_page_size_never_makes_an_unrelated_write_fail(serve):
    api = serve()
    old = api.post(
        specs_path("old"), json={"extra_specs": {"hw:mem_page_size": "\u2460"}}, headers=V285
    )
    assert old.status_code == 200
    later = api.post(specs_path("old"), json={"extra_specs": {"hw:pmu": "false"}}, headers=V286)
    # What the flavor broke before this write is not this write's doing: it is stored.
    assert later.status_code == 200, later.text
