"""Glance metadef files -> onespec definitions, with what could not be carried over.

A metadef namespace describes properties for resource types; its flavor extra specs are the
properties it associates with ``OS::Nova::Flavor``, named with that association's prefix
(``hw:`` + ``cpu_policy``). Those become :class:`~onespec.definitions.model.ExtraSpec` definitions:
``string``, ``integer`` and ``boolean`` types, enums, bounds, patterns, lengths and defaults are
carried; the rest (arrays, numbers, operators, image-only namespaces, duplicates) is listed as
:class:`NotCarried`, so a user sees exactly what the import dropped.

A file is read only when it is a regular file of at most :data:`MAX_FILE_BYTES`; its structure
(the namespace, its associations, properties and objects) must have the types Glance gives it,
or the import stops with the file and key path of the first that does not.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from onespec.definitions.model import MAX_LENGTH, DefinitionError, EnumMember, ExtraSpec, Value
from onespec.errors import OnespecError
from onespec.validators_runtime import inputs
from onespec.validators_runtime.problems import Location, shown

#: The largest metadef file read (Glance's own catalogue's largest is about 30 KB).
MAX_FILE_BYTES = 4 * 1024 * 1024

FLAVOR = "OS::Nova::Flavor"

_TYPES: dict[str, type] = {"string": str, "integer": int, "boolean": bool}
#: Property fields that have no counterpart in onespec's vocabulary, with why not.
_DROPPED_FIELDS = {
    "operators": "operators (how Glance's UI combines values) have no counterpart",
    "readonly": "read-only properties have no counterpart in flavor extra specs",
}


#: The longest namespace name Glance stores (its API's schema and its database column say 80);
#: the name also becomes a module's file name, which a longer one could not be.
MAX_NAMESPACE_LENGTH = 80


class MetadefImportError(OnespecError, ValueError):
    """A source file cannot be read at all; says where (the file, a key path) and why."""

    def __init__(self, location: Location, reason: str) -> None:
        super().__init__(f"{location}: {reason}")
        self.location = location
        self.reason = reason


def _expect(value: Any, kind: type | tuple[type, ...], file: str, path: str, what: str) -> Any:
    """*value* when it is of *kind*, else the located error saying what it should be."""
    if isinstance(value, kind):
        return value
    raise MetadefImportError(
        Location(file, path=path), f"must be {what}, not {type(value).__name__} {shown(value)}"
    )


def read_bounded(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of *path*, a regular file of at most *limit* bytes, read as ``limit + 1`` at most
    (through :mod:`onespec.validators_runtime.inputs`, which every command reads with).

    A FIFO, a device or a directory is refused before it is opened for reading, so it can never
    hang or exhaust the reader.
    """
    try:
        return inputs.read_bytes(path, limit=limit)
    except inputs.InputError as error:
        raise MetadefImportError(Location(str(path)), error.reason) from None


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


def _description(raw: Mapping[str, Any], file: str, where: str) -> str:
    title = _expect(raw.get("title") or "", str, file, f"{where}.title", "a string").strip()
    text = _expect(raw.get("description") or "", str, file, f"{where}.description", "a string")
    text = text.strip()
    if title and text and not text.lower().startswith(title.lower().rstrip(".")):
        return f"{title.rstrip('.')}. {text}"
    return text or title


def _value(raw: Mapping[str, Any], lost: list[str]) -> Value | None:
    kind = raw.get("type")
    value_type = _TYPES.get(kind) if isinstance(kind, str) else None
    if value_type is None:
        lost.append(f"type {shown(kind)} has no counterpart (str, int and bool do)")
        return None
    fields: dict[str, Any] = {"type": value_type}
    if value_type is int:
        for source, target in (("minimum", "min"), ("maximum", "max")):
            bound = raw.get(source)
            if isinstance(bound, int) and not isinstance(bound, bool):
                fields[target] = bound
            elif bound is not None:
                lost.append(f"{source} {shown(bound)} is not an integer")
        if "enum" in raw:
            lost.append(f"enum {shown(raw['enum'])} of integers: onespec enumerates strings only")
    if value_type is str:
        enum = raw.get("enum")
        if enum is not None:
            if isinstance(enum, list) and enum and all(isinstance(m, str) for m in enum):
                fields["enum"] = tuple(EnumMember(member) for member in dict.fromkeys(enum))
            else:
                lost.append(f"enum {shown(enum)} is not a list of strings")
        pattern = raw.get("pattern")
        if pattern is not None:
            try:
                re.compile(pattern)
                fields["pattern"] = pattern
            except (re.error, TypeError, RecursionError, OverflowError):
                lost.append(f"pattern {shown(pattern)} is not a regular expression Python reads")
        length = raw.get("maxLength")
        if isinstance(length, int) and not isinstance(length, bool) and 0 < length <= MAX_LENGTH:
            fields["max_length"] = length
        elif length is not None:
            lost.append(f"maxLength {shown(length)} is not a length from 1 to {MAX_LENGTH}")
        if raw.get("minLength"):
            lost.append(f"minLength {shown(raw['minLength'])} has no counterpart")
    default = raw.get("default")
    if default is not None:
        if isinstance(default, value_type) and (value_type is bool) == isinstance(default, bool):
            fields["default"] = default
        else:
            lost.append(f"default {shown(default)} is not of type {value_type.__name__}")
    try:
        return Value(**fields)
    except DefinitionError as error:
        lost.append(f"the value's rules do not hold together: {error.reason}")
        return None


