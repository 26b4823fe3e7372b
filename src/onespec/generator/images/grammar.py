"""Everything derived from the image-spec grammar in :mod:`onespec.definitions.image_validators`.

Three texts come from the one grammar: the JSON Schema of a spec (registered in
:data:`onespec.generator.manifest.SCHEMAS`), the runtime's tables
(``validators_runtime/_generated/image_validators.py``, which also embeds the schema so that
``onespec image check`` needs no file outside the package), and the reStructuredText of the
reference page (through the ``onespec:auto-image-validators`` directive).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from onespec.definitions import image_validators as grammar
from onespec.generator.literals import assignment, module_header, module_text
from onespec.generator.outputs import Output, generated_module
from onespec.generator.schema import DIALECT, schema_id
from onespec.generator.schema.patterns import anchored, portable

#: The schema's file name in ``outputs/schemas/``.
SCHEMA_FILE = "image-validation-spec.schema.json"

#: The runtime's tables, inside the runtime package wherever it is installed.
RUNTIME_MODULE = generated_module("image_validators")


# --- JSON Schema --------------------------------------------------------------------------------


def _pattern(name: str) -> str:
    return anchored(portable(grammar.PATTERNS[name][0]))


def _value_schema(key: grammar.Key) -> dict[str, Any]:
    """The schema of one named key's value, by its grammar type."""
    text = {"description": key.description}
    if key.type == "string":
        return {**text, "type": "string"}
    if key.type == "text":
        schema = {**text, "type": "string", "minLength": 1}
        if key.pattern:
            schema["pattern"] = _pattern(key.pattern)
        return schema
    if key.type == "boolean":
        return {**text, "type": "boolean"}
    if key.type == "scalar":
        return {**text, "type": ["string", "number"]}
    if key.type == "scalars":
        return {**text, "type": "array", "items": {"type": ["string", "number"]}}
    if key.type == "env-name":
        return {**text, "type": "string", "pattern": _pattern("env-name")}
    if key.type == "env-names":
        return {
            **text,
            "type": "array",
            "items": {"type": "string", "pattern": _pattern("env-name")},
        }
    if key.type == "validators":
        return {**text, "$ref": "#/$defs/validators"}
    if key.type == "cases":
        return {
            **text,
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {"$ref": "#/$defs/validators"},
        }
    raise ValueError(f"no schema for the grammar type {key.type!r}")  # pragma: no cover


def _mapping_schema(keys: tuple[grammar.Key, ...], description: str) -> dict[str, Any]:
    """A mapping of named keys. Unknown keys are allowed: the loader warns about them."""
    schema: dict[str, Any] = {
        "description": description,
        "type": "object",
        "properties": {key.name: _value_schema(key) for key in keys},
    }
    required = [key.name for key in keys if key.required]
    if required:
        schema["required"] = required
    return schema


def _named_options(options: tuple[grammar.Key, ...], what: str) -> dict[str, Any]:
    """``{PATH: {options}}``: exactly one entry whose value is the options, or null."""
    return {
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "propertyNames": {"minLength": 1},
        "additionalProperties": {
            "anyOf": [
                {"type": "null"},
                _mapping_schema(options, f"The options of the {what}."),
            ]
        },
    }


#: The schema's name for one entry of a ``package`` validator, shared by its two forms.
PACKAGE_ENTRY = "package_entry"


def _package_entry_schema(kind: grammar.ValidatorKind) -> dict[str, Any]:
    """One package: its name, or a one-key mapping of its name to its version."""
    return {
        "anyOf": [
            {"type": "string", "pattern": _pattern("package-name")},
            {
                "type": "object",
                "minProperties": 1,
                "maxProperties": 1,
                "propertyNames": {"pattern": _pattern("package-name")},
                "additionalProperties": {
                    "anyOf": [
                        {"type": "null"},
                        _mapping_schema(kind.keys, "The package's version."),
                    ]
                },
            },
        ],
    }


