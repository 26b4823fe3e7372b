"""The template-capabilities area's shared vocabulary: the section names and file names, the
value and severity types, the errors every part raises, and the records of a resolution
(:class:`Candidate`, :class:`Decision`).

Every other module of the package imports from here and from no sibling's private names, so
the modules form no cycle, not even one made of imports for type checking only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from onespec.validators_runtime import problems
from onespec.validators_runtime._generated import template_capabilities as _facts
from onespec.validators_runtime.heat.hot_loader import HeatFileError, Loaded

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


#: Whether a problem excludes what it is about (``error``) or not (``warning``).
Severity = problems.Severity

LIST_KEYS = frozenset(_facts.REGISTRY_LIST_KEYS)

BASE_URL: str = _facts.REGISTRY_BASE_URL

TEMPLATE_SUFFIXES: tuple[str, ...] = _facts.TEMPLATE_SUFFIXES

LOADABLE_SUFFIXES = (*TEMPLATE_SUFFIXES, ".yml", ".json")


class CapabilitiesError(HeatFileError):
    """A ``capabilities`` or ``requires`` section, or an environment, is malformed.

    ``key_path`` is where inside the file (``("capabilities", "resource_type", 1)``), when
    known.
    """

    key_path: tuple[Any, ...] = ()


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


def kind_of(value: Any) -> str:
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


def section_error(message: str, loaded: Loaded | None, *key_path: Any) -> CapabilitiesError:
    path = loaded.path if loaded is not None else None
    line = loaded.line(*key_path) if loaded is not None else None
    error = CapabilitiesError(message, path=path, line=line)
    error.key_path = key_path
    return error


def show(values: Sequence[str]) -> str:
    """``puppet`` or ``[puppet, docker]``, as YAML would write them."""
    return values[0] if len(values) == 1 else f"[{', '.join(values)}]"


def show_mapping(section: Mapping[str, Sequence[str]]) -> str:
    """``{deployment: puppet, resource_type: OS::X}``; ``{}`` when empty."""
    return "{" + ", ".join(f"{key}: {show(values)}" for key, values in section.items()) + "}"


@dataclass(frozen=True)
class Candidate:
    """One template of a registry list, its capabilities, and why it matched or not."""

    path: str
    absolute: str | None
    capabilities: Mapping[str, Values] | None
    matched: bool
    reasons: tuple[str, ...]
    broken: bool = False

    def explain(self) -> str:
        if self.broken:
            return f"{self.path}: cannot be used: {'; '.join(self.reasons)}"
        declared = (
            "no capabilities section"
            if self.capabilities is None
            else f"capabilities {show_mapping(self.capabilities)}"
        )
        verdict = "matches" if self.matched else "does not match"
        return f"{self.path} ({declared}): {verdict}: {'; '.join(self.reasons)}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.path,
            "capabilities": None
            if self.capabilities is None
            else {k: list(v) for k, v in self.capabilities.items()},
            "matched": self.matched,
            "usable": not self.broken,
            "reasons": list(self.reasons),
        }


@dataclass(frozen=True)
class Decision:
    """A list-valued registry entry and the candidate chosen for it (None: unresolvable)."""

    key_path: tuple[str, ...]
    environment: str
    line: int | None
    requires: Mapping[str, Values]
    candidates: tuple[Candidate, ...]
    chosen: Candidate | None

    @property
    def resource_type(self) -> str:
        return self.key_path[-1]

    @property
    def name(self) -> str:
        return "/".join(self.key_path)

    def explain(self) -> str:
        """Why this entry resolved, or could not be, naming every candidate."""
        where = f"{self.environment}:{self.line}" if self.line else self.environment
        wanted = (
            f"requires {show_mapping(self.requires)}"
            if self.requires
            else "the requires of the environments (there are none)"
        )
        matched = [c for c in self.candidates if c.matched]
        broken = [c for c in self.candidates if c.broken]
        if self.chosen is not None:
            head = (
                f"{where}: {self.name}: chose {self.chosen.path}, the one that satisfies {wanted}"
            )
        elif broken:
            head = (
                f"{where}: {self.name}: {len(broken)} of the candidates cannot be read, so the "
                "choice cannot be made"
            )
        elif not matched:
            head = f"{where}: {self.name}: no candidate satisfies {wanted}"
        else:
            head = (
                f"{where}: {self.name}: {len(matched)} candidates satisfy {wanted}, and exactly "
                "one must"
            )
            hint = _distinguishing_keys(matched)
            head += (
                f"; add a requires key on which they differ ({', '.join(hint)})"
                if hint
                else "; give them capabilities that tell them apart, or list only one"
            )
        return head + ":\n" + "\n".join(f"  {c.explain()}" for c in self.candidates)

    def to_dict(self) -> dict[str, Any]:
        return {
            "resource_type": self.name,
            "environment": self.environment,
            "line": self.line,
            "requires": {k: list(v) for k, v in self.requires.items()},
            "chosen": self.chosen.path if self.chosen is not None else None,
            "candidates": [c.to_dict() for c in self.candidates],
        }


def _distinguishing_keys(candidates: Sequence[Candidate]) -> list[str]:
    keys: set[str] = set()
    for candidate in candidates:
        keys.update((candidate.capabilities or {}).keys())
    keys.discard(RESOURCE_TYPE)
    return sorted(
        key
        for key in keys
        if len({tuple((c.capabilities or {}).get(key, ())) for c in candidates}) > 1
    )
