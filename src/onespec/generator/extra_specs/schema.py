"""JSON Schemas generated from the definitions, for tools that cannot import onespec.

An editor, a CI job in another language or an API gateway can check extra specs with any
JSON Schema validator; the schema written here gives the verdict that
:mod:`onespec.validators_runtime.extra_specs` gives in strict mode, except for the few rules JSON
Schema cannot state, which :data:`DIFFERENCES` lists (and the schema's own description
repeats).

Everything here is a pure function from definitions to a JSON-ready dict.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from onespec.definitions.model import (
    FALSE_STRINGS,
    MAX_LENGTH,
    TRUE_STRINGS,
    ExtraSpec,
    LiteralText,
    Parameter,
    Segment,
    Value,
    deprecation_sentence,
    segments_text,
)
from onespec.generator.schema import DIALECT, SchemaError, schema_id
from onespec.generator.schema.patterns import (
    END,
    Token,
    _can_match,
    anchored,
    boolean_pattern,
    digits_range,
    integer_pattern,
    literal,
    portable,
    tokens,
)
from onespec.generator.text import first_sentence, plain_text

FLAVOR_EXTRA_SPECS = "flavor-extra-specs.schema.json"


@dataclass(frozen=True)
class Difference:
    """A runtime rule the schema cannot state, and what the schema does instead."""

    name: str
    text: str


#: Where a schema's verdict differs from the runtime's. Each is stated in the schema's
#: description and in ``doc/source/guides/json-schema.rst``, and tested by example.
DIFFERENCES: tuple[Difference, ...] = (
    Difference(
        "json-numbers",
        "Values must be JSON strings. The runtime, like Nova's API, also accepts a JSON number "
        'and checks its decimal form (2 is read as "2"); the schema rejects it.',
    ),
    Difference(
        "unicode-digits",
        "Integer values, and the \\d of value patterns (CPU lists, page sizes, PCI aliases), "
        "accept the decimal digits of every script of Unicode's Basic Multilingual Plane, as "
        "Python's int() and \\d do (٣ is 3), but not those beyond it, such as the "
        "mathematical digits (𝟑), which the runtime also accepts.",
    ),
    Difference(
        "unicode-word-characters",
        "The \\w of key patterns (the filter steps of capabilities keys) means ASCII letters, "
        "digits and the underscore. Python's \\w also matches other Unicode letters and digits, "
        "which the runtime therefore accepts and the schema rejects.",
    ),
)


@dataclass(frozen=True)
class _Group:
    """Definitions whose keys share a prefix template, as the runtime's tables group them.

    The runtime matches a key's prefix with the prefix of the group's *first* definition, so
    the schema does too.
    """

    template: str
    prefix: tuple[Segment, ...]
    definitions: tuple[ExtraSpec, ...]

    @property
    def bare(self) -> bool:
        """Keys without a colon: no prefix, and the rest is the whole key."""
        return not self.template


def _groups(definitions: Iterable[ExtraSpec]) -> tuple[_Group, ...]:
    """Group definitions by prefix template, in the order the runtime's tables do."""
    prefixes: dict[str, tuple[Segment, ...]] = {}
    members: dict[str, list[ExtraSpec]] = {}
    for definition in definitions:
        template = segments_text(definition.key_prefix)
        prefixes.setdefault(template, definition.key_prefix)
        members.setdefault(template, []).append(definition)
    return tuple(_Group(t, prefixes[t], tuple(members[t])) for t in prefixes)


def _parameter_pattern(parameter: Parameter, owner: str, *, bounded: bool) -> str:
    """The pattern of one parameter; ``bounded`` folds its min/max or max_length in."""
    parts = _parameter_tokens(parameter, owner)
    has_range = parameter.type is int and (parameter.min is not None or parameter.max is not None)
    if bounded and has_range:
        return _bounded_integer(parameter, owner)
    if bounded and parameter.max_length is not None:
        return _bounded_length(parameter, parts, owner)
    return _as_unit(parts)


def _parameter_tokens(parameter: Parameter, owner: str) -> list[Token]:
    """A parameter's tokens; anchors and lookarounds would see other text in a whole-key match."""
    try:
        parts = tokens(parameter.regex)
    except SchemaError as exc:
        raise SchemaError(f"definition {owner!r}, parameter {{{parameter.name}}}: {exc}") from None
    if any(kind in {"anchor", "lookaround"} for kind, _ in parts):
        raise SchemaError(
            f"definition {owner!r}, parameter {{{parameter.name}}}: anchors and lookarounds "
            "mean something else once the parameter is part of a whole key"
        )
    return parts


def _bounded_integer(parameter: Parameter, owner: str) -> str:
    """An int parameter (digits only) with its range folded into the pattern."""
    if parameter.regex != "[0-9]+" or parameter.max_length is not None:
        raise SchemaError(
            f"definition {owner!r}, parameter {{{parameter.name}}}: only the default digits "
            "pattern, without max_length, can carry an integer range"
        )
    return digits_range(max(parameter.min or 0, 0), parameter.max, separators=False)


