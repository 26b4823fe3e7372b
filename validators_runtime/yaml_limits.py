"""A YAML composer that counts as it composes: nesting depth, expanded size, aliases to themselves.

Every YAML reader of the project composes through :class:`CountingComposer`: Heat templates and
environments (:mod:`onespec.validators_runtime.heat.hot_loader`), extra-spec files (``onespec
validate extra-specs --file``) and image specs (``onespec.validators_runtime.images.spec``, which
subclasses it with the spec's limits and the spec's errors).

Counting happens while the nodes are built, not by a pattern over the text: each node's expanded
size (itself and everything under it, aliases counted in full) is computed once, from its
children's, when it is complete, and an alias reuses the size of the node it names. So an alias
bomb -- in block or flow style, ``{"k": *a}`` included -- is measured in time linear in the text
and refused as soon as one node passes the limit, without being expanded; an alias to a node still
being composed (a node that contains itself) is refused at once; and nesting deeper than the
depth limit is refused before any walk of the document can reach Python's recursion limit.

Events come from libyaml when PyYAML was built with it (it parses without recursing); nodes are
composed in Python, so the counting sees every one.
"""

from __future__ import annotations

from typing import Any

import yaml

try:  # libyaml's event parser, when PyYAML was built with it
    from yaml._yaml import CParser as _CParser
except ImportError:  # pragma: no cover - a PyYAML without libyaml
    _CParser = None

#: The default most nodes a document may have once its aliases are expanded.
MAX_NODES = 1_000_000
#: The default deepest nesting of collections.
MAX_DEPTH = 200


class YAMLLimitError(Exception):
    """A document passes a counting limit. ``code`` is ``alias-limit``, ``alias-loop`` or
    ``too-deep``; ``line`` is 1-based; ``reason`` is the message without a location.

    Deliberately not a ``yaml.YAMLError``: readers that turn YAML errors into syntax
    messages must not mistake a refusal for one.
    """

    def __init__(self, code: str, reason: str, line: int) -> None:
        self.code = code
        self.reason = reason
        self.line = line
        super().__init__(f"line {line}: {reason}")


class CountingComposer(yaml.composer.Composer):
    """PyYAML's composer, refusing documents that pass ``max_nodes`` or ``max_depth``."""

    max_nodes: int = MAX_NODES
    max_depth: int = MAX_DEPTH

    def __init__(self) -> None:
        super().__init__()
        self._depth = 0
        self._sizes: dict[int, int] = {}

    def compose_document(self) -> Any:
        self._sizes = {}
        return super().compose_document()

    # What a refusal says, and how it is raised: readers with errors of their own (the image
    # specs) override these; the counting is the same for every reader.

    def _refuse(self, code: str, reason: str, mark: Any) -> Exception:
        return YAMLLimitError(code, reason, mark.line + 1)

    def _loop_reason(self, anchor: str) -> str:
        return (
            f"the alias *{anchor} refers to itself: the node anchored as &{anchor} contains it "
            "(a recursive alias), which would make the document infinite"
        )

    def _depth_reason(self) -> str:
        return (
            f"collections are nested more than {self.max_depth} deep here; refusing to read "
            "the document"
        )

    def _size_reason(self) -> str:
        return (
            f"aliases expand this document to more than {self.max_nodes:,} nodes by this line "
            "(an alias bomb); refusing to load it"
        )

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        event = self.peek_event()
        if isinstance(event, yaml.ScalarEvent):  # the common case: size 1, not recorded
            return super().compose_node(parent, index)
        if isinstance(event, yaml.AliasEvent):
            target = self.anchors.get(event.anchor)
            if (
                target is not None
                and not isinstance(target, yaml.ScalarNode)
                and id(target) not in self._sizes
            ):
                raise self._refuse("alias-loop", self._loop_reason(event.anchor), event.start_mark)
            return super().compose_node(parent, index)
        self._depth += 1
        if self._depth > self.max_depth:
            raise self._refuse("too-deep", self._depth_reason(), event.start_mark)
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        size = 1
        get = self._sizes.get
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                size += get(id(key), 1) + get(id(value), 1)
        else:
            for item in node.value:
                size += get(id(item), 1)
        if size > self.max_nodes:
            raise self._refuse("alias-limit", self._size_reason(), node.start_mark)
        self._sizes[id(node)] = size
        return node


def counting_loader(
    name: str,
    *,
    constructor: type = yaml.constructor.SafeConstructor,
    resolver: type = yaml.resolver.Resolver,
    python: bool = False,
    max_nodes: int = MAX_NODES,
    max_depth: int = MAX_DEPTH,
) -> type:
    """A safe loader class composing through :class:`CountingComposer`.

    Its events come from libyaml unless ``python`` (the pure-Python parser, whose error messages
    quote the offending line) or PyYAML lacks libyaml. ``constructor`` must be a safe constructor.
    """
    use_c = _CParser is not None and not python
    parser_bases: tuple[type, ...] = (
        (_CParser,) if use_c else (yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser)
    )

    def __init__(self: Any, stream: str) -> None:
        if use_c:
            _CParser.__init__(self, stream)
        else:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
        CountingComposer.__init__(self)
        constructor.__init__(self)
        resolver.__init__(self)

    namespace = {
        "__init__": __init__,
        "max_nodes": max_nodes,
        "max_depth": max_depth,
        # CParser has its own composing methods: the counting composer's must win.
        "check_node": CountingComposer.check_node,
        "get_node": CountingComposer.get_node,
        "get_single_node": CountingComposer.get_single_node,
        "compose_document": CountingComposer.compose_document,
    }
    return type(name, (*parser_bases, CountingComposer, constructor, resolver), namespace)
