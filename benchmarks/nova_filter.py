"""What onespec's server filter adds to a server create in a real nova-api 34.0.0.

A cloud in a box (``tests/cloud``) runs two nova-api processes on one database: one with the
filter (``egg:onespec#onespec_servers``, refuse mode) and one stock. The same flavor (10 extra
specs) and image (10 properties) are booted through each, alternately, so that both see the same
database and the same machine load; the filter's cost is the difference of the medians. The
filter reads the flavor and the image once more, as Nova does, and checks the pair.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.flavors import PROPERTIES, SPECS
from tests.cloud.box import Box, start

CREATES = 60
WARM_UP = 5
TARGET_MS = 10.0


def _line(label: str, figure: str, ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"{label:<58} {figure}{mark}")


def _create(box: Box, url: str, flavor: str, image: str) -> float:
    began = time.perf_counter()
    answer = box.boot(flavor, image, url)
    elapsed = time.perf_counter() - began
    if answer.status != 202:
        raise RuntimeError(f"create through {url} answered {answer.status}: {answer.body}")
    return elapsed


def run() -> int:
    folder = Path(tempfile.mkdtemp(prefix="onespec-bench-nova-"))
    box = start(folder, os.getpid())
    try:
        flavor = box.create_flavor(4, 4096, 10, SPECS)["id"]
        image = box.create_image(PROPERTIES)["id"]
        for _ in range(WARM_UP):
            _create(box, box.nova, flavor, image)
            _create(box, box.nova_plain, flavor, image)
        filtered, plain = [], []
        for _ in range(CREATES):
            filtered.append(_create(box, box.nova, flavor, image))
            plain.append(_create(box, box.nova_plain, flavor, image))
    finally:
        box.stop()
        shutil.rmtree(folder, ignore_errors=True)
    with_filter = statistics.median(filtered) * 1000
    alone = statistics.median(plain) * 1000
    added = with_filter - alone
    print(f"nova-api 34 in a box: {CREATES} server creates each way, alternating")
    _line("  POST /servers, Nova alone: median", f"{alone:8.2f} ms")
    _line("  POST /servers, with onespec_servers: median", f"{with_filter:8.2f} ms")
    ok = added <= TARGET_MS
    _line(f"  added by the filter (target <= {TARGET_MS:.0f} ms)", f"{added:8.2f} ms", ok)
    _line("  with / without: ratio of medians", f"{with_filter / alone:8.2f}")
    return 0 if ok else 1
