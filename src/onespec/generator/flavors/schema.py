"""The JSON Schema of an image's properties as Nova reads them.

Glance holds every property as a string (a JSON number or boolean is accepted too, as the
OpenStack client prints some of them). Integers must be what Nova's ``IntegerField`` reads, an
enumeration one of its values, a UUID a UUID; a boolean is any string, because Nova's
``FlexibleBoolean`` reads anything that is not a true spelling as false. Per-node
``hw_numa_cpus.N``/``hw_numa_mem.N`` are matched by pattern. Unknown properties are allowed:
Glance and other services keep their own.
"""

from __future__ import annotations

from typing import Any

from onespec.definitions.image_properties import IMAGE_PROPERTIES, ImageProperty
from onespec.generator.schema import DIALECT, schema_id
from onespec.generator.schema.patterns import integer_pattern

IMAGE_PROPERTIES_SCHEMA = "image-properties.schema.json"

_CPU_LIST = r"^\s*\^?[0-9]+(-[0-9]+)?(\s*,\s*\^?[0-9]+(-[0-9]+)?)*\s*$"
_UUID = r"^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$"


def _value(prop: ImageProperty) -> dict[str, Any]:
    if prop.kind == "enum":
        return {"enum": list(prop.enum)}
    if prop.kind == "int":
        return {
            "anyOf": [
                {"type": "integer"},
                {"type": "string", "pattern": integer_pattern(None, None)},
            ]
        }
    if prop.kind == "bool":
        return {"type": ["string", "boolean"]}
    if prop.kind == "uuid":
        return {"type": "string", "pattern": _UUID}
    if prop.kind == "str-list":
        return {"type": "array", "items": {"type": "string"}}
    return {"type": "string"}


def image_properties_schema() -> dict[str, Any]:
    properties: dict[str, Any] = {}
    patterns: dict[str, Any] = {}
    for prop in IMAGE_PROPERTIES:
        if prop.kind == "cpu-lists":
            patterns[rf"^{prop.name}\.[0-9]+$"] = {
                "type": "string",
                "pattern": _CPU_LIST,
                "description": prop.description,
            }
        elif prop.kind == "int-list":
            patterns[rf"^{prop.name}\.[0-9]+$"] = {
                "type": "string",
                "pattern": integer_pattern(0, None),
                "description": prop.description,
            }
        else:
            properties[prop.name] = {"description": prop.description, **_value(prop)}
    return {
        "$schema": DIALECT,
        "$id": schema_id(IMAGE_PROPERTIES_SCHEMA),
        "title": "Image properties Nova 34.0.0 reads",
        "description": (
            "The properties of a Glance image (its top-level fields, or the 'properties' of "
            "`openstack image show -f json`) that Nova's ImageMetaProps reads, typed as Nova "
            "reads them. Other properties are allowed."
        ),
        "type": "object",
        "properties": properties,
        "patternProperties": patterns,
    }
