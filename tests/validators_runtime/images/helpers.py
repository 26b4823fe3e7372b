"""Small helpers shared by the image tests."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.conftest import ROOT

ONESPEC = Path(sys.executable).parent / "onespec"


def write_spec(directory: Path, text: str, name: str = "image.yaml") -> Path:
    """Write a spec (dedented) into ``directory``; return its path."""
    path = directory / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def onespec(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``onespec ARGS`` in-process with click's runner (the command logic, without a
    Python start-up per call); the result has a process's ``returncode``, ``stdout`` and
    ``stderr``. Exit codes and the console script itself are :func:`onespec_process`'s."""
    from click.testing import CliRunner

    from onespec.validators_runtime.cli import cli

    previous = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, list(args), prog_name="onespec")
    finally:
        os.chdir(previous)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(
        ["onespec", *args], result.exit_code, result.stdout, result.stderr
    )


def onespec_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the console script in a process of its own; return the completed process."""
    return subprocess.run(
        [str(ONESPEC), *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        timeout=120,
        check=False,
    )


def installed_packages(count: int) -> list[str]:
    """``count`` packages installed on this machine, from its dpkg database."""
    done = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package}\t${Status}\n"],
        capture_output=True,
        text=True,
        check=True,
    )
    names = sorted(
        line.split("\t")[0]
        for line in done.stdout.splitlines()
        if line.endswith("install ok installed") and ":" not in line.split("\t")[0]
    )
    assert len(names) >= count, f"this machine has only {len(names)} packages installed"
    return names[:count]


def comparable(report) -> dict:
    """A report as a dict without what differs between targets: timings and the target name."""
    data = report.to_dict(timings=False)
    data.pop("target")
    return data


def run_rendered(script: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run a script ``onespec image script`` rendered, with bash and a bare PATH plus ``env``."""
    return subprocess.run(
        ["bash", str(script)],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", **env},
        check=False,
    )
