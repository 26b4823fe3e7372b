"""Glance metadef files -> onespec definitions, with what could not be carried over.

A metadef namespace describes properties for resource types; its flavor extra specs are the
properties it associates with ``OS::Nova::Flavor``, named with that association's prefix
(``hw:`` + ``cpu_policy``). Those become :class:`~onespec.definitions.model.ExtraSpec` definitions:
``string``, ``integer`` and ``boolean`` types, enums, bounds, patterns, lengths and defaults are
carried; the rest (arrays, numbers, operators, image-only namespaces, duplicates) is listed as
:class:`NotCarried`, so a user sees exactly what the import dropped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from onespec.definitions.model import MAX_LENGTH, DefinitionError, EnumMember, ExtraSpec, Value
from onespec.validators_runtime import inputs

FLAVOR = "OS::Nova::Flavor"

_TYPES: dict[str, type] = {"string": str, "integer": int, "boolean": bool}
#: Property fields that have no counterpart in onespec's vocabulary, with why not.
_DROPPED_FIELDS = {
    "operators": "operators (how Glance's UI combines values) have no counterpart",
    "readonly": "read-only properties have no counterpart in flavor extra specs",
}


class MetadefImportError(ValueError):
    """A metadef file cannot be read at all; names the file."""


@dataclass(frozen=True)
class NotCarried:
    """Something of the source that the import left out, and why."""

    source: str
    what: str
    reason: str

    def __str__(self) -> str:
        return f"{self.source}: {self.what}: {self.reason}"


@dataclass(frozen=True)
class ImportedNamespace:
    """The definitions of one metadef namespace, with its description and its losses."""

    name: str
    display_name: str
    description: str
    source: str
    definitions: tuple[ExtraSpec, ...]
    not_carried: tuple[NotCarried, ...]


def _description(raw: Mapping[str, Any]) -> str:
    title = str(raw.get("title") or "").strip()
    text = str(raw.get("description") or "").strip()
    if title and text and not text.lower().startswith(title.lower().rstrip(".")):
        return f"{title.rstrip('.')}. {text}"
    return text or title


def _value(raw: Mapping[str, Any], lost: list[str]) -> Value | None:
    kind = raw.get("type")
    value_type = _TYPES.get(kind)  # type: ignore[arg-type]
    if value_type is None:
        lost.append(f"type {kind!r} has no counterpart (str, int and bool do)")
        return None
    fields: dict[str, Any] = {"type": value_type}
    if value_type is int:
        for source, target in (("minimum", "min"), ("maximum", "max")):
            bound = raw.get(source)
            if isinstance(bound, int) and not isinstance(bound, bool):
                fields[target] = bound
            elif bound is not None:
                lost.append(f"{source} {bound!r} is not an integer")
        if "enum" in raw:
            lost.append(f"enum {raw['enum']!r} of integers: onespec enumerates strings only")
    if value_type is str:
        enum = raw.get("enum")
        if enum is not None:
            if all(isinstance(member, str) for member in enum) and enum:
                fields["enum"] = tuple(EnumMember(member) for member in dict.fromkeys(enum))
            else:
                lost.append(f"enum {enum!r} is not a list of strings")
        pattern = raw.get("pattern")
        if pattern is not None:
            try:
                re.compile(pattern)
                fields["pattern"] = pattern
            except (re.error, TypeError):
                lost.append(f"pattern {pattern!r} is not a regular expression Python reads")
        length = raw.get("maxLength")
        if isinstance(length, int) and 0 < length <= MAX_LENGTH:
            fields["max_length"] = length
        elif length is not None:
            lost.append(f"maxLength {length!r} is beyond the {MAX_LENGTH} characters Nova stores")
        if raw.get("minLength"):
            lost.append(f"minLength {raw['minLength']!r} has no counterpart")
    default = raw.get("default")
    if default is not None:
        if isinstance(default, value_type) and (value_type is bool) == isinstance(default, bool):
            fields["default"] = default
        else:
            lost.append(f"default {default!r} is not of type {value_type.__name__}")
    try:
        return Value(**fields)
    except DefinitionError as error:
        lost.append(f"the value's rules do not hold together: {error.reason}")
        return None


def _properties(document: Mapping[str, Any]) -> Iterable[tuple[str, str, Mapping[str, Any]]]:
    """(where, property name, property) for the namespace's and its objects' properties."""
    for name, raw in (document.get("properties") or {}).items():
        yield "properties", name, raw
    for obj in document.get("objects") or []:
        for name, raw in (obj.get("properties") or {}).items():
            yield f"objects[{obj.get('name', '?')}].properties", name, raw


#: The largest metadef file read, in bytes: Glance's largest ships at about 40 KB.
MAX_METADEF_FILE_SIZE = 4 << 20


def read_namespace(path: Path, taken: set[str]) -> ImportedNamespace:
    """One metadef file; ``taken`` holds the names imported so far (the first one wins)."""
    source = path.name
    try:
        document = json.loads(inputs.read_text(path, limit=MAX_METADEF_FILE_SIZE))
    except inputs.InputError as error:
        raise MetadefImportError(str(error)) from None
    except (ValueError, RecursionError) as error:
        raise MetadefImportError(f"{path}: cannot be read as a metadef file: {error}") from None
    if not isinstance(document, Mapping) or not isinstance(document.get("namespace"), str):
        raise MetadefImportError(f"{path}: not a metadef namespace (no 'namespace' name)")
    name = document["namespace"]
    prefixes = [
        association.get("prefix", "")
        for association in document.get("resource_type_associations") or []
        if association.get("name") == FLAVOR
    ]
    definitions: list[ExtraSpec] = []
    not_carried: list[NotCarried] = []
    if not prefixes:
        count = sum(1 for _ in _properties(document))
        not_carried.append(
            NotCarried(
                source,
                f"namespace {name} ({count} properties)",
                f"not associated with {FLAVOR}: its properties are not flavor extra specs",
            )
        )
    for prefix in prefixes:
        for where, property_name, raw in _properties(document):
            key = prefix + property_name
            lost: list[str] = []
            for field, reason in _DROPPED_FIELDS.items():
                if raw.get(field):
                    lost.append(reason)
            value = _value(raw, lost)
            if value is not None and key in taken:
                value = None
                lost.append("an earlier namespace already defines this key; the first is kept")
            if value is not None:
                try:
                    definitions.append(
                        ExtraSpec(name=key, description=_description(raw), value=value)
                    )
                    taken.add(key)
                except DefinitionError as error:
                    lost.append(f"not a valid definition: {error.reason}")
            not_carried += [NotCarried(source, f"{where}.{property_name} ({key})", r) for r in lost]
    return ImportedNamespace(
        name=name,
        display_name=str(document.get("display_name") or name),
        description=str(document.get("description") or ""),
        source=source,
        definitions=tuple(definitions),
        not_carried=tuple(not_carried),
    )


def read_directory(directory: Path) -> tuple[ImportedNamespace, ...]:
    """Every ``*.json`` metadef file of ``directory``, in file-name order."""
    if not directory.is_dir():
        raise MetadefImportError(f"{directory}: not a directory of metadef files")
    files = sorted(directory.glob("*.json"))
    if not files:
        raise MetadefImportError(f"{directory}: holds no metadef files (*.json)")
    taken: set[str] = set()
    return tuple(read_namespace(path, taken) for path in files)
