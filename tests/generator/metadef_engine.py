"""A consumer of the metadefs, for the tests: apply a generated property to a value.

:func:`find_property` finds the property a flavor key maps to in parsed files and
:func:`check_value` checks a value against it, as Horizon or another metadef consumer would; the
tests run the shared cases through them and expect the runtime's verdicts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from onespec.definitions.model import FALSE_STRINGS, TRUE_STRINGS
from onespec.generator.extra_specs.glance_rules import flavor_properties


def find_property(files: Mapping[Any, Mapping[str, Any]], key: str) -> dict[str, Any] | None:
    """The property a flavor key maps to in ``files`` (parsed documents), or None."""
    for candidate, _, schema in flavor_properties(files):
        if candidate == key:
            return dict(schema)
    return None


def _search(pattern: str, value: str) -> bool:
    """A JSON Schema (ECMA-262) pattern search: ``$`` is the end of the text, never a newline
    before it, as Python's ``$`` would allow."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.search(pattern, value) is not None


def check_value(property_schema: Mapping[str, Any], value: str) -> bool:
    """Whether a metadef consumer would accept ``value`` (always a string) for a property.

    integer: Python ``int()`` then ``minimum``/``maximum``; boolean: Nova's spellings, stripped
    and case-folded; string: exact ``enum`` membership, the (anchored) ``pattern`` as a search,
    ``minLength``/``maxLength``. Only the property's own constraints apply: Nova's 255-character
    cap on every value is not part of an integer or boolean property.
    """
    kind = property_schema.get("type")
    if kind == "integer":
        try:
            number = int(value)
        except ValueError:
            return False
        low, high = property_schema.get("minimum"), property_schema.get("maximum")
        return (low is None or number >= low) and (high is None or number <= high)
    if kind == "boolean":
        folded = value.strip().lower()
        return folded in TRUE_STRINGS or folded in FALSE_STRINGS
    if kind == "string":
        enum = property_schema.get("enum")
        pattern = property_schema.get("pattern")
        return (
            (enum is None or value in enum)
            and (pattern is None or _search(pattern, value))
            and len(value) >= property_schema.get("minLength", 0)
            and len(value) <= property_schema.get("maxLength", len(value))
        )
    raise ValueError(f"no rule for a metadef property of type {kind!r}")
