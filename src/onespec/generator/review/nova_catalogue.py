"""Nova's own extra-spec catalogue, read statically from its validator modules.

Nova declares its definitions as ``base.ExtraSpecValidator(name=..., value={...}, ...)`` calls in
``nova/api/validation/extra_specs/``, some inside module-level ``for`` loops. Those calls are
evaluated with :mod:`onespec.generator.review.static` and turned into onespec definitions through
the model's own Nova-shaped constructor, so Nova is audited (and diffed) against exactly what its
validator would register, in any release, without importing Nova.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from onespec.definitions.model import DefinitionError, ExtraSpec
from onespec.definitions.nova_shape import ExtraSpecValidator
from onespec.errors import OnespecError
from onespec.generator.review.static import ModuleScope, Unresolved, evaluate, parse
from onespec.validators_runtime.problems import Location, Problem

#: Where Nova keeps its validator modules, relative to the folder holding the ``nova`` package.
VALIDATOR_PACKAGE = Path("nova", "api", "validation", "extra_specs")
#: Modules of that package that hold machinery, not definitions.
MACHINERY = frozenset({"__init__.py", "base.py", "validators.py"})


#: Something of a Nova definition that could not be carried, where, and why: the shared shape.
Note = Problem


def note(file: str, line: int | None, message: str) -> Note:
    """A ``not-carried`` warning at *file*:*line*."""
    return Problem("not-carried", message, "warning", Location(file, line))


class NovaTreeError(OnespecError, ValueError):
    """A validator module of the Nova tree that cannot be read as Python.

    Its keys would be missing from every verdict drawn from the tree, so no command carries on
    without them: the error names the module (``location``) and why.
    """

    def __init__(self, location: Location, reason: str) -> None:
        self.location = location
        self.reason = reason
        super().__init__(f"{location}: {reason}; the Nova tree cannot be read without it")


@dataclass(frozen=True)
class NovaCatalogue:
    """The definitions read, the file and line each came from, and what was left behind."""

    root: Path
    definitions: tuple[ExtraSpec, ...]
    origins: Mapping[str, tuple[str, int]]
    notes: tuple[Note, ...]

    @property
    def modules(self) -> tuple[Path, ...]:
        return tuple(sorted((self.root / VALIDATOR_PACKAGE).glob("*.py")))


def find_root(sources: Iterable[Path]) -> Path | None:
    """The folder holding the ``nova`` package, for any source path inside or above it."""
    for source in sources:
        source = source.resolve()
        for candidate in (source, *source.parents):
            if (candidate / VALIDATOR_PACKAGE).is_dir():
                return candidate
        if source.is_dir():
            for found in source.glob(f"*/{VALIDATOR_PACKAGE}"):
                return found.parents[len(VALIDATOR_PACKAGE.parts) - 1]
    return None


def _is_validator_call(node: ast.AST) -> TypeGuard[ast.Call]:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name == "ExtraSpecValidator"


def _bind(target: ast.expr, item: Any) -> dict[str, Any] | None:
    """The names a ``for`` target binds to *item*; None for targets other than names/tuples."""
    if isinstance(target, ast.Name):
        return {target.id: item}
    if isinstance(target, ast.Tuple) and isinstance(item, tuple | list):
        if len(target.elts) != len(item):
            return None
        bound: dict[str, Any] = {}
        for element, value in zip(target.elts, item, strict=True):
            inner = _bind(element, value)
            if inner is None:
                return None
            bound.update(inner)
        return bound
    return None


def _calls(
    statements: Sequence[ast.stmt],
    scope: ModuleScope,
    env: dict[str, Any],
    where: str,
    notes: list[Note],
) -> Iterator[tuple[ast.Call, dict[str, Any]]]:
    """Every validator call with the loop variables bound at that point."""
    for statement in statements:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if isinstance(statement, ast.For):
            try:
                items = list(evaluate(statement.iter, scope, env))
            except (Unresolved, SyntaxError, OSError, TypeError) as error:
                notes.append(note(where, statement.lineno, f"a loop over unknown values: {error}"))
                continue
            for item in items:
                bound = _bind(statement.target, item)
                if bound is None:
                    notes.append(note(where, statement.lineno, "a loop target not unpacked"))
                    break
                yield from _calls(statement.body, scope, {**env, **bound}, where, notes)
            continue
        for node in ast.walk(statement):
            if _is_validator_call(node):
                yield node, env


_FIELDS = ("name", "description", "value", "parameters", "deprecated")


def _definition(
    call: ast.Call, scope: ModuleScope, env: dict[str, Any], where: str, notes: list[Note]
) -> ExtraSpec | None:
    fields: dict[str, Any] = {}
    for keyword in call.keywords:
        if keyword.arg not in _FIELDS:
            notes.append(note(where, call.lineno, f"field {keyword.arg!r} is not carried"))
            continue
        try:
            fields[keyword.arg] = evaluate(keyword.value, scope, env)
        except (SyntaxError, OSError) as error:
            notes.append(note(where, call.lineno, f"{keyword.arg} not carried: {error}"))
            continue
        except Unresolved as error:
            if keyword.arg == "name":
                notes.append(note(where, call.lineno, f"skipped: its name is unknown ({error})"))
                return None
            notes.append(note(where, call.lineno, f"{keyword.arg} not carried: {error}"))
    value = fields.get("value")
    if isinstance(value, dict):
        for key in [k for k, v in value.items() if isinstance(v, list)]:
            value[key] = tuple(value[key])
        for key in [
            k
            for k in value
            if k
            not in {"type", "description", "enum", "pattern", "min", "max", "max_length", "default"}
        ]:
            notes.append(note(where, call.lineno, f"value field {key!r} is not carried"))
            del value[key]
    try:
        return ExtraSpecValidator(**fields)
    except (DefinitionError, TypeError) as error:
        notes.append(note(where, call.lineno, f"skipped {fields.get('name')!r}: {error}"))
        return None


def load(root: Path) -> NovaCatalogue:
    """Read every validator module of the Nova tree whose ``nova`` package is under *root*."""
    scope_roots = (root,)
    definitions: dict[str, ExtraSpec] = {}
    origins: dict[str, tuple[str, int]] = {}
    notes: list[Note] = []
    for path in sorted((root / VALIDATOR_PACKAGE).glob("*.py")):
        if path.name in MACHINERY:
            continue
        where = path.relative_to(root).as_posix()
        scope = ModuleScope(path, scope_roots)
        try:
            tree = parse(path)
        except SyntaxError as error:
            raise NovaTreeError(
                Location(where, error.lineno), f"not readable as Python: {error.msg}"
            ) from None
        for call, env in _calls(tree.body, scope, {}, where, notes):
            definition = _definition(call, scope, env, where, notes)
            if definition is None:
                continue
            if definition.name in definitions:
                notes.append(note(where, call.lineno, f"{definition.name} is registered twice"))
                continue
            definitions[definition.name] = definition
            origins[definition.name] = (where, call.lineno)
    return NovaCatalogue(root, tuple(definitions.values()), origins, tuple(notes))
