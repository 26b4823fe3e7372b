"""A small static evaluator: the value of an expression in a module, without importing it.

Catalogues written for Nova are literals, names bound to literals, attributes of enum-like
classes in other modules (``fields.SoundModelType.ALL``), f-strings and ``str.format``. That is
all this evaluates; anything else raises :class:`Unresolved`, so the caller can say what it
could not carry instead of guessing.

The evaluation is bounded, because the modules read are input: each module-level name is
evaluated once (``A1 = A0 + A0`` ... ``A40 = A39 + A39`` costs 40 additions, not 2**40), a
folded string or sequence longer than :data:`MAX_FOLDED` is not folded, a name defined through
itself is not followed, and an expression nested deeper than Python's recursion limit is
:class:`Unresolved` (and a module nested deeper than Python's parser follows, a
:class:`SyntaxError`), never a ``RecursionError`` or ``MemoryError``.
"""

from __future__ import annotations

import ast
import functools
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from onespec.errors import OnespecError
from onespec.validators_runtime import inputs

_BUILTINS: dict[str, Any] = {"str": str, "int": int, "bool": bool, "True": True, "False": False}

#: The longest string, and the most items of a sequence or dict, that evaluation folds. Nova's
#: longest description is about 2,000 characters; its longest list, a few hundred traits.
MAX_FOLDED = 100_000


class Unresolved(OnespecError, ValueError):
    """An expression whose value cannot be known without running the code."""

    def __init__(self, node: ast.AST, why: str) -> None:
        super().__init__(f"line {getattr(node, 'lineno', '?')}: {why}")
        self.line = getattr(node, "lineno", None)


#: The largest Python source read, in bytes: Nova's largest module is about 1.5 MB.
MAX_SOURCE_SIZE = 4 << 20


def read_source(path: Path) -> bytes:
    """The bytes of the Python file *path*: a regular file of at most :data:`MAX_SOURCE_SIZE`
    (:mod:`onespec.validators_runtime.inputs` raises its ``InputError`` otherwise)."""
    return inputs.read_bytes(path, limit=MAX_SOURCE_SIZE)


@functools.lru_cache(maxsize=512)
def parse(path: Path) -> ast.Module:
    """The syntax tree of *path*, parsed once per process.

    Every way the source fails to be read or parsed is a :class:`SyntaxError` (with the line
    where known): a path that is not a regular file or is over :data:`MAX_SOURCE_SIZE` (read
    through :mod:`onespec.validators_runtime.inputs`), invalid syntax, a bad encoding
    declaration, a NUL byte, and nesting deeper than the parser follows (which Python reports
    as ``RecursionError`` or ``MemoryError``).
    """
    try:
        return ast.parse(read_source(path), filename=str(path))
    except inputs.InputError as error:
        raise SyntaxError(error.reason, (str(path), None, None, None)) from None
    except (RecursionError, MemoryError):
        raise SyntaxError(
            "nested deeper than Python's parser follows", (str(path), None, None, None)
        ) from None
    except ValueError as error:  # a NUL byte, before Python 3.12 made it a SyntaxError
        raise SyntaxError(str(error), (str(path), None, None, None)) from None


class _Pending:
    """Marks a name whose evaluation is under way, to catch a name defined through itself."""


def _once(values: dict[str, Any], name: str, node: ast.AST, compute: Callable[[], Any]) -> Any:
    """The value of *name* from *values*, computed (or found unresolved) once and kept."""
    known = values.get(name)
    if isinstance(known, _Pending):
        raise Unresolved(node, f"{name!r} is defined through itself")
    if isinstance(known, Unresolved):
        raise known
    if name in values:
        return known
    values[name] = _Pending()
    try:
        values[name] = compute()
    except Unresolved as error:
        values[name] = error
        raise
    return values[name]


@dataclass(frozen=True)
class ModuleScope:
    """Where names of one module come from: its assignments, classes and imports."""

    path: Path
    roots: tuple[Path, ...]
    #: Each module-level name's value (or why it has none), evaluated once.
    _values: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @functools.cached_property
    def _bindings(self) -> dict[str, tuple[str, Any]]:
        """name -> ("value", expression) | ("class", ClassDef) | ("import", dotted name)."""
        found: dict[str, tuple[str, Any]] = {}
        for statement in parse(self.path).body:
            if isinstance(statement, ast.Assign):
                for target in statement.targets:
                    if isinstance(target, ast.Name):
                        found[target.id] = ("value", statement.value)
            elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
                if isinstance(statement.target, ast.Name):
                    found[statement.target.id] = ("value", statement.value)
            elif isinstance(statement, ast.ClassDef):
                found[statement.name] = ("class", statement)
            elif isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
                for alias in statement.names:
                    found[alias.asname or alias.name] = (
                        "import",
                        f"{statement.module}.{alias.name}",
                    )
            elif isinstance(statement, ast.Import):
                for alias in statement.names:
                    if alias.asname:
                        found[alias.asname] = ("import", alias.name)
                    else:
                        top = alias.name.partition(".")[0]
                        found[top] = ("import", top)
        return found

    def lookup(self, name: str, node: ast.AST) -> Any:
        kind, bound = self._bindings.get(name, ("", None))
        if kind == "import":
            return _Imported(bound, self.roots)
        if kind == "class":
            return _Class(bound, self)
        if kind == "value":
            return self._value(name, bound, node)
        if name in _BUILTINS:
            return _BUILTINS[name]
        raise Unresolved(node, f"{name!r} is not bound at module level")

    def _value(self, name: str, bound: ast.AST, node: ast.AST) -> Any:
        return _once(self._values, name, node, lambda: evaluate(bound, self))


@functools.lru_cache(maxsize=512)
def scope_of(path: Path, roots: tuple[Path, ...]) -> ModuleScope:
    """One scope per module, so that its bindings are collected once."""
    return ModuleScope(path, roots)


