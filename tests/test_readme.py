"""The README's tour works exactly as written: its commands and its Python session are run."""

from __future__ import annotations

import doctest
import re
import subprocess

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
MARK = "@@onespec-readme@@"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def test_the_console_tour_prints_what_the_readme_shows():
    (block,) = blocks("console")
    commands: list[str] = []
    expected: list[list[str]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append(line[2:])
            expected.append([])
        else:
            expected[-1].append(line)
    script = "".join(
        f"{command}\n__rc=$?; printf '%s\\n' '{MARK}'; (exit $__rc)\n" for command in commands
    )
    result = subprocess.run(
        ["bash", "--noprofile", "--norc"],
        input=script,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    outputs = result.stdout.split(f"{MARK}\n")[: len(commands)]
    assert len(outputs) == len(commands), result.stderr
    for command, output, lines in zip(commands, outputs, expected, strict=True):
        assert output.splitlines() == lines, f"$ {command}\n{result.stderr}"


def test_the_python_tour_runs_as_shown():
    (block,) = blocks("pycon")
    test = doctest.DocTestParser().get_doctest(block, {}, "README.md", str(ROOT / "README.md"), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0