def _properties(
    document: Mapping[str, Any], file: str
) -> Iterable[tuple[str, str, Mapping[str, Any]]]:
    """(where, property name, property) for the namespace's and its objects' properties."""
    for name, raw in _expect(
        document.get("properties") or {}, dict, file, "properties", "an object"
    ).items():
        yield "properties", name, _expect(raw, dict, file, f"properties.{name}", "an object")
    objects = _expect(document.get("objects") or [], list, file, "objects", "a list")
    for index, obj in enumerate(objects):
        obj = _expect(obj, dict, file, f"objects[{index}]", "an object")
        label = obj.get("name") if isinstance(obj.get("name"), str) else str(index)
        where = f"objects[{label}].properties"
        for name, raw in _expect(
            obj.get("properties") or {}, dict, file, where, "an object"
        ).items():
            yield where, name, _expect(raw, dict, file, f"{where}.{name}", "an object")


def _prefixes(document: Mapping[str, Any], file: str) -> list[str]:
    """The prefixes of the namespace's associations with :data:`FLAVOR`."""
    key = "resource_type_associations"
    associations = _expect(document.get(key) or [], list, file, key, "a list")
    prefixes = []
    for index, association in enumerate(associations):
        association = _expect(association, dict, file, f"{key}[{index}]", "an object")
        if association.get("name") == FLAVOR:
            where = f"{key}[{index}].prefix"
            prefixes.append(_expect(association.get("prefix", ""), str, file, where, "a string"))
    return prefixes


def _parse(path: Path) -> Any:
    """The JSON document of *path*, or the located error saying why it is none."""
    where = Location(str(path))
    data = read_bounded(path)
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise MetadefImportError(
            where, f"is not UTF-8 ({error.reason} at byte {error.start})"
        ) from None
    except RecursionError:
        raise MetadefImportError(where, "is nested deeper than the JSON reader follows") from None
    except ValueError as error:  # JSON syntax, and integers longer than Python reads
        raise MetadefImportError(where, f"is not a JSON document: {error}") from None


def read_namespace(path: Path, taken: set[str]) -> ImportedNamespace:
    """One metadef file; ``taken`` holds the names imported so far (the first one wins)."""
    source = path.name
    file = str(path)
    document = _parse(path)
    if not isinstance(document, dict) or not isinstance(document.get("namespace"), str):
        raise MetadefImportError(Location(file), "not a metadef namespace (no 'namespace' name)")
    name = document["namespace"]
    if len(name) > MAX_NAMESPACE_LENGTH:
        raise MetadefImportError(
            Location(file, path="namespace"),
            f"is {len(name):,} characters long; Glance's namespace names have at most "
            f"{MAX_NAMESPACE_LENGTH}",
        )
    display_name = _expect(
        document.get("display_name") or name, str, file, "display_name", "a string"
    )
    description = _expect(document.get("description") or "", str, file, "description", "a string")
    prefixes = _prefixes(document, file)
    definitions: list[ExtraSpec] = []
    not_carried: list[NotCarried] = []
    if not prefixes:
        count = sum(1 for _ in _properties(document, file))
        not_carried.append(
            NotCarried(
                source,
                f"namespace {name} ({count} properties)",
                f"not associated with {FLAVOR}: its properties are not flavor extra specs",
            )
        )
    for prefix in prefixes:
        for where, property_name, raw in _properties(document, file):
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
                    described = _description(raw, file, f"{where}.{property_name}")
                    definitions.append(ExtraSpec(name=key, description=described, value=value))
                    taken.add(key)
                except DefinitionError as error:
                    lost.append(f"not a valid definition: {error.reason}")
            not_carried += [NotCarried(source, f"{where}.{property_name} ({key})", r) for r in lost]
    return ImportedNamespace(
        name=name,
        display_name=display_name,
        description=description,
        source=source,
        definitions=tuple(definitions),
        not_carried=tuple(not_carried),
    )


def read_directory(directory: Path) -> tuple[ImportedNamespace, ...]:
    """Every ``*.json`` metadef file of ``directory``, in file-name order."""
    if not directory.is_dir():
        raise MetadefImportError(Location(str(directory)), "not a directory of metadef files")
    files = sorted(directory.glob("*.json"))
    if not files:
        raise MetadefImportError(Location(str(directory)), "holds no metadef files (*.json)")
    taken: set[str] = set()
    return tuple(read_namespace(path, taken) for path in files)
