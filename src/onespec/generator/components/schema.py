"""The JSON Schema of the properties of ``OS::Heat::SoftwareComponent``.

Built from :mod:`onespec.definitions.components`, like everything else about components. It
checks the properties after Heat has resolved their intrinsic functions (``get_file`` read,
``get_param`` substituted): an editor or a CI job in any language can check a component with it.
The rules that span several entries cannot be stated in JSON Schema; :data:`DIFFERENCES` lists
them, the schema's description repeats them, and :mod:`onespec.validators_runtime.heat.components`
checks them all.
"""

from __future__ import annotations

from typing import Any

from onespec.definitions import component_vocabulary as kinds
from onespec.definitions import components as vocabulary
from onespec.definitions.component_vocabulary import Field, Shape
from onespec.generator.schema import DIALECT, schema_id
from onespec.generator.schema.patterns import anchored, boolean_pattern, portable
from onespec.generator.text import plain_text

SOFTWARE_COMPONENT = "software-component.schema.json"

#: What the runtime checks and this schema does not: (name, text) pairs.
DIFFERENCES: tuple[tuple[str, str], ...] = (
    (
        "one-config-per-action",
        "An action may appear in one configs entry only; two entries that both leave out "
        "actions clash through the default (CREATE and UPDATE). The schema checks that an "
        "entry lists each action once, not that entries do not share one.",
    ),
    (
        "unique-names",
        "Inputs have unique names, and so do outputs; the schema does not compare them.",
    ),
    (
        "json-text",
        "A string given for a Json input must hold a JSON object or array; the schema accepts "
        "any string.",
    ),
)

_BOOLEAN_WORDS = "|".join("".join(f"[{c.upper()}{c}]" for c in word) for word in ("true", "false"))


def _null_or(*alternatives: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [*alternatives, {"type": "null"}]}


def value_schema(type_name: str) -> dict[str, Any]:
    """What a value of the input type ``type_name`` may be (null: no value)."""

    number = {"type": "number"}
    if type_name == "String":
        return {"type": ["string", "number", "null"]}
    if type_name == "Number":
        return _null_or(
            number, {"type": "string", "pattern": anchored(portable(vocabulary.NUMBER_PATTERN))}
        )
    if type_name == "Boolean":
        return _null_or(
            {"type": "boolean"}, {"enum": [0, 1]}, {"type": "string", "pattern": boolean_pattern()}
        )
    if type_name == "CommaDelimitedList":
        return _null_or(
            {"type": "string"}, {"type": "array", "items": {"type": ["string", "number"]}}
        )
    if type_name == "Json":
        return {"type": ["object", "array", "string", "null"]}
    raise ValueError(f"no schema for the input type {type_name!r}")


def _string_rules(shape: Shape, item: Field) -> dict[str, Any]:

    if shape is vocabulary.CONFIG_ENTRY and item.name == "tool":
        return {
            "pattern": anchored(portable(kinds.TOOL_PATTERN)),
            "maxLength": kinds.TOOL_MAX_LENGTH,
            "not": {"const": vocabulary.GROUP},
        }
    if item.name == "name" and shape is vocabulary.INPUT:
        return {
            "pattern": anchored(r"[^=\x00]+"),
            "not": {"enum": list(vocabulary.RESERVED_INPUT_NAMES)},
        }
    if item.name == "name" and shape is vocabulary.OUTPUT:
        return {
            "pattern": anchored(r"[^/\x00]+"),
            "not": {"enum": list(vocabulary.RESERVED_OUTPUT_NAMES)},
        }
    return {}