def module_file(dotted: str, roots: Sequence[Path]) -> Path | None:
    """The file of module *dotted* under one of *roots* (folders that hold top-level packages)."""
    parts = dotted.split(".")
    for root in roots:
        for candidate in (
            root.joinpath(*parts).with_suffix(".py"),
            root.joinpath(*parts, "__init__.py"),
        ):
            if candidate.is_file():
                return candidate
    return None


@dataclass(frozen=True)
class _Imported:
    dotted: str
    roots: tuple[Path, ...]

    def attribute(self, name: str, node: ast.AST) -> Any:
        path = module_file(self.dotted, self.roots)
        if path is None:
            submodule = module_file(f"{self.dotted}.{name}", self.roots)
            if submodule is not None:
                return _Imported(f"{self.dotted}.{name}", self.roots)
            raise Unresolved(node, f"module {self.dotted} is not among the sources")
        return scope_of(path, self.roots).lookup(name, node)


@dataclass(frozen=True)
class _Class:
    definition: ast.ClassDef
    module: ModuleScope

    def attribute(self, name: str, node: ast.AST) -> Any:
        body = {
            target.id: statement.value
            for statement in self.definition.body
            if isinstance(statement, ast.Assign)
            for target in statement.targets
            if isinstance(target, ast.Name)
        }
        if name not in body:
            raise Unresolved(node, f"class {self.definition.name} binds no {name!r}")
        class_names = {key: value for key, value in body.items() if key != name}
        return evaluate(body[name], self.module, _ClassEnv(class_names, self.module))


class _ClassEnv(dict[str, Any]):
    """Names inside a class body: its own assignments, evaluated on demand."""

    def __init__(self, nodes: Mapping[str, ast.AST], module: ModuleScope) -> None:
        super().__init__()
        self.nodes = nodes
        self.module = module
        #: Each name's value once evaluated (not ``values``: that is dict's method).
        self.evaluated: dict[str, Any] = {}

    def __contains__(self, name: object) -> bool:
        return name in self.nodes

    def __getitem__(self, name: str) -> Any:
        """The name's value, evaluated once."""
        node = self.nodes[name]
        return _once(self.evaluated, name, node, lambda: evaluate(node, self.module, self))


def evaluate(node: ast.AST, scope: ModuleScope, env: Mapping[str, Any] | None = None) -> Any:
    """The value of *node* in *scope*; *env* binds local names (a loop variable)."""
    try:
        return _bounded(_evaluate(node, scope, {} if env is None else env), node)
    except RecursionError:
        raise Unresolved(node, "an expression nested too deeply to evaluate") from None


def _bounded(value: Any, node: ast.AST) -> Any:
    if isinstance(value, str | tuple | list | dict | set) and len(value) > MAX_FOLDED:
        raise Unresolved(node, f"a value of more than {MAX_FOLDED} characters or items")
    return value


def _fields(template: str, node: ast.AST) -> list[tuple[str, str | None, str | None, str | None]]:
    """The parts of a ``str.format`` template; a malformed one is :class:`Unresolved`."""
    try:
        return list(string.Formatter().parse(template))
    except ValueError as error:
        raise Unresolved(node, f"a malformed str.format template: {error}") from None


def _evaluate(node: ast.AST, scope: ModuleScope, env: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        items = [_evaluate(item, scope, env) for item in node.elts]
        return tuple(items) if isinstance(node, ast.Tuple) else items
    if isinstance(node, ast.Dict):
        keys = [key for key in node.keys if key is not None]
        if len(keys) != len(node.keys):
            raise Unresolved(node, "a ** expansion in a dict")
        return {
            _evaluate(key, scope, env): _evaluate(value, scope, env)
            for key, value in zip(keys, node.values, strict=True)
        }
    if isinstance(node, ast.Name):
        return env[node.id] if node.id in env else scope.lookup(node.id, node)
    if isinstance(node, ast.Attribute):
        owner = _evaluate(node.value, scope, env)
        if isinstance(owner, _Imported | _Class):
            return owner.attribute(node.attr, node)
        raise Unresolved(node, f"attribute {node.attr!r} of a {type(owner).__name__}")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _evaluate(node.left, scope, env), _evaluate(node.right, scope, env)
        if isinstance(left, list) and isinstance(right, tuple | list):
            return _bounded([*left, *right], node)
        if type(left) is type(right) and isinstance(left, str | tuple):
            if len(left) + len(right) > MAX_FOLDED:
                raise Unresolved(node, f"a value of more than {MAX_FOLDED} characters or items")
            return left + right
        raise Unresolved(node, "an addition of values that are not both strings or sequences")
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                if value.format_spec is not None or value.conversion != -1:
                    raise Unresolved(node, "an f-string with a format or conversion")
                parts.append(str(_evaluate(value.value, scope, env)))
            else:
                parts.append(str(_evaluate(value, scope, env)))
        return _bounded("".join(parts), node)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and all(keyword.arg for keyword in node.keywords)
    ):
        template = _evaluate(node.func.value, scope, env)
        if isinstance(template, str):
            if any(spec or conversion for _, _, spec, conversion in _fields(template, node)):
                raise Unresolved(node, "a str.format with a format spec or conversion")
            args = [_evaluate(arg, scope, env) for arg in node.args]
            kwargs = {k.arg: _evaluate(k.value, scope, env) for k in node.keywords if k.arg}
            try:
                return _bounded(template.format(*args, **kwargs), node)
            except (IndexError, KeyError, ValueError, AttributeError, TypeError) as error:
                raise Unresolved(node, f"a str.format that fails: {error}") from None
    raise Unresolved(node, f"a {type(node).__name__} expression is not evaluated statically")
