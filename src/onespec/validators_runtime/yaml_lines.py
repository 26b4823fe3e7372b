"""The line of every key and item of a composed YAML document: one walk for every reader.

A reader that reports problems by path (``packages[0].name``, ``parameters.x``) needs the line
each path starts on, and usually the keys given twice (which PyYAML's loader silently merges).
:func:`index_lines` answers both in one iterative walk of the node graph
(:func:`yaml.compose`, or a composer of :mod:`onespec.validators_runtime.yaml_limits`):

- a node reached again through an alias is not walked again (paths under it find the line of
  the alias, the nearest indexed ancestor), so the walk is linear in the composed nodes however
  far aliases would expand them;
- it never recurses, so no nesting reaches Python's recursion limit;
- ``max_depth`` and ``sections`` bound it further where a reader needs only the top of a
  document (a Heat template's sections).

A path is a tuple of mapping keys (the scalar text) and sequence indexes; the root is ``()``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

YamlPath = tuple[Any, ...]


@dataclass
class LineIndex:
    """The 1-based line of each path, and each key given twice in its mapping (path, line)."""

    lines: dict[YamlPath, int] = field(default_factory=dict)
    duplicates: list[tuple[YamlPath, int]] = field(default_factory=list)

    def line(self, path: YamlPath) -> int | None:
        """The line of ``path``, or of its nearest indexed ancestor; None when none is."""
        while True:
            found = self.lines.get(path)
            if found is not None or not path:
                return found
            path = path[:-1]


def walk(
    root: yaml.Node, *, max_depth: int | None = None, sections: Collection[Any] | None = None
) -> Iterator[tuple[YamlPath, yaml.Node, int]]:
    """Every (path, node, line) once, a mapping value at the line of its key.

    ``sections``: under the root mapping, descend only into these keys (the others are still
    yielded). ``max_depth``: do not descend below paths this long.
    """
    seen: set[int] = set()
    pending: list[tuple[YamlPath, yaml.Node, int]] = [((), root, root.start_mark.line + 1)]
    while pending:
        path, node, line = pending.pop()
        yield path, node, line
        if id(node) in seen:
            continue
        seen.add(id(node))
        if max_depth is not None and len(path) >= max_depth:
            continue
        if isinstance(node, yaml.MappingNode):
            children = []
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    continue
                key = key_node.value
                if not path and sections is not None and key not in sections:
                    yield (key,), value_node, key_node.start_mark.line + 1
                    continue
                children.append(((*path, key), value_node, key_node.start_mark.line + 1))
            pending.extend(reversed(children))
        elif isinstance(node, yaml.SequenceNode):
            pending.extend(
                reversed(
                    [
                        ((*path, index), item, item.start_mark.line + 1)
                        for index, item in enumerate(node.value)
                    ]
                )
            )


def index_lines(
    root: yaml.Node,
    *,
    max_depth: int | None = None,
    sections: Collection[Any] | None = None,
    each: Callable[[YamlPath, yaml.Node], None] | None = None,
) -> LineIndex:
    """The line of every path and the keys given twice.

    A key given twice keeps the line of its last occurrence, whose value the loader keeps.
    ``each``, when given, is called with every path and node in the same walk: a reader's own
    check of each value (it may raise), where the path is known, without a second walk.
    """
    index = LineIndex()
    for path, node, line in walk(root, max_depth=max_depth, sections=sections):
        if each is not None:
            each(path, node)
        if path in index.lines:
            index.duplicates.append((path, line))
        index.lines[path] = line
    return index


def repeated_keys(root: yaml.Node) -> Iterator[tuple[YamlPath, str, int, int]]:
    """Each key given again in the same mapping: (path of the mapping, key, line of the key's
    previous occurrence, line of this one). The constructor keeps the last value; a mapping
    reached again through an alias is looked at once."""
    looked_at: set[int] = set()
    for path, node, _ in walk(root):
        if not isinstance(node, yaml.MappingNode) or id(node) in looked_at:
            continue
        looked_at.add(id(node))
        lines: dict[tuple[str, str], int] = {}
        for key_node, _value in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                continue
            line = key_node.start_mark.line + 1
            earlier = lines.get((key_node.tag, key_node.value))
            if earlier is not None:
                yield path, key_node.value, earlier, line
            lines[(key_node.tag, key_node.value)] = line


__all__ = ["LineIndex", "YamlPath", "index_lines", "repeated_keys", "walk"]