def field_schema(shape: Shape, item: Field) -> dict[str, Any]:
    """The schema of one field, with its description and default."""

    schema: dict[str, Any] = {"description": plain_text(item.description)}
    if item.kind == "string":
        schema["type"] = "string"
        if item.choices:
            schema["enum"] = list(item.choices)
        schema.update(_string_rules(shape, item))
    elif item.kind == "boolean":
        # Heat also takes the strings "true" and "false", in any case.
        schema["anyOf"] = [
            {"type": "boolean"},
            {"type": "string", "pattern": anchored(_BOOLEAN_WORDS)},
        ]
    elif item.kind == "list":
        schema["type"] = "array"
        schema["items"] = {"$ref": f"#/$defs/{item.items}"}
        if item.min_items:
            schema["minItems"] = item.min_items
        if item.items == "action":
            schema["uniqueItems"] = True
    elif item.kind == "map":
        schema["type"] = "object"
    if not item.required and item.kind != "any":
        # Heat reads null as "not given": the default applies.
        if "anyOf" in schema:
            schema["anyOf"].append({"type": "null"})
        else:
            schema["type"] = [schema["type"], "null"]
        if "enum" in schema:
            schema["enum"].append(None)
    if item.default is not None:
        schema["default"] = list(item.default) if isinstance(item.default, tuple) else item.default
    return schema


def shape_schema(shape: Shape) -> dict[str, Any]:
    """The schema of a mapping of the properties: its fields, nothing else."""

    schema: dict[str, Any] = {
        "title": plain_text(shape.title),
        "description": plain_text(shape.description),
        "type": "object",
        "properties": {item.name: field_schema(shape, item) for item in shape.fields},
    }
    required = [item.name for item in shape.fields if item.required]
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    if shape is vocabulary.INPUT:
        schema["allOf"] = [
            {
                "if": _declares(type_name.name),
                "then": {"properties": {"default": value_schema(type_name.name)}},
            }
            for type_name in vocabulary.INPUT_TYPES
        ]
    if shape is vocabulary.CONFIG_ENTRY:
        builtin = [tool.name for tool in vocabulary.TOOLS if tool.builtin]
        schema["allOf"] = [
            {
                "if": {"properties": {"tool": {"enum": builtin}}, "required": ["tool"]},
                "then": {
                    "properties": {"config": {"type": "string", "pattern": "^#!"}},
                    "required": ["config"],
                },
            }
        ]
    return schema


def _declares(type_name: str) -> dict[str, Any]:
    """ "The input declares ``type_name``" -- or no type at all, for the default type."""
    if type_name == vocabulary.DEFAULT_INPUT_TYPE:
        return {
            "anyOf": [
                {"not": {"required": ["type"]}},
                {"properties": {"type": {"const": type_name}}, "required": ["type"]},
            ]
        }
    return {"properties": {"type": {"const": type_name}}, "required": ["type"]}


def software_component_schema() -> dict[str, Any]:
    """The schema of the properties of an ``OS::Heat::SoftwareComponent``."""

    standard = ", ".join(action.name for action in vocabulary.ACTIONS)
    differences = " ".join(f"({n}) {text}" for n, (_, text) in enumerate(DIFFERENCES, 1))
    properties = shape_schema(vocabulary.PROPERTIES)
    return {
        "$schema": DIALECT,
        "$id": schema_id(SOFTWARE_COMPONENT),
        "title": f"{vocabulary.RESOURCE_TYPE} properties",
        "description": (
            f"The properties of a Heat {vocabulary.RESOURCE_TYPE} resource, after Heat has "
            "resolved their intrinsic functions: configs, one per set of lifecycle actions, "
            "each with the tool that applies it, and the inputs, outputs and options they share. "
            "Where this schema is looser than onespec's runtime validator: "
            f"{differences} Generated by `onespec generate schemas`; do not edit."
        ),
        **{key: value for key, value in properties.items() if key not in ("title", "description")},
        "$defs": {
            "action": {
                "description": (
                    f"A lifecycle action: one of {standard}, or an extended action -- any other "
                    "upper-case name, which a deployment passes by name."
                ),
                "type": "string",
                "pattern": anchored(portable(kinds.ACTION_PATTERN)),
                "examples": [action.name for action in vocabulary.ACTIONS],
            },
            **{
                shape.name: shape_schema(shape)
                for shape in vocabulary.SHAPES
                if shape is not vocabulary.PROPERTIES
            },
        },
    }
