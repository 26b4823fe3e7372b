"""Read a HOT template as Heat does, and resolve what a static check can know of its values.

Templates are read by :mod:`onespec.validators_runtime.heat.hot_loader`, as Heat reads them: a safe
YAML loader that keeps timestamps as strings (``heat_template_version: 2014-10-16`` stays
``"2014-10-16"``), JSON when the text is a JSON object, Heat's size limit. Of the intrinsic
functions, ``get_file`` is read from disk -- relative to the template, and never outside the
*files root* (by default the template's directory) -- and ``get_param`` takes the value given
on the command line or the parameter's default. Every other function is a value Heat computes
while the stack runs: it becomes
:class:`~onespec.validators_runtime.heat.components.model.Unresolved`, which the checks accept.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from onespec.validators_runtime import inputs
from onespec.validators_runtime._generated import components as facts
from onespec.validators_runtime.heat import hot_loader
from onespec.validators_runtime.heat.components.model import (
    Component,
    ComponentError,
    ComponentValidationError,
    Problem,
    Unresolved,
    problem_at,
)
from onespec.validators_runtime.heat.components.validation import (
    child,
    validate_component,
)

_FUNCTIONS = frozenset(facts.HOT_FUNCTIONS)
_TRUE = frozenset(facts.BOOLEAN_TRUE)
_FALSE = frozenset(facts.BOOLEAN_FALSE)


#: The most bytes a ``get_file`` target may have: Heat's ``max_json_body_size``, the largest
#: request that can carry the file to Heat.
MAX_GET_FILE = 1024 * 1024


class TemplateError(ComponentError):
    """A template cannot be read, is not a HOT template, or lacks what a command needs.

    ``path`` is the template's file; ``line`` (1-based) is where the problem is, when known.
    """

    def __init__(
        self, message: str, *, path: Path | str | None = None, line: int | None = None
    ) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        self.reason = message
        where = self.path or ""
        if where and line is not None:
            where += f":{line}"
        super().__init__(f"{where}: {message}" if where else message)


#: How each of the loader's refusals reads after the file's name.
_LOAD_REASONS = {
    "syntax": "{}",
    "not-a-mapping": "is not a HOT template: it is not a mapping. {}",
    "unreadable": "cannot be read: {}",
    "encoding": "is not UTF-8 text: {}",
}


def _template_error(error: hot_loader.LoadError, path: Path | str | None) -> TemplateError:
    detail = error.reason.removeprefix("Error parsing template: ")
    reason = _LOAD_REASONS.get(error.code, "{}").format(detail)
    return TemplateError(reason, path=path if path is not None else error.path, line=error.line)


def parse(text: str, *, path: Path | str | None = None) -> Any:
    """Parse template text with Heat's own reading rules (:mod:`.hot_loader`).

    JSON when the text is a JSON object, YAML otherwise, safely, timestamps kept as strings;
    aliases that would expand without bound and over-long files are refused. Raises
    :class:`TemplateError` naming the file and line.
    """
    name = str(path) if path is not None else "<string>"
    try:
        return hot_loader.loads(text, name).data
    except hot_loader.LoadError as error:
        raise _template_error(error, path) from None


def function_call(value: Any) -> tuple[str, Any] | None:
    """``(name, argument)`` when ``value`` is a call of a HOT intrinsic function."""
    if isinstance(value, Mapping) and len(value) == 1:
        ((name, argument),) = value.items()
        if name in _FUNCTIONS:
            return name, argument
    return None


def _parameter_value(declaration: Any, text: str) -> Any:
    """A ``-P NAME=VALUE`` string read as the parameter's declared type reads it."""
    kind = declaration.get("type") if isinstance(declaration, Mapping) else None
    if kind == "number":
        for convert in (int, float):
            try:
                return convert(text)
            except ValueError:
                pass
    elif kind == "boolean" and text.strip().lower() in _TRUE | _FALSE:
        return text.strip().lower() in _TRUE
    elif kind == "json":
        try:
            return json.loads(text)
        except ValueError:
            return text
    elif kind == "comma_delimited_list":
        return [item.strip() for item in text.split(",")] if text else []
    return text


