"""The kinds of facts ``OS::Heat::SoftwareComponent`` is described with: actions, statuses,
tools, the fields and shapes of the properties, input types, the values a deployment adds and the
hook answers, and its status codes.

Each kind refuses an ill-formed fact when it is built, so a definition that does not hold
together fails at import, naming the fact. The facts themselves live in
:mod:`onespec.definitions.components`; keeping the kinds apart lets the catalogue read as a
list of facts. Standard library only, like :mod:`onespec.definitions.model`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from onespec.definitions.model import DefinitionError

#: An action name: upper-case ASCII letters, digits and underscores, starting with a letter.
ACTION_PATTERN = r"[A-Z][A-Z0-9_]*"


#: A tool name. The tool names a hook file in the hooks directory, so it is a plain file name:
#: it can neither be empty, nor ``.`` or ``..``, nor hold a slash.
TOOL_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_.-]*"


TOOL_MAX_LENGTH = 64


_ACTION = re.compile(ACTION_PATTERN)


_TOOL = re.compile(TOOL_PATTERN)


_NAME = re.compile(r"[a-z][a-z0-9_]*")


def _require_text(owner: str, **fields: Any) -> None:
    for label, value in fields.items():
        if not isinstance(value, str) or not value.strip():
            raise DefinitionError(f"{label} must be a non-empty string", name=owner, field=label)


@dataclass(frozen=True)
class LifecycleAction:
    """A lifecycle action a configuration can be written for.

    ``fires`` says when a deployment runs the configuration for it; ``hook_receives`` what the
    hook on the server is given then. ``standard`` actions are Heat's own; an extended action is
    one a deployment passes by name (the seed's follow-up work).
    """

    name: str
    summary: str
    fires: str
    hook_receives: str
    standard: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _ACTION.fullmatch(self.name):
            raise DefinitionError(f"action name {self.name!r} must match {ACTION_PATTERN}")
        _require_text(
            self.name, summary=self.summary, fires=self.fires, hook_receives=self.hook_receives
        )


@dataclass(frozen=True)
class DeployStatus:
    """A status a deployment passes along with its action (``deploy_status``)."""

    name: str
    description: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _ACTION.fullmatch(self.name):
            raise DefinitionError(f"status name {self.name!r} must match {ACTION_PATTERN}")
        _require_text(self.name, description=self.description)


@dataclass(frozen=True)
class Tool:
    """A configuration tool the hook knows itself (``builtin``); any other is dispatched."""

    name: str
    description: str
    builtin: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _TOOL.fullmatch(self.name):
            raise DefinitionError(f"tool name {self.name!r} must match {TOOL_PATTERN}")
        _require_text(self.name, description=self.description)


FieldKind = Literal["string", "boolean", "list", "map", "any"]


FIELD_KINDS: tuple[str, ...] = ("string", "boolean", "list", "map", "any")


@dataclass(frozen=True)
class Field:
    """One key of a mapping in the properties: what it holds and whether it must be there.

    For a ``list``, ``items`` names what each item is: ``string``, ``action`` or the name of a
    :class:`Shape`; ``min_items`` is the fewest it may hold. ``choices`` restricts a string.
    ``default`` is what an absent key means (a tuple stands for a list).
    """

    name: str
    kind: FieldKind
    description: str
    required: bool = False
    default: Any = None
    items: str | None = None
    min_items: int = 0
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        where = {"name": self.name, "field": "kind"}
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise DefinitionError(f"field name {self.name!r} must be a lower-case identifier")
        if self.kind not in FIELD_KINDS:
            raise DefinitionError(f"kind must be one of {', '.join(FIELD_KINDS)}", **where)
        _require_text(self.name, description=self.description)
        if self.required and self.default is not None:
            raise DefinitionError("a required field has no default", name=self.name)
        if (self.items is not None or self.min_items) and self.kind != "list":
            raise DefinitionError("items and min_items apply to lists", **where)
        if self.kind == "list" and self.items is None:
            raise DefinitionError("a list says what its items are", name=self.name, field="items")
        if self.choices and self.kind != "string":
            raise DefinitionError("choices apply to strings", **where)
        expected = {"string": str, "boolean": bool, "list": tuple, "map": dict}.get(self.kind)
        if self.default is not None and expected and not isinstance(self.default, expected):
            raise DefinitionError(
                f"default {self.default!r} is not a {self.kind}", name=self.name, field="default"
            )
        if self.choices and self.default is not None and self.default not in self.choices:
            raise DefinitionError(
                f"default {self.default!r} is not a choice", name=self.name, field="default"
            )


@dataclass(frozen=True)
class Shape:
    """A mapping of the properties: its name (as ``items`` refers to it) and its fields."""

    name: str
    title: str
    description: str
    fields: tuple[Field, ...]

    def __post_init__(self) -> None:
        _require_text(self.name, title=self.title, description=self.description)
        names = [f.name for f in self.fields]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise DefinitionError(f"fields {twice} are declared twice", name=self.name)

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)


@dataclass(frozen=True)
class InputType:
    """A type an input may declare: what its value may be, and how the ``script`` tool passes it."""

    name: str
    description: str
    environment: str

    def __post_init__(self) -> None:
        _require_text(self.name, description=self.description, environment=self.environment)


#: The input type an input has when it declares none (one of the catalogue's input types).
DEFAULT_INPUT_TYPE = "String"


@dataclass(frozen=True)
class DeployValue:
    """A value with a fixed name: an input the deployment adds, or a key of the hook's result."""

    name: str
    description: str
    type: str = DEFAULT_INPUT_TYPE
    always: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise DefinitionError(f"name {self.name!r} must be a lower-case identifier")
        _require_text(self.name, description=self.description)


@dataclass(frozen=True)
class StatusCode:
    """A ``deploy_status_code`` the hook answers with itself, besides a program's exit status."""

    name: str
    code: int
    meaning: str

    def __post_init__(self) -> None:
        _require_text(self.name, name=self.name, meaning=self.meaning)
        if isinstance(self.code, bool) or not isinstance(self.code, int) or self.code < 0:
            raise DefinitionError("a status code is a non-negative integer", name=self.name)
