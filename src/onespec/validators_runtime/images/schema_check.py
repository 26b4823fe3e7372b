"""A spec against its JSON Schema, as ``onespec image check`` reports it: every place it breaks
the schema with the most specific reason, each located, with the user's value bounded; and a
Glance image, handed over for a spec, named as one."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from onespec.validators_runtime.flavor_parts.image_props import glance_fields
from onespec.validators_runtime.problems import Location, Problem, shown

if TYPE_CHECKING:
    from onespec.validators_runtime.yaml_lines import LineIndex


def _refs(node: Any) -> set[str]:
    """The ``#/$defs/NAME`` names ``node`` refers to."""
    if isinstance(node, dict):
        found = {v.rsplit("/", 1)[1] for k, v in node.items() if k == "$ref"}
        return found.union(*(_refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node))
    return set()


@functools.cache
def inlined_schema() -> dict[str, Any]:
    """The spec's JSON Schema with every non-recursive ``$ref`` replaced by its definition.

    The same schema, validating the same way with the same instance paths and messages, but
    without a reference lookup per list item: a spec of 40,000 packages is checked in half
    the time. Definitions that reach themselves (the validator lists) stay references.
    """
    from onespec.validators_runtime._generated.image_validators import SCHEMA

    schema: Mapping[str, Any] = SCHEMA  # JSON: no narrower type holds all of it
    defs = schema["$defs"]
    reaches = {name: _refs(body) for name, body in defs.items()}
    changed = True
    while changed:
        changed = False
        for targets in reaches.values():
            more = set().union(*(reaches[t] for t in targets if t in reaches)) - targets
            if more:
                targets |= more
                changed = True
    plain = {name for name, targets in reaches.items() if name not in targets}

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            name = ref.rsplit("/", 1)[-1]
            if len(node) == 1 and ref == f"#/$defs/{name}" and name in plain:
                return inline(defs[name])
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(item) for item in node]
        return node

    inlined = inline({k: v for k, v in schema.items() if k != "$defs"})
    return {**inlined, "$defs": {name: inline(body) for name, body in defs.items()}}


#: The longest message a schema error may print: its value is the user's and may be huge.
_MAX_MESSAGE = 1000


def _bounded_message(message: str, instance: Any) -> str:
    """jsonschema's message with the offending value shown bounded, and the whole cut short.

    jsonschema writes the value's whole ``repr`` into the message; an alias-shared nested list
    of a few hundred bytes of YAML expands to hundreds of kilobytes of text.
    """
    whole = repr(instance)
    if len(whole) > 80:
        message = message.replace(whole, shown(instance))
    if len(message) > _MAX_MESSAGE:
        message = message[:_MAX_MESSAGE] + f"... ({len(message):,} characters)"
    return message


def _glance_image_fields(data: Any) -> list[str]:
    """The Glance image fields ``data`` has, when it has no ``validators`` (else none): a file
    holding two of them is an image, handed to the command meant for plugins' image specs."""
    if not isinstance(data, dict) or "validators" in data:
        return []
    return glance_fields(data)


def schema_errors(data: Any, file: str, lines: LineIndex) -> list[Problem]:
    """Every place where ``data`` breaks the JSON Schema, most specific reason first; a Glance
    image is said to be one, with the command that checks it."""
    fields = _glance_image_fields(data)
    if len(fields) >= 2:
        return [
            Problem(
                "not-an-image-spec",
                f"this is a Glance image (it has {', '.join(fields[:3])}), not an image spec: "
                "`onespec image` checks the image specs data-processing plugins ship; check a "
                f"Glance image's properties with `onespec validate image-properties {file}`",
                location=Location(file=file),
            )
        ]
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    from onespec.validators_runtime.problems import key_path_text

    validator = Draft202012Validator(inlined_schema())
    found = []
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        best = best_match([error]) or error
        path = tuple(best.absolute_path)
        line = lines.line(path)
        found.append(
            Problem(
                "schema",
                _bounded_message(best.message, best.instance),
                location=Location(file=file, line=line, path=key_path_text(path) or None),
            )
        )
    return found
