"""How fast the API answers ``GET /plugins``: requests per second and latency, on loopback.

The service runs as deployed, ``onespec serve`` (waitress, its default threads) over a fresh SQLite
database, in its own process; 16 client threads, each with one keep-alive connection to
127.0.0.1, send a fixed number of requests, stopping early at a time limit. ``GET /``, which
touches neither the database nor the policy, is measured the same way in the same run, so the
ratio between the two says what the database and the policy cost on any machine.

Two more figures: how long a hostile 1 MB POST of unknown extra-spec keys takes to be answered
(target: under 200 ms), and, on PostgreSQL (the throwaway cluster of ``tests/servers.py``), the
writes per second of 50 concurrent writers through one ``onespec serve`` process and through
two processes sharing the database.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ONESPEC = Path(sys.executable).parent / "onespec"

CONNECTIONS = 16
REQUESTS = 6_000  # in all, per endpoint
WARM_UP = 300
TIME_LIMIT_S = 30.0
TARGET_RPS = 500.0
HEADERS = {"X-Project-Id": "bench", "X-User-Id": "bench", "X-Roles": "member"}


HOSTILE_TARGET_S = 0.2
WRITERS = 50
WRITES = 3_000  # in all, per configuration
WRITE_HEADERS = {**HEADERS, "X-Roles": "admin", "OpenStack-API-Version": "compute 2.86"}


def _start(database: str, *options: str) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "ONESPEC_DATABASE_URL": database}
    subprocess.run([str(ONESPEC), "db", "upgrade"], env=env, check=True, capture_output=True)
    process = subprocess.Popen(
        [
            str(ONESPEC),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--log-level",
            "warning",
            *options,
        ],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    match = re.search(r"on http://(127\.0\.0\.1:\d+)/", line)
    if match is None:
        process.kill()
        raise RuntimeError(f"onespec serve did not start: {line}{process.stderr.read()}")
    # Keep reading what the server logs: a full pipe would stall it.
    threading.Thread(target=process.stderr.read, daemon=True).start()
    return process, match.group(1)


def _stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


def _load(
    address: str | list[str],
    path: str,
    total: int,
    *,
    connections: int = CONNECTIONS,
    method: str = "GET",
    headers: dict[str, str] = HEADERS,
    body: Callable[[int, int], bytes] | None = None,
) -> tuple[float, list[float]]:
    """Send ``total`` requests over ``connections`` connections, spread over the addresses;
    (seconds, latencies in s). ``body(connection, request)`` makes each request's body."""
    addresses = [address] if isinstance(address, str) else address
    per_connection = total // connections
    latencies: list[list[float]] = [[] for _ in range(connections)]
    failures: list[str] = []
    start = threading.Barrier(connections + 1)
    deadline = [0.0]

    def client(number: int) -> None:
        host, port = addresses[number % len(addresses)].split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        mine = latencies[number]
        try:
            start.wait()
            for sent in range(per_connection):
                began = time.perf_counter()
                data = body(number, sent) if body is not None else None
                connection.request(method, path, body=data, headers=headers)
                response = connection.getresponse()
                response.read()
                mine.append(time.perf_counter() - began)
                if response.status != 200:
                    failures.append(f"{path} answered {response.status}")
                    return
                if began > deadline[0]:
                    return
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(connections)]
    for thread in threads:
        thread.start()
    began = time.perf_counter()
    deadline[0] = began + TIME_LIMIT_S
    start.wait()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    if failures:
        raise RuntimeError(failures[0])
    return elapsed, [latency for mine in latencies for latency in mine]


def _line(label: str, figure: str, ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"{label:<58} {figure}{mark}")


