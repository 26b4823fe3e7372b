"""Slow clients cannot lock others out of ``onespec serve`` (real waitress, 127.0.0.1).

The attack: connections that send a request's header lines one every two seconds, never idle, so
never closed for idleness, as many as the connection limit or more. Before, waitress stopped
accepting at its limit and every other request waited for the attack's whole length.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ONESPEC = str(Path(sys.executable).with_name("onespec"))


@pytest.fixture
def server(tmp_path) -> Iterator[tuple[str, int]]:
    """``onespec serve`` on a free port of 127.0.0.1, with its default limits; (host, port)."""
    # The database exists before the server starts: started together, the server could look
    # for it first and stop.
    upgrade = subprocess.run(
        [ONESPEC, "db", "upgrade", "--database-url", f"sqlite:///{tmp_path / 'db.sqlite'}"],
        capture_output=True,
        check=False,
    )
    process = subprocess.Popen(
        [
            ONESPEC,
            "serve",
            "--port",
            "0",
            "--format",
            "json",
            "--log-level",
            "warning",
            "--database-url",
            f"sqlite:///{tmp_path / 'db.sqlite'}",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path)},
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line, f"the server did not start ({upgrade.stderr!r})"
        url = json.loads(line)["url"]
        host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
        yield host, int(port)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def _answer_time(host: str, port: int) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(f"http://{host}:{port}/openapi.json", timeout=10) as response:
        assert response.status == 200
        response.read()
    return time.perf_counter() - started


@pytest.mark.slow  # three rounds, two seconds apart
def test_twice_the_limit_of_slow_clients_do_not_delay_a_normal_request(server):
    from onespec.validators_runtime.service.cli import CONNECTION_LIMIT

    host, port = server
    assert _answer_time(host, port) < 1.0  # the server is up and answers
    slow = []
    try:
        for _ in range(2 * CONNECTION_LIMIT):
            connection = socket.create_connection((host, port), timeout=5)
            connection.sendall(b"GET /openapi.json HTTP/1.1\r\n")
            slow.append(connection)
        times = []
        for round_ in range(3):  # three rounds of one header line each, two seconds apart
            for connection in slow:
                # A connection the server closed to make room: what it should do.
                with contextlib.suppress(OSError):
                    connection.sendall(f"X-Slow-{round_}: 1\r\n".encode())
            times.append(_answer_time(host, port))
            time.sleep(2)
    finally:
        for connection in slow:
            connection.close()
    # Measured at a few milliseconds each; before, each request waited until its 10 s timeout.
    assert max(times) < 1.0, times
