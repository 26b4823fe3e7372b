"""One walk gives the line of every key and item of a YAML document, and its duplicate keys."""

from __future__ import annotations

import pytest
import yaml

from onespec.validators_runtime import yaml_limits
from onespec.validators_runtime.yaml_lines import index_lines, walk

DOCUMENT = """\
name: demo
packages:
  - name: a
    version: 1
  - name: b
options:
  x: 1
  x: 2
"""


def compose(text: str) -> yaml.Node:
    return yaml.compose(text, Loader=yaml.SafeLoader)


def test_every_key_and_item_has_its_line():
    index = index_lines(compose(DOCUMENT))
    assert index.lines[()] == 1
    assert index.lines[("name",)] == 1
    assert index.lines[("packages",)] == 2
    assert index.lines[("packages", 0)] == 3
    assert index.lines[("packages", 0, "version")] == 4
    assert index.lines[("packages", 1, "name")] == 5


def test_a_key_given_twice_is_reported_and_keeps_the_line_the_loader_keeps():
    index = index_lines(compose(DOCUMENT))
    assert index.duplicates == [(("options", "x"), 8)]
    assert index.lines[("options", "x")] == 8
    assert yaml.safe_load(DOCUMENT)["options"]["x"] == 2


def test_a_path_not_indexed_finds_its_nearest_ancestor():
    index = index_lines(compose(DOCUMENT))
    assert index.line(("packages", 1, "name", "deeper")) == 5
    assert index.line(("nowhere",)) == 1


def test_an_aliased_node_is_walked_once_however_often_it_is_used():
    text = "a: &a [" + ", ".join(["x"] * 100) + "]\n" + "".join(f"b{n}: *a\n" for n in range(100))
    visited = list(walk(compose(text)))
    # 1 root + 101 keys + 100 items of the one list: the 100 aliases are not expanded.
    assert len(visited) == 1 + 101 + 100
    assert index_lines(compose(text)).line(("b7", 3)) == 9  # b7's own line (b0 is on 2)


def test_an_alias_bomb_is_indexed_in_time_linear_in_the_text():
    text = 'a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]\n' + "".join(
        f"a{n}: &a{n} [" + ",".join([f"*a{n - 1}"] * 9) + "]\n" for n in range(1, 12)
    )
    root = yaml.compose(text, Loader=yaml_limits.counting_loader("Bomb", max_nodes=10**12))
    assert len(list(walk(root))) < 200  # expanded, it would be 9**12 nodes


def test_deep_nesting_does_not_recurse():
    """A chain far deeper than Python's recursion limit (built by hand: PyYAML's own composer
    would recurse)."""
    mark = compose("[]").start_mark
    root = node = yaml.SequenceNode("tag:yaml.org,2002:seq", [], start_mark=mark)
    depth = 5000
    for _ in range(depth):
        child = yaml.SequenceNode("tag:yaml.org,2002:seq", [], start_mark=mark)
        node.value.append(child)
        node = child
    assert len(index_lines(root).lines) == depth + 1


def test_sections_and_depth_bound_the_walk():
    index = index_lines(compose(DOCUMENT), sections={"packages"}, max_depth=2)
    assert ("options",) in index.lines
    assert ("options", "x") not in index.lines  # not a section: not entered
    assert ("packages", 0) in index.lines
    assert ("packages", 0, "name") not in index.lines  # deeper than max_depth


def test_each_node_is_handed_to_the_readers_check_in_the_same_walk():
    seen: list[tuple[object, ...]] = []
    index = index_lines(compose(DOCUMENT), each=lambda path, node: seen.append(path))
    assert set(seen) == set(index.lines)
    assert len(seen) == len(index.lines) + len(index.duplicates)


def test_a_check_that_raises_stops_the_walk_where_the_value_is():
    def refuse_b(path, node):
        if isinstance(node, yaml.ScalarNode) and node.value == "b":
            raise ValueError(path)

    with pytest.raises(ValueError) as caught:
        index_lines(compose(DOCUMENT), each=refuse_b)
    assert caught.value.args[0] == ("packages", 1, "name")