def _kind_schema(kind: grammar.ValidatorKind) -> dict[str, Any]:
    description = f"{kind.title}. {kind.summary}"
    if kind.key == "package":
        entry = {"$ref": f"#/$defs/{PACKAGE_ENTRY}"}
        return {
            "description": description,
            "anyOf": [entry, {"type": "array", "minItems": 1, "items": entry}],
        }
    if kind.key in {"script", "copy_script"}:
        return {
            "description": description,
            "anyOf": [
                {"type": "string", "minLength": 1},
                _named_options(kind.keys, kind.key.replace("_", " ")),
            ],
        }
    if kind.key in {"all", "any"}:
        return {"description": description, "$ref": "#/$defs/validators"}
    if kind.key == "os_case":
        return {
            "description": description,
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "minProperties": 1,
                "maxProperties": 1,
                "additionalProperties": {"$ref": "#/$defs/validators"},
            },
        }
    return _mapping_schema(kind.keys, description)


def schema() -> dict[str, Any]:
    """The JSON Schema of an image spec (Draft 2020-12).

    It states the structure; what only the loader can know -- that a script exists inside a
    resource root, that an argument_case names a declared argument -- is checked by
    ``onespec image check`` after it.
    """
    arguments = next(s for s in grammar.SECTIONS if s.name == "arguments")
    validators = next(s for s in grammar.SECTIONS if s.name == "validators")
    kinds = [kind.key for kind in grammar.KINDS]
    return {
        "$schema": DIALECT,
        "$id": schema_id(SCHEMA_FILE),
        "title": "Image validation spec",
        "description": (
            "A spec of what an image must hold for a plugin: the arguments it takes and the "
            "validators an instance booted from it must pass. Keys the grammar does not know "
            "are allowed here and reported as warnings by onespec image check, which also "
            "checks what a schema cannot: scripts inside the resource roots, declared "
            "arguments, reserved variable names. Generated by `onespec generate schemas` from "
            "src/onespec/definitions/image_validators.py; do not edit."
        ),
        "type": "object",
        "required": [s.name for s in grammar.SECTIONS if s.required],
        "properties": {
            "arguments": {
                "description": arguments.description,
                "type": "object",
                "propertyNames": {"pattern": _pattern("env-name")},
                "additionalProperties": _mapping_schema(
                    arguments.keys, "One argument: its description, default, choices."
                ),
            },
            "validators": {"description": validators.description, "$ref": "#/$defs/validators"},
        },
        "$defs": {
            "validators": {
                "description": "A list of validators, each a mapping with one key: its kind.",
                "type": "array",
                "items": {"$ref": "#/$defs/validator"},
            },
            "validator": {
                "description": f"One validator: a mapping with one key, one of {', '.join(kinds)}.",
                "type": "object",
                "minProperties": 1,
                "maxProperties": 1,
                "propertyNames": {"enum": kinds},
                "properties": {kind.key: {"$ref": f"#/$defs/{kind.key}"} for kind in grammar.KINDS},
            },
            **{kind.key: _kind_schema(kind) for kind in grammar.KINDS},
            PACKAGE_ENTRY: _package_entry_schema(
                next(kind for kind in grammar.KINDS if kind.key == "package")
            ),
        },
    }


# --- The runtime's tables -----------------------------------------------------------------------


def runtime_lines() -> Iterator[str]:
    """The lines of ``_generated/image_validators.py``."""
    yield from module_header(
        "images",
        "src/onespec/definitions/image_validators.py",
        "The image-spec grammar as plain data, and its JSON Schema.",
    )
    for name, value in grammar.tables().items():
        if name == "COPY_DESTINATION":
            # The shared directory the plugins' scripts read staged files from.
            yield f"{name} = {value!r}  # noqa: S108"
            yield ""
            continue
        yield from assignment(name, value)
    yield from assignment("SCHEMA", schema())


