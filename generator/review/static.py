"""A small static evaluator: the value of an expression in a module, without importing it.

Catalogues written for Nova are literals, names bound to literals, attributes of enum-like
classes in other modules (``fields.SoundModelType.ALL``), f-strings and ``str.format``. That is
all this evaluates; anything else raises :class:`Unresolved`, so the caller can say what it
could not carry instead of guessing.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from onespec.validators_runtime import inputs

_BUILTINS: dict[str, Any] = {"str": str, "int": int, "bool": bool, "True": True, "False": False}


class Unresolved(ValueError):
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
    """The syntax tree of *path*, parsed once per process; a file that cannot be read or
    parsed (too large, not a regular file, nested past the parser's depth) is a SyntaxError."""
    try:
        return ast.parse(read_source(path), filename=str(path))
    except inputs.InputError as error:
        raise SyntaxError(error.reason, (str(path), None, None, None)) from None
    except (RecursionError, MemoryError):
        raise SyntaxError("nested too deeply to parse", (str(path), None, None, None)) from None
    except ValueError as error:  # NUL bytes, on older Pythons
        raise SyntaxError(str(error), (str(path), None, None, None)) from None


@dataclass(frozen=True)
class ModuleScope:
    """Where names of one module come from: its assignments, classes and imports."""

    path: Path
    roots: tuple[Path, ...]

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
            return evaluate(bound, self)
        if name in _BUILTINS:
            return _BUILTINS[name]
        raise Unresolved(node, f"{name!r} is not bound at module level")


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

    def __contains__(self, name: object) -> bool:
        return name in self.nodes

    def __getitem__(self, name: str) -> Any:
        return evaluate(self.nodes[name], self.module, self)


def evaluate(node: ast.AST, scope: ModuleScope, env: Mapping[str, Any] | None = None) -> Any:
    """The value of *node* in *scope*; *env* binds local names (a loop variable)."""
    env = {} if env is None else env
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        items = [evaluate(item, scope, env) for item in node.elts]
        return tuple(items) if isinstance(node, ast.Tuple) else items
    if isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            raise Unresolved(node, "a ** expansion in a dict")
        return {
            evaluate(key, scope, env): evaluate(value, scope, env)  # type: ignore[arg-type]
            for key, value in zip(node.keys, node.values, strict=True)
        }
    if isinstance(node, ast.Name):
        return env[node.id] if node.id in env else scope.lookup(node.id, node)
    if isinstance(node, ast.Attribute):
        owner = evaluate(node.value, scope, env)
        if isinstance(owner, _Imported | _Class):
            return owner.attribute(node.attr, node)
        raise Unresolved(node, f"attribute {node.attr!r} of a {type(owner).__name__}")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = evaluate(node.left, scope, env), evaluate(node.right, scope, env)
        if isinstance(left, list) and isinstance(right, tuple | list):
            return [*left, *right]
        if type(left) is type(right) and isinstance(left, str | tuple):
            return left + right
        raise Unresolved(node, "an addition of values that are not both strings or sequences")
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                if value.format_spec is not None or value.conversion != -1:
                    raise Unresolved(node, "an f-string with a format or conversion")
                parts.append(str(evaluate(value.value, scope, env)))
            else:
                parts.append(str(evaluate(value, scope, env)))
        return "".join(parts)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and all(keyword.arg for keyword in node.keywords)
    ):
        template = evaluate(node.func.value, scope, env)
        if isinstance(template, str):
            args = [evaluate(arg, scope, env) for arg in node.args]
            kwargs = {k.arg: evaluate(k.value, scope, env) for k in node.keywords if k.arg}
            return template.format(*args, **kwargs)
    raise Unresolved(node, f"a {type(node).__name__} expression is not evaluated statically")
