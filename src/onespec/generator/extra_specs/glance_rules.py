"""What Glance accepts in a metadef namespace file: its schema and the rules a schema cannot say.

The generator checks every file it writes against these before writing, so that
``glance-manage db_load_metadefs`` never meets a file it would refuse or read differently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from onespec.errors import OnespecError

FLAVOR = "OS::Nova::Flavor"

IMAGE = "OS::Glance::Image"

VOLUME = "OS::Cinder::Volume"

#: The ``String(80)`` columns: namespace, display name, property, object and resource type
#: names, prefix and properties_target.
NAME_LIMIT = 80

#: Glance's API refuses a longer namespace description (the loader does not check it).
NAMESPACE_DESCRIPTION_LIMIT = 500


class MetadefError(OnespecError, ValueError):
    """A generated metadef file would not load or read back; names the file and the key."""


_TYPES = ["array", "boolean", "integer", "number", "object", "string", "null"]

_NAME = {"type": "string", "minLength": 1, "maxLength": NAME_LIMIT}

_COUNT = {"type": "integer", "minimum": 0}

_STRINGS = {"type": "array", "items": {"type": "string"}}

_PROPERTY: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["title", "type"],
    "properties": {
        "name": {"type": "string"},
        "title": {"type": "string"},
        "description": {"type": "string"},
        "type": {"enum": _TYPES},
        "operators": _STRINGS,
        "default": {"type": ["string", "integer", "number", "boolean"]},
        "readonly": {"type": "boolean"},
        "minimum": {"type": "integer"},
        "maximum": {"type": "integer"},
        "enum": _STRINGS,
        "pattern": {"type": "string", "format": "regex"},
        "minLength": _COUNT,
        "maxLength": _COUNT,
        "confidential": {"type": "boolean"},
        "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["type"],
            "properties": {"type": {"enum": _TYPES}, "enum": _STRINGS},
        },
        "uniqueItems": {"type": "boolean"},
        "minItems": _COUNT,
        "maxItems": _COUNT,
        "additionalItems": {"type": "boolean"},
    },
}

_PROPERTIES = {
    "type": "object",
    "propertyNames": {"maxLength": NAME_LIMIT, "minLength": 1},
    "additionalProperties": {"$ref": "#/$defs/property"},
}

#: A namespace file as Glance's loader reads it and its API models read it back: the attributes
#: Glance's WSME models accept (``additionalProperties: false`` everywhere, since an unknown one
#: breaks every later read), the names the loader indexes directly, and the API's length limits.
#: The models' read-only ``created_at``, ``updated_at``, ``self`` and ``schema`` are refused too:
#: the loader never reads them from a file, so a file that sets them is mistaken.
METADEF_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Glance metadata definition namespace file",
    "type": "object",
    "additionalProperties": False,
    "required": ["namespace"],
    "properties": {
        "namespace": _NAME,
        "display_name": {"type": "string", "maxLength": NAME_LIMIT},
        "description": {"type": "string", "maxLength": NAMESPACE_DESCRIPTION_LIMIT},
        "visibility": {"enum": ["public", "private"]},
        "protected": {"type": "boolean"},
        "owner": {"type": "string", "maxLength": 255},
        "resource_type_associations": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name"],
                "properties": {
                    "name": _NAME,
                    "prefix": {"type": "string", "maxLength": NAME_LIMIT},
                    "properties_target": {"type": "string", "maxLength": NAME_LIMIT},
                },
            },
        },
        "properties": _PROPERTIES,
        "objects": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name"],
                "properties": {
                    "name": _NAME,
                    "description": {"type": "string"},
                    "properties": _PROPERTIES,
                    "required": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                },
            },
        },
        "tags": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name"],
                "properties": {"name": _NAME},
            },
        },
    },
    "$defs": {"property": _PROPERTY},
}


def schema_errors(document: Any) -> list[str]:
    """Where ``document`` breaks :data:`METADEF_SCHEMA`, one sentence each, in document order."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(
        METADEF_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER
    )
    errors = sorted(validator.iter_errors(document), key=lambda e: [str(p) for p in e.path])
    return [f"{_path(error.path)}: {error.message}" for error in errors]


