"""Nova's extra-spec validator modules -> onespec definitions, read statically.

Nova states its validators as ``base.ExtraSpecValidator(name=..., description=..., value={...},
parameters=[...])`` calls in ``nova/api/validation/extra_specs/<namespace>.py``. The modules are
parsed with :mod:`ast`, never imported (importing them needs Nova and its libraries): each call
whose arguments are literals -- or names of module-level literals -- becomes a definition.
A call built from values known only when the module runs (an f-string inside a loop over
os-traits, say) cannot be read without running Nova, and is listed as not carried.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from onespec.definitions.model import DefinitionError
from onespec.definitions.nova_shape import ExtraSpecValidator
from onespec.generator.importer.metadefs import ImportedNamespace, MetadefImportError, NotCarried
from onespec.validators_runtime import inputs

#: Where Nova keeps its validator modules, inside a source tree or an installed ``nova``.
VALIDATORS_DIR = Path("nova", "api", "validation", "extra_specs")
#: Modules of that folder that are machinery, not validators.
_MACHINERY = {"__init__.py", "base.py", "validators.py"}
_TYPES = {"str": str, "int": int, "bool": bool}
_KINDS = {
    "Attribute": "an attribute of a module or class",
    "Call": "a function call",
    "Subscript": "a subscript",
    "ListComp": "a list comprehension",
}


class _NotLiteral(ValueError):
    """The expression needs the module to run."""


def _evaluate(node: ast.AST, names: dict[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.List | ast.Tuple):
        return [_evaluate(item, names) for item in node.elts]
    if isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            raise _NotLiteral("a ** expansion")
        return {
            _evaluate(key, names): _evaluate(value, names)  # type: ignore[arg-type]
            for key, value in zip(node.keys, node.values, strict=True)
        }
    if isinstance(node, ast.Name):
        if node.id in _TYPES:
            return _TYPES[node.id]
        if node.id in names:
            return names[node.id]
        raise _NotLiteral(f"the name {node.id!r}")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _evaluate(node.left, names) + _evaluate(node.right, names)
    if isinstance(node, ast.JoinedStr):
        raise _NotLiteral("an f-string")
    kind = type(node).__name__
    raise _NotLiteral(_KINDS.get(kind, f"an expression ({kind})"))


def _module_constants(tree: ast.Module) -> dict[str, Any]:
    """Module-level ``NAME = literal`` assignments, which validators often share."""
    names: dict[str, Any] = {}
    for statement in tree.body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            try:
                names[statement.targets[0].id] = _evaluate(statement.value, names)
            except _NotLiteral:
                continue
    return names


def _is_validator_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return name == "ExtraSpecValidator"


#: The largest validator module read, in bytes: Nova's largest is about 25 KB.
MAX_MODULE_SIZE = 4 << 20


def read_module(path: Path, taken: set[str]) -> ImportedNamespace:
    """One Nova validator module; ``taken`` holds the names imported so far."""
    source = path.name
    try:
        tree = ast.parse(inputs.read_bytes(path, limit=MAX_MODULE_SIZE), filename=str(path))
    except inputs.InputError as error:
        raise MetadefImportError(str(error)) from None
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        raise MetadefImportError(f"{path}: cannot be parsed: {error}") from None
    names = _module_constants(tree)
    definitions = []
    not_carried = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not _is_validator_call(node):
            continue
        where = f"line {node.lineno}"
        try:
            if node.args:
                raise _NotLiteral("positional arguments")
            fields = {kw.arg: _evaluate(kw.value, names) for kw in node.keywords if kw.arg}
        except _NotLiteral as reason:
            not_carried.append(
                NotCarried(source, where, f"built from {reason} known only when Nova runs it")
            )
            continue
        name = fields.get("name", "?")
        try:
            definition = ExtraSpecValidator(**fields)
        except (DefinitionError, TypeError) as error:
            not_carried.append(NotCarried(source, f"{where} ({name})", str(error)))
            continue
        if definition.name in taken:
            not_carried.append(
                NotCarried(source, f"{where} ({name})", "defined earlier; the first is kept")
            )
            continue
        taken.add(definition.name)
        definitions.append(definition)
    namespace = path.stem
    return ImportedNamespace(
        name=f"nova.{namespace}",
        display_name=f"Nova's {namespace} validators",
        description=ast.get_docstring(tree) or "",
        source=source,
        definitions=tuple(definitions),
        not_carried=tuple(not_carried),
    )


def validators_directory(path: Path) -> Path:
    """The folder of validator modules in ``path``: a source tree, ``nova/`` or the folder."""
    for candidate in (path / VALIDATORS_DIR, path / VALIDATORS_DIR.relative_to("nova"), path):
        if (candidate / "base.py").is_file() and (candidate / "validators.py").is_file():
            return candidate
    raise MetadefImportError(
        f"{path}: no Nova extra-spec validators here (looked for {VALIDATORS_DIR}/base.py)"
    )


def read_tree(path: Path) -> tuple[ImportedNamespace, ...]:
    """Every validator module of the Nova tree at ``path``, in file-name order."""
    directory = validators_directory(path)
    taken: set[str] = set()
    return tuple(
        read_module(module, taken)
        for module in sorted(directory.glob("*.py"))
        if module.name not in _MACHINERY
    )
