"""How long the generated outputs and the documentation take to build, and that a rebuild with
nothing changed reads nothing."""

from __future__ import annotations

import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

GENERATE_TARGET_S = 3.0
DOCS_TARGET_S = 60.0
#: The ``:onespec:*-entry:`` roles' text: a line of 40,000 spaces, read within this.
ENTRY_ROLE_TARGET_S = 0.1

_UPDATING = re.compile(r"updating environment: .*?(\d+) added, (\d+) changed, (\d+) removed")


def _timed(command: list[str]) -> tuple[float, str]:
    started = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
    return elapsed, result.stdout + result.stderr


def generate_seconds() -> float:
    """Median wall time of ``onespec generate all --check`` (renders every output in memory)."""
    return statistics.median(
        _timed([str(BIN / "onespec"), "generate", "all", "--check"])[0] for _ in range(3)
    )


def docs_build(outdir: Path) -> tuple[float, int]:
    """Wall time of a documentation build, and how many documents it read."""
    elapsed, output = _timed(
        [
            str(BIN / "sphinx-build"),
            "-n",
            "-W",
            "--keep-going",
            "-j",
            "auto",
            "-b",
            "html",
            "doc/source",
            str(outdir),
        ]
    )
    match = _UPDATING.search(output)
    if match is None:
        raise RuntimeError(f"no 'updating environment' line in the Sphinx output:\n{output}")
    added, changed, _ = (int(n) for n in match.groups())
    return elapsed, added + changed


def _line(label: str, figure: str, ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"{label:<58} {figure}{mark}")


def entry_role_seconds() -> float:
    """The worst case of the entry roles' reading: a 40,002-character line, mostly spaces."""
    from onespec.sphinxext.domain import entry_name_and_group

    hostile = "x" + " " * 40_000 + "<"
    started = time.perf_counter()
    entry_name_and_group(hostile)
    return time.perf_counter() - started


def run() -> int:
    missed = 0
    print("Generated outputs and documentation")
    seconds = entry_role_seconds()
    ok = seconds <= ENTRY_ROLE_TARGET_S
    missed += not ok
    _line("  :onespec:*-entry: role, a line of 40,000 spaces", f"{seconds:7.4f} s", ok)
    seconds = generate_seconds()
    ok = seconds <= GENERATE_TARGET_S
    missed += not ok
    _line("  onespec generate all (every output, in memory)", f"{seconds:7.2f} s", ok)

    if shutil.which("dot") is None:
        print("  documentation: skipped, Graphviz's dot is not installed")
        return missed + 1
    with tempfile.TemporaryDirectory(prefix="onespec-docs-") as directory:
        outdir = Path(directory) / "html"
        full, read = docs_build(outdir)
        ok = full <= DOCS_TARGET_S
        missed += not ok
        _line(f"  full documentation build ({read} documents read)", f"{full:7.2f} s", ok)
        again, reread = docs_build(outdir)
        ok = reread == 0
        missed += not ok
        _line("  second build, nothing changed: documents read", f"{reread:7d}", ok)
        _line("  second build, nothing changed: time", f"{again:7.2f} s")
    return missed