def _bounded_length(parameter: Parameter, parts: list[Token], owner: str) -> str:
    """``[...]*`` or ``[...]+`` with a max_length of n, as ``[...]{0,n}`` or ``[...]{1,n}``."""
    limit = parameter.max_length or 0
    shapes = {"*": 0, "+": 1}
    if len(parts) != 2 or parts[0][0] != "atom" or parts[1][1] not in shapes:
        raise SchemaError(
            f"definition {owner!r}, parameter {{{parameter.name}}}: max_length can be written "
            "into a pattern of one character class with * or + only"
        )
    least = shapes[parts[1][1]]
    if limit < least:
        return "(?!)"
    return f"{parts[0][1]}{{{least},{limit}}}"


def _as_unit(parts: list[Token]) -> str:
    """Tokens as one unit that a following literal cannot bind into (a group if needed)."""
    text = "".join(t for _, t in parts)
    simple = len(parts) == 1 or (len(parts) == 2 and parts[1][0] == "quantifier")
    return text if simple and parts[0][0] == "atom" else f"(?:{text})"


def _segments_pattern(segments: Sequence[Segment], owner: str, *, bounded: bool) -> str:
    return "".join(
        literal(segment.text)
        if isinstance(segment, LiteralText)
        else _parameter_pattern(segment, owner, bounded=bounded)
        for segment in segments
    )


def _prefix_pattern(group: _Group, *, bounded: bool) -> str:
    """The group's prefix, which must not be able to run past the key's first colon."""
    owner = group.definitions[0].name
    for segment in group.prefix:
        if isinstance(segment, Parameter) and _can_match(_parameter_tokens(segment, owner), ":"):
            raise SchemaError(
                f"definition {owner!r}, parameter {{{segment.name}}}: a parameter before the "
                "first colon must not match a colon"
            )
    return _segments_pattern(group.prefix, owner, bounded=bounded)


def _key_head(group: _Group, *, bounded: bool) -> str:
    """``^`` and what comes before a rest: the prefix and its colon, or no colon at all.

    A key that starts with a colon has an empty namespace, which the runtime never matches.
    """
    if group.bare:
        return r"^(?![\s\S]*:)"
    prefix = _prefix_pattern(group, bounded=bounded)
    guard = "(?!:)" if re.fullmatch(prefix, "") is not None else ""
    return f"^{guard}{prefix}:"


def key_pattern(group: _Group, definition: ExtraSpec) -> str:
    """The anchored pattern of the keys one patterned definition claims."""
    rest = _segments_pattern(definition.key_rest, definition.name, bounded=True)
    return f"{_key_head(group, bounded=True)}{rest}{END}"


def _catalogued_pattern(group: _Group) -> str:
    """Every key of one group, as one anchored pattern."""
    rests = "|".join(_segments_pattern(d.key_rest, d.name, bounded=True) for d in group.definitions)
    return f"{_key_head(group, bounded=True)}(?:{rests}){END}"


def _namespace_patterns(groups: Sequence[_Group]) -> list[str]:
    """Patterns of the keys in a known namespace: where a key must match some definition.

    That is a key whose prefix some group's prefix matches, bounds aside (a group suffix that
    is too long is an unknown key, not a foreign one), and a key without a colon that a
    patterned bare definition would match but for its bounds.
    """
    prefixes = "|".join(_prefix_pattern(g, bounded=False) for g in groups if not g.bare)
    patterns = [f"^(?!:)(?:{prefixes}):"] if prefixes else []
    for group in groups:
        for definition in group.definitions if group.bare else ():
            if definition.parameters:
                rest = _segments_pattern(definition.key_rest, definition.name, bounded=False)
                patterns.append(f"{_key_head(group, bounded=False)}{rest}{END}")
    return patterns


def value_schema(value: Value, owner: str) -> dict[str, Any]:
    """The rule for a value, stated on its string form."""
    schema: dict[str, Any] = {"type": "string", "maxLength": MAX_LENGTH}
    if value.type is bool:
        schema["pattern"] = boolean_pattern()
    elif value.type is int:
        schema["pattern"] = integer_pattern(value.min, value.max)
    else:
        if value.max_length is not None:
            schema["maxLength"] = min(value.max_length, MAX_LENGTH)
        if value.enum:
            schema["enum"] = list(value.enum_values)
        if value.pattern is not None:
            try:
                schema["pattern"] = anchored(portable(value.pattern))
            except SchemaError as exc:
                raise SchemaError(f"definition {owner!r}, value pattern: {exc}") from None
    return schema


