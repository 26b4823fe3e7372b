"""Small Nova-shaped source trees written by the tests, and the real ones from the peers."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests import peers


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write *files* (relative path -> source) under *root*; *root*."""
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


@pytest.fixture
def nova_34() -> Path:
    """The folder holding Nova 34.0.0's ``nova`` package."""
    return peers.require("nova") / "lib" / "python3.11" / "site-packages"


@pytest.fixture
def nova_31() -> Path:
    """The folder holding Nova 31.0.0's ``nova`` package (before the hw:cpu_max_* fix)."""
    return peers.require("nova-31.0.0")
