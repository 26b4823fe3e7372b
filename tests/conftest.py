"""Test fixtures for the whole suite: where the repository lives, hypothesis, databases."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
#: The folder that holds the ``onespec`` package (what a checkout puts on ``sys.path``).
SRC = ROOT / "src"
#: The ``onespec`` package's folder (``onespec.definitions`` is ``PACKAGE / "definitions"``).
PACKAGE = SRC / "onespec"
CASES = Path(__file__).resolve().parent / "cases"

# The default profile is derandomised, so a run is repeatable and a red build is never luck;
# `fast` (make test-fast) draws a third as many, derandomised too; ONESPEC_HYPOTHESIS=explore
# draws fresh examples (and more of them) to look for new failures.
settings.register_profile("ci", deadline=None, max_examples=300, derandomize=True)
settings.register_profile("fast", deadline=None, max_examples=100, derandomize=True)
settings.register_profile("dev", deadline=None)
settings.register_profile("explore", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("ONESPEC_HYPOTHESIS", "ci"))


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


# --- Markers: what a test needs, so a contributor can leave the expensive ones out -------------

#: Every marker of the suite. The fast loop (``make test-fast``) deselects peers, install and
#: slow; ``make test`` runs everything. ``process`` only says why a test starts a process.
MARKERS = {
    "peers": "runs a real peer program (Nova, Glance, Heat, Sahara, ...) from `make peers`",
    "postgres": "runs against a throwaway PostgreSQL cluster (initdb and postgres)",
    "ssh": "starts an OpenSSH server (sshd) on 127.0.0.1",
    "install": "builds the sdist and the wheel and installs them into clean virtual environments",
    "slow": "takes several seconds of its own (builds, large inputs, many hypothesis examples)",
    "process": "runs onespec in a process of its own (the console script, python -m onespec, a "
    "fresh interpreter): exit status, signals, standard input, what a new process loads",
}


def pytest_configure(config: pytest.Config) -> None:
    for name, meaning in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")


#: The pytest cache's entry of the test functions that reach a peer, and the digest of the
#: sources they were read from.
PEER_REACH_CACHE = "onespec/peer-reach"


def _reaching_peers(config: pytest.Config) -> frozenset[tuple[str, str]]:
    """:func:`tests.peer_reach.reaching_peers`, kept in pytest's cache (when it is enabled) for
    as long as no module of the test suite changes: parsing them all takes a second, in every
    worker of every run, and hashing them a few milliseconds."""
    from tests.peer_reach import reaching_peers, source_digest

    cache = getattr(config, "cache", None)
    if cache is None:
        return reaching_peers()
    digest = source_digest()
    kept = cache.get(PEER_REACH_CACHE, None)
    if isinstance(kept, dict) and kept.get("digest") == digest:
        return frozenset((module, name) for module, name in kept["reached"])
    reached = reaching_peers()
    cache.set(PEER_REACH_CACHE, {"digest": digest, "reached": sorted(reached)})
    return reached


def _needs(item: pytest.Item, reaching: frozenset[tuple[str, str]]) -> set[str]:
    """The markers an item earns by what it uses, found rather than written by hand."""
    needs: set[str] = set()
    names = set(getattr(item, "fixturenames", ()))
    params = getattr(getattr(item, "callspec", None), "params", {})
    if "postgres" in names or "postgresql" in params.values():
        needs.add("postgres")
    if "sshd" in names:
        needs.add("ssh")
    if item.path.name == "test_installed.py":
        needs |= {"install", "slow"}
    functions = [getattr(item, "function", None)]
    info = getattr(item, "_fixtureinfo", None)
    for definitions in getattr(info, "name2fixturedefs", {}).values():
        functions += [definition.func for definition in definitions]
    # A function reaches a peer through tests.peers, itself or through helpers of the test
    # suite (tests/peer_reach.py).
    named = [(getattr(f, "__module__", None), getattr(f, "__qualname__", None)) for f in functions]
    if any(name in reaching for name in named):
        needs.add("peers")
    return needs


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reaching = _reaching_peers(config)
    for item in items:
        for name in sorted(_needs(item, reaching) - {mark.name for mark in item.iter_markers()}):
            item.add_marker(getattr(pytest.mark, name))


# --- Databases: SQLite and PostgreSQL ------------------------------------------------------------

#: The databases every store and API test runs against.
DATABASES = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL cluster for the whole session (see tests/servers.py)."""
    from tests.servers import postgres_cluster

    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture(params=DATABASES)
def empty_database_url(request, tmp_path):
    """The URL of a new, empty database: a SQLite file, or a database of the cluster."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'onespec.db'}"
        return
    cluster = request.getfixturevalue("postgres")
    url = cluster.create_database()
    yield url
    cluster.drop_database(url)


def _migrate(url: str) -> str:
    from onespec.validators_runtime.service.db import migrate as database
    from onespec.validators_runtime.service.db.engine import create_engine

    engine = create_engine(url)
    database.upgrade(engine)
    engine.dispose()
    return url


@pytest.fixture(scope="session")
def migrated_templates(tmp_path_factory):
    """A database of each kind at the latest migration, copied for each test that needs one."""
    return {"sqlite": _migrate(f"sqlite:///{tmp_path_factory.mktemp('template') / 'onespec.db'}")}


@pytest.fixture(params=DATABASES)
def database_url(request, tmp_path, migrated_templates):
    """The URL of a new database with the schema at the latest migration."""
    if request.param == "sqlite":
        template = Path(migrated_templates["sqlite"].removeprefix("sqlite:///"))
        shutil.copyfile(template, tmp_path / "onespec.db")
        return f"sqlite:///{tmp_path / 'onespec.db'}"
    # One PostgreSQL database serves every test, emptied before each: creating a database
    # takes a quarter of a second, emptying one a few milliseconds.
    cluster = request.getfixturevalue("postgres")
    if "postgresql" not in migrated_templates:
        migrated_templates["postgresql"] = _migrate(cluster.create_database())
    url = migrated_templates["postgresql"]
    cluster.empty_tables(url)
    return url
