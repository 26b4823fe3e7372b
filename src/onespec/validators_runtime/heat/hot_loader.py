"""Load HOT templates and environments the way Heat does, and say exactly where one is wrong.

Heat (``heat.common.template_format``) reads a template as JSON first and as YAML when that
fails, through PyYAML's C loader when it is available and always through a *safe* loader; it keeps
unquoted dates (``heat_template_version: 2015-10-15``) as strings, reads an empty file as ``{}``,
rejects anything but a mapping, and refuses templates longer than ``max_template_size``
characters (524,288 by default). :func:`load` does the same, and adds what Heat leaves out:

* every error names the file and the line;
* a key given twice in one mapping, which YAML (and so Heat) silently resolves by keeping the
  last value, is a warning (a :class:`~onespec.validators_runtime.problems.Problem` of code
  ``duplicate-key``) that names both lines;
* a document whose aliases expand it beyond :data:`MAX_ALIAS_EXPANSION` nodes (a "billion
  laughs" alias bomb), that refers to itself, or that nests collections more than
  :data:`MAX_DEPTH` deep fails at once, with its line, instead of exhausting memory or the
  stack in whatever walks it next. The nodes are counted from what libyaml composed, or as
  they are composed (:mod:`onespec.validators_runtime.yaml_limits`), never guessed from the
  text.

Lines are found when a message needs one (:meth:`Loaded.line`), not on every load: a scan of
thousands of files that are all well-formed never looks for one.

Only PyYAML and the standard library are used; nothing here knows about capabilities.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, overload

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from onespec.errors import OnespecError
from onespec.validators_runtime import inputs, yaml_limits
from onespec.validators_runtime._generated import template_capabilities as _facts
from onespec.validators_runtime.problems import Location, Problem, shown

#: Heat's default ``max_template_size``, in characters.
MAX_TEMPLATE_SIZE: int = _facts.MAX_TEMPLATE_SIZE

#: The most nodes a document may have once its aliases are expanded. A template at Heat's size
#: limit has a few hundred thousand nodes at most; a billion-laughs bomb has billions.
MAX_ALIAS_EXPANSION = 1_000_000

#: The deepest nesting of collections. TripleO's deepest templates nest about twenty levels;
#: the bound keeps every walk of a document far from Python's recursion limit, so deep nesting
#: is a located error, not a RecursionError.
MAX_DEPTH = 200

#: Whether PyYAML's C extension is available (Heat uses it when it is, and so do we).
C_LOADER: bool = hasattr(yaml, "CSafeLoader")

#: The sections whose inner keys get line numbers, for messages that point into them.
POSITION_SECTIONS: frozenset[str] = frozenset({"capabilities", "requires", "resource_registry"})

Format = Literal["json", "yaml"]
ErrorCode = Literal[
    "unreadable",
    "not-a-file",
    "encoding",
    "too-large",
    "syntax",
    "not-a-mapping",
    "alias-limit",
    "too-deep",
    "no-version",
    "empty",
]

# A JSON text can only start with one of these (Python's json also reads NaN and Infinity).
_JSON_STARTS = frozenset('{["-0123456789tfnNI')
#: The white space JSON allows before a value.
_JSON_SPACE = " \t\r\n"
_POSITION_DEPTH = 4


class HeatFileError(OnespecError, ValueError):
    """A problem with a Heat template or environment file, and where it is.

    ``path`` is the file as it was named, ``line`` and ``column`` are 1-based (None when the
    problem has no position), ``reason`` is the message without the location.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.path = path
        self.line = line
        self.column = column
        self.reason = message
        super().__init__(self.where() + message)

    def where(self) -> str:
        """The location prefix of the message: ``path:line:`` (or less, when less is known)."""
        if self.path is None:
            return ""
        return f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "


class LoadError(HeatFileError):
    """A file cannot be read as a Heat template or environment.

    ``code`` says why: ``unreadable``, ``encoding``, ``too-large``, ``syntax``,
    ``not-a-mapping``, ``alias-limit`` or ``no-version``.
    """

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.code = code
        super().__init__(message, path=path, line=line, column=column)


