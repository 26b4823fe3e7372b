"""The grammar of the two sections: ``capabilities`` in a template, ``requires`` in an
environment, and how one matches the other (the names and errors they share are in
:mod:`~onespec.validators_runtime.heat.template_capabilities.model`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from onespec.validators_runtime._generated import template_capabilities as _facts
from onespec.validators_runtime.heat.hot_loader import (
    Loaded,
)
from onespec.validators_runtime.heat.template_capabilities.model import (
    CAPABILITIES,
    RESOURCE_TYPE,
    Values,
    kind_of,
    section_error,
    show,
)


def parse_section(value: Any, section: str, loaded: Loaded | None = None) -> dict[str, Values]:
    """Check and normalise a ``capabilities`` or ``requires`` section: each value a tuple.

    Keys are non-empty strings; a value is a non-empty string or a non-empty list of them. Keys
    the grammar reserves for one section (``resource_type`` in ``requires``) are refused. Raises
    :class:`CapabilitiesError` naming the file and line when ``loaded`` is given.
    """
    if not isinstance(value, Mapping):
        raise section_error(
            f"the {section} section must be a mapping of names to values, not {kind_of(value)}",
            loaded,
            section,
        )
    forbidden = _facts.FORBIDDEN.get(section, ())
    result: dict[str, Values] = {}
    for key, raw in value.items():
        if not isinstance(key, str) or not key:
            shown = kind_of(key) if not isinstance(key, str) else "empty"
            raise section_error(
                f"a {section} key must be a non-empty string, not {shown}", loaded, section
            )
        if key in forbidden:
            raise section_error(
                f"{key} is not allowed in {section}: each registry entry's resource type "
                "already selects the templates that name it",
                loaded,
                section,
                key,
            )
        items = raw if isinstance(raw, list) else [raw]
        if not items:
            raise section_error(
                f"{section} {key} is an empty list, which nothing can match; give at least one "
                "value",
                loaded,
                section,
                key,
            )
        values: list[str] = []
        for index, item in enumerate(items):
            if not isinstance(item, str) or not item:
                what = "an empty string" if item == "" else kind_of(item)
                where = f"{section} {key}" + (f"[{index}]" if raw is items else "")
                raise section_error(
                    f"{where} must be a string or a list of strings, not {what}",
                    loaded,
                    *((section, key, index) if raw is items else (section, key)),
                )
            if item not in values:
                values.append(item)
        result[key] = tuple(values)
    return result


def template_capabilities(loaded: Loaded) -> dict[str, Values] | None:
    """The template's capabilities, or None when it has no ``capabilities`` section."""
    if CAPABILITIES not in loaded.data:
        return None
    return parse_section(loaded.data[CAPABILITIES], CAPABILITIES, loaded)


def evaluate(
    capabilities: Mapping[str, Sequence[str]] | None,
    requires: Mapping[str, Sequence[str]],
    resource_type: str | None = None,
) -> tuple[bool, tuple[str, ...]]:
    """Whether a template is a candidate, and the reason for each part of the verdict.

    A template whose ``resource_type`` names types is a candidate only for those types; it
    satisfies each ``requires`` key when it declares the key and the two values share a member.
    """
    capabilities = capabilities or {}
    unmet: list[str] = []
    met: list[str] = []
    types = capabilities.get(RESOURCE_TYPE)
    if resource_type is not None and types is not None:
        if resource_type in types:
            met.append(f"resource_type names {resource_type}")
        else:
            unmet.append(f"resource_type is {show(types)}, not {resource_type}")
    for key, wanted in requires.items():
        have = capabilities.get(key)
        if have is None:
            unmet.append(f"declares no {key} (requires {show(wanted)})")
        elif set(have) & set(wanted):
            met.append(f"{key}: {show(have)} matches {show(wanted)}")
        else:
            unmet.append(f"{key}: {show(have)} does not match {show(wanted)}")
    if not unmet and not met:
        met.append("nothing is required, so it matches")
    return not unmet, (*unmet, *met)