def run() -> int:
    missed = 0
    directory = Path(tempfile.mkdtemp(prefix="onespec-bench-api-"))
    process, address = _start(f"sqlite:///{directory / 'onespec.db'}")
    try:
        print(
            f"API on loopback: {CONNECTIONS} connections, up to {REQUESTS:,} requests "
            f"(at most {TIME_LIMIT_S:.0f} s) per endpoint; onespec serve, SQLite"
        )
        results = {}
        for path in ("/plugins", "/"):
            _load(address, path, WARM_UP)
            elapsed, latencies = _load(address, path, REQUESTS)
            rate = len(latencies) / elapsed
            results[path] = rate
            ok = rate >= TARGET_RPS if path == "/plugins" else None
            missed += ok is False
            target = f" (target >= {TARGET_RPS:.0f}/s)" if path == "/plugins" else ""
            _line(f"  GET {path}: requests per second{target}", f"{rate:9.0f}", ok)
            median = statistics.median(latencies) * 1000
            p99 = statistics.quantiles(latencies, n=100)[98] * 1000
            _line(f"  GET {path}: median / p99 latency", f"{median:6.2f} / {p99:.2f} ms")
        ratio = results["/"] / results["/plugins"]
        _line("  GET / vs GET /plugins: requests per second ratio", f"{ratio:9.2f}")
        missed += _hostile_post(address)
    finally:
        _stop(process)
        shutil.rmtree(directory, ignore_errors=True)
    _scale_out()
    return missed


def hostile_body(size: int = 1024 * 1024) -> bytes:
    """Just under ``size`` bytes of unknown ``hw:`` keys, as one POST of extra specs."""
    specs: dict[str, str] = {}
    while True:
        for _ in range(1000):
            specs[f"hw:cpu_polic{len(specs):07d}"] = "dedicated"
        text = json.dumps({"extra_specs": specs}).encode()
        if len(text) > size - 30_000:
            return text


def _hostile_post(address: str) -> int:
    """The median time to answer a 1 MB POST of unknown keys, over a few tries."""
    body = hostile_body()
    host, port = address.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    headers = {**WRITE_HEADERS, "Content-Type": "application/json"}
    times = []
    try:
        for _ in range(5):
            began = time.perf_counter()
            connection.request("POST", "/flavors/bench/os-extra_specs", body=body, headers=headers)
            response = connection.getresponse()
            answer = response.read()
            times.append(time.perf_counter() - began)
    finally:
        connection.close()
    took = statistics.median(times)
    ok = took < HOSTILE_TARGET_S and response.status == 400
    label = f"  POST of {len(body) / 1e6:.1f} MB of unknown keys: time to answer (target < 200 ms)"
    _line(label, f"{took * 1000:6.1f} ms, {len(answer):,} bytes", ok)
    return 0 if ok else 1


def _scale_out() -> None:
    """Writes per second of WRITERS concurrent writers through one and through two processes."""
    sys.path.insert(0, str(ROOT))  # the tests package, for its throwaway PostgreSQL
    from tests.servers import PostgresCluster, postgres_bindir

    bindir = postgres_bindir()
    print(f"Scale-out on PostgreSQL: {WRITERS} writers, {WRITES:,} POSTs of one extra spec each")
    if bindir is None:
        print("  skipped: PostgreSQL is not installed (apt-get install postgresql)")
        return
    cluster = PostgresCluster(bindir)
    cluster.start()
    try:

        def body(connection: int, request: int) -> bytes:
            return json.dumps({"extra_specs": {f"hw:key_{connection}": str(request)}}).encode()

        headers = {**WRITE_HEADERS, "Content-Type": "application/json"}
        for count in (1, 2):
            url = cluster.create_database()
            started = [_start(url, "--threads", "16") for _ in range(count)]
            try:
                addresses = [address for _, address in started]
                path = "/flavors/bench/os-extra_specs?validation=off"
                elapsed, latencies = _load(
                    addresses, path, WRITES, connections=WRITERS, method="POST",
                    headers=headers, body=body,
                )  # fmt: skip
                rate = len(latencies) / elapsed
                noun = "process" if count == 1 else "processes"
                _line(f"  POST extra specs, {count} {noun}: requests per second", f"{rate:9.0f}")
            finally:
                for process, _ in started:
                    _stop(process)
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(1 if run() else 0)