@dataclass(frozen=True)
class Loaded:
    """A loaded file: its data, how it was read, and the lines of the keys messages refer to.

    ``lines`` maps key paths (``("resource_registry", "OS::TripleO::Controller", 1)``) to
    1-based line numbers, for the top-level keys and for the keys and items inside
    ``sections`` (:data:`POSITION_SECTIONS` by default); :meth:`line` finds the closest known
    line for any path. Lines are found on first use, from the text: most loads (a scan that
    finds nothing wrong) never need one.
    """

    path: str
    data: dict[Any, Any]
    format: Format
    text: str
    warnings: tuple[Problem, ...] = ()
    sections: frozenset[str] = field(default=POSITION_SECTIONS, repr=False)

    @functools.cached_property
    def lines(self) -> Mapping[tuple[Any, ...], int]:
        """The line of each key path that messages may name (composed again, once)."""
        return _lines_of(self.text, self.sections)

    def line(self, *key_path: Any) -> int | None:
        """The line of ``key_path``, or of its closest ancestor whose line is known."""
        lines = self.lines
        for end in range(len(key_path), 0, -1):
            found = lines.get(key_path[:end])
            if found is not None:
                return found
        return None


# --- The YAML loader ------------------------------------------------------------------------------


#: The tag of every scalar that is not plain: quoted, block, or tagged ``!``.
_TEXT_TAG: str = yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG
_TAGGED_LENGTH = 64


@functools.lru_cache(maxsize=50_000)
def _plain_tag(value: str) -> str:
    """The tag PyYAML's resolver gives the plain scalar ``value`` (``true``, ``12``, ``x``).

    It depends on the value alone (the safe loaders have no path resolvers), and templates
    repeat the same few hundred keys and values, so short ones are remembered, boundedly.
    """
    return yaml.resolver.Resolver().resolve(ScalarNode, value, (True, False))


class _FastResolver:
    """Mixin: the same tags as PyYAML's resolver, remembered for short plain scalars; a
    scalar that is not plain is a string without a look at its text."""

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        if kind is ScalarNode:
            if not implicit[0]:
                return _TEXT_TAG
            if len(value) <= _TAGGED_LENGTH:
                return _plain_tag(value)
        # A mixin: the resolver it is mixed in with, after it in the bases, resolves the rest.
        return super().resolve(kind, value, implicit)  # type: ignore[misc]

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        """No path resolvers are registered on these loaders: nothing to track."""

    def ascend_resolver(self) -> None:
        """No path resolvers are registered on these loaders: nothing to track."""


class _HeatConstructor(yaml.constructor.SafeConstructor):
    """Heat's yaml_loader: strings, and timestamps too, as str (never datetime.date). Heat's
    constructor returns construct_scalar(node); registering that itself saves a call a string."""

    def construct_yaml_int(self, node: ScalarNode) -> int:
        """An integer, or a located error for one too long for Python to read (more than
        4,300 digits by default), instead of a bare ``ValueError``."""
        try:
            return super().construct_yaml_int(node)
        except ValueError:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"the integer here has {len(node.value):,} characters, more than Python reads "
                f"as a number ({sys.get_int_max_str_digits():,} digits); quote it to keep it "
                "as text",
                node.start_mark,
            ) from None


# typeshed types add_constructor's function as taking a whole Loader; PyYAML calls it with the
# constructor, which is all these use.
_HeatConstructor.add_constructor(
    "tag:yaml.org,2002:int",
    _HeatConstructor.construct_yaml_int,  # type: ignore[type-var]
)
_HeatConstructor.add_constructor(
    "tag:yaml.org,2002:str",
    yaml.constructor.BaseConstructor.construct_scalar,  # type: ignore[type-var]
)
_HeatConstructor.add_constructor(
    "tag:yaml.org,2002:timestamp",
    yaml.constructor.BaseConstructor.construct_scalar,  # type: ignore[type-var]
)


@overload
def _make_loader(python: bool) -> type: ...
@overload
def _make_loader(python: None) -> type | None: ...
def _make_loader(python: bool | None) -> type | None:
    """The counting loader (libyaml's events or, with ``python``, the pure-Python parser), or
    with ``python=None`` the loader libyaml composes, for
    :func:`~onespec.validators_runtime.yaml_limits.load_fast`. Each notes duplicate keys."""
    names = {True: "HeatPythonLoader", False: "HeatLoader", None: "HeatCLoader"}
    if python is None:
        fast = yaml_limits.c_loader("CSafeLoader", constructor=_HeatConstructor)
        if fast is None:
            return None
        return type(names[python], (_FastResolver, fast), {})  # c_loader notes duplicates
    # A class whose bases are chosen at run time: its __init__ is known only then.
    base: type[Any] = yaml_limits.counting_loader(
        "CountingSafeLoader",
        constructor=_HeatConstructor,
        python=python,
        max_nodes=MAX_ALIAS_EXPANSION,
        max_depth=MAX_DEPTH,
    )

    def __init__(self: Any, stream: str) -> None:
        base.__init__(self, stream)
        self.duplicates = []

    return type(
        names[python], (_FastResolver, yaml_limits.DuplicateKeys, base), {"__init__": __init__}
    )


