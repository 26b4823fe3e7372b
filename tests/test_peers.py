"""How sources are named: two versions of one distribution, and a program's name, stay apart."""

from __future__ import annotations

from tests import peers
from tests.peers import Source, source_keys


def _source(name: str, version: str) -> Source:
    return Source(name, version, "0" * 64, "")


def test_a_unique_source_keeps_its_plain_name() -> None:
    keyed = source_keys([_source("heat-agents", "13.0.0")])
    assert list(keyed) == ["heat-agents"]


def test_two_versions_of_one_distribution_are_keyed_by_version() -> None:
    keyed = source_keys([_source("nova", "31.0.0"), _source("nova", "30.0.0")])
    assert sorted(keyed) == ["nova-30.0.0", "nova-31.0.0"]


def test_a_source_never_shadows_the_program_of_the_same_name() -> None:
    keyed = source_keys([_source("nova", "31.0.0")], taken=["nova"])
    assert list(keyed) == ["nova-31.0.0"]


def test_the_pinned_old_nova_is_a_source_and_nova_stays_the_program() -> None:
    assert isinstance(peers.peer("nova"), peers.Program)
    old = peers.peer("nova-31.0.0")
    assert isinstance(old, Source) and old.name == "nova" and old.version == "31.0.0"
