"""How long ``onespec audit`` takes on Nova's own tree: the target is a pre-commit hook's budget.

The audit runs as a user runs it, the console script in a child process pinned to one core
(``taskset``, where there is one), on Nova 34.0.0's ``nova/`` package from the peers (``make
peers``), against Nova's own catalogue and against onespec's. The figure is the best of three
wall-clock runs, so that a busy machine's noise does not decide it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

#: Seconds the whole audit of nova/ may take on one core.
TARGET_SECONDS = 10.0
RUNS = 3


def _nova() -> Path | None:
    peers = Path(os.environ.get("ONESPEC_PEERS_DIR") or Path(__file__).parents[1] / ".peers")
    tree = peers / "venvs" / "nova" / "lib" / "python3.11" / "site-packages" / "nova"
    return tree if tree.is_dir() else None


def _seconds(tree: Path, catalogue: str) -> float:
    onespec = str(Path(sys.executable).parent / "onespec")
    command = [onespec, "audit", str(tree), "--catalogue", catalogue, "--format", "json"]
    if shutil.which("taskset"):
        command = ["taskset", "-c", "0", *command]
    best = float("inf")
    for _ in range(RUNS):
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, check=False)
        best = min(best, time.perf_counter() - started)
        if done.returncode not in (0, 1):
            raise RuntimeError(done.stderr.decode(errors="replace"))
    return best


def run() -> int:
    print("onespec audit on Nova 34.0.0's nova/ (one core, best of 3, the whole command)")
    tree = _nova()
    if tree is None:
        print("  skipped: the nova peer is not provided (make peers)")
        return 0
    missed = 0
    for catalogue in ("nova", "in-tree"):
        seconds = _seconds(tree, catalogue)
        ok = seconds < TARGET_SECONDS
        missed += not ok
        mark = "ok" if ok else "MISSED"
        print(
            f"  --catalogue {catalogue:<8} {seconds:6.2f} s"
            f"  (target < {TARGET_SECONDS:.0f} s)  {mark}"
        )
    return missed
