"""Every in-tree extra spec has exactly one purpose in the by-purpose index."""

from __future__ import annotations

from collections import Counter

from onespec.definitions.extra_spec_purposes import PURPOSES
from onespec.definitions.registry import in_tree


def test_every_in_tree_key_has_exactly_one_purpose():
    for spec in in_tree():
        owners = [
            p.name
            for p in PURPOSES
            if spec.namespace in p.namespaces or (not spec.namespace and spec.name in p.keys)
        ]
        assert len(owners) == 1, (spec.name, owners)


def test_purposes_name_only_known_namespaces_and_keys_once():
    namespaces = Counter(n for p in PURPOSES for n in p.namespaces)
    keys = Counter(k for p in PURPOSES for k in p.keys)
    assert max(namespaces.values()) == 1 and max(keys.values()) == 1
    assert set(namespaces) <= {spec.namespace for spec in in_tree()} - {""}
    assert set(keys) <= {spec.name for spec in in_tree() if not spec.namespace}
    assert [p.name for p in PURPOSES][:3] == ["placement", "scheduler", "virt"]
