"""Reading an image spec's YAML: bounded, and every YAML path with its line.

A spec is read with PyYAML's safe loader only, composing the node tree first (through the
project's counting composer, :mod:`onespec.validators_runtime.yaml_limits`) so that a hostile
file is refused by its size, depth or alias expansion before it is built, and so that every
YAML path has a line number (:mod:`onespec.validators_runtime.yaml_lines`) for the errors and
warnings the loader (:mod:`onespec.validators_runtime.images.spec`) reports.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import yaml
import yaml.parser
import yaml.reader
import yaml.scanner

from onespec.validators_runtime import inputs, yaml_limits
from onespec.validators_runtime.images.errors import ImageValidationSpecificationError
from onespec.validators_runtime.problems import key_path_text
from onespec.validators_runtime.yaml_lines import LineIndex, YamlPath, index_lines

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


#: The largest spec read, in characters. The specs plugins ship are a few kilobytes; one
#: mebibyte holds tens of thousands of packages and keeps a hostile file cheap to refuse.
MAX_SPEC_SIZE = 1 << 20

#: The most nodes a spec may have once its aliases are expanded: what the loader (and every
#: report) walks. Real specs have hundreds; 40,000 packages are 40,000 nodes. A "billion
#: laughs" alias bomb passes it within a few levels and is refused without being expanded.
MAX_SPEC_NODES = 200_000

#: The deepest nesting of YAML collections. Real specs nest a dozen levels at most; the bound
#: keeps every walk of the spec (composing, loading, reporting) far from Python's recursion
#: limit, so deep nesting is an error naming its line, not a RecursionError.
MAX_SPEC_DEPTH = 64


class _Composer(yaml_limits.CountingComposer):
    """The project's counting composer (:mod:`onespec.validators_runtime.yaml_limits`) with the
    spec's
    limits and the spec's errors: depth, expanded size, aliases to themselves.

    Each node's expanded size (itself and everything under it, aliases counted in full) is
    computed once, from its children's, when it is complete; an alias reuses the size of the
    node it names. So an alias bomb is measured in linear time and refused as soon as a node
    passes :data:`MAX_SPEC_NODES`, and an alias to a node still being composed (a node that
    contains itself) is refused at once.
    """

    max_nodes = MAX_SPEC_NODES
    max_depth = MAX_SPEC_DEPTH

    def __init__(self, file: str) -> None:
        super().__init__()
        self._file = file

    def _refuse(self, code: str, reason: str, mark: Any) -> ImageValidationSpecificationError:
        return ImageValidationSpecificationError(reason, file=self._file, line=mark.line + 1)

    def _loop_reason(self, anchor: str | None) -> str:
        return (
            f"the alias *{anchor} refers to itself: the node anchored as &{anchor} contains it, "
            "which would make the spec infinite"
        )

    def _depth_reason(self) -> str:
        return (
            f"collections are nested more than {MAX_SPEC_DEPTH} deep here; a spec never needs "
            "that many levels"
        )

    def _size_reason(self) -> str:
        return (
            f"aliases expand the spec to more than {MAX_SPEC_NODES:,} nodes by this line "
            "(an alias bomb); refusing to load it"
        )


if TYPE_CHECKING:
    from yaml._yaml import CParser

_CParser: type[CParser] | None
try:  # libyaml's event parser, when PyYAML was built with it
    from yaml._yaml import CParser as _CParser
except ImportError:  # pragma: no cover - a PyYAML without libyaml
    _CParser = None
_Parser: type = _CParser if _CParser is not None else yaml.parser.Parser
_Reader: tuple[type, ...] = (
    () if _CParser is not None else (yaml.reader.Reader, yaml.scanner.Scanner)
)


class _SpecLoader(
    # The parser is chosen at import time (libyaml's or PyYAML's), which no static base list
    # can say.
    *_Reader,  # type: ignore[misc]
    _Parser,
    _Composer,
    yaml.constructor.SafeConstructor,
    yaml.resolver.Resolver,
):
    """The safe loader, composing through :class:`_Composer`.

    Events come from libyaml when it is available (it parses without recursing), and nodes are
    composed here in Python, so the counting above sees every one.
    """

    def __init__(self, text: str, file: str) -> None:
        if _CParser is not None:
            _CParser.__init__(self, text)
        else:
            yaml.reader.Reader.__init__(self, text)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
        _Composer.__init__(self, file)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)

    def check_node(self) -> bool:
        return _Composer.check_node(self)

    def get_node(self) -> yaml.Node | None:
        return _Composer.get_node(self)

    def get_single_node(self) -> yaml.Node | None:
        return _Composer.get_single_node(self)


def _refuse_nul(file: str) -> Callable[[YamlPath, yaml.Node], None]:
    """A check of each indexed node: a NUL character in a value is refused where its path is
    known, since no command line or environment variable can carry one."""

    def check(path: YamlPath, node: yaml.Node) -> None:
        if isinstance(node, yaml.ScalarNode) and "\0" in node.value:
            raise ImageValidationSpecificationError(
                "this value contains a NUL character, which no command line or environment "
                "variable can carry",
                file=file,
                path=key_path_text(path) or None,
                line=node.start_mark.line + 1,
            )

    return check


def read_yaml(text: str, file: str) -> tuple[Any, LineIndex]:
    """Parse with the safe loader; return the data and the line of each path (with the keys
    given twice).

    Refuses, naming the file and line: a text over :data:`MAX_SPEC_SIZE`, nesting deeper than
    :data:`MAX_SPEC_DEPTH`, aliases expanding past :data:`MAX_SPEC_NODES` or referring to
    themselves, and NUL characters.
    """
    if len(text) > MAX_SPEC_SIZE:
        raise ImageValidationSpecificationError(
            f"the spec is {len(text):,} characters; the size limit is {MAX_SPEC_SIZE:,}",
            file=file,
            line=text.count("\n", 0, MAX_SPEC_SIZE) + 1,
        )
    loader = _SpecLoader(text, file)
    node = None
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ImageValidationSpecificationError(
            f"not valid YAML: {getattr(exc, 'problem', None) or exc}",
            file=file,
            line=mark.line + 1 if mark is not None else None,
        ) from None
    except ImageValidationSpecificationError:
        raise  # the composer's own limits, already located
    except ValueError as exc:  # an integer longer than Python converts (4,300 digits)
        raise ImageValidationSpecificationError(
            f"a number is too long to read ({str(exc).split(':')[0]}); quote it to keep it as text",
            file=file,
            line=_first_long_integer_line(node),
        ) from None
    finally:
        loader.dispose()
    lines = index_lines(node, each=_refuse_nul(file)) if node is not None else LineIndex()
    # YAML reads `2.6` as a number: keys are looked up as the loader constructed them.
    return data, lines


def _first_long_integer_line(root: yaml.Node | None) -> int | None:
    """The 1-based line of the first integer scalar Python refuses to convert, if any."""
    limit = sys.get_int_max_str_digits() or None
    seen: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag.endswith(":int") and limit and len(node.value) > limit:
                return node.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            stack.extend(item for pair in reversed(node.value) for item in reversed(pair))
    return None


def read_spec_text(file: str) -> str:
    """The text of a spec file, read through :mod:`onespec.validators_runtime.inputs`: a regular
    file of at most :data:`MAX_SPEC_SIZE` bytes, never read past that (a larger one is refused
    from its size, before it is read, as input that cannot be read: exit 2)."""
    return inputs.read_text(file, limit=MAX_SPEC_SIZE)
