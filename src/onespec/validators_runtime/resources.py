"""The published JSON Schemas and Glance metadefs, loaded from the installed package.

A service that checks a document against a schema, or an editor that offers completion from
one, should not need a checkout of onespec or a copy of its files: the wheel ships both sets as
package data (``onespec/validators_runtime/data/``), read here through ``importlib.resources``. In a
checkout (or an editable install) the same names resolve to the committed ``outputs/``
directory, so code written against this module behaves the same in both.

These are the files of the in-tree catalogue. For files that also carry the definitions other
installed packages add, write them with ``onespec generate schemas|metadefs --output-dir DIR``.
"""

from __future__ import annotations

import json
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal

#: The two published sets: the name of each set's directory.
Kind = Literal["schemas", "glance-metadefs"]

#: The schemas' catalog (SchemaStore's format), written beside them by the generator.
CATALOG_FILE = "catalog.json"

#: ``outputs/`` of a checkout: this file is ``src/onespec/validators_runtime/resources.py``.
_CHECKOUT_OUTPUTS = Path(__file__).resolve().parents[3] / "outputs"


def directory(kind: Kind) -> Traversable:
    """The directory that holds one set of published files (installed package data first)."""
    if kind not in ("schemas", "glance-metadefs"):
        raise ValueError(f"unknown set of published files {kind!r}: schemas or glance-metadefs")
    packaged = resources.files("onespec.validators_runtime") / "data" / kind
    if packaged.is_dir():
        return packaged
    return _CHECKOUT_OUTPUTS / kind


def _names(kind: Kind) -> tuple[str, ...]:
    return tuple(
        sorted(item.name for item in directory(kind).iterdir() if item.name.endswith(".json"))
    )


def _load(kind: Kind, name: str) -> dict[str, Any]:
    if name not in _names(kind):
        raise LookupError(
            f"onespec publishes no {kind} file named {name!r}; it has: {', '.join(_names(kind))}"
        )
    document: dict[str, Any] = json.loads((directory(kind) / name).read_text(encoding="utf-8"))
    return document


def schema_names() -> tuple[str, ...]:
    """The file names of every JSON Schema, such as ``flavor-extra-specs.schema.json``."""
    return _names("schemas")


def schema(name: str) -> dict[str, Any]:
    """One JSON Schema, parsed; :class:`LookupError` naming the others if there is none."""
    return _load("schemas", name)


def metadef_names() -> tuple[str, ...]:
    """The file names of every Glance metadef, such as ``onespec-compute-hw.json``."""
    return _names("glance-metadefs")


def metadef(name: str) -> dict[str, Any]:
    """One Glance metadata definition namespace, parsed."""
    return _load("glance-metadefs", name)
