"""A command that times out on the local remote is stopped with everything it started.

Before, only the top process was killed: a script's children ran on, and because they held
its output pipe open, the "timed out" command went on waiting for them too.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from onespec.validators_runtime.images import LocalRemote
from onespec.validators_runtime.images.errors import RemoteCommandError
from tests.validators_runtime.images.helpers import onespec, write_spec


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _gone_soon(pid: int) -> bool:
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def pid_file(tmp_path):
    path = tmp_path / "child.pid"
    yield path
    if path.exists():  # never leave the sleeper behind, whatever the test found
        pid = int(path.read_text())
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_a_timeout_kills_the_commands_children_and_returns_on_time(pid_file):
    started = time.monotonic()
    with pytest.raises(RemoteCommandError, match="timed out"):
        LocalRemote().execute_command(f"sleep 30 & echo $! > {pid_file}; wait", timeout=0.5)
    assert time.monotonic() - started < 5
    assert _gone_soon(int(pid_file.read_text()))


def test_image_validate_timeout_kills_a_scripts_children(tmp_path, pid_file):
    spec = write_spec(
        tmp_path,
        f"""
        validators:
          - script:
              slow:
                inline: "sleep 30 & echo $! > {pid_file}; wait"
        """,
    )
    started = time.monotonic()
    done = onespec(
        "image",
        "validate",
        str(spec),
        "--remote",
        "local",
        "--distro",
        "debian",
        "--timeout",
        "0.5",
    )
    assert time.monotonic() - started < 10
    assert done.returncode == 1, done.stdout + done.stderr
    assert "timed out" in done.stdout + done.stderr
    assert _gone_soon(int(pid_file.read_text()))


def test_a_background_process_left_by_a_finished_command_does_not_hold_it(pid_file):
    started = time.monotonic()
    code, stdout, _ = LocalRemote().execute_command(
        f"sleep 30 >/dev/null 2>&1 & echo $! > {pid_file}; echo done", timeout=10
    )
    assert (code, stdout) == (0, "done\n")
    assert time.monotonic() - started < 5