def _value_comment(value: Value) -> str | None:
    """The rule in words, for readers of a schema whose patterns are hard to read."""
    if value.type is bool:
        spellings = ", ".join(sorted(TRUE_STRINGS | FALSE_STRINGS))
        return f"A boolean as Nova reads it: {spellings}, in any case, with surrounding space."
    if value.type is int:
        low = "any" if value.min is None else str(value.min)
        high = "any" if value.max is None else str(value.max)
        return f"An integer as Python's int() reads it, from {low} to {high}."
    if value.pattern_hint:
        return f"Must be {value.pattern_hint}."
    return None


def property_schema(definition: ExtraSpec) -> dict[str, Any]:
    """What a key's value must be, with the definition's name and first sentence."""
    schema: dict[str, Any] = {"title": definition.name, "description": summary(definition)}
    if definition.deprecated:
        schema["deprecated"] = True
    comment = _value_comment(definition.value)
    if comment:
        schema["$comment"] = comment
    schema.update(value_schema(definition.value, definition.name))
    return schema


def summary(definition: ExtraSpec) -> str:
    """A property's description: the first sentence, and how it is deprecated if it is."""
    text = first_sentence(plain_text(definition.description))
    status = definition.status
    if status.deprecated:
        note = deprecation_sentence(
            "This extra spec", status.since, status.removal, status.replacement
        )
        text = f"{text} {note}".strip()
    return text


def flavor_extra_specs_schema(definitions: Sequence[ExtraSpec] | None = None) -> dict[str, Any]:
    """The schema of a flavor's extra specs; by default from the in-tree catalogue.

    Exact keys are ``properties`` and patterned ones ``patternProperties``, each with its
    value's rule. ``propertyNames`` carries the key rules the runtime applies in strict mode.
    """
    if definitions is None:
        from onespec.definitions.registry import in_tree

        definitions = in_tree()
    groups = _groups(definitions)
    return {
        "$schema": DIALECT,
        "$id": schema_id(FLAVOR_EXTRA_SPECS),
        "title": "Flavor extra specs",
        "description": _description(definitions, groups),
        "type": "object",
        "propertyNames": {
            "description": (
                "A key is 1 to 255 characters long. A key in a namespace that some definition "
                "claims must be a key that a definition claims; any other key is accepted."
            ),
            "minLength": 1,
            "maxLength": MAX_LENGTH,
            "if": {"$ref": "#/$defs/key-in-a-known-namespace"},
            "then": {"$ref": "#/$defs/catalogued-key"},
        },
        "properties": {d.name: property_schema(d) for d in definitions if not d.parameters},
        "patternProperties": _pattern_properties(groups),
        "additionalProperties": {
            "description": (
                "A key no definition claims belongs to another service: its value is not "
                "checked, but it must be a string, as Nova's API requires of every value."
            ),
            "type": "string",
        },
        "$defs": {
            "key-in-a-known-namespace": {
                "description": (
                    "A key whose namespace (the text before its first colon) some definition "
                    "claims."
                ),
                "anyOf": [{"pattern": p} for p in _namespace_patterns(groups)] or [False],
            },
            "catalogued-key": {
                "description": "A key that a definition claims, one pattern per namespace.",
                "anyOf": [{"pattern": _catalogued_pattern(g)} for g in groups] or [False],
            },
        },
    }


def _pattern_properties(groups: Sequence[_Group]) -> dict[str, Any]:
    """One entry per patterned definition; two definitions may not claim the same pattern."""
    result: dict[str, Any] = {}
    for group in groups:
        for definition in group.definitions:
            if not definition.parameters:
                continue
            pattern = key_pattern(group, definition)
            if pattern in result:
                raise SchemaError(
                    f"definitions {result[pattern]['title']!r} and {definition.name!r} "
                    "claim the same keys"
                )
            result[pattern] = property_schema(definition)
    return result


def _description(definitions: Sequence[ExtraSpec], groups: Sequence[_Group]) -> str:
    """What the schema validates, where it comes from, and where it differs from the runtime."""
    known = ", ".join(group.template for group in groups if not group.bare)
    differences = " ".join(
        f"({number}) {difference.text}" for number, difference in enumerate(DIFFERENCES, 1)
    )
    return (
        "The extra specs of an OpenStack Nova flavor: an object that maps each extra-spec key "
        "to its value, a string. Validating against this schema gives the verdict of onespec's "
        f"runtime validator in strict mode, with the {len(definitions)} definitions of onespec's "
        "in-tree catalogue. A key is 1 to 255 characters long. A key in a namespace that a "
        f"definition claims ({known}) must be a key that a definition claims, and its value "
        "must be a string of at most 255 characters that satisfies the key's rule. Keys of any "
        "other namespace, and keys without a colon that no definition claims, belong to other "
        "services and are accepted, their values unchecked but strings. Deprecated keys are "
        "valid and carry the deprecated annotation. Where this schema differs from the runtime: "
        f"{differences} Generated by `onespec generate schemas`; do not edit."
    )