def render_runtime() -> str:
    """The generated module's text, ending with one newline."""
    return module_text(runtime_lines())


def output() -> Output:
    """The ``images`` output: the runtime's grammar tables."""
    return Output("images", lambda: {RUNTIME_MODULE: render_runtime()})


# --- The reference ------------------------------------------------------------------------------


def _indent(text: str, prefix: str = "   ") -> Iterator[str]:
    for line in text.splitlines():
        yield f"{prefix}{line}" if line else ""


def _code(text: str, prefix: str) -> Iterator[str]:
    yield f"{prefix}.. code-block:: yaml"
    yield ""
    yield from _indent(text, prefix + "   ")
    yield ""


def _key_fields(keys: tuple[grammar.Key, ...], prefix: str) -> Iterator[str]:
    for key in keys:
        kind = grammar.VALUE_TYPES[key.type]
        required = "required; " if key.required else ""
        yield f"{prefix}:``{key.name}``: ({required}{kind}) {key.description}"
        if key.pattern:
            yield f"{prefix}   Must be {grammar.PATTERNS[key.pattern][1]}."


def validator_lines(kind: grammar.ValidatorKind) -> Iterator[str]:
    """One ``onespec:image-validator`` description: forms, keys, behaviour, notes."""
    yield f".. onespec:image-validator:: {kind.key}"
    yield "   :group: image validators"
    yield ""
    yield f"   **{kind.title}.** {kind.summary}"
    yield ""
    yield "   Accepted forms:"
    yield ""
    for form in kind.forms:
        yield f"   * *{form.name}* -- {form.description}"
        yield ""
        yield from _code(form.example, "     ")
    if kind.keys:
        yield "   Keys:"
        yield ""
        yield from _key_fields(kind.keys, "   ")
        yield ""
    yield f"   :With reconcile: {kind.reconcile}"
    yield f"   :Without reconcile: {kind.check_only}"
    if kind.implementation:
        yield f"   :Class: ``onespec.validators_runtime.images.{kind.implementation}``"
    yield ""
    for note in kind.notes:
        yield from _indent(note)
        yield ""


def section_lines(section: grammar.Section) -> Iterator[str]:
    """One top-level section of a spec, as an ``image-validator`` object of group ``spec``."""
    yield f".. onespec:image-validator:: {section.name}"
    yield "   :group: image spec"
    yield ""
    required = "Required." if section.required else "Optional."
    yield f"   {required} {section.description}"
    yield ""
    yield from _code(section.example, "   ")
    if section.keys:
        yield "   Keys of each entry:"
        yield ""
        yield from _key_fields(section.keys, "   ")
        yield ""


def reference_lines() -> Iterator[str]:
    """The whole reference: the sections, the validator kinds, the names and variables."""
    yield "Sections"
    yield "========"
    yield ""
    for section in grammar.SECTIONS:
        yield from section_lines(section)
    yield "Validators"
    yield "=========="
    yield ""
    for kind in grammar.KINDS:
        yield from validator_lines(kind)
    yield "Names and values"
    yield "================"
    yield ""
    for name, (_, hint) in grammar.PATTERNS.items():
        yield f":{name}: {hint[0].upper()}{hint[1:]}."
    yield ""
    yield "Variables every script receives:"
    yield ""
    for name, description in grammar.RESERVED_VARIABLES:
        yield f":``{name}``: {description}"
    yield ""
    yield "Distributions, by ``/etc/os-release`` ``ID``, and their families:"
    yield ""
    families = dict(grammar.FAMILIES)
    for os_id, name in grammar.DISTRIBUTIONS:
        yield f"* ``{os_id}``: ``{name}``, family ``{families[name]}``"
    yield ""
    for family, query, install in grammar.FAMILY_TOOLS:
        yield f"* family ``{family}``: queried with {query}, installed with {install}"
    yield ""
