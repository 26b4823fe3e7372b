"""Write the in-tree catalogue as the runtime's lookup tables: ``_generated/extra_specs.py``.

The module holds plain literals only, so services import it without importing the catalogue,
``os-traits`` or anything else: the tables are built here, once, by the same compiler the runtime
uses for out-of-tree definitions.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable, Iterator, Mapping

from onespec.definitions.entry_points import ENTRY_POINT_GROUP
from onespec.definitions.model import (
    DIGITS_PATTERN,
    FALSE_STRINGS,
    MAX_LENGTH,
    TRUE_STRINGS,
    ExtraSpec,
    Namespace,
)
from onespec.generator.literals import assignment, module_header, module_text
from onespec.generator.outputs import generated_module
from onespec.validators_runtime.compiler import compile_definitions
from onespec.validators_runtime.tables import PARAMETER_FIELDS, SPEC_FIELDS

#: Where the module is written: inside the runtime package, wherever it is installed.
OUTPUT = generated_module("extra_specs")

#: The libraries whose content becomes part of the catalogue; their versions go in the header.
SOURCE_LIBRARIES = ("os-traits", "os-resource-classes")


def source_versions() -> dict[str, str]:
    """The installed versions of the libraries the catalogue reads standard names from."""
    return {name: importlib.metadata.version(name) for name in SOURCE_LIBRARIES}


def unlisted_key_hints(namespaces: Iterable[Namespace]) -> dict[str, tuple[str, str]]:
    """Namespace name -> (template, reason) of each namespace's hint for keys it does not list."""
    return {
        namespace.name: (hint.template, hint.reason)
        for namespace in namespaces
        if (hint := namespace.unlisted_key_hint) is not None
    }


def render_lines(
    definitions: Iterable[ExtraSpec],
    versions: Mapping[str, str],
    namespaces: Iterable[Namespace] = (),
) -> Iterator[str]:
    """Yield the lines of the generated module for ``definitions`` (in precedence order)."""
    tables = compile_definitions(definitions)
    yield from module_header(
        "runtime",
        "the definitions in src/onespec/definitions/",
        "Lookup tables of the in-tree flavor extra-spec catalogue (plain data only).",
    )
    yield from assignment("SOURCE_VERSIONS", dict(sorted(versions.items())))
    yield from assignment("ENTRY_POINT_GROUP", ENTRY_POINT_GROUP)
    yield from assignment("MAX_LENGTH", MAX_LENGTH)
    yield from assignment("DIGITS_PATTERN", DIGITS_PATTERN)
    yield from assignment("TRUE_STRINGS", tuple(sorted(TRUE_STRINGS)))
    yield from assignment("FALSE_STRINGS", tuple(sorted(FALSE_STRINGS)))
    yield from assignment("SPEC_FIELDS", SPEC_FIELDS)
    yield from assignment("PARAMETER_FIELDS", PARAMETER_FIELDS)
    # Plain tuples in SPEC_FIELDS order: the module imports nothing, not even SpecRecord.
    yield from assignment("SPECS", tuple(tuple(record) for record in tables.specs))
    yield from assignment("EXACT", tables.exact)
    yield from assignment("PREFIXES", tables.prefixes)
    yield from assignment("PATTERNED_PREFIXES", tables.patterned_prefixes)
    yield from assignment("GROUPS", tables.groups)
    yield from assignment("UNLISTED_KEY_HINTS", unlisted_key_hints(namespaces))


def render(
    definitions: Iterable[ExtraSpec],
    versions: Mapping[str, str],
    namespaces: Iterable[Namespace] = (),
) -> str:
    """The whole generated module as text, ending with one newline."""
    return module_text(render_lines(definitions, versions, namespaces))
