"""Run a command as a user would, capped, and measure what it cost.

The hostile-input tests of several areas share one budget: CPU seconds rather than wall time,
so other work on a shared machine does not fail it, and the child's peak memory read from its
``VmHWM`` while it runs (its ``ru_maxrss`` would count the test process's own size, which a
child shares until it executes the command). A child that hangs is killed at the deadline and
fails on its exit status.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Measured:
    """What a capped run cost, and what it said."""

    seconds: float
    megabytes: float
    status: int
    output: str


def run_capped(
    command: list[str],
    *,
    cwd: Path | None = None,
    memory_kb: int = 1048576,
    deadline: float = 20.0,
    env: dict[str, str] | None = None,
) -> Measured:
    """Run ``command`` under ``ulimit -v memory_kb``; stdout and stderr together as output."""
    with tempfile.TemporaryFile() as stream:
        process = subprocess.Popen(
            ["bash", "-c", f'ulimit -v {int(memory_kb)} && exec "$0" "$@"', *command],
            stdout=stream,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            env=env,
        )
        give_up = time.perf_counter() + deadline
        peak = 0
        status_file = Path(f"/proc/{process.pid}/status")
        while True:
            with contextlib.suppress(OSError):
                for line in status_file.read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
            done, status, usage = os.wait4(process.pid, os.WNOHANG)
            if done:
                break
            if time.perf_counter() > give_up:
                process.kill()
                _, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.005)
        process.returncode = os.waitstatus_to_exitcode(status)
        stream.seek(0)
        output = stream.read().decode(errors="replace")
    return Measured(usage.ru_utime + usage.ru_stime, peak / 1024, process.returncode, output)
