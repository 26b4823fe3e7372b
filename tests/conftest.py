"""Shared test fixtures: where the repository and the shared data live."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CASES = Path(__file__).resolve().parent / "cases"

settings.register_profile("ci", deadline=None, max_examples=300)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci")


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
