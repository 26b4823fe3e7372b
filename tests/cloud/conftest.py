"""The box for the tests: ``cloud``, shared by the whole run; ``private_cloud``, a module's own."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.cloud.box import Box, shared, start
from tests.peers import require


def _require_services() -> None:
    require("nova")
    require("glance")


@pytest.fixture(scope="session")
def cloud(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Iterator[Box]:
    """One box for every test of the run: started by the first test process that asks, stopped
    by the last to finish. Tests create their own, uniquely named, objects in it."""
    _require_services()
    base = tmp_path_factory.getbasetemp()
    # pytest-xdist's workers each have a base folder under the run's: the box lives beside
    # them, and stops itself if the controlling pytest process (the workers' parent) is gone.
    if worker_id != "master":
        base, watched = base.parent, os.getppid()
    else:
        watched = os.getpid()
    with shared(base / "cloud", watched) as box:
        yield box


@pytest.fixture(scope="module")
def private_cloud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Box]:
    """A box of the test module's own, for tests that must know everything in the cloud."""
    _require_services()
    box = start(tmp_path_factory.mktemp("private-cloud"), os.getpid())
    try:
        yield box
    finally:
        box.stop()