@dataclass
class Template:
    """A parsed HOT template, with where its files may be read from and parameter values."""

    path: Path
    data: Mapping[str, Any]
    files_root: Path
    parameters: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def load(
        cls,
        path: Path | str,
        *,
        files_root: Path | str | None = None,
        parameters: Mapping[str, str] | None = None,
    ) -> Template:
        """Read and parse ``path``; raise :class:`TemplateError` unless it is a HOT template."""
        read = Path(path)
        # Standard input ("-") is named as every reader names it; get_file reads from here.
        path = Path(inputs.STDIN_NAME) if str(read) == "-" else read
        try:
            data = hot_loader.load(read).data  # a mapping: the loader refuses anything else
        except hot_loader.LoadError as error:
            raise _template_error(error, path) from None
        if "heat_template_version" not in data:
            raise TemplateError("is not a HOT template: it has no heat_template_version", path=path)
        resources = data.get("resources")
        if resources is not None and not isinstance(resources, Mapping):
            raise TemplateError("its resources section is not a mapping", path=path)
        root = Path(files_root) if files_root is not None else path.parent
        template = cls(path, data, root, dict(parameters or {}))
        declared = data.get("parameters") or {}
        unknown = sorted(
            set(template.parameters) - set(declared if isinstance(declared, Mapping) else ())
        )
        if unknown:
            raise TemplateError(f"declares no parameter {', '.join(map(repr, unknown))}", path=path)
        return template

    @property
    def version(self) -> str:
        return str(self.data["heat_template_version"])

    @property
    def resources(self) -> Mapping[str, Any]:
        return self.data.get("resources") or {}

    def resources_of_type(self, resource_type: str) -> list[str]:
        """The names of the resources of ``resource_type``, in template order."""
        return [
            name
            for name, resource in self.resources.items()
            if isinstance(resource, Mapping) and resource.get("type") == resource_type
        ]

    def components(self) -> list[str]:
        """The names of the ``OS::Heat::SoftwareComponent`` resources."""
        return self.resources_of_type(facts.RESOURCE_TYPE)

    def resource_type(self, name: str) -> str | None:
        resource = self.resources.get(name)
        if isinstance(resource, Mapping) and isinstance(resource.get("type"), str):
            return resource["type"]
        return None

    def properties(self, name: str) -> tuple[Any, list[Problem]]:
        """The resource's properties with ``get_file`` and ``get_param`` resolved.

        Returns the properties and the problems met resolving them (paths are relative to the
        properties).
        """
        resource = self.resources.get(name)
        if not isinstance(resource, Mapping):
            return None, [problem_at("", "wrong-type", f"The resource {name!r} is not a mapping.")]
        problems: list[Problem] = []
        properties = resource.get("properties")
        if properties is None:
            properties = {}
        try:
            return self.resolve(properties, "", problems), problems
        except TemplateError as exc:
            return None, [
                problem_at("", "unresolvable", f"The properties cannot be read: {exc.reason}.")
            ]

    def component(self, name: str) -> Component:
        """The validated component ``name``; raises :class:`ComponentValidationError`."""
        properties, problems = self.properties(name)
        if properties is None:
            raise ComponentValidationError(problems, name=name)
        try:
            component = validate_component(properties, name=name)
        except ComponentValidationError as exc:
            raise ComponentValidationError([*problems, *exc.problems], name=name) from None
        if problems:
            raise ComponentValidationError(problems, name=name)
        return component

    # --- Intrinsic functions ---------------------------------------------------------------

    def resolve(self, value: Any, path: str, problems: list[Problem]) -> Any:
        """``value`` with functions resolved or marked :class:`Unresolved`.

        YAML aliases can make a small document expand into a huge (or, referring to itself, an
        endless) one; such a value is refused with a :class:`TemplateError` instead of being
        walked.
        """
        return _Walk(self, problems).value(value, path)

    def _get_file(self, raw: Any, argument: Any, path: str, problems: list[Problem]) -> Any:
        if not isinstance(argument, str):
            return Unresolved("get_file", raw)
        if argument.startswith(("http://", "https://")):
            return Unresolved("get_file", raw)
        relative = argument.removeprefix("file://")
        root = self.files_root.resolve()
        target = (self.path.parent / relative).resolve()
        if not target.is_relative_to(root):
            problems.append(
                problem_at(
                    path,
                    "unresolvable",
                    f"get_file {argument!r} is outside the files root {str(root)!r}; templates "
                    "may read files under it only (widen it with --files-root).",
                )
            )
            return Unresolved("get_file", raw)
        try:
            return inputs.read_text(target, limit=MAX_GET_FILE)
        except inputs.InputError as exc:
            reason = f"the file {exc.reason}"
        problems.append(
            problem_at(path, "unresolvable", f"get_file cannot read {argument!r}: {reason}.")
        )
        return Unresolved("get_file", raw)

    def _get_param(self, raw: Any, argument: Any, path: str, problems: list[Problem]) -> Any:
        steps = argument if isinstance(argument, list) and argument else [argument]
        name = steps[0]
        if not isinstance(name, str):
            return Unresolved("get_param", raw)
        declared = self.data.get("parameters") or {}
        if not isinstance(declared, Mapping) or name not in declared:
            problems.append(
                problem_at(
                    path,
                    "unresolvable",
                    f"get_param names the parameter {name!r}, which the template does not declare.",
                )
            )
            return Unresolved("get_param", raw)
        declaration = declared[name]
        if name in self.parameters:
            value = _parameter_value(declaration, self.parameters[name])
        elif isinstance(declaration, Mapping) and declaration.get("default") is not None:
            value = declaration["default"]
        else:
            return Unresolved("get_param", raw)
        for step in steps[1:]:
            try:
                value = value[step]
            except (KeyError, IndexError, TypeError):
                return Unresolved("get_param", raw)
        return value


#: The most values :meth:`Template.resolve` walks in one resource's properties. A component of
#: a template at Heat's size limit has far fewer; an alias bomb has billions.
MAX_VALUES = 1_000_000


class _Walk:
    """One resolution: the values walked so far, and the containers being walked."""

    def __init__(self, template: Template, problems: list[Problem]) -> None:
        self.template = template
        self.problems = problems
        self.count = 0
        self.active: set[int] = set()

    def value(self, value: Any, path: str) -> Any:
        self.count += 1
        if self.count > MAX_VALUES:
            raise TemplateError(
                f"{path or 'a resource'} expands to more than {MAX_VALUES} values (YAML aliases)",
                path=self.template.path,
            )
        call = function_call(value)
        if call is not None:
            name, argument = call
            if name == "get_file":
                return self.template._get_file(value, argument, path, self.problems)
            if name == "get_param":
                return self.template._get_param(value, argument, path, self.problems)
            return Unresolved(name, value)
        if not isinstance(value, Mapping | list):
            return value
        if id(value) in self.active:
            raise TemplateError(
                f"{path or 'a resource'} contains itself (a recursive YAML alias)",
                path=self.template.path,
            )
        self.active.add(id(value))
        try:
            if isinstance(value, Mapping):
                return {key: self.value(item, child(path, key)) for key, item in value.items()}
            return [self.value(item, child(path, index)) for index, item in enumerate(value)]
        finally:
            self.active.discard(id(value))
