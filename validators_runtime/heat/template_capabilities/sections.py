"""The grammar of the two sections: ``capabilities`` in a template, ``requires`` in an
environment; the errors every part of the capabilities area raises; how one matches the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from onespec.validators_runtime._generated import template_capabilities as _facts
from onespec.validators_runtime.heat.hot_loader import (
    HeatFileError,
    Loaded,
)

if TYPE_CHECKING:
    from onespec.validators_runtime.heat.template_capabilities.resolve import Decision

CAPABILITIES: str = _facts.CAPABILITIES

REQUIRES: str = _facts.REQUIRES

RESOURCE_TYPE: str = _facts.RESOURCE_TYPE

ENVIRONMENT_SECTIONS: tuple[str, ...] = _facts.ENVIRONMENT_SECTIONS

HOT_SECTIONS: dict[str, str | None] = _facts.HOT_SECTIONS

#: File name endings that a recursive scan reads (an explicitly named file is always read).
SCAN_SUFFIXES: tuple[str, ...] = (".yaml", ".yml", ".json", ".template")

#: The name of the resolved environment in an output directory.
ENVIRONMENT_FILE = "environment.yaml"


Values = tuple[str, ...]


Severity = Literal["error", "warning"]

_LIST_KEYS = frozenset(_facts.REGISTRY_LIST_KEYS)

_BASE_URL: str = _facts.REGISTRY_BASE_URL

_TEMPLATE_SUFFIXES: tuple[str, ...] = _facts.TEMPLATE_SUFFIXES

_LOADABLE_SUFFIXES = (*_TEMPLATE_SUFFIXES, ".yml", ".json")


class CapabilitiesError(HeatFileError):
    """A ``capabilities`` or ``requires`` section, or an environment, is malformed."""


class ResolutionError(CapabilitiesError):
    """Some list of templates in the registry has no candidate, or more than one.

    ``decisions`` holds every list-valued entry; ``failed`` the ones that could not be
    resolved, each of which explains every candidate.
    """

    def __init__(self, decisions: Sequence[Decision]) -> None:
        self.decisions = tuple(decisions)
        self.failed = tuple(d for d in self.decisions if d.chosen is None)
        count = len(self.failed)
        head = f"{count} resource type{'s' if count != 1 else ''} could not be resolved:\n"
        first = self.failed[0] if self.failed else None
        super().__init__(
            head + "\n".join(d.explain() for d in self.failed),
            path=first.environment if first else None,
            line=first.line if first else None,
        )

    def where(self) -> str:
        return ""  # every explanation names its own file and line


class OutputError(CapabilitiesError):
    """The resolved environment and its templates cannot be written as asked.

    ``problems`` lists every reason; ``usage`` is true when the caller should choose another
    directory (it exists and is not empty) rather than fix the input.
    """

    def __init__(self, problems: Sequence[str], *, usage: bool = False) -> None:
        self.problems = tuple(problems)
        self.usage = usage
        super().__init__("\n".join(self.problems))


def _kind_of(value: Any) -> str:
    """What YAML made of a value, with the usual reason when it was not meant."""
    if isinstance(value, bool):
        return "a boolean (YAML 1.1 reads true/false, yes/no and on/off as booleans; quote it)"
    if isinstance(value, int | float):
        return f"a number ({value!r}; quote it to keep it a string)"
    if value is None:
        return "empty (null)"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _error(message: str, loaded: Loaded | None, *key_path: Any) -> CapabilitiesError:
    path = loaded.path if loaded is not None else None
    line = loaded.line(*key_path) if loaded is not None else None
    return CapabilitiesError(message, path=path, line=line)


def parse_section(value: Any, section: str, loaded: Loaded | None = None) -> dict[str, Values]:
    """Check and normalise a ``capabilities`` or ``requires`` section: each value a tuple.

    Keys are non-empty strings; a value is a non-empty string or a non-empty list of them. Keys
    the grammar reserves for one section (``resource_type`` in ``requires``) are refused. Raises
    :class:`CapabilitiesError` naming the file and line when ``loaded`` is given.
    """
    if not isinstance(value, Mapping):
        raise _error(
            f"the {section} section must be a mapping of names to values, not {_kind_of(value)}",
            loaded,
            section,
        )
    forbidden = _facts.FORBIDDEN.get(section, ())
    result: dict[str, Values] = {}
    for key, raw in value.items():
        if not isinstance(key, str) or not key:
            shown = _kind_of(key) if not isinstance(key, str) else "empty"
            raise _error(
                f"a {section} key must be a non-empty string, not {shown}", loaded, section
            )
        if key in forbidden:
            raise _error(
                f"{key} is not allowed in {section}: each registry entry's resource type "
                "already selects the templates that name it",
                loaded,
                section,
                key,
            )
        items = raw if isinstance(raw, list) else [raw]
        if not items:
            raise _error(
                f"{section} {key} is an empty list, which nothing can match; give at least one "
                "value",
                loaded,
                section,
                key,
            )
        values: list[str] = []
        for index, item in enumerate(items):
            if not isinstance(item, str) or not item:
                what = "an empty string" if item == "" else _kind_of(item)
                where = f"{section} {key}" + (f"[{index}]" if raw is items else "")
                raise _error(
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


def show(values: Sequence[str]) -> str:
    """``puppet`` or ``[puppet, docker]``, as YAML would write them."""
    return values[0] if len(values) == 1 else f"[{', '.join(values)}]"


def show_mapping(section: Mapping[str, Sequence[str]]) -> str:
    """``{deployment: puppet, resource_type: OS::X}``; ``{}`` when empty."""
    return "{" + ", ".join(f"{key}: {show(values)}" for key, values in section.items()) + "}"


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
