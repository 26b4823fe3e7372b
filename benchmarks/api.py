"""How fast the API answers ``GET /plugins``: requests per second and latency, on loopback.

The service runs as deployed, ``onespec serve`` (waitress, its default threads) over a fresh SQLite
database, in its own process; 16 client threads, each with one keep-alive connection to
127.0.0.1, send a fixed number of requests, stopping early at a time limit. ``GET /``, which
touches neither the database nor the policy, is measured the same way in the same run, so the
ratio between the two says what the database and the policy cost on any machine.
"""

from __future__ import annotations

import http.client
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ONESPEC = Path(sys.executable).parent / "onespec"

CONNECTIONS = 16
REQUESTS = 6_000  # in all, per endpoint
WARM_UP = 300
TIME_LIMIT_S = 30.0
TARGET_RPS = 500.0
HEADERS = {"X-Project-Id": "bench", "X-User-Id": "bench", "X-Roles": "member"}


def _start(database: str) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "ONESPEC_DATABASE_URL": database}
    subprocess.run([str(ONESPEC), "db", "upgrade"], env=env, check=True, capture_output=True)
    process = subprocess.Popen(
        [str(ONESPEC), "serve", "--host", "127.0.0.1", "--port", "0", "--log-level", "warning"],
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


def _load(address: str, path: str, total: int) -> tuple[float, list[float]]:
    """Send ``total`` requests over CONNECTIONS connections; (seconds, latencies in s)."""
    host, port = address.split(":")
    per_connection = total // CONNECTIONS
    latencies: list[list[float]] = [[] for _ in range(CONNECTIONS)]
    failures: list[str] = []
    start = threading.Barrier(CONNECTIONS + 1)
    deadline = [0.0]

    def client(number: int) -> None:
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        mine = latencies[number]
        try:
            start.wait()
            for _ in range(per_connection):
                began = time.perf_counter()
                connection.request("GET", path, headers=HEADERS)
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

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CONNECTIONS)]
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
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(directory, ignore_errors=True)
    return missed


if __name__ == "__main__":
    sys.exit(1 if run() else 0)