def _path(parts: Iterable[Any]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def _property_problems(where: str, schema: Mapping[str, Any]) -> Iterator[str]:
    enum = schema.get("enum")
    if isinstance(enum, list):
        duplicates = sorted({v for v in enum if enum.count(v) > 1}, key=str)
        if duplicates:
            yield f"{where}: enum lists {', '.join(map(repr, duplicates))} more than once"
    if "default" in schema:
        default = schema["default"]
        if isinstance(enum, list) and default not in enum:
            yield f"{where}: default {default!r} is not one of the enum values"
        if not isinstance(default, str):
            yield f"{where}: default {default!r} is not a string; Glance hands it back as text"
        elif not default.isascii():
            yield f"{where}: default {default!r} is not ASCII; Glance fails to serialise it"
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        try:
            re.compile(pattern)
        except re.error as exc:
            yield f"{where}: pattern {pattern!r} does not compile: {exc}"
        if re.search(r"\(\?P|\\[AZ]", pattern):
            yield f"{where}: pattern {pattern!r} uses Python-only syntax"
    low, high = schema.get("minimum"), schema.get("maximum")
    if isinstance(low, int | float) and isinstance(high, int | float) and low > high:
        yield f"{where}: minimum {low} is greater than maximum {high}"


def _names(document: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(where, name) for every property of the namespace and of its objects."""
    for name in document.get("properties") or {}:
        yield f"properties[{name!r}]", name
    for index, obj in enumerate(document.get("objects") or []):
        if isinstance(obj, Mapping):
            for name in obj.get("properties") or {}:
                yield f"objects[{index}].properties[{name!r}]", name


def _association_problems(associations: Any) -> Iterator[str]:
    if not isinstance(associations, list):
        return
    seen: set[object] = set()  # the names as given, whatever they are
    for index, association in enumerate(associations):
        if not isinstance(association, Mapping):
            continue
        where = f"resource_type_associations[{index}] ({association.get('name')})"
        if association.get("name") in seen:
            yield f"{where}: a second association for the same resource type is ignored"
        seen.add(association.get("name"))
        prefix = association.get("prefix")
        if prefix is not None and (not prefix or prefix[-1] not in ":_"):
            yield f"{where}: prefix {prefix!r} must end in ':' or '_' (it is joined verbatim)"
        for label in ("name", "prefix", "properties_target"):
            value = association.get(label)
            if isinstance(value, str) and len(value) > NAME_LIMIT:
                yield f"{where}: {label} is longer than {NAME_LIMIT} characters"


def problems(document: Any) -> list[str]:
    """What would go wrong in Glance that :data:`METADEF_SCHEMA` cannot express.

    Missing ``visibility`` hides the namespace from non-admin users, a missing ``protected``
    leaves it deletable; prefixes must carry their separator and there is one per resource type;
    enum values must be unique and hold the default; names fit Glance's 80-character columns; an
    object's ``required`` list and an object without properties do not survive the loader; and
    a property name may appear only once across the namespace and its objects, since the prefix
    turns both into the same key.
    """
    if not isinstance(document, Mapping):
        return ["(top level): a namespace file must hold a JSON object"]
    found: list[str] = []
    for label in ("visibility", "protected"):
        if label not in document:
            found.append(f"(top level): no {label!r}; Glance stores NULL")
    for label in ("namespace", "display_name"):
        value = document.get(label)
        if isinstance(value, str) and len(value) > NAME_LIMIT:
            found.append(f"{label}: longer than {NAME_LIMIT} characters")
    found.extend(_association_problems(document.get("resource_type_associations")))
    for index, obj in enumerate(document.get("objects") or []):
        if not isinstance(obj, Mapping):
            continue
        where = f"objects[{index}] ({obj.get('name')})"
        if "required" in obj:
            found.append(f"{where}: 'required' is dropped by the loader")
        if not obj.get("properties"):
            found.append(f"{where}: an object without properties cannot be read back")
        if isinstance(obj.get("name"), str) and len(obj["name"]) > NAME_LIMIT:
            found.append(f"{where}: name is longer than {NAME_LIMIT} characters")
    first: dict[str, str] = {}
    for where, name in _names(document):
        if len(name) > NAME_LIMIT:
            found.append(f"{where}: name is longer than {NAME_LIMIT} characters")
        if name in first:
            found.append(f"{where}: the same name as {first[name]}")
        first.setdefault(name, where)
    for where, name in _names(document):
        schema = _lookup(document, where, name)
        if isinstance(schema, Mapping):
            found.extend(_property_problems(where, schema))
    return found


def _lookup(document: Mapping[str, Any], where: str, name: str) -> Any:
    if where.startswith("properties"):
        return document["properties"][name]
    index = int(where.split("[", 1)[1].split("]", 1)[0])
    return document["objects"][index]["properties"][name]


def check_document(filename: str, document: Any) -> None:
    """Raise :class:`MetadefError` listing everything wrong with one file, naming it."""
    found = [*schema_errors(document), *problems(document)]
    if found:
        raise MetadefError(f"{filename}: " + f"\n{filename}: ".join(found))


def flavor_properties(
    files: Mapping[Any, Mapping[str, Any]], resource_type: str = FLAVOR
) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    """(key, file, property) for every property ``resource_type`` sees: prefix plus name."""
    for filename, document in files.items():
        for association in document.get("resource_type_associations") or []:
            if association.get("name") != resource_type:
                continue
            prefix = association.get("prefix") or ""
            for where, name in _names(document):
                yield prefix + name, str(filename), _lookup(document, where, name)


def cross_file_problems(files: Mapping[Any, Mapping[str, Any]]) -> list[str]:
    """Keys that more than one property offers for the same resource type."""
    found = []
    for resource_type in (FLAVOR, IMAGE, VOLUME):
        seen: dict[str, str] = {}
        for key, filename, _ in flavor_properties(files, resource_type):
            if key in seen:
                found.append(f"{filename}: {resource_type} key {key!r} is also in {seen[key]}")
            seen.setdefault(key, filename)
    return found
