"""The box for the tests: ``cloud``, one per test process; ``private_cloud``, a module's own."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.cloud.box import Box, start
from tests.peers import require


def _require_services() -> None:
    require("nova")
    require("glance")


@pytest.fixture(scope="session")
def cloud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Box]:
    """One box for every test of this test process, started when the first test asks. Tests
    create their own, uniquely named, objects in it.

    Each pytest-xdist worker has a box of its own: Nova and Glance keep SQLite databases here,
    and two processes writing to one of them at once get "database is locked" from the
    services (a 500), which a shared box turned into failures of unrelated tests."""
    _require_services()
    box = start(tmp_path_factory.mktemp("cloud"), os.getpid())
    try:
        yield box
    finally:
        box.stop()


@pytest.fixture(scope="module")
def private_cloud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Box]:
    """A box of the test module's own, for tests that must know everything in the cloud."""
    _require_services()
    box = start(tmp_path_factory.mktemp("private-cloud"), os.getpid())
    try:
        yield box
    finally:
        box.stop()
