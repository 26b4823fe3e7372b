"""Validate the properties of an ``OS::Heat::SoftwareComponent``, reporting every problem.

Use :func:`onespec.validators_runtime.heat.components.validate_component`; this module holds
the checks, and :mod:`~onespec.validators_runtime.heat.components.model` the value types
they return. The rules -- the fields of each mapping, the
actions, the tools, the input types -- come from the generated vocabulary
(:mod:`onespec.validators_runtime._generated.components`), written from
``src/onespec/definitions/components.py``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from onespec.validators_runtime._generated import components as facts
from onespec.validators_runtime.heat.components.model import (
    Component,
    ComponentValidationError,
    ConfigEntry,
    Input,
    Output,
    Problem,
    Unresolved,
    problem_at,
)
from onespec.validators_runtime.problems import closest, did_you_mean

_ACTION = re.compile(facts.ACTION_PATTERN)
_TOOL = re.compile(facts.TOOL_PATTERN)
_NUMBER = re.compile(facts.NUMBER_PATTERN)
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_BOOLEAN_TRUE = frozenset(facts.BOOLEAN_TRUE)
_BOOLEAN_FALSE = frozenset(facts.BOOLEAN_FALSE)
_SHAPE_TITLES = {
    "properties": "a software component",
    "config": "a configs entry",
    "input": "an input",
    "output": "an output",
}


# --- Values and their types ----------------------------------------------------------------------


def describe(value: Any) -> str:
    """What kind of value this is, as a message says it: "a string", "a list", ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({json.dumps(value)})"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    return f"a {type(value).__name__}"


def _finite_number(value: Any) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and (isinstance(value, int) or math.isfinite(value))
    )


def type_problem(type_name: str, value: Any) -> str | None:
    """Why ``value`` cannot be a value of the input type ``type_name``, or None when it can.

    ``None`` (no value) and unresolved values fit every type.
    """
    if value is None or isinstance(value, Unresolved):
        return None
    if type_name == "String":
        if isinstance(value, str) or _finite_number(value):
            return None
        if isinstance(value, bool):
            return (
                f"is {describe(value)}, not a string; YAML reads unquoted yes, no, on, off, true "
                "and false as booleans, so quote the value"
            )
        hint = "; declare the type Json or CommaDelimitedList" if isinstance(value, list) else ""
        hint = "; declare the type Json" if isinstance(value, Mapping) else hint
        return f"is {describe(value)}, not a string{hint}"
    if type_name == "Number":
        if _finite_number(value):
            return None
        if isinstance(value, str) and _NUMBER.fullmatch(value):
            return None
        if isinstance(value, str):
            return f"{value!r} is not a decimal number"
        return f"is {describe(value)}, not a finite number"
    if type_name == "Boolean":
        if isinstance(value, bool):
            return None
        if _finite_number(value) and value in (0, 1):
            return None
        if isinstance(value, str):
            folded = value.strip().lower()
            if folded in _BOOLEAN_TRUE or folded in _BOOLEAN_FALSE:
                return None
            return f"{value!r} is not a boolean (true or false; yes/no, on/off and 1/0 work too)"
        return f"is {describe(value)}, not a boolean"
    if type_name == "CommaDelimitedList":
        if isinstance(value, str):
            return None
        if isinstance(value, list | tuple):
            for index, item in enumerate(value):
                if not (isinstance(item, str) or _finite_number(item)):
                    return f"item {index} is {describe(item)}, not a string or a number"
            return None
        return f"is {describe(value)}, not a list or a comma-separated string"
    if type_name == "Json":
        if isinstance(value, Mapping | list | tuple):
            return None
        if isinstance(value, str):
            try:
                parsed = json.loads(value)
            except ValueError:
                return "is a string that is not JSON text"
            if isinstance(parsed, dict | list):
                return None
            return "is JSON text of neither a mapping nor a list"
        return f"is {describe(value)}, not a mapping or a list"
    return f"cannot be checked against the unknown type {type_name!r}"


# --- Paths ---------------------------------------------------------------------------------------


def child(path: str, key: Any) -> str:
    """The JSON path of ``key`` under ``path``: ``configs[1]``, ``options.chef``, ``x["a b"]``."""
    if isinstance(key, int) and not isinstance(key, bool):
        return f"{path}[{key}]"
    if isinstance(key, str) and _PLAIN_KEY.fullmatch(key):
        return f"{path}.{key}" if path else key
    text = json.dumps(key) if isinstance(key, str) else repr(key)
    return f"{path}[{text}]"


