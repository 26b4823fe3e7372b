"""What a software component is once validated, and how its problems are reported: the value
types every module of the package shares (the component, its configs, inputs and outputs,
values Heat computes at run time) and the area's errors.

Every other module of the package may import this one, and it imports none of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from onespec.errors import OnespecError
from onespec.validators_runtime._generated import components as facts
from onespec.validators_runtime.problems import Location, Problem


class ComponentError(OnespecError, ValueError):
    """Something about a software component is wrong: the root of this area's errors."""


#: The codes of this area's problems: ``wrong-type``, ``unknown-field``, ``missing-field``,
#: ``empty``, ``invalid-action``, ``duplicate-action``, ``invalid-tool``, ``not-executable``,
#: ``invalid-name``, ``reserved-name``, ``duplicate-name``, ``invalid-type``, ``invalid-value``
#: and ``unresolvable``.


def problem_at(
    path: str, code: str, message: str, *, value: Any = None, suggestion: str | None = None
) -> Problem:
    """A problem in a component's properties, in the shape every area reports in: its location's
    ``path`` is the JSON path inside the properties (``configs[1].actions[0]``; empty for the
    properties themselves)."""
    return Problem(code, message, location=Location(path=path), value=value, suggestion=suggestion)


class ComponentValidationError(ComponentError):
    """A component (or what a deployment is asked to deliver) is invalid.

    ``problems`` lists every problem, each a
    :class:`~onespec.validators_runtime.problems.Problem` whose location's ``path`` is its place
    in the properties; ``name`` is the component's.
    """

    def __init__(
        self, problems: Iterable[Problem], *, name: str | None = None, subject: str | None = None
    ) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        self.name = name
        count = len(self.problems)
        self.subject = subject or (
            f"software component {name!r}" if name else "the software component"
        )
        subject = self.subject
        summary = f"{subject} is invalid ({count} problem{'s' if count != 1 else ''}):"
        said = (f"{p.location.path or '(the properties)'}: {p.message}" for p in self.problems)
        super().__init__(" ".join([summary, *said]))


@dataclass(frozen=True, eq=False)
class Unresolved:
    """A value Heat computes when the stack runs: an intrinsic function such as ``get_attr``.

    A static check cannot know it, so it accepts it wherever it stands. ``raw`` is the function
    as the template writes it, which is also how it is shown and serialised.
    """

    function: str
    raw: Any = field(repr=False)

    def __str__(self) -> str:
        return f"{{{self.function}: ...}}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unresolved) and (self.function, self.raw) == (
            other.function,
            other.raw,
        )

    def __hash__(self) -> int:
        return hash(self.function)


def json_default(value: Any) -> Any:
    """``default=`` for ``json.dumps``: an unresolved value is written as the template has it."""
    if isinstance(value, Unresolved):
        return value.raw
    if isinstance(value, tuple | frozenset | set):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


# --- The validated component -------------------------------------------------------------------


@dataclass(frozen=True)
class ConfigEntry:
    """One ``configs`` entry, with its defaults filled in (``actions_given``: it listed them)."""

    actions: tuple[str | Unresolved, ...]
    config: str | Unresolved
    tool: str | Unresolved
    actions_given: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"actions": list(self.actions), "config": self.config, "tool": self.tool}


@dataclass(frozen=True)
class Input:
    """A declared input, defaults filled in."""

    name: str | Unresolved
    type: str = facts.DEFAULT_INPUT_TYPE
    description: str | None = None
    default: Any = None
    replace_on_change: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "type": self.type,
            "default": self.default,
            "replace_on_change": self.replace_on_change,
        }


@dataclass(frozen=True)
class Output:
    """A declared output, defaults filled in."""

    name: str | Unresolved
    type: str = facts.DEFAULT_INPUT_TYPE
    description: str | None = None
    error_output: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "type": self.type,
            "error_output": self.error_output,
        }


@dataclass(frozen=True, eq=False)
class Component:
    """A valid software component: its properties with every default filled in.

    Values Heat computes at run time stay :class:`Unresolved`. ``actions`` lists the actions some
    config handles (standard ones in Heat's order, then extended ones as written), which are the
    actions a deployment of the component runs for.
    """

    name: str | None
    configs: tuple[ConfigEntry, ...]
    inputs: tuple[Input, ...] = ()
    outputs: tuple[Output, ...] = ()
    options: Mapping[str, Any] | Unresolved = field(default_factory=dict)

    @property
    def actions(self) -> tuple[str, ...]:
        named = [a for entry in self.configs for a in entry.actions if isinstance(a, str)]
        standard = [a for a in facts.STANDARD_ACTIONS if a in named]
        return (*standard, *dict.fromkeys(a for a in named if a not in facts.STANDARD_ACTIONS))

    @property
    def extended_actions(self) -> tuple[str, ...]:
        """The actions that are not Heat's own: a deployment must pass them by name."""
        return tuple(a for a in self.actions if a not in facts.STANDARD_ACTIONS)

    @property
    def tools(self) -> tuple[str, ...]:
        """The tools the configs use, each once, in order of first use."""
        return tuple(dict.fromkeys(e.tool for e in self.configs if isinstance(e.tool, str)))

    def config_for(self, action: str) -> int | None:
        """The index of the config that handles ``action``, or None when none does."""
        for index, entry in enumerate(self.configs):
            if action in entry.actions:
                return index
        return None

    def tool_options(self, tool: str) -> Any:
        """The options ``tool`` is given; see :func:`tool_options`."""
        return tool_options(self.options, tool, self.tools)

    def to_properties(self) -> dict[str, Any]:
        """The properties as Heat stores them once defaults are applied."""
        return {
            "configs": [entry.to_dict() for entry in self.configs],
            "inputs": [item.to_dict() for item in self.inputs],
            "outputs": [item.to_dict() for item in self.outputs],
            "options": self.options if isinstance(self.options, Unresolved) else dict(self.options),
        }


def tool_options(options: Any, tool: str, tools: Sequence[str]) -> Any:
    """The options ``tool`` is given: the whole ``options`` section, whatever the tools.

    One rule, as Heat and heat-agents apply it: Heat delivers a component's ``options`` whole in
    the derived config, heat-agents' ``55-heat-config`` passes them on unchanged to the hook of
    the chosen entry's tool, and so does onespec's component hook. Nothing is namespaced,
    narrowed or dropped; a hook reads the keys it knows (``tool`` and ``tools`` are kept for
    callers of the older signature).
    """
    del tool, tools
    if isinstance(options, Unresolved):
        return options
    return dict(options) if isinstance(options, Mapping) else {}