#: The loader Heat uses: libyaml's parser when available, safe always, strings and dates as
#: str; nodes composed through :class:`~onespec.validators_runtime.yaml_limits.CountingComposer`,
#: which refuses alias bombs, recursive aliases and deep nesting as it composes.
HeatLoader: type = _make_loader(python=False)
#: The pure-Python twin, whose errors quote the offending line (Heat re-parses with it too).
HeatPythonLoader: type = _make_loader(python=True)
#: The same loader with libyaml's own composer, for
#: :func:`~onespec.validators_runtime.yaml_limits.load_fast`, which measures what it builds and
#: hands anything doubtful to :data:`HeatLoader` (None without libyaml).
HeatCLoader: type | None = _make_loader(python=None)


# --- Loading --------------------------------------------------------------------------------------


def _line_at(text: str, index: int) -> int:
    return text.count("\n", 0, max(index, 0)) + 1


def _check_size(text: str, path: str, limit: int | None) -> None:
    if limit is not None and len(text) > limit:
        raise LoadError(
            "too-large",
            f"Request limit exceeded: template size ({len(text):,} characters) exceeds the "
            f"maximum allowed size ({limit:,} characters; Heat's max_template_size), which this "
            "line passes. Heat refuses the file.",
            path=path,
            line=_line_at(text, limit),
        )


def _positions(root: Node, sections: frozenset[str]) -> dict[tuple[Any, ...], int]:
    """Lines of the top-level keys, and of the keys and items inside ``sections``."""
    lines: dict[tuple[Any, ...], int] = {}
    if not isinstance(root, MappingNode):
        return lines
    pending: list[tuple[tuple[Any, ...], Node]] = []
    for key_node, value_node in root.value:
        if isinstance(key_node, ScalarNode):
            lines[(key_node.value,)] = key_node.start_mark.line + 1
            if key_node.value in sections:
                pending.append(((key_node.value,), value_node))
    while pending:
        prefix, node = pending.pop()
        if len(prefix) >= _POSITION_DEPTH:
            continue
        if isinstance(node, MappingNode):
            for key_node, value_node in node.value:
                if isinstance(key_node, ScalarNode):
                    here = (*prefix, key_node.value)
                    lines.setdefault(here, key_node.start_mark.line + 1)
                    pending.append((here, value_node))
        elif isinstance(node, SequenceNode):
            for index, item in enumerate(node.value):
                here = (*prefix, index)
                lines.setdefault(here, item.start_mark.line + 1)
                pending.append((here, item))
    return lines


def _syntax_error(text: str, path: str, error: yaml.YAMLError, reword: bool = True) -> LoadError:
    """The YAML error as every onespec command reports one: ``not valid YAML: PROBLEM`` at the
    line (:func:`onespec.validators_runtime.cli_grammar.yaml_problem`), re-read with the pure-Python
    loader, whose problems are worded the same on every installation -- unless not ``reword``
    (a scan that only notes the file as not Heat's, and would spend most of its time
    re-reading Jinja sources in Python)."""
    from onespec.validators_runtime.cli_grammar import yaml_problem

    problem = getattr(error, "problem", None) or ""
    if "maximum nesting depth" in problem:  # libyaml's own flow limit (1,000 levels)
        # Refused for the same reason as the composer's limit, and said the same way; the
        # pure-Python scanner would take quadratic time to re-read such nesting.
        mark = getattr(error, "problem_mark", None)
        return LoadError(
            "too-deep",
            f"collections are nested more than {MAX_DEPTH} deep here; refusing to read the "
            "document",
            path=path,
            line=mark.line + 1 if mark is not None else None,
        )
    if C_LOADER and reword:
        error = _python_error(text, error)
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    column = mark.column + 1 if mark is not None else None
    line, problem = yaml_problem(error)
    if C_LOADER and not reword and mark is not None and problem.startswith("found character "):
        # libyaml leaves out the character that the pure-Python words name: say it here.
        lines = text.split("\n", mark.line + 1)
        here = lines[mark.line] if mark.line < len(lines) else ""
        if mark.column < len(here):
            problem = f"found character {here[mark.column]!r} " + problem[len("found character ") :]
    return LoadError("syntax", f"not valid YAML: {problem}", path=path, line=line, column=column)


