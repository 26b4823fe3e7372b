"""Introspection over a scan: which templates match, which labels exist, which choices remain."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from onespec.validators_runtime.heat.template_capabilities.model import (
    RESOURCE_TYPE,
)
from onespec.validators_runtime.heat.template_capabilities.paths import (
    implementation,
)
from onespec.validators_runtime.heat.template_capabilities.scan import (
    scan,
)
from onespec.validators_runtime.problems import Location, Problem

Constraints = Mapping[str, str] | Iterable[tuple[str, str]]


def _pairs(constraints: Constraints) -> tuple[tuple[str, str], ...]:
    items = constraints.items() if isinstance(constraints, Mapping) else constraints
    pairs = tuple((str(key), str(value)) for key, value in items)
    for key, _ in pairs:
        if not key:
            raise ValueError("a constraint needs a capability name before '='")
    return pairs


@dataclass(frozen=True)
class FindResult:
    """The templates whose capabilities meet every constraint, sorted, with what was skipped."""

    matches: tuple[str, ...]
    constraints: tuple[tuple[str, str], ...]
    templates: int
    files: int
    problems: tuple[Problem, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "constraints": [{"key": k, "value": v} for k, v in self.constraints],
            "matches": list(self.matches),
            "templates": self.templates,
            "files": self.files,
            "problems": [p.to_dict() for p in self.problems],
        }


def find(
    paths: Iterable[str | os.PathLike[str]],
    constraints: Constraints,
    *,
    recursive: bool = False,
    **options: Any,
) -> FindResult:
    """The templates under ``paths`` whose capabilities satisfy every ``KEY=VALUE`` constraint.

    A constraint holds when the template declares the key and its value (or one of its list
    values) is the constraint's value: ``{"resource_type": "OS::TripleO::Controller"}`` finds
    every template that names the type. ``options`` are those of :func:`scan`.
    """
    pairs = _pairs(constraints)
    result = scan(paths, recursive=recursive, **options)
    templates = result.of_kind("template")
    matches = sorted(
        record.path
        for record in templates
        if record.capabilities is not None
        and all(value in record.capabilities.get(key, ()) for key, value in pairs)
    )
    return FindResult(
        tuple(matches), pairs, len(templates), len(result.records), result.all_problems
    )


@dataclass(frozen=True)
class Summary:
    """The capabilities a set of templates offers: label values by key, templates by type."""

    labels: dict[str, list[str]]
    resource_types: dict[str, list[str]]
    templates: int
    problems: tuple[Problem, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "labels": self.labels,
            "resource_types": self.resource_types,
            "problems": [p.to_dict() for p in self.problems],
        }


def summary(
    paths: Iterable[str | os.PathLike[str]], *, recursive: bool = False, **options: Any
) -> Summary:
    """Both summaries of the specification, over the templates under ``paths``.

    ``labels`` maps each label key to the values templates declare for it
    (``{"deployment": ["docker", "puppet"]}``); ``resource_types`` maps each type that
    type-based annotations name to the templates that name it. Both are sorted.
    """
    result = scan(paths, recursive=recursive, **options)
    labels: dict[str, set[str]] = {}
    types: dict[str, set[str]] = {}
    templates = result.of_kind("template")
    for record in templates:
        for key, values in (record.capabilities or {}).items():
            if key == RESOURCE_TYPE:
                for name in values:
                    types.setdefault(name, set()).add(record.path)
            else:
                labels.setdefault(key, set()).update(values)
    return Summary(
        {key: sorted(labels[key]) for key in sorted(labels)},
        {key: sorted(types[key]) for key in sorted(types)},
        len(templates),
        result.all_problems,
    )


@dataclass(frozen=True)
class Choices:
    """Resource types that the environments map to different implementations.

    ``types`` maps each such type (``resources/NAME/TYPE`` for a per-resource entry) to its
    implementations, each with the environments that choose it.
    """

    types: dict[str, dict[str, list[str]]]
    environments: tuple[str, ...]
    problems: tuple[Problem, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "choices": self.types,
            "environments": list(self.environments),
            "problems": [p.to_dict() for p in self.problems],
        }


def choices(
    paths: Iterable[str | os.PathLike[str]], *, recursive: bool = False, **options: Any
) -> Choices:
    """Each resource type that different environment files map to different implementations.

    These are the choices that capabilities make explicit. Paths are normalised relative to
    each environment, so ``../puppet/x.yaml`` in ``environments/`` and ``puppet/x.yaml`` at
    the root are one implementation. A list of candidates counts each candidate. Files that
    are not environments are skipped, or reported when named explicitly.
    """
    listed = [os.fspath(p) for p in paths]
    result = scan(listed, recursive=recursive, **options)
    explicit = {os.path.normpath(p) for p in listed if not os.path.isdir(p)}
    problems = list(result.all_problems)
    found: dict[str, dict[str, set[str]]] = {}
    environments = []
    for record in result.records:
        if record.kind != "environment":
            if record.kind != "error" and record.path in explicit:
                problems.append(
                    Problem(
                        "not-an-environment",
                        f"is not an environment ({record.detail})",
                        location=Location(record.path),
                    )
                )
            continue
        if not record.usable:
            continue
        environments.append(record.path)
        for key_path, value in record.registry:
            values = value if isinstance(value, list) else [value]
            name = "/".join(key_path)
            for item in values:
                found.setdefault(name, {}).setdefault(implementation(record.path, item), set()).add(
                    record.path
                )
    types = {
        name: {impl: sorted(found[name][impl]) for impl in sorted(found[name])}
        for name in sorted(found)
        if len(found[name]) > 1
    }
    return Choices(types, tuple(environments), tuple(problems))
