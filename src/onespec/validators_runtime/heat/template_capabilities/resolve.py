"""Resolving an environment with ``requires`` and template lists into one Heat accepts."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from onespec.validators_runtime.heat.hot_loader import (
    MAX_TEMPLATE_SIZE,
    HeatFileError,
    Loaded,
    LoadError,
    classify,
    load,
)
from onespec.validators_runtime.heat.template_capabilities.model import (
    ENVIRONMENT_SECTIONS,
    LIST_KEYS,
    REQUIRES,
    Candidate,
    Decision,
    ResolutionError,
    Values,
    kind_of,
    section_error,
)
from onespec.validators_runtime.heat.template_capabilities.paths import (
    display_path,
    is_type_name,
    local_path,
)
from onespec.validators_runtime.heat.template_capabilities.registry import (
    absolute_registry,
    assign_entry,
    deep_update,
    list_entries,
    lookup_entry,
)
from onespec.validators_runtime.heat.template_capabilities.sections import (
    evaluate,
    parse_section,
    template_capabilities,
)
from onespec.validators_runtime.problems import Problem


@dataclass(frozen=True)
class Resolution:
    """An environment Heat accepts, made from environments that use capabilities.

    ``environment`` has a single-valued registry whose local paths are absolute, and no
    ``requires``; ``decisions`` says how each list was resolved; ``annotated`` lists the
    chosen templates that still carry a ``capabilities`` section (which Heat rejects: write
    stripped copies with :func:`write_resolution`).
    """

    environments: tuple[str, ...]
    environment: dict[str, Any]
    requires: Mapping[str, Values]
    decisions: tuple[Decision, ...]
    annotated: tuple[str, ...] = ()
    warnings: tuple[Problem, ...] = ()

    def to_yaml(self) -> str:
        """The environment as YAML, with a header saying where it came from."""
        return environment_yaml(self.environment, self.environments)

    def to_dict(self) -> dict[str, Any]:
        return {
            "environments": list(self.environments),
            "requires": {k: list(v) for k, v in self.requires.items()},
            "environment": self.environment,
            "decisions": [d.to_dict() for d in self.decisions],
            "annotated": list(self.annotated),
            "warnings": [w.to_dict() for w in self.warnings],
        }


def comment_text(value: str) -> str:
    """``value`` as it may stand in a YAML comment: as is when it is plain printable text, else
    quoted with every control or line-breaking character escaped (JSON's escapes), so a file
    name can never end the comment and add YAML of its own."""
    if value.isprintable() and not value.startswith(('"', " ")) and not value.endswith(" "):
        return value
    return json.dumps(value, ensure_ascii=not value.isprintable())


def environment_yaml(environment: Mapping[str, Any], sources: Sequence[str]) -> str:
    header = (
        "# Resolved by `onespec template-capabilities resolve` from:\n"
        + "".join(f"#   {comment_text(source)}\n" for source in sources)
        + "# Each list of templates is replaced by the one whose capabilities satisfy 'requires'.\n"
    )
    body = yaml.safe_dump(
        environment, sort_keys=False, default_flow_style=False, allow_unicode=True, width=100
    )
    return header + (body if environment else "{}\n")


def read_environment(loaded: Loaded) -> dict[str, Any]:
    """An environment's sections, checked as Heat checks them (plus ``requires``).

    Registry paths become absolute; ``requires`` is normalised (values are tuples). Raises
    :class:`CapabilitiesError` with Heat's own words where Heat would refuse the file.
    """
    data = loaded.data
    kind, _ = classify(data)
    allowed = (*ENVIRONMENT_SECTIONS, REQUIRES)
    for section in data:
        if section not in allowed:
            hint = (
                " (this file is a template, not an environment)"
                if kind == "template"
                else f"; an environment has only {', '.join(allowed)}"
            )
            raise section_error(f'environment has wrong section "{section}"{hint}', loaded, section)
        if data[section] is None:
            raise section_error(f'environment has empty section "{section}"', loaded, section)
    environment: dict[str, Any] = {}
    folder = os.path.dirname(os.path.abspath(loaded.path))
    for section, value in data.items():
        if section == REQUIRES:
            environment[section] = parse_section(value, REQUIRES, loaded)
        elif section == "resource_registry":
            if not isinstance(value, Mapping):
                raise section_error(
                    f"resource_registry must be a mapping, not {kind_of(value)}",
                    loaded,
                    section,
                )
            environment[section] = absolute_registry(value, loaded, folder)
        else:
            environment[section] = copy.deepcopy(value)
    return environment


class _Templates:
    """Templates loaded once per resolution, with their capabilities or the reason they fail."""

    def __init__(self, max_size: int | None) -> None:
        self.max_size = max_size
        self._seen: dict[str, tuple[Loaded | None, dict[str, Values] | None, str | None]] = {}

    def get(self, path: str) -> tuple[Loaded | None, dict[str, Values] | None, str | None]:
        if path not in self._seen:
            try:
                loaded = load(path, max_size=self.max_size)
                kind, detail = classify(loaded.data)
                if kind != "template":
                    raise LoadError(
                        "no-version",
                        f"Template format version not found: it is not a template ({detail})",
                        path=display_path(path),
                        line=1,
                    )
                self._seen[path] = (loaded, template_capabilities(loaded), None)
            except HeatFileError as exc:
                shown = HeatFileError(exc.reason, path=display_path(path), line=exc.line)
                self._seen[path] = (None, None, str(shown))
        return self._seen[path]


def _candidate(
    value: str, resource_type: str, requires: Mapping[str, Values], templates: _Templates
) -> Candidate:
    if is_type_name(value):
        matched, reasons = evaluate({}, requires, resource_type)
        return Candidate(
            value, None, None, matched, (*reasons, "a resource type, which declares nothing")
        )
    local = local_path(value)
    if local is None:
        return Candidate(value, None, None, False, ("a remote template cannot be read",), True)
    _, capabilities, problem = templates.get(local)
    shown = display_path(local)
    if problem is not None:
        return Candidate(shown, local, None, False, (problem,), True)
    matched, reasons = evaluate(capabilities, requires, resource_type)
    return Candidate(shown, local, capabilities, matched, reasons)


def check_heat_environment(environment: Mapping[Any, Any]) -> list[str]:
    """What Heat would refuse in ``environment``: unknown or empty sections, registry lists.

    Heat's ``environment_format.validate`` accepts only its own sections and none empty; its
    registry takes strings, nulls and mappings, and lists only as ``hooks`` and
    ``restricted_actions``. An empty list means Heat accepts the environment.
    """
    problems = []
    for section, value in environment.items():
        if section not in ENVIRONMENT_SECTIONS:
            problems.append(f'environment has wrong section "{section}"')
        elif value is None:
            problems.append(f'environment has empty section "{section}"')

    def walk(node: Mapping[Any, Any], prefix: str) -> None:
        for key, value in node.items():
            where = f"{prefix}/{key}" if prefix else str(key)
            if key in LIST_KEYS:
                continue
            if isinstance(value, Mapping):
                walk(value, where)
            elif value is not None and not isinstance(value, str):
                problems.append(f"resource_registry {where} is {kind_of(value)}")

    registry = environment.get("resource_registry")
    if isinstance(registry, Mapping):
        walk(registry, "")
    elif registry is not None:
        problems.append("resource_registry is not a mapping")
    return problems


def resolve(
    environments: Sequence[str | os.PathLike[str]],
    *,
    max_size: int | None = MAX_TEMPLATE_SIZE,
) -> Resolution:
    """Merge ``environments`` in order and resolve every list of templates in the registry.

    Each list entry (paths relative to its environment file) resolves to the one candidate
    whose capabilities satisfy the merged ``requires`` and that implements the entry's type.
    Raises :class:`~onespec.validators_runtime.heat.hot_loader.LoadError` or
    :class:`CapabilitiesError` for a malformed environment, and :class:`ResolutionError`
    (listing every candidate of every failed entry) when any list has no match or several.
    """
    if not environments:
        raise ValueError("resolve needs at least one environment file")
    names = [os.fspath(e) for e in environments]
    merged: dict[str, Any] = {}
    loaded_envs: list[tuple[Loaded, dict[str, Any]]] = []
    warnings: list[Problem] = []
    for name in names:
        loaded = load(name, max_size=max_size)
        environment = read_environment(loaded)
        loaded_envs.append((loaded, environment))
        warnings += loaded.warnings
        deep_update(merged, copy.deepcopy(environment))
    requires: dict[str, Values] = merged.pop(REQUIRES, {})
    registry = merged.get("resource_registry", {})
    templates = _Templates(max_size)
    decisions = []
    for key_path, values in list(list_entries(registry)):
        source, line = names[-1], None
        for loaded, environment in reversed(loaded_envs):
            if lookup_entry(environment.get("resource_registry", {}), key_path) == values:
                source, line = loaded.path, loaded.line("resource_registry", *key_path)
                break
        candidates = tuple(_candidate(v, key_path[-1], requires, templates) for v in values)
        matched = [c for c in candidates if c.matched]
        usable = not any(c.broken for c in candidates)
        chosen = matched[0] if usable and len(matched) == 1 else None
        decisions.append(Decision(key_path, source, line, requires, candidates, chosen))
        if chosen is not None:
            assign_entry(registry, key_path, chosen.absolute or chosen.path)
    if any(d.chosen is None for d in decisions):
        raise ResolutionError(decisions)
    problems = check_heat_environment(merged)
    if problems:  # a bug here, not in the input: say so loudly
        raise AssertionError(f"the resolved environment breaks Heat's rules: {problems}")
    annotated = tuple(
        d.chosen.path
        for d in decisions
        if d.chosen is not None
        and d.chosen.capabilities is not None
        and d.chosen.absolute is not None
    )
    return Resolution(tuple(names), merged, requires, tuple(decisions), annotated, tuple(warnings))