def _python_error(text: str, error: yaml.YAMLError) -> yaml.YAMLError:
    """libyaml's ``error`` as the pure-Python loader words it.

    Read first only up to two lines past libyaml's mark (the pure-Python reader checks the
    whole text before it scans a character), and whole only when that finds no error on the
    same line.
    """
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    prefixes = [text]
    if mark is not None:
        end = -1
        for _ in range(mark.line + 3):
            end = text.find("\n", end + 1)
            if end < 0:
                break
        if end >= 0:
            prefixes.insert(0, text[: end + 1])
    for prefix in prefixes:
        try:
            yaml.load(prefix, Loader=HeatPythonLoader)  # noqa: S506 - a SafeLoader subclass
        except yaml.YAMLError as detailed:
            found = getattr(detailed, "problem_mark", None) or getattr(
                detailed, "context_mark", None
            )
            # Without libyaml's mark there is one prefix, the whole text.
            if prefix is text or (
                found is not None and mark is not None and found.line == mark.line
            ):
                return detailed
        except (yaml_limits.YAMLLimitError, RecursionError):
            pass
    return error


def _limit_error(error: yaml_limits.YAMLLimitError, path: str) -> LoadError:
    code: ErrorCode = "too-deep" if error.code == "too-deep" else "alias-limit"
    return LoadError(code, error.reason, path=path, line=error.line)


def _load_json(text: str, path: str) -> tuple[Any, list[tuple[Any, int | None, int | None]]]:
    """``json.loads`` as Heat calls it, noting duplicate keys (lines found afterwards)."""
    duplicates: list[Any] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) < len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    duplicates.append(key)
                seen.add(key)
        return result

    data = json.loads(text, object_pairs_hook=pairs_hook)
    found: list[tuple[Any, int | None, int | None]] = []
    if duplicates:
        try:  # JSON is (nearly always) YAML too; the YAML loader knows the lines
            loader = HeatLoader(text)
            try:
                loader.get_single_data()
                found = list(loader.duplicates)
            finally:
                loader.dispose()
        except (yaml.YAMLError, yaml_limits.YAMLLimitError, RecursionError):
            found = [(key, None, None) for key in duplicates]
    return data, found


def _lines_of(text: str, sections: frozenset[str]) -> dict[tuple[Any, ...], int]:
    """Lines of the keys of a text that has loaded (JSON is YAML too, nearly always), from the
    counting composer, so that composing again is bounded as the load was."""
    try:
        node = yaml.compose(text, Loader=HeatLoader)
    except (yaml.YAMLError, yaml_limits.YAMLLimitError, RecursionError):
        return {}
    return _positions(node, sections) if node is not None else {}


def _check_json_shape(data: Any, text: str, path: str) -> None:
    """Refuse JSON nested deeper than :data:`MAX_DEPTH`, or of more than
    :data:`MAX_ALIAS_EXPANSION` nodes, as YAML is refused: the counting composer says where."""
    nodes, depth = yaml_limits.tree_shape(data) or (0, 0)  # JSON shares nothing: a tree
    if nodes <= MAX_ALIAS_EXPANSION and depth <= MAX_DEPTH:
        return
    try:
        yaml.compose(text, Loader=HeatLoader)
    except yaml_limits.YAMLLimitError as error:
        raise _limit_error(error, path) from None
    except (yaml.YAMLError, RecursionError):
        pass
    raise LoadError(
        "too-deep",
        f"the document nests collections more than {MAX_DEPTH} deep or has more than "
        f"{MAX_ALIAS_EXPANSION:,} values; refusing to read it",
        path=path,
    )


def _duplicate_warning(path: str, key: Any, first: int | None, again: int | None) -> Problem:
    where = f" at lines {first} and {again}" if first is not None else ""
    return Problem(
        "duplicate-key",
        f"duplicate key {shown(key)}{where}: YAML keeps the last value silently, and so does "
        "Heat; remove one of them",
        "warning",
        Location(path, again),
        value=key,
    )


