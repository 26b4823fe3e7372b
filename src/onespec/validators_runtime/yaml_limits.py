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

Counting every node in Python costs a third of a load, so readers that load many files (the
template-capability scans) first try :func:`load_fast`: libyaml composes, and one walk
(:func:`construct_tree`) builds the data from the nodes and measures it as it goes -- each
collection node built once, by identity, so aliases share one object and a bomb stays as small
as its text; keys given twice noted on the way. The walk does in one pass of plain loops what
the safe constructor does in several calls a node, so the bounds cost less than the
construction they replace. Shared collections are then measured once each, aliases counted in
full (:func:`shared_shape`). The document is handed back only within the limits; anything else
-- a loop, too many nodes, deep nesting, a YAML error in a text with aliases -- returns None,
and the reader loads the text again through :class:`CountingComposer`, which refuses it with
its line. Before libyaml composes (it recurses in C once per level),
:func:`nesting_bound` must show from the text alone that the nesting is shallow enough.
"""

from __future__ import annotations

import inspect
import re
from typing import TYPE_CHECKING, Any

import yaml
import yaml.composer
import yaml.parser
import yaml.reader
import yaml.scanner

from onespec.errors import OnespecError

if TYPE_CHECKING:
    from yaml._yaml import CParser

_CParser: type[CParser] | None
try:  # libyaml's event parser, when PyYAML was built with it
    from yaml._yaml import CParser as _CParser
except ImportError:  # pragma: no cover - a PyYAML without libyaml
    _CParser = None

#: The default most nodes a document may have once its aliases are expanded.
MAX_NODES = 1_000_000
#: The default deepest nesting of collections.
MAX_DEPTH = 200
#: The deepest nesting handed to libyaml's composer, which recurses in C once per level: far
#: below what a thread's stack holds, and the limit newer libyaml releases enforce themselves.
C_SAFE_DEPTH = 1000


class YAMLLimitError(OnespecError):
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

    if TYPE_CHECKING:  # a composer reads its events from the parser mixed in beside it

        def peek_event(self) -> yaml.Event: ...

    def compose_document(self) -> Any:
        self._sizes = {}
        return super().compose_document()

    # What a refusal says, and how it is raised: readers with errors of their own (the image
    # specs) override these; the counting is the same for every reader.

    def _refuse(self, code: str, reason: str, mark: Any) -> Exception:
        return YAMLLimitError(code, reason, mark.line + 1)

    def _loop_reason(self, anchor: str | None) -> str:
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

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
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
        if node is None:  # pragma: no cover - the base composes a node for every event
            return None
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
    constructor: type[yaml.constructor.BaseConstructor] = yaml.constructor.SafeConstructor,
    resolver: type[yaml.resolver.BaseResolver] = yaml.resolver.Resolver,
    python: bool = False,
    max_nodes: int = MAX_NODES,
    max_depth: int = MAX_DEPTH,
) -> type:
    """A safe loader class composing through :class:`CountingComposer`.

    Its events come from libyaml unless ``python`` (the pure-Python parser, whose error messages
    quote the offending line) or PyYAML lacks libyaml. ``constructor`` must be a safe constructor.
    """
    c_parser = None if python else _CParser
    parser_bases: tuple[type, ...] = (
        (c_parser,)
        if c_parser is not None
        else (yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser)
    )

    def __init__(self: Any, stream: str) -> None:
        if c_parser is not None:
            c_parser.__init__(self, stream)
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


# --- The fast path: compose in C, then measure the data once -------------------------------------


def nesting_bound(text: str) -> int:
    """An upper bound of how deep any YAML document in ``text`` nests collections.

    A block collection inside another starts at a greater column, or at the same column once
    (a sequence as a mapping's value), so block nesting is at most twice the longest line;
    flow collections cannot hold block ones, and each level opens a bracket. A line feed is
    the only break counted, so the lines measured are never shorter than libyaml's.
    """
    longest = max(map(len, text.split("\n")))
    return 2 * (longest + 2) + text.count("[") + text.count("{")


_CONTAINERS = (dict, list, tuple)

#: Where a merge key may be: a plain ``<<`` before a colon, a comment or a line end (an
#: explicit ``? <<`` key), or a tag that names ``merge`` or escapes a character. Text that
#: merely looks like one (a shell here-document) only costs the counting composer's time.
_MERGE = re.compile(r"<<[ \t]*(?::|#|$)|!\S*(?:merge|%)", re.MULTILINE)


def tree_shape(data: Any) -> tuple[int, int] | None:
    """``(nodes, depth)`` of constructed YAML data as a tree; None when a collection is reached
    twice (aliases share it, or it contains itself), which :func:`shared_shape` measures.

    Walked a level at a time, each collection's items read once by C-level iteration: the
    cheap common case, a document without aliases to collections.
    """
    if type(data) not in _CONTAINERS:
        return 1, 0
    seen = {id(data)}
    level = [data]
    nodes, depth = 1, 0
    while level:
        depth += 1
        below: list[Any] = []
        for item in level:
            if type(item) is dict:
                nodes += 2 * len(item)
                below += [v for v in item.values() if type(v) in _CONTAINERS]
            else:
                nodes += len(item)
                below += [v for v in item if type(v) in _CONTAINERS]
        before = len(seen)
        seen.update(map(id, below))
        if len(seen) - before != len(below):
            return None
        level = below
    return nodes, depth


def _items(container: Any) -> Any:
    return container.values() if type(container) is dict else container


def shared_shape(data: Any, max_nodes: int) -> tuple[int, int] | None:
    """``(nodes, depth)`` of constructed data whose collections may be shared, aliases counted
    in full; None when a collection contains itself or the count passes ``max_nodes``.

    One walk by object identity: each collection's size and depth are computed once, from its
    items', so an alias bomb is measured without being expanded.
    """
    if type(data) not in _CONTAINERS:
        return 1, 0
    sizes: dict[int, tuple[int, int]] = {}
    open_: set[int] = set()
    stack: list[tuple[Any, bool]] = [(data, False)]
    while stack:
        item, done = stack.pop()
        ident = id(item)
        if not done:
            if ident in sizes:
                continue
            if ident in open_:  # reached again while its own items are being walked
                return None
            open_.add(ident)
            stack.append((item, True))
            stack += [(v, False) for v in _items(item) if type(v) in _CONTAINERS]
            continue
        open_.discard(ident)
        nodes = 1 + len(item) if type(item) is dict else 1
        depth = 0
        for value in _items(item):
            if type(value) in _CONTAINERS:
                below, deep = sizes[id(value)]
                nodes += below
                depth = max(depth, deep)
            else:
                nodes += 1
        if nodes > max_nodes:
            return None
        sizes[ident] = (nodes, depth + 1)
    return sizes[id(data)]


class DuplicateKeys:
    """Mixin of a safe loader: note each key given twice in one mapping, which YAML (and so
    every loader built on PyYAML) silently resolves by keeping the last value.

    ``duplicates`` lists ``(key, first line, line again)``, lines 1-based; readers turn them
    into warnings of their own.
    """

    duplicates: list[tuple[Any, int, int]]

    if TYPE_CHECKING:  # the constructor's, mixed in beside this class

        def construct_object(self, node: yaml.Node, deep: bool = False) -> Any: ...

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        explicit = node.value  # SafeConstructor.flatten_mapping removes merge keys from this list
        # A mixin: the constructor it is mixed in with, after it in the bases, constructs.
        mapping = super().construct_mapping(node, deep=deep)  # type: ignore[misc]
        if len(mapping) < len(node.value):
            self.note_duplicates(explicit)
        return mapping

    def note_duplicates(self, pairs: list[tuple[yaml.Node, yaml.Node]]) -> None:
        """Note the keys given twice among ``pairs`` (a mapping node's)."""
        first: dict[Any, int] = {}
        for key_node, _ in pairs:
            try:
                key = self.construct_object(key_node)
                line = key_node.start_mark.line + 1
                if key in first:
                    self.duplicates.append((key, first[key], line))
                else:
                    first[key] = line
            except TypeError:  # unhashable: the base constructor has already said so
                continue


_TEXT = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
#: Keys the safe constructor rewrites before it builds a mapping (merge ``<<``, value ``=``).
_REWRITTEN_KEYS = frozenset({"tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"})
#: The constructors that make a string tag the scalar's own text.
_TEXT_CONSTRUCTORS = (
    yaml.constructor.BaseConstructor.construct_scalar,
    yaml.constructor.SafeConstructor.construct_yaml_str,
)


def c_loader(
    name: str,
    *,
    constructor: type[yaml.constructor.BaseConstructor] = yaml.constructor.SafeConstructor,
    resolver: type[yaml.resolver.BaseResolver] = yaml.resolver.Resolver,
) -> type | None:
    """A safe loader whose nodes libyaml composes (no counting): for :func:`load_fast` only.

    ``constructor`` must be a safe constructor. The loader notes duplicate keys
    (:class:`DuplicateKeys`). None when PyYAML lacks libyaml.
    """
    c_parser = _CParser
    if c_parser is None:
        return None

    def __init__(self: Any, stream: str) -> None:
        c_parser.__init__(self, stream)
        constructor.__init__(self)
        resolver.__init__(self)
        self.duplicates = []

    table = constructor.yaml_constructors
    # What constructs a scalar directly (no generator, so no collection), by tag: the tree
    # construction calls these and hands every other tag to the constructor's general path.
    scalars = {
        tag: make
        for tag, make in table.items()
        if tag is not None and not inspect.isgeneratorfunction(make)
    }
    text_tag = _TEXT if scalars.get(_TEXT) in _TEXT_CONSTRUCTORS else None
    if text_tag is not None:
        del scalars[_TEXT]
    namespace = {"__init__": __init__, "scalar_constructors": scalars, "text_tag": text_tag}
    return type(name, (c_parser, DuplicateKeys, constructor, resolver), namespace)


class _General(Exception):
    """The document needs the constructor's general path: merge keys, tags other than plain
    mappings, sequences and scalars, a key that is not a scalar.

    Not an :class:`~onespec.errors.OnespecError`: it refuses nothing, and never leaves this
    module (:func:`construct_tree` catches it and takes the general path); a signal, not an
    error."""


def construct_tree(loader: Any, root: yaml.Node) -> tuple[Any, bool, int, int]:
    """``(data, shared, nodes, depth)``: what ``loader`` (a :func:`c_loader` class) would
    construct from ``root``, built and measured in one walk.

    Each collection node is built once, by identity, so aliases share what they name (as in
    the safe constructor) and an alias bomb is built in time linear in its nodes; ``shared``
    says whether any collection was reached twice, in which case ``nodes`` and ``depth`` are
    those of the node graph, not of the expanded document (:func:`shared_shape` measures
    that). Duplicate keys are noted on the loader. Never recursive. Anything the walk does not
    build itself (merge keys, other tags) is constructed by the loader's own general path,
    whose errors it raises, and then measured.
    """
    try:
        return _tree(loader, root)
    except _General:
        loader.duplicates.clear()
        data = loader.construct_document(root)
        shape = tree_shape(data)
        if shape is None:
            return data, True, 0, 0
        return data, False, *shape


def _tree(loader: Any, root: yaml.Node) -> tuple[Any, bool, int, int]:
    """:func:`construct_tree` for the plain documents it builds itself; raises
    :class:`_General` for the others. Text scalars, most of any document, are read inline."""
    scalars = loader.scalar_constructors
    text = loader.text_tag
    built: dict[int, Any] = {}
    pending: list[tuple[Any, Any, int]] = []
    shared = False

    def scalar(node: Any) -> Any:
        make = scalars.get(node.tag)
        if make is None:
            raise _General
        return make(loader, node)

    def key(node: Any) -> Any:
        if type(node) is not yaml.ScalarNode or node.tag in _REWRITTEN_KEYS:
            raise _General
        return scalar(node)

    def value(node: Any, level: int) -> Any:
        """A non-text node's value: a scalar, or a collection filled in later."""
        nonlocal shared
        kind = type(node)
        if kind is yaml.ScalarNode:
            return scalar(node)
        made = built.get(id(node))
        if made is not None:
            shared = True
            return made
        if kind is yaml.MappingNode and node.tag == _MAP:
            made = {}
        elif kind is yaml.SequenceNode and node.tag == _SEQ:
            made = []
        else:
            raise _General
        built[id(node)] = made
        pending.append((node, made, level))
        return made

    if type(root) is yaml.ScalarNode:
        return (root.value if root.tag == text else scalar(root)), False, 1, 0
    data = value(root, 1)
    nodes, depth = 1, 0
    scalar_node = yaml.ScalarNode
    while pending:
        node, made, level = pending.pop()
        depth = max(depth, level)
        level += 1
        items = node.value
        if type(made) is dict:
            nodes += 2 * len(items)
            try:
                made.update(
                    {
                        (k.value if type(k) is scalar_node and k.tag == text else key(k)): (
                            v.value if type(v) is scalar_node and v.tag == text else value(v, level)
                        )
                        for k, v in items
                    }
                )
            except TypeError:  # an unhashable key: the general path says so
                raise _General from None
            if len(made) < len(items):
                loader.note_duplicates(items)
        else:
            nodes += len(items)
            made += [
                v.value if type(v) is scalar_node and v.tag == text else value(v, level)
                for v in items
            ]
    return data, shared, nodes, depth


def load_fast(
    loader_class: type | None,
    text: str,
    *,
    max_nodes: int = MAX_NODES,
    max_depth: int = MAX_DEPTH,
) -> tuple[Any, Any, Any] | None:
    """``(node, data, loader)`` of ``text`` loaded by a :func:`c_loader` class, or None.

    None means "load it through the counting composer": libyaml is missing, the text could nest
    deeper than ``C_SAFE_DEPTH`` (1,000), merge keys meet aliases (merging copies what it merges,
    so it could grow before it is measured), the document shares a collection in a loop,
    passes ``max_nodes`` or ``max_depth``, or is not valid YAML and has aliases (the counting
    composer may refuse them first). Invalid YAML without aliases raises libyaml's
    ``yaml.YAMLError``: nothing could be refused before it but nesting, and a document that is
    not read at all is never walked. The loader is disposed of; it is returned for what its
    mixins noted (duplicate keys).
    """
    if loader_class is None or not text:
        return None
    if ("*" in text and _MERGE.search(text)) or nesting_bound(text) > C_SAFE_DEPTH:
        return None
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return node, None, loader
        data, shared, nodes, depth = construct_tree(loader, node)
    except yaml.YAMLError:
        if "*" not in text:
            raise
        return None
    finally:
        loader.dispose()
    if shared:
        shape = shared_shape(data, max_nodes)
        if shape is None:
            return None
        nodes, depth = shape
    if nodes > max_nodes or depth > max_depth:
        return None
    return node, data, loader
