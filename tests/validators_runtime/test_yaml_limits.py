"""The fast path of the YAML bounds: libyaml composes, one walk builds and measures the data.

:func:`yaml_limits.construct_tree` replaces the safe constructor on the fast path, so it must
build exactly what PyYAML's own C loader builds -- the same values, aliases sharing one object,
the same errors -- while it counts nodes and depth and notes duplicate keys.
"""

from __future__ import annotations

import sys

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from onespec.validators_runtime import yaml_limits

pytestmark = pytest.mark.skipif(
    not hasattr(yaml, "CSafeLoader"), reason="the fast path needs PyYAML built with libyaml"
)

Loader = yaml_limits.c_loader("TestLoader")


def built(text: str) -> tuple[object, bool, int, int, list]:
    """``construct_tree`` of ``text``, and the duplicate keys it noted."""
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        return (*yaml_limits.construct_tree(loader, node), loader.duplicates)
    finally:
        loader.dispose()


def reference(text: str) -> object:
    return yaml.load(text, Loader=yaml.CSafeLoader)


_scalars = st.one_of(
    st.text(max_size=12),
    st.integers(-(10**9), 10**9),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    st.binary(max_size=8),
    st.dates(),
)
_data = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8) | st.integers(), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(_data, st.booleans())
def test_it_builds_what_the_safe_c_loader_builds(data, flow):
    text = yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True)
    assert built(text)[0] == reference(text)


@given(st.lists(st.lists(st.integers(), max_size=3), min_size=1, max_size=4), st.integers(1, 4))
def test_aliases_share_one_object_as_in_the_safe_loader(items, repeats):
    document = {"shared": items, "again": [items] * repeats}
    text = yaml.safe_dump(document)  # PyYAML writes the shared list once, then aliases it
    data, shared, _, _, _ = built(text)
    assert data == reference(text)
    assert shared
    assert all(item is data["shared"] for item in data["again"])


@pytest.mark.parametrize(
    "text",
    [
        "base: &b {a: 1, b: 2}\nx: {<<: *b, b: 3}\n",  # merge keys: the general path
        "x: {=: 1, b: 2}\n",  # a value key
        "a: !!set {x, y}\nb: !!omap [{a: 1}, {b: 2}]\nc: !!pairs [{a: 1}]\n",
        "a: !!binary aGVsbG8=\nb: !!float '1.5'\nc: !!int '0x1f'\nd: !!str 12\ne: !!null ''\n",
        "a: 2020-01-01\nb: 2020-01-01 10:00:00\nc: 0o17\nd: .inf\ne: ~\nf: yes\n",
        "- a\n- [b, {c: d}]\n- {e: [f, g]}\n",
        "plain scalar\n",
        "!!int '7'\n",
    ],
)
def test_every_shape_and_tag_matches_the_safe_loader(text):
    assert built(text)[0] == reference(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: !!python/object/apply:os.system ['true']\n", "could not determine a constructor"),
        ("? [a, b]\n: 1\n", "unhashable"),
        ("a: !!map [1, 2]\n", "expected a mapping node"),
        ("a: !!str {b: 1}\n", "expected a scalar node"),
    ],
)
def test_what_the_safe_loader_refuses_is_refused_the_same_way(text, message):
    with pytest.raises(yaml.constructor.ConstructorError) as expected:
        reference(text)
    with pytest.raises(yaml.constructor.ConstructorError) as caught:
        built(text)
    assert message in str(expected.value)
    assert str(caught.value) == str(expected.value)


def test_a_tree_is_measured_as_it_is_built():
    text = "a: 1\nb: [x, y, {c: d}]\n"
    data, shared, nodes, depth, _ = built(text)
    assert not shared
    # the root, two keys and two values, three items, one key and one value
    assert (nodes, depth) == (1 + 4 + 3 + 2, 3)
    assert yaml_limits.tree_shape(data) == (nodes, depth)


def test_a_bomb_is_built_in_time_linear_in_its_nodes():
    lines = ['a0: &a0 ["lol"]']
    for level in range(1, 40):  # 10**39 strings once expanded
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 10)}]")
    data, shared, _, _, _ = built("\n".join(lines))
    assert shared
    assert yaml_limits.shared_shape(data, 1_000_000) is None  # refused by the measure


def test_a_loop_is_built_as_the_safe_loader_builds_it_and_refused_by_the_measure():
    data, shared, _, _, _ = built("a: &a [*a]\n")
    assert shared and data["a"][0] is data["a"]
    assert yaml_limits.shared_shape(data, 1_000_000) is None


def test_nesting_never_reaches_the_recursion_limit():
    depth = sys.getrecursionlimit() - 10
    text = "a: " + "[" * depth + "]" * depth + "\n"
    _, _, _, measured, _ = built(text)
    assert measured == depth + 1


def test_duplicate_keys_are_noted_with_both_lines():
    text = "a: 1\nb:\n  c: 1\n  c: 2\na: 3\n"
    data, _, _, _, duplicates = built(text)
    assert data == {"a": 3, "b": {"c": 2}}
    assert sorted(duplicates) == [("a", 1, 5), ("c", 3, 4)]


def test_duplicate_keys_are_noted_once_when_the_general_path_takes_over():
    # the tree walk meets the duplicate, then the merge key sends the document to the safe
    # constructor, which notes it again: only its notes remain
    text = "a: 1\na: 2\nm: &m {k: v}\nn: {<<: *m}\n"
    data, _, _, _, duplicates = built(text)
    assert data == reference(text)
    assert duplicates == [("a", 1, 2)]