def loads(
    text: str,
    path: str = "<string>",
    *,
    max_size: int | None = MAX_TEMPLATE_SIZE,
    alias_limit: int = MAX_ALIAS_EXPANSION,
    positions: frozenset[str] = POSITION_SECTIONS,
    reword: bool = True,
) -> Loaded:
    """Load ``text`` as Heat would; ``path`` names it in messages.

    Raises :class:`LoadError`. ``max_size`` is Heat's ``max_template_size`` (None: no limit).
    Without ``reword``, a syntax error keeps libyaml's wording (a recursive scan that only
    notes such a file as not Heat's does not read it again in Python).
    """
    _check_size(text, path, max_size)
    start = len(text) - len(text.lstrip(_JSON_SPACE))
    if text[start : start + 1] in _JSON_STARTS:
        try:
            data, duplicates = _load_json(text, path)
        except (ValueError, RecursionError):
            pass  # not JSON: Heat tries YAML next
        else:
            if not isinstance(data, dict):
                raise LoadError(
                    "not-a-mapping",
                    "The template is not a JSON object or YAML mapping.",
                    path=path,
                    line=_line_at(text, start),
                )
            _check_json_shape(data, text, path)
            warnings = tuple(_duplicate_warning(path, *item) for item in duplicates)
            return Loaded(path, data, "json", text, warnings, positions)
    try:
        fast = yaml_limits.load_fast(
            HeatCLoader, text, max_nodes=min(alias_limit, MAX_ALIAS_EXPANSION), max_depth=MAX_DEPTH
        )
    except yaml.YAMLError as error:
        raise _syntax_error(text, path, error, reword) from None
    if fast is not None:  # a plain tree within the limits: nothing left to count
        node, data, loader = fast
        return _loaded_yaml(path, text, node, data, loader.duplicates, positions)
    loader = HeatLoader(text)
    loader.max_nodes = min(alias_limit, MAX_ALIAS_EXPANSION)  # the counting composer's limit
    try:
        node = loader.get_single_node()
        if node is None:
            return Loaded(path, {}, "yaml", text)
        data = loader.construct_document(node)
        return _loaded_yaml(path, text, node, data, loader.duplicates, positions)
    except yaml_limits.YAMLLimitError as error:
        raise _limit_error(error, path) from None
    except yaml.YAMLError as error:
        raise _syntax_error(text, path, error, reword) from None
    except RecursionError:
        raise LoadError(
            "syntax", "the document is nested too deeply to be read", path=path
        ) from None
    finally:
        loader.dispose()


def _loaded_yaml(
    path: str,
    text: str,
    node: Node | None,
    data: Any,
    duplicates: list[tuple[Any, int, int]],
    positions: frozenset[str],
) -> Loaded:
    """What Heat makes of a composed and constructed YAML document."""
    if node is None or data is None:  # "", "---", "~": Heat reads them all as {}
        return Loaded(path, {}, "yaml", text)
    if not isinstance(data, dict):
        raise LoadError(
            "not-a-mapping",
            "The template is not a JSON object or YAML mapping.",
            path=path,
            line=node.start_mark.line + 1,
        )
    warnings = tuple(_duplicate_warning(path, *item) for item in duplicates)
    return Loaded(path, data, "yaml", text, warnings, positions)


def _read_stdin(max_size: int | None) -> str:
    """Standard input (``-``) as :func:`read_text` reads a file: at most the bytes that
    ``max_size`` characters can take, refused past them; empty input is refused too, since
    a file cannot be looked into before it is read (see ``cli_grammar.with_content``)."""
    name = inputs.STDIN_NAME
    try:
        raw = inputs.read_bytes("-", limit=4 * max_size + 4 if max_size is not None else 1 << 30)
        text = inputs.decoded(raw, name)
    except inputs.InputError as exc:
        # Standard input is never missing (nor a flavor of the wrong shape, which only the
        # flavor reader says); were it reported so, it could not be read.
        code: ErrorCode
        match exc.code:
            case "missing" | "shape":
                code = "unreadable"
            case other:
                code = other
        raise LoadError(code, f"the input {exc.reason}", path=name, line=exc.line) from None
    if inputs.blank(raw):
        raise LoadError("empty", "is empty: it holds nothing to read", path=name)
    return text


