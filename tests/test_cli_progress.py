"""Progress on long work: on a terminal only, never in a pipe or with ``-f json``.

Standard error is a real pseudo-terminal (:mod:`pty`), as when a person runs the command, and
the console script runs in a child process: nothing is mocked.
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

ONESPEC = str(Path(sys.executable).with_name("onespec"))


def run_on_a_terminal(*args: str, cwd: Path) -> tuple[int, str, str]:
    """Run ``onespec ARGS`` with standard error on a pseudo-terminal and standard output on a
    pipe; return (exit code, stdout, what the terminal showed)."""
    main, terminal = pty.openpty()
    try:
        child = subprocess.Popen(
            [ONESPEC, *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=terminal,
        )
        os.close(terminal)
        shown = b""
        while True:
            try:
                piece = os.read(main, 65536)
            except OSError:  # the child closed the terminal
                break
            if not piece:
                break
            shown += piece
        out = child.stdout.read() if child.stdout else b""
        code = child.wait(timeout=120)
    finally:
        os.close(main)
    return code, out.decode(), shown.decode()


def run_in_a_pipe(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [ONESPEC, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    for number in range(40):
        folder = tmp_path / f"role{number % 4}"
        folder.mkdir(exist_ok=True)
        (folder / f"t{number}.yaml").write_text(
            "heat_template_version: 2018-08-31\n"
            f"capabilities:\n  deployment: d{number}\n  resource_type: OS::Role{number % 4}\n"
        )
    return tmp_path


@pytest.mark.parametrize(
    "query",
    [
        ("template-capabilities", "summary", "-r", "--no-cache", "."),
        ("template-capabilities", "find", "-r", "--no-cache", "-c", "deployment=d7", "."),
        ("template-capabilities", "choices", "-r", "--no-cache", "."),
    ],
    ids=["summary", "find", "choices"],
)
def test_a_scan_counts_files_on_a_terminal_only(templates, query):
    code, out, shown = run_on_a_terminal(*query, cwd=templates)
    assert code in (0, 1), shown
    assert re.search(r"scanning files +40\b", shown), shown
    assert "scanning" not in out
    piped = run_in_a_pipe(*query, cwd=templates)
    assert piped.stdout == out
    assert "scanning" not in piped.stderr


def test_no_progress_with_json_even_on_a_terminal(templates):
    code, out, shown = run_on_a_terminal(
        "template-capabilities", "summary", "-r", "--no-cache", "-f", "json", ".", cwd=templates
    )
    assert code == 0, shown
    assert shown == ""
    assert len(json.loads(out)["resource_types"]) == 4


def test_audit_counts_the_python_files_it_reads(tmp_path):
    for number in range(12):
        (tmp_path / f"m{number}.py").write_text(
            f"SPEC = extra_specs.get('hw:cpu_policy')  # {number}\n"
        )
    code, _, shown = run_on_a_terminal("audit", ".", cwd=tmp_path)
    assert code in (0, 1), shown
    assert re.search(r"reading Python files +12\b", shown), shown
    assert "reading:" not in run_in_a_pipe("audit", ".", cwd=tmp_path).stderr


def test_fleet_counts_flavors_against_their_total(tmp_path):
    flavors = [
        {"name": f"m{n}", "vcpus": 2, "ram": 1024, "disk": 10, "properties": {}} for n in range(5)
    ]
    (tmp_path / "flavors.json").write_text(json.dumps(flavors))
    (tmp_path / "images.json").write_text(json.dumps([{"name": "cirros", "properties": {}}]))
    args = ("validate", "fleet", "--flavors", "flavors.json", "--images", "images.json")
    code, out, shown = run_on_a_terminal(*args, cwd=tmp_path)
    assert code == 0, (out, shown)
    assert re.search(r"checking flavors +\[#+\] +5/5\b", shown), shown
    assert "checking:" not in run_in_a_pipe(*args, cwd=tmp_path).stderr