def _names(items: Iterable[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


# --- The checker ---------------------------------------------------------------------------------


class _Checker:
    """Walks the properties once, collecting every problem."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(
        self, path: str, code: str, message: str, *, value: Any = None, suggestion: Any = None
    ) -> None:
        self.problems.append(problem_at(path, code, message, value=value, suggestion=suggestion))

    def mapping(self, value: Any, path: str, shape: str) -> Mapping[Any, Any] | None:
        """``value`` when it is a mapping of ``shape``'s fields (problems noted), else None."""
        title = _SHAPE_TITLES[shape]
        if isinstance(value, Unresolved):
            return None
        if not isinstance(value, Mapping):
            self.add(
                path,
                "wrong-type",
                f"{title.capitalize()} must be a mapping, not {describe(value)}.",
            )
            return None
        fields = facts.SHAPES[shape]
        for key in value:
            if key not in fields:
                self.add(
                    child(path, key),
                    "unknown-field",
                    f"{key!r} is not a field of {title}, which takes "
                    f"{_names(fields)}.{did_you_mean(key, fields)}",
                    value=key,
                    suggestion=closest(key, fields),
                )
        for name, spec in fields.items():
            if spec["required"] and name not in value:
                self.add(child(path, name), "missing-field", f"{title.capitalize()} needs {name}.")
        return value

    def kind(self, value: Any, path: str, kind: str, what: str) -> bool:
        """Whether ``value`` has ``kind`` (an unresolved value has none: False, no problem)."""
        if isinstance(value, Unresolved):
            return False
        ok = {
            "string": lambda v: isinstance(v, str),
            "boolean": lambda v: isinstance(v, bool),
            "list": lambda v: isinstance(v, list | tuple),
            "map": lambda v: isinstance(v, Mapping),
            "any": lambda v: True,
        }[kind](value)
        if not ok:
            article = {"string": "a string", "boolean": "a boolean (true or false)"}
            wanted = article.get(kind, "a list" if kind == "list" else "a mapping")
            self.add(path, "wrong-type", f"{what} must be {wanted}, not {describe(value)}.")
        return ok

    def boolean(self, raw: Mapping[Any, Any], path: str, name: str, default: bool) -> bool:
        """A boolean field; Heat also takes the strings "true" and "false", in any case."""
        value = raw.get(name)
        if value is None:
            return default
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        if self.kind(value, child(path, name), "boolean", name):
            return bool(value)
        return default

    def string(self, raw: Mapping[Any, Any], path: str, name: str, shape: str) -> Any:
        """A string field, or its default; null stands for the default in an optional field.

        Returns None when a present value is not a string (the problem is noted).
        """
        spec = facts.SHAPES[shape][name]
        value = raw.get(name)
        if value is None and not (spec["required"] and name in raw):
            return spec["default"]
        if isinstance(value, Unresolved) or self.kind(value, child(path, name), "string", name):
            return value
        return None

    def items(self, raw: Mapping[Any, Any], path: str, name: str, shape: str) -> list[Any] | None:
        """A list field: its items, or None when absent or not a list."""
        spec: Mapping[str, Any] = facts.SHAPES[shape][name]
        if name not in raw:
            return None
        value = raw[name]
        where = child(path, name)
        if value is None and not spec["required"]:
            return None
        if not self.kind(value, where, "list", name):
            return None
        if len(value) < spec["min_items"]:
            what = "one item" if spec["min_items"] == 1 else f"{spec['min_items']} items"
            self.add(where, "empty", f"{name} must hold at least {what}.")
        return list(value)


def _check_actions(
    checker: _Checker, entry: Mapping[Any, Any], path: str, seen: dict[str, str]
) -> tuple[tuple[str | Unresolved, ...], bool]:
    """The entry's actions (its own or the default); clashes with ``seen`` are problems."""
    given = entry.get("actions") is not None
    where = child(path, "actions")
    if given:
        raw = checker.items(entry, path, "actions", "config")
        if raw is None:
            return (), True
        located = [(item, child(where, index)) for index, item in enumerate(raw)]
    else:
        located = [(item, where) for item in facts.DEFAULT_ACTIONS]
    actions: list[str | Unresolved] = []
    here: dict[str, str] = {}
    for item, location in located:
        if isinstance(item, Unresolved):
            actions.append(item)
            continue
        if not isinstance(item, str):
            checker.add(
                location, "wrong-type", f"An action must be a string, not {describe(item)}."
            )
            continue
        if not _ACTION.fullmatch(item):
            upper = item.strip().upper()
            if upper in facts.STANDARD_ACTIONS:
                why = "Actions are upper case" if upper != item.strip() else "Remove the spaces"
                hint = f" {why}: did you mean {upper!r}?"
            else:
                hint = (
                    f" An action is one of {_names(facts.STANDARD_ACTIONS)}, or an extended "
                    "action: an upper-case name of letters, digits and underscores."
                )
            checker.add(location, "invalid-action", f"{item!r} is not an action.{hint}")
            continue
        if item in here:
            checker.add(
                location,
                "duplicate-action",
                f"{item} is listed twice in this config (first at {here[item]}).",
            )
            continue
        here[item] = location if given else f"{location} (by default)"
        if item in seen:
            clash = (
                f"{item} is already handled at {seen[item]}"
                if given
                else f"This config leaves out actions, so it handles {item} by default, which "
                f"is already handled at {seen[item]}"
            )
            checker.add(
                location,
                "duplicate-action",
                f"{clash}; an action may appear in one config only, because the order of two "
                "configs for one action would be undefined.",
            )
            continue
        actions.append(item)
    for item, location in here.items():
        seen.setdefault(item, location)
    return tuple(actions), given


def _check_tool(checker: _Checker, entry: Mapping[Any, Any], path: str) -> str | Unresolved:
    tool = checker.string(entry, path, "tool", "config")
    where = child(path, "tool")
    if not isinstance(tool, str):
        return tool if isinstance(tool, Unresolved) else ""
    if tool == facts.GROUP:
        checker.add(
            where,
            "invalid-tool",
            f"{tool!r} is the hook that runs software components; a config cannot use it as "
            "its tool.",
        )
    elif not _TOOL.fullmatch(tool) or len(tool) > facts.TOOL_MAX_LENGTH:
        checker.add(
            where,
            "invalid-tool",
            f"{tool!r} is not a tool name: the tool names a hook file, so it is at most "
            f"{facts.TOOL_MAX_LENGTH} letters, digits, '_', '.' and '-', starting with a letter "
            "or digit.",
        )
    return tool


def _check_configs(checker: _Checker, raw: Mapping[Any, Any]) -> tuple[ConfigEntry, ...]:
    entries = checker.items(raw, "", "configs", "properties")
    if entries is None:
        return ()
    seen: dict[str, str] = {}
    result: list[ConfigEntry] = []
    for index, item in enumerate(entries):
        path = child("configs", index)
        entry = checker.mapping(item, path, "config")
        if entry is None:
            continue
        actions, given = _check_actions(checker, entry, path, seen)
        tool = _check_tool(checker, entry, path)
        config = checker.string(entry, path, "config", "config")
        builtin = isinstance(tool, str) and tool in facts.TOOLS and facts.TOOLS[tool]["builtin"]
        if builtin and isinstance(config, str) and not config.startswith("#!"):
            what = "is empty" if not config.strip() else "does not start with '#!'"
            checker.add(
                child(path, "config"),
                "not-executable",
                f"The config {what}: the {tool} tool runs it as a program, so it starts with "
                "'#!' and its interpreter, such as '#!/bin/bash'.",
            )
        result.append(ConfigEntry(actions, "" if config is None else config, tool, given))
    return tuple(result)


def _check_name(
    checker: _Checker,
    entry: Mapping[Any, Any],
    path: str,
    kind: str,
    names: dict[str, str],
) -> str | Unresolved | None:
    name = checker.string(entry, path, "name", kind)
    where = child(path, "name")
    if not isinstance(name, str):
        return name
    forbidden = "=" if kind == "input" else "/"
    reserved = facts.RESERVED_INPUT_NAMES if kind == "input" else facts.RESERVED_OUTPUT_NAMES
    if not name:
        checker.add(where, "invalid-name", f"The name of {_SHAPE_TITLES[kind]} cannot be empty.")
    elif forbidden in name or "\0" in name:
        why = "an environment variable's name" if kind == "input" else "part of a file name"
        checker.add(
            where,
            "invalid-name",
            f"{name!r} cannot be {why}: it may hold neither {forbidden!r} nor a NUL character.",
        )
    elif name in reserved:
        by = "the deployment or the script tool" if kind == "input" else "the hook's result"
        checker.add(where, "reserved-name", f"{name!r} is reserved: {by} uses that name.")
    elif name in names:
        checker.add(where, "duplicate-name", f"{name!r} is already the name of {names[name]}.")
    else:
        names[name] = path
    return name


def _check_type(checker: _Checker, entry: Mapping[Any, Any], path: str, shape: str) -> str | None:
    """The declared type (the default when absent), or None when it is not a known type."""
    value = checker.string(entry, path, "type", shape)
    if isinstance(value, Unresolved) or value is None:
        return None
    if value not in facts.INPUT_TYPES:
        checker.add(
            child(path, "type"),
            "invalid-type",
            f"{value!r} is not a type; {_SHAPE_TITLES[shape]} has one of "
            f"{_names(facts.INPUT_TYPES)}.{did_you_mean(value, facts.INPUT_TYPES)}",
            value=value,
            suggestion=closest(value, facts.INPUT_TYPES),
        )
        return None
    return value


def _check_inputs(checker: _Checker, raw: Mapping[Any, Any]) -> tuple[Input, ...]:
    items = checker.items(raw, "", "inputs", "properties") or []
    names: dict[str, str] = {}
    result: list[Input] = []
    for index, item in enumerate(items):
        path = child("inputs", index)
        entry = checker.mapping(item, path, "input")
        if entry is None:
            continue
        name = _check_name(checker, entry, path, "input", names)
        type_name = _check_type(checker, entry, path, "input")
        description = checker.string(entry, path, "description", "input")
        default = entry.get("default")
        if type_name is not None and (reason := type_problem(type_name, default)):
            checker.add(
                child(path, "default"),
                "invalid-value",
                f"The default {reason}, so it does not fit the type {type_name}.",
            )
        replace = checker.boolean(entry, path, "replace_on_change", False)
        result.append(
            Input(
                name if name is not None else "",
                type_name or facts.DEFAULT_INPUT_TYPE,
                description,
                default,
                replace,
            )
        )
    return tuple(result)


def _check_outputs(checker: _Checker, raw: Mapping[Any, Any]) -> tuple[Output, ...]:
    items = checker.items(raw, "", "outputs", "properties") or []
    names: dict[str, str] = {}
    result: list[Output] = []
    for index, item in enumerate(items):
        path = child("outputs", index)
        entry = checker.mapping(item, path, "output")
        if entry is None:
            continue
        name = _check_name(checker, entry, path, "output", names)
        type_name = _check_type(checker, entry, path, "output")
        description = checker.string(entry, path, "description", "output")
        error_output = checker.boolean(entry, path, "error_output", False)
        result.append(
            Output(
                name if name is not None else "",
                type_name or facts.DEFAULT_INPUT_TYPE,
                description,
                error_output,
            )
        )
    return tuple(result)


def _check_options(
    checker: _Checker, raw: Mapping[Any, Any], tools: Sequence[str]
) -> Mapping[str, Any] | Unresolved:
    if "options" not in raw or raw["options"] is None:
        return {}
    options = raw["options"]
    if isinstance(options, Unresolved):
        return options
    if not checker.kind(options, "options", "map", "options"):
        return {}
    return options


def validate_component(properties: Any, *, name: str | None = None) -> Component:
    """Check the properties of a software component; return it with its defaults filled in.

    Raises :class:`ComponentValidationError` listing every problem, each with its JSON path
    (``configs[1].actions[0]``). Values that are :class:`Unresolved` are accepted unchecked.
    """
    checker = _Checker()
    raw = checker.mapping(properties, "", "properties")
    if raw is None:
        if isinstance(properties, Unresolved):
            checker.add(
                "", "unresolvable", "The properties are computed by Heat; nothing to check."
            )
        raise ComponentValidationError(checker.problems, name=name)
    configs = _check_configs(checker, raw)
    inputs = _check_inputs(checker, raw)
    outputs = _check_outputs(checker, raw)
    tools = tuple(dict.fromkeys(e.tool for e in configs if isinstance(e.tool, str) and e.tool))
    options = _check_options(checker, raw, tools)
    if checker.problems:
        raise ComponentValidationError(checker.problems, name=name)
    return Component(name, configs, inputs, outputs, options)