def read_text(path: str | os.PathLike[str], *, max_size: int | None = MAX_TEMPLATE_SIZE) -> str:
    """The file's text (UTF-8), refusing at once a file too large for ``max_size`` characters."""
    name = os.fspath(path)
    if name == "-":
        return _read_stdin(max_size)
    try:
        # A named pipe would block the open; /dev/zero never ends.
        status = inputs.regular_file(name)
    except inputs.InputError as exc:
        if exc.code == "not-a-file":
            raise LoadError("not-a-file", exc.reason, path=name) from None
        reason = exc.reason.removeprefix("cannot be read: ")
        raise LoadError("unreadable", f"cannot read the file: {reason}", path=name) from None
    try:
        with open(name, "rb") as stream:
            # UTF-8 takes at most 4 bytes a character: a file with more bytes than that is too
            # large whatever it holds, and is not read whole.
            cap = None if max_size is None else 4 * max_size + 4
            # As many bytes as the file has, and one more to see its end: asking for the cap
            # itself would allocate it for every file, the most of a scan's reading time.
            want = status.st_size + 1 if cap is None else min(status.st_size + 1, cap)
            raw = stream.read(want)
            if len(raw) == want:  # at the cap, or grown since: read on, still bounded
                raw += stream.read() if cap is None else stream.read(cap - len(raw))
            truncated = cap is not None and len(raw) == cap and stream.read(1) != b""
    except OSError as exc:
        raise LoadError("unreadable", f"cannot read the file: {exc.strerror}", path=name) from None
    if truncated and max_size is not None:
        head = raw[: 4 * max_size].decode("utf-8", errors="replace")
        raise LoadError(
            "too-large",
            f"Request limit exceeded: the file has more than {4 * max_size:,} bytes, so more "
            f"than the maximum allowed size ({max_size:,} characters; Heat's "
            "max_template_size), which this line passes. Heat refuses the file.",
            path=name,
            line=_line_at(head, max_size),
        )
    try:
        return inputs.decoded(raw, name)
    except inputs.InputError as exc:
        raise LoadError("encoding", f"the file {exc.reason}", path=name, line=exc.line) from None


def load(
    path: str | os.PathLike[str],
    *,
    max_size: int | None = MAX_TEMPLATE_SIZE,
    alias_limit: int = MAX_ALIAS_EXPANSION,
    reword: bool = True,
) -> Loaded:
    """Read and load the file at ``path`` (``-``: standard input) as Heat would. Raises
    :class:`LoadError`."""
    name = os.fspath(path)
    text = read_text(name, max_size=max_size)
    name = inputs.STDIN_NAME if name == "-" else name
    return loads(text, name, max_size=max_size, alias_limit=alias_limit, reword=reword)


def load_template(
    path: str | os.PathLike[str], *, max_size: int | None = MAX_TEMPLATE_SIZE
) -> Loaded:
    """Load a template: as :func:`load`, and it must have a version key, as Heat requires."""
    loaded = load(path, max_size=max_size)
    if not any(key in loaded.data for key in _facts.TEMPLATE_VERSION_KEYS):
        raise LoadError(
            "no-version",
            "Template format version not found: a template needs heat_template_version "
            "(or HeatTemplateFormatVersion, AWSTemplateFormatVersion).",
            path=loaded.path,
            line=1,
        )
    return loaded


# --- What a file is -------------------------------------------------------------------------------

Kind = Literal["template", "environment", "other"]
_ENVIRONMENT_KEYS = frozenset((*_facts.ENVIRONMENT_SECTIONS, _facts.REQUIRES))


def classify(data: Mapping[Any, Any]) -> tuple[Kind, str]:
    """Whether loaded data is a template, an environment or something else, and why.

    A template has a version key (Heat's own test). An environment is a non-empty mapping whose
    keys are all environment sections (``requires`` included). Anything else -- Hiera data, a
    TripleO ``capabilities-map.yaml``, an empty file -- is ``other``.
    """
    for key in _facts.TEMPLATE_VERSION_KEYS:
        if key in data:
            return "template", f"{key}: {data[key]}"
    if not data:
        return "other", "empty"
    keys = set(data)
    if keys <= _ENVIRONMENT_KEYS:
        return "environment", ", ".join(sorted(map(str, keys)))
    if {"root_template", "topics"} <= keys:
        return "other", "a TripleO capabilities map (topics of environment groups), not a template"
    unknown = sorted(map(str, keys - _ENVIRONMENT_KEYS))
    shown = ", ".join(unknown[:3]) + (", ..." if len(unknown) > 3 else "")
    return "other", f"neither a template nor an environment (keys: {shown})"


def version_text(value: Any) -> str:
    """A template version as a string, whatever YAML made of it (Heat compares strings)."""
    return value if isinstance(value, str) else str(value)
