"""Nova's extra-spec validator modules -> onespec definitions, one namespace per module.

The modules are read by :mod:`onespec.generator.review.nova_catalogue`, the one reader of Nova's
validators that ``onespec audit --catalogue nova`` and ``onespec diff nova:PATH`` use too, so the
import carries exactly what those commands see: calls stated with literals, module constants,
classes of constants, loops and f-strings over them. What it cannot read without running Nova is
listed as not carried, with the line and the reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

from onespec.generator.importer.metadefs import ImportedNamespace, MetadefImportError, NotCarried
from onespec.generator.review import nova_catalogue
from onespec.generator.review.static import parse
from onespec.validators_runtime.problems import Location

#: Where Nova keeps its validator modules, inside a source tree or an installed ``nova``.
VALIDATORS_DIR = nova_catalogue.VALIDATOR_PACKAGE


def validators_root(path: Path) -> Path:
    """The folder holding ``nova/`` for *path*: a source tree, an installed ``nova``'s parent,
    or a folder inside ``nova/`` up to the folder of validator modules itself."""
    resolved = path.resolve()
    for candidate in (resolved, *resolved.parents[: len(VALIDATORS_DIR.parts)]):
        folder = candidate / VALIDATORS_DIR
        if (folder / "base.py").is_file() and (folder / "validators.py").is_file():
            return candidate
    raise MetadefImportError(
        Location(str(path)),
        f"no Nova extra-spec validators here (looked for {VALIDATORS_DIR}/base.py)",
    )


def _docstring(path: Path) -> str:
    try:
        return ast.get_docstring(parse(path)) or ""
    except (SyntaxError, OSError):
        return ""


def read_tree(path: Path) -> tuple[ImportedNamespace, ...]:
    """Every validator module of the Nova tree at ``path``, in file-name order."""
    root = validators_root(path)
    try:
        catalogue = nova_catalogue.load(root)
    except nova_catalogue.NovaTreeError as error:
        raise MetadefImportError(error.location, f"{error.reason}; not imported") from None
    namespaces = []
    for module in catalogue.modules:
        if module.name in nova_catalogue.MACHINERY:
            continue
        where = module.relative_to(root).as_posix()
        definitions = tuple(
            definition
            for definition in catalogue.definitions
            if catalogue.origins[definition.name][0] == where
        )
        not_carried = tuple(
            NotCarried(module.name, f"line {note.location.line or '?'}", note.message)
            for note in catalogue.notes
            if note.location.file == where
        )
        namespaces.append(
            ImportedNamespace(
                name=f"nova.{module.stem}",
                display_name=f"Nova's {module.stem} validators",
                description=_docstring(module),
                source=module.name,
                definitions=definitions,
                not_carried=not_carried,
            )
        )
    return tuple(namespaces)
