"""Small helpers shared by the image tests (``onespec`` is :mod:`tests.commands`'s)."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

from tests.commands import onespec, onespec_process


def write_spec(directory: Path, text: str, name: str = "image.yaml") -> Path:
    """Write a spec (dedented) into ``directory``; return its path."""
    path = directory / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


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


__all__ = ["installed_packages", "onespec", "onespec_process", "write_spec"]
