"""JSON Schemas of template capabilities, built from
:mod:`onespec.definitions.template_capabilities`.

``hot-capabilities.schema.json`` checks the ``capabilities`` section of a HOT template (and
nothing else of it); ``heat-environment-requires.schema.json`` checks an environment that may
use ``requires`` and lists of templates: its sections are Heat's plus ``requires``, and its
registry entries are paths, types, nulls, mappings or lists of templates. What a schema cannot
know -- whether the listed templates exist and resolve to exactly one -- is left to
``onespec template-capabilities resolve``, as each schema's description says.
"""

from __future__ import annotations

from typing import Any

from onespec.definitions import template_capabilities as grammar
from onespec.generator.schema import DIALECT, ID_BASE
from onespec.generator.text import plain_text

HOT_CAPABILITIES = "hot-capabilities.schema.json"
ENVIRONMENT_REQUIRES = "heat-environment-requires.schema.json"


def _header(name: str, title: str, description: str) -> dict[str, Any]:

    return {"$schema": DIALECT, "$id": ID_BASE + name, "title": title, "description": description}


def _rules(*names: str) -> str:
    return " ".join(rule.text for rule in grammar.RULES if rule.name in names)


def _value_defs() -> dict[str, Any]:
    return {
        "text": {"type": "string", "minLength": 1},
        "value": {
            "description": plain_text(_rules("values")),
            "anyOf": [
                {"$ref": "#/$defs/text"},
                {"type": "array", "items": {"$ref": "#/$defs/text"}, "minItems": 1},
            ],
        },
    }


def _section(section_name: str) -> dict[str, Any]:
    section = grammar.section(section_name)
    properties: dict[str, Any] = {}
    for key in grammar.KEYS:
        if section_name in key.sections:
            schema: dict[str, Any] = {
                "title": key.name,
                "description": plain_text(f"{key.summary} {key.description}"),
                "$ref": "#/$defs/value",
            }
            examples = [example for example in key.examples if not example.startswith("[")]
            if examples:
                schema["examples"] = examples
            properties[key.name] = schema
        else:
            properties[key.name] = {
                "not": {},
                "description": plain_text(f"{key.name} is not allowed in {section_name}."),
            }
    return {
        "title": section.name,
        "description": plain_text(f"{section.summary} {section.description}"),
        "type": "object",
        "propertyNames": {"minLength": 1},
        "properties": properties,
        "additionalProperties": {"$ref": "#/$defs/value"},
    }


def hot_capabilities_schema() -> dict[str, Any]:
    """The ``capabilities`` section of a HOT template; the rest of the template is not checked."""
    description = (
        "A HOT template's optional capabilities section: a mapping of capability names to a "
        "string or a list of strings. Only that section is checked; a template without it is "
        f"valid. {_rules('values', 'extra-keys')} Generated from onespec's definitions by "
        "`onespec generate schemas`; do not edit."
    )
    return {
        **_header(HOT_CAPABILITIES, "HOT template capabilities", plain_text(description)),
        "type": "object",
        "properties": {grammar.CAPABILITIES: {"$ref": "#/$defs/capabilities"}},
        "$defs": {"capabilities": _section(grammar.CAPABILITIES), **_value_defs()},
    }


def _registry() -> dict[str, Any]:
    hooks = {
        "anyOf": [
            {"type": "string"},
            {"type": "array", "items": {"type": "string"}},
        ]
    }
    return {
        "description": plain_text(_rules("lists")),
        "type": "object",
        "properties": {
            grammar.REGISTRY_BASE_URL: {
                "type": "string",
                "description": "Where relative paths in this mapping are read from.",
            },
            **{name: hooks for name in grammar.REGISTRY_LIST_KEYS},
        },
        "additionalProperties": {"$ref": "#/$defs/entry"},
    }


def environment_requires_schema() -> dict[str, Any]:
    """A Heat environment that may use ``requires`` and lists of templates in its registry."""
    sections = [*grammar.ENVIRONMENT_SECTIONS, grammar.REQUIRES]
    description = (
        "A Heat environment that may use template capabilities: Heat's sections "
        f"({', '.join(grammar.ENVIRONMENT_SECTIONS)}) and requires, none of them empty. "
        f"{_rules('match', 'type', 'lists')} The schema cannot check that listed templates "
        "exist or that each list resolves to exactly one template: `onespec template-capabilities "
        "resolve` does, and writes the environment Heat accepts (which this schema accepts "
        "too). Generated from onespec's definitions by `onespec generate schemas`; do not edit."
    )
    mapping = {"type": "object"}
    listing = {"type": "array"}
    return {
        **_header(ENVIRONMENT_REQUIRES, "Heat environment with requires", plain_text(description)),
        "type": "object",
        "propertyNames": {"enum": sections},
        "properties": {
            "parameters": mapping,
            "resource_registry": {"$ref": "#/$defs/registry"},
            "parameter_defaults": mapping,
            "encrypted_param_names": listing,
            "event_sinks": listing,
            "parameter_merge_strategies": mapping,
            grammar.REQUIRES: {"$ref": "#/$defs/requires"},
        },
        "$defs": {
            "requires": _section(grammar.REQUIRES),
            "registry": _registry(),
            "entry": {
                "anyOf": [
                    {"type": "null", "description": "Removes the mapping."},
                    {"type": "string", "description": "A template path or a resource type."},
                    {
                        "type": "array",
                        "items": {"$ref": "#/$defs/text"},
                        "minItems": 1,
                        "description": "Templates to choose from by their capabilities.",
                    },
                    {"$ref": "#/$defs/registry"},
                ]
            },
            **_value_defs(),
        },
    }
