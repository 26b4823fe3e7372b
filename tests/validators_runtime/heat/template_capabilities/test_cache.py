"""The cache of scanned files: keyed by path, size and mtime, under the user's cache directory,
safe to lose, never trusted for a file that changed as it was read."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from onespec.validators_runtime.heat import template_capabilities as api
from onespec.validators_runtime.heat.template_capabilities import cache as capabilities_cache
from onespec.validators_runtime.heat.template_capabilities.cache import FactCache, cache_directory

TEMPLATE = "heat_template_version: 2015-10-15\ncapabilities:\n  deployment: {}\nresources: {{}}\n"


def age(path: Path, seconds: float = 3600) -> None:
    """Date a file in the past, beyond the racy window."""
    when = time.time() - seconds
    os.utime(path, (when, when))


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "tree"
    (root / "a").mkdir(parents=True)
    for name, tool in (("a/puppet.yaml", "puppet"), ("docker.yaml", "docker")):
        path = root / name
        path.write_text(TEMPLATE.format(tool))
        age(path)
    return root


def cache_files(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "cache" / "onespec" / "template-capabilities"
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def test_the_cache_directory_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_directory() == tmp_path / "onespec" / "template-capabilities"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert cache_directory() == Path.home() / ".cache" / "onespec" / "template-capabilities"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_directory() == Path.home() / ".cache" / "onespec" / "template-capabilities"


def test_a_repeated_scan_reads_the_cache(tree, tmp_path):
    first = api.scan([tree], recursive=True)
    assert first.cache_hits == 0
    assert len(cache_files(tmp_path)) == 2  # one shard per directory
    second = api.scan([tree], recursive=True)
    assert second.cache_hits == 2
    assert second.records == first.records


def test_the_cache_gives_the_same_answers(tree):
    fresh = api.summary([tree], recursive=True, cache=False).to_dict()
    api.summary([tree], recursive=True)
    assert api.summary([tree], recursive=True).to_dict() == fresh


def test_a_changed_file_is_read_again(tree):
    api.scan([tree], recursive=True)
    path = tree / "docker.yaml"
    path.write_text(TEMPLATE.format("podman"))  # same size, new mtime
    age(path, 60)
    result = api.find([tree], {"deployment": "podman"}, recursive=True)
    assert [Path(p).name for p in result.matches] == ["docker.yaml"]


def test_a_file_of_another_size_with_the_same_mtime_is_read_again(tree):
    api.scan([tree], recursive=True)
    path = tree / "docker.yaml"
    stat = path.stat()
    path.write_text(TEMPLATE.format("containers"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert api.find([tree], {"deployment": "containers"}, recursive=True).matches


def test_a_file_changed_just_before_it_was_read_is_not_cached(tree, tmp_path):
    fresh = tree / "fresh.yaml"
    fresh.write_text(TEMPLATE.format("new"))
    api.scan([tree], recursive=True)
    assert api.scan([tree], recursive=True).cache_hits == 2  # not the fresh one
    age(fresh)
    api.scan([tree], recursive=True)
    assert api.scan([tree], recursive=True).cache_hits == 3


def test_no_cache_neither_reads_nor_writes(tree, tmp_path):
    assert api.scan([tree], recursive=True, cache=False).cache_hits == 0
    assert cache_files(tmp_path) == []


def test_a_corrupt_or_foreign_cache_is_ignored(tree, tmp_path):
    api.scan([tree], recursive=True)
    shards = cache_files(tmp_path)
    shards[0].write_text("{not json")
    document = json.loads(shards[1].read_text())
    for entry in document["entries"].values():
        entry[2] = {"kind": "template", "capabilities": {"deployment": ["forged"]}}
    document["fingerprint"] = "someone else's"
    shards[1].write_text(json.dumps(document))
    result = api.find([tree], {"deployment": "forged"}, recursive=True)
    assert result.matches == ()
    assert api.scan([tree], recursive=True).cache_hits == 2  # rewritten, usable again


def test_an_unwritable_cache_is_not_an_error(tree, tmp_path, monkeypatch):
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache directory should be")
    result = api.find([tree], {"deployment": "puppet"}, recursive=True)
    assert [Path(p).name for p in result.matches] == ["puppet.yaml"]


def test_a_different_size_limit_keeps_separate_entries(tree):
    api.scan([tree], recursive=True)
    small = api.scan([tree], recursive=True, max_size=10)
    assert small.cache_hits == 0
    assert {record.kind for record in small.records} == {"error"}


def test_entries_of_deleted_files_are_dropped(tree, tmp_path):
    api.scan([tree], recursive=True)
    (tree / "docker.yaml").unlink()
    extra = tree / "new.yaml"
    extra.write_text(TEMPLATE.format("x"))
    age(extra)
    api.scan([tree], recursive=True)
    names = set()
    for shard in cache_files(tmp_path):
        names |= set(json.loads(shard.read_text())["entries"])
    assert names == {"puppet.yaml", "new.yaml"}


def test_the_racy_window_is_two_seconds():
    assert capabilities_cache.RACY_SECONDS == 2.0
    cache = FactCache("test", Path("/nonexistent"))
    stat = os.stat(__file__)
    cache.put(__file__, stat, {"kind": "other"}, stat.st_mtime_ns + 1_000_000_000)
    assert cache.get(__file__, stat) is None
    cache.put(__file__, stat, {"kind": "other"}, stat.st_mtime_ns + 3_000_000_000)
    assert cache.get(__file__, stat) == {"kind": "other"}
