"""Template capabilities: annotate HOT templates, resolve environments, introspect template trees.

A template declares what it provides in an optional ``capabilities`` section; an environment
states what it requires in an optional ``requires`` section and may map a resource type to a
*list* of templates. Heat rejects all three, so :func:`resolve` turns such environments into
one Heat accepts, and :func:`write_resolution` writes it beside copies of the templates without
their ``capabilities`` section. :func:`find`, :func:`summary` and :func:`choices` answer the
questions a user interface asks of a tree of templates and environments::

    from validators_runtime.heat.capabilities import find, summary, choices, resolve

    find(["templates/"], {"resource_type": "OS::TripleO::Controller"}, recursive=True).matches
    summary(["templates/"], recursive=True).labels        # {"deployment": ["docker", "puppet"]}
    resolve(["env.yaml"]).environment                     # single-valued registry, no requires

Every problem is a :class:`~validators_runtime.heat.hot_loader.HeatFileError` (a
``ValueError``) that names the file and the line. The grammar comes from
``definitions/capabilities.py``, through ``validators_runtime._generated.capabilities``.
"""

from __future__ import annotations

import copy
import json
import os
import posixpath
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urljoin, urlparse

import yaml

from validators_runtime._generated import capabilities as _facts
from validators_runtime.heat.hot_loader import (
    C_LOADER,
    MAX_ALIAS_EXPANSION,
    MAX_TEMPLATE_SIZE,
    HeatFileError,
    Loaded,
    LoadError,
    classify,
    load,
    loads,
    version_text,
)

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


# --- Errors ---------------------------------------------------------------------------------------


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


# --- The sections ---------------------------------------------------------------------------------


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


# --- Paths ----------------------------------------------------------------------------------------


def _is_type_name(value: str) -> bool:
    """A registry value that names a resource type (``OS::Heat::None``), not a file."""
    return "::" in value


def _scheme(value: str) -> str:
    parsed = urlparse(value)
    return parsed.scheme if len(parsed.scheme) > 1 else ""  # "C:" is a drive, not a scheme


def _local(value: str) -> str | None:
    """The local path a registry value or reference names, or None (a type or a remote URL)."""
    if _is_type_name(value):
        return None
    scheme = _scheme(value)
    if scheme == "file":
        return urlparse(value).path
    return None if scheme else value


def _join_base(base: str | None, value: str) -> str:
    """``value`` read against a registry's ``base_url``, as the Heat client does."""
    if base is None or _is_type_name(value) or _scheme(value) or os.path.isabs(value):
        return value
    if _scheme(base) and _scheme(base) != "file":
        return urljoin(base if base.endswith("/") else base + "/", value)
    return posixpath.join(_local(base) or base, value)


def display_path(path: str) -> str:
    """``path`` relative to the working directory when it lies below it, else absolute."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative == ".." or relative.startswith(".." + os.sep) else relative


def implementation(environment: str, value: str | None) -> str:
    """A registry value as a comparable implementation, paths resolved against the environment.

    Resource types and remote URLs are kept as written; ``null`` (which removes a mapping)
    is ``"null"``; a local path becomes normalised and relative to where the environment was
    named from (``environments/../docker/x.yaml`` is ``docker/x.yaml``).
    """
    if value is None:
        return "null"
    local = _local(value)
    if local is None:
        return value
    return os.path.normpath(os.path.join(os.path.dirname(environment), local))


# --- Scanning -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """Something wrong with one scanned file: an error excludes the file, a warning does not."""

    path: str
    line: int | None
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"{where}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "severity": self.severity,
            "message": self.message,
        }


RegistryEntry = tuple[tuple[str, ...], Any]


@dataclass(frozen=True)
class FileRecord:
    """What a scan learnt about one file.

    ``kind`` is ``template``, ``environment``, ``other`` or ``error`` (it could not be
    loaded); ``detail`` says why. A template has its ``version`` (always a string) and its
    ``capabilities`` (None without the section); an environment its ``requires`` and its
    ``registry`` entries as ``(key path, value)`` pairs, values read against any ``base_url``
    but still relative to the environment file.
    """

    path: str
    kind: str
    detail: str
    version: str | None = None
    capabilities: Mapping[str, Values] | None = None
    requires: Mapping[str, Values] | None = None
    registry: tuple[RegistryEntry, ...] = ()
    problems: tuple[Problem, ...] = ()

    @property
    def usable(self) -> bool:
        """Loaded, with well-formed sections: a query may rely on it."""
        return not any(problem.severity == "error" for problem in self.problems)


def _registry_entries(
    registry: Mapping[Any, Any], loaded: Loaded | None
) -> tuple[list[RegistryEntry], list[tuple[int | None, str]]]:
    """Flatten a ``resource_registry`` into (key path, value) pairs, values against base_url."""
    entries: list[RegistryEntry] = []
    errors: list[tuple[int | None, str]] = []

    def walk(node: Mapping[Any, Any], prefix: tuple[str, ...], base: str | None) -> None:
        here = node.get(_BASE_URL)
        if isinstance(here, str):
            base = _join_base(base, here)
        for key, value in node.items():
            path = (*prefix, str(key))
            if key == _BASE_URL or key in _LIST_KEYS:
                continue
            if isinstance(value, Mapping):
                walk(value, path, base)
            elif value is None:
                entries.append((path, None))
            elif isinstance(value, str):
                entries.append((path, _join_base(base, value)))
            elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                entries.append((path, [_join_base(base, v) for v in value]))
            else:
                line = loaded.line("resource_registry", *path) if loaded else None
                errors.append(
                    (
                        line,
                        f"resource_registry {'/'.join(path)} must be a template path, a resource "
                        "type, null, a mapping or a non-empty list of template paths, not "
                        f"{_kind_of(value)}",
                    )
                )

    walk(registry, (), None)
    return entries, errors


def facts_of(loaded: Loaded) -> dict[str, Any]:
    """The JSON-ready facts a scan keeps (and caches) about a loaded file."""
    kind, detail = classify(loaded.data)
    errors: list[tuple[int | None, str]] = []
    facts: dict[str, Any] = {"kind": kind, "detail": detail}
    data = loaded.data
    if kind == "template":
        version_key = next(k for k in _facts.TEMPLATE_VERSION_KEYS if k in data)
        facts["version"] = version_text(data[version_key])
        try:
            capabilities = template_capabilities(loaded)
        except CapabilitiesError as exc:
            errors.append((exc.line, exc.reason))
        else:
            if capabilities is not None:
                facts["capabilities"] = {k: list(v) for k, v in capabilities.items()}
    elif kind == "environment":
        for section in data:
            if data[section] is None:
                errors.append((loaded.line(section), f'environment has empty section "{section}"'))
        if data.get(REQUIRES) is not None:
            try:
                requires = parse_section(data[REQUIRES], REQUIRES, loaded)
            except CapabilitiesError as exc:
                errors.append((exc.line, exc.reason))
            else:
                facts["requires"] = {k: list(v) for k, v in requires.items()}
        registry = data.get("resource_registry")
        if isinstance(registry, Mapping):
            entries, registry_errors = _registry_entries(registry, loaded)
            errors.extend(registry_errors)
            facts["registry"] = [[list(path), value] for path, value in entries]
        elif registry is not None:
            errors.append(
                (
                    loaded.line("resource_registry"),
                    f"resource_registry must be a mapping, not {_kind_of(registry)}",
                )
            )
    facts["errors"] = [list(item) for item in errors]
    facts["warnings"] = [[w.line, w.message] for w in loaded.warnings]
    return facts


#: Load errors that, in a file a recursive scan came across, mean "not Heat's": the file is
#: classified as other and the scan goes on. Named explicitly, the same file is an error.
NOT_HEAT_CODES = frozenset({"syntax", "not-a-mapping", "encoding"})


def _other_facts(error: LoadError) -> dict[str, Any]:
    return {
        "kind": "other",
        "detail": f"not a template or environment ({error.reason.rstrip('.')})",
        "errors": [],
        "warnings": [],
    }


def _error_facts(error: LoadError) -> dict[str, Any]:
    return {
        "kind": "error",
        "detail": error.code,
        "errors": [[error.line, error.reason]],
        "warnings": [],
    }


def _record(path: str, facts: Mapping[str, Any]) -> FileRecord:
    problems = [Problem(path, line, message) for line, message in facts.get("errors", ())]
    problems += [
        Problem(path, line, message, "warning") for line, message in facts.get("warnings", ())
    ]

    def section(name: str) -> dict[str, Values] | None:
        raw = facts.get(name)
        return None if raw is None else {k: tuple(v) for k, v in raw.items()}

    return FileRecord(
        path=path,
        kind=facts["kind"],
        detail=facts.get("detail", ""),
        version=facts.get("version"),
        capabilities=section("capabilities"),
        requires=section("requires"),
        registry=tuple((tuple(p), v) for p, v in facts.get("registry", ())),
        problems=tuple(problems),
    )


@dataclass(frozen=True)
class Scan:
    """Every file a scan read, in order, and the problems of paths that are not files."""

    records: tuple[FileRecord, ...]
    problems: tuple[Problem, ...] = ()
    cache_hits: int = 0

    def of_kind(self, kind: str) -> tuple[FileRecord, ...]:
        return tuple(r for r in self.records if r.kind == kind and r.usable)

    @property
    def all_problems(self) -> tuple[Problem, ...]:
        """Problems of paths, then of each file, errors and warnings alike."""
        return (*self.problems, *(p for record in self.records for p in record.problems))

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.all_problems if p.severity == "error")


def iter_files(
    paths: Iterable[str | os.PathLike[str]], recursive: bool
) -> Iterator[tuple[str, Problem | None]]:
    """The files to scan, as (display path, None), or (path, problem) for a path to skip.

    A directory is walked only with ``recursive`` (files ending in :data:`SCAN_SUFFIXES`, in
    sorted order, hidden directories and symbolic links to directories skipped); a file named
    explicitly is read whatever its name. Each file is yielded once. A directory without
    ``recursive``, and a path that does not exist, are problems (errors).
    """
    seen: set[str] = set()

    def once(path: str) -> bool:
        key = os.path.normcase(os.path.abspath(path))
        if key in seen:
            return False
        seen.add(key)
        return True

    for raw in paths:
        given = os.path.normpath(os.fspath(raw))
        if os.path.isdir(given):
            if not recursive:
                yield given, Problem(given, None, "is a directory (scan it with -r)")
                continue
            for folder, directories, files in os.walk(given):
                directories[:] = sorted(
                    d
                    for d in directories
                    if not d.startswith(".") and not os.path.islink(os.path.join(folder, d))
                )
                for name in sorted(files):
                    if name.endswith(SCAN_SUFFIXES) and not name.startswith("."):
                        path = os.path.normpath(os.path.join(folder, name))
                        if once(path):
                            yield path, None
        elif os.path.exists(given):
            if once(given):
                yield given, None
        else:
            yield given, Problem(given, None, "no such file or directory")


def _fingerprint(max_size: int | None, alias_limit: int) -> str:
    return f"{max_size}:{alias_limit}:{yaml.__version__}:{'C' if C_LOADER else 'py'}"


def scan(
    paths: Iterable[str | os.PathLike[str]],
    *,
    recursive: bool = False,
    cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    max_size: int | None = MAX_TEMPLATE_SIZE,
    alias_limit: int = MAX_ALIAS_EXPANSION,
) -> Scan:
    """Load every file under ``paths`` as Heat would, and record what each one is.

    With ``cache``, facts are reused while a file's path, size and modification time are
    unchanged (see :mod:`validators_runtime.heat.capabilities_cache`).
    """
    store = None
    if cache:
        from validators_runtime.heat.capabilities_cache import FactCache

        store = FactCache(
            _fingerprint(max_size, alias_limit),
            Path(cache_dir) if cache_dir is not None else None,
        )
    records: list[FileRecord] = []
    problems: list[Problem] = []
    paths = list(paths)
    named = {os.path.normpath(os.fspath(p)) for p in paths if not os.path.isdir(p)}
    for path, problem in iter_files(paths, recursive):
        if problem is not None:
            problems.append(problem)
            continue
        absolute = os.path.abspath(path)
        facts = None
        stat = None
        if store is not None:
            try:
                stat = os.stat(absolute)
            except OSError:
                stat = None
            else:
                facts = store.get(absolute, stat)
        if facts is None:
            read_at = time.time_ns()
            try:
                facts = facts_of(load(absolute, max_size=max_size, alias_limit=alias_limit))
            except LoadError as exc:
                walked_into = path not in named
                facts = (
                    _other_facts(exc)
                    if walked_into and exc.code in NOT_HEAT_CODES
                    else _error_facts(exc)
                )
            if store is not None and stat is not None and facts.get("detail") != "unreadable":
                store.put(absolute, stat, facts, read_at)
        records.append(_record(path, facts))
    if store is not None:
        store.save()
    return Scan(tuple(records), tuple(problems), store.hits if store is not None else 0)


# --- Introspection --------------------------------------------------------------------------------


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
        return {"labels": self.labels, "resource_types": self.resource_types}


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
                    Problem(record.path, None, f"is not an environment ({record.detail})")
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


# --- Resolution -----------------------------------------------------------------------------------


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
            "path": self.path,
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
        return _environment_yaml(self.environment, self.environments)

    def to_dict(self) -> dict[str, Any]:
        return {
            "environments": list(self.environments),
            "requires": {k: list(v) for k, v in self.requires.items()},
            "environment": self.environment,
            "decisions": [d.to_dict() for d in self.decisions],
            "annotated": list(self.annotated),
            "warnings": [w.to_dict() for w in self.warnings],
        }


def _environment_yaml(environment: Mapping[str, Any], sources: Sequence[str]) -> str:
    header = (
        "# Resolved by `onespec capabilities resolve` from:\n"
        + "".join(f"#   {source}\n" for source in sources)
        + "# Each list of templates is replaced by the one whose capabilities satisfy 'requires'.\n"
    )
    body = yaml.safe_dump(
        environment, sort_keys=False, default_flow_style=False, allow_unicode=True, width=100
    )
    return header + (body if environment else "{}\n")


def deep_update(old: dict[Any, Any], new: Mapping[Any, Any]) -> dict[Any, Any]:
    """Merge ``new`` into ``old`` as the Heat client merges environment files.

    Mappings merge key by key, recursively; anything else replaces; a null never replaces a
    mapping (``python-heatclient``'s ``template_utils.deep_update``).
    """
    for key, value in new.items():
        if isinstance(value, Mapping):
            current = old.get(key)
            old[key] = deep_update(current if isinstance(current, dict) else {}, value)
        elif value is None and isinstance(old.get(key), Mapping):
            continue
        else:
            old[key] = value
    return old


def _absolute_registry(registry: Mapping[Any, Any], loaded: Loaded, folder: str) -> dict[str, Any]:
    """A registry with every local path absolute (read against the file and any base_url)."""

    def resolve_value(value: str, base: str | None) -> str:
        joined = _join_base(base, value)
        local = _local(joined)
        if local is None:
            return joined
        return os.path.normpath(os.path.join(folder, local))

    def walk(node: Mapping[Any, Any], prefix: tuple[str, ...], base: str | None) -> dict[str, Any]:
        here = node.get(_BASE_URL)
        if isinstance(here, str):
            base = _join_base(base, here)
        result: dict[str, Any] = {}
        for key, value in node.items():
            path = (*prefix, str(key))
            if key == _BASE_URL:
                continue
            if key in _LIST_KEYS:
                result[key] = copy.deepcopy(value)
            elif isinstance(value, Mapping):
                result[key] = walk(value, path, base)
            elif value is None:
                result[key] = None
            elif isinstance(value, str):
                result[key] = resolve_value(value, base)
            elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                result[key] = [resolve_value(v, base) for v in value]
            else:
                raise _error(
                    f"resource_registry {'/'.join(path)} must be a template path, a resource "
                    "type, null, a mapping or a non-empty list of template paths, not "
                    f"{_kind_of(value)}",
                    loaded,
                    "resource_registry",
                    *path,
                )
        return result

    return walk(registry, (), None)


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
            raise _error(f'environment has wrong section "{section}"{hint}', loaded, section)
        if data[section] is None:
            raise _error(f'environment has empty section "{section}"', loaded, section)
    environment: dict[str, Any] = {}
    folder = os.path.dirname(os.path.abspath(loaded.path))
    for section, value in data.items():
        if section == REQUIRES:
            environment[section] = parse_section(value, REQUIRES, loaded)
        elif section == "resource_registry":
            if not isinstance(value, Mapping):
                raise _error(
                    f"resource_registry must be a mapping, not {_kind_of(value)}",
                    loaded,
                    section,
                )
            environment[section] = _absolute_registry(value, loaded, folder)
        else:
            environment[section] = copy.deepcopy(value)
    return environment


def _list_entries(registry: Mapping[Any, Any], prefix: tuple[str, ...] = ()) -> Iterator[Any]:
    for key, value in registry.items():
        if key in _LIST_KEYS:
            continue
        path = (*prefix, str(key))
        if isinstance(value, Mapping):
            yield from _list_entries(value, path)
        elif isinstance(value, list):
            yield path, value


def _lookup(registry: Mapping[Any, Any], path: Sequence[str]) -> Any:
    node: Any = registry
    for key in path:
        if not isinstance(node, Mapping) or key not in node:
            return None
        node = node[key]
    return node


def _assign(registry: dict[Any, Any], path: Sequence[str], value: Any) -> None:
    node = registry
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


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
    if _is_type_name(value):
        matched, reasons = evaluate({}, requires, resource_type)
        return Candidate(
            value, None, None, matched, (*reasons, "a resource type, which declares nothing")
        )
    local = _local(value)
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
            if key in _LIST_KEYS:
                continue
            if isinstance(value, Mapping):
                walk(value, where)
            elif value is not None and not isinstance(value, str):
                problems.append(f"resource_registry {where} is {_kind_of(value)}")

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
    Raises :class:`~validators_runtime.heat.hot_loader.LoadError` or
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
        warnings += [Problem(name, w.line, w.message, "warning") for w in loaded.warnings]
        deep_update(merged, copy.deepcopy(environment))
    requires: dict[str, Values] = merged.pop(REQUIRES, {})
    registry = merged.get("resource_registry", {})
    templates = _Templates(max_size)
    decisions = []
    for key_path, values in list(_list_entries(registry)):
        source, line = names[-1], None
        for loaded, environment in reversed(loaded_envs):
            if _lookup(environment.get("resource_registry", {}), key_path) == values:
                source, line = loaded.path, loaded.line("resource_registry", *key_path)
                break
        candidates = tuple(_candidate(v, key_path[-1], requires, templates) for v in values)
        matched = [c for c in candidates if c.matched]
        usable = not any(c.broken for c in candidates)
        chosen = matched[0] if usable and len(matched) == 1 else None
        decisions.append(Decision(key_path, source, line, requires, candidates, chosen))
        if chosen is not None:
            _assign(registry, key_path, chosen.absolute or chosen.path)
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


# --- Writing a resolution -------------------------------------------------------------------------


@dataclass(frozen=True)
class Written:
    """What :func:`write_resolution` wrote: the environment and the files beside it."""

    directory: str
    environment: str
    files: tuple[str, ...]
    stripped: tuple[str, ...]
    root: str


def strip_capabilities(loaded: Loaded) -> str:
    """The template's text without its ``capabilities`` section, everything else unchanged.

    A block-style YAML template loses exactly the section's lines, keeping comments and
    formatting elsewhere; any other layout is written anew. Either way the result is loaded
    again and must equal the template minus the section.
    """
    data = loaded.data
    if CAPABILITIES not in data:
        return loaded.text
    expected = {k: v for k, v in data.items() if k != CAPABILITIES}
    candidates = []
    line = loaded.lines.get((CAPABILITIES,))
    if loaded.format == "yaml" and line is not None:
        candidates.append(_cut_section(loaded, line))
    if loaded.format == "json":
        candidates.append(json_dumps(expected))
    candidates.append(
        yaml.safe_dump(expected, sort_keys=False, default_flow_style=False, allow_unicode=True)
    )
    for text in candidates:
        if text is None:
            continue
        try:
            if loads(text, loaded.path, max_size=None).data == expected:
                return text
        except HeatFileError:
            continue
    raise OutputError([f"{loaded.path}: cannot remove the capabilities section faithfully"])


def json_dumps(data: Any) -> str:
    """JSON text of a template, as a person would indent it."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _cut_section(loaded: Loaded, line: int) -> str | None:
    lines = loaded.text.splitlines(keepends=True)
    start = line - 1
    if start >= len(lines) or not lines[start].lstrip("'\"").startswith(CAPABILITIES):
        return None
    if lines[start][:1].isspace():
        return None  # not a block mapping at column 0
    later = sorted(n for key, n in loaded.lines.items() if len(key) == 1 and n > line)
    end = later[0] - 1 if later else len(lines)
    # Comments and blank lines at column 0 just before the next key belong to that key.
    while end > start + 1 and (
        not lines[end - 1].strip()
        or lines[end - 1].startswith("#")
        or lines[end - 1].rstrip() in ("...", "---")
    ):
        end -= 1
    if start == 0 or not lines[start - 1].strip():
        while end < len(lines) and not lines[end].strip():
            end += 1  # do not leave two blank lines where the section was
    return "".join(lines[:start] + lines[end:])


def _references(data: Any) -> Iterator[tuple[str, str]]:
    """(kind, value) of every ``get_file`` and nested-template ``type`` in a template."""
    seen: set[int] = set()
    stack = [data]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key == "get_file" and isinstance(value, str):
                    yield "get_file", value
                elif (
                    key == "type" and isinstance(value, str) and value.endswith(_TEMPLATE_SUFFIXES)
                ):
                    yield "type", value
                if isinstance(value, Mapping | list):
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(item for item in node if isinstance(item, Mapping | list))


def _line_of(text: str, needle: str) -> int | None:
    index = text.find(needle)
    return text.count("\n", 0, index) + 1 if index >= 0 else None


def _inside(path: str, root: str) -> bool:
    return os.path.commonpath([path, root]) == root


def write_resolution(
    resolution: Resolution,
    output_dir: str | os.PathLike[str],
    *,
    root: str | os.PathLike[str] | None = None,
    overwrite: bool = False,
    max_size: int | None = MAX_TEMPLATE_SIZE,
) -> Written:
    """Write ``output_dir/environment.yaml`` beside copies of every template it uses.

    The copies keep their layout relative to ``root`` (by default the deepest directory that
    holds every environment file and every file the registry names), lose their
    ``capabilities`` section, and bring along the files they reference (``get_file`` and
    nested ``type`` templates), so the directory is complete. A reference that leaves the root,
    or names a missing file, is reported and nothing is written. The directory must be new or
    empty unless ``overwrite``; files are never written through a symbolic link out of it.
    Raises :class:`OutputError`.
    """
    registry = resolution.environment.get("resource_registry", {})
    registry_files: list[tuple[tuple[str, ...], str]] = []

    def collect(node: Mapping[Any, Any], prefix: tuple[str, ...]) -> None:
        for key, value in node.items():
            if key in _LIST_KEYS:
                continue
            path = (*prefix, str(key))
            if isinstance(value, Mapping):
                collect(value, path)
            elif isinstance(value, str) and _local(value) is not None:
                registry_files.append((path, os.path.abspath(value)))

    collect(registry, ())
    anchors = [os.path.dirname(os.path.abspath(e)) for e in resolution.environments]
    anchors += [os.path.dirname(path) for _, path in registry_files]
    base = os.path.abspath(root) if root is not None else os.path.commonpath(anchors)
    problems: list[str] = []
    contents: dict[str, bytes] = {}
    stripped: list[str] = []
    pending = [(path, None, "resource_registry " + "/".join(key)) for key, path in registry_files]
    while pending:
        path, referrer, how = pending.pop(0)
        if not _inside(path, base):
            problems.append(
                f"{referrer or resolution.environments[-1]}: {how} names {path}, which lies "
                f"outside {base}; a copy would not find it (give --root a directory that holds it)"
            )
            continue
        relative = os.path.relpath(path, base)
        if relative in contents:
            continue
        if not os.path.isfile(path):
            problems.append(
                f"{referrer or resolution.environments[-1]}: {how} names {path}, "
                "which does not exist"
            )
            continue
        if relative == ENVIRONMENT_FILE:
            problems.append(
                f"{path} would be copied to {ENVIRONMENT_FILE}, where the resolved environment "
                "goes; give --root another directory"
            )
            continue
        if not path.endswith(_LOADABLE_SUFFIXES):
            contents[relative] = Path(path).read_bytes()
            continue
        try:
            loaded = load(path, max_size=max_size)
        except LoadError as exc:
            if how.startswith("get_file"):
                contents[relative] = Path(path).read_bytes()
            else:
                problems.append(str(exc))
            continue
        if classify(loaded.data)[0] != "template":
            contents[relative] = Path(path).read_bytes()
            continue
        try:
            text = strip_capabilities(loaded)
        except OutputError as exc:
            problems.extend(exc.problems)
            continue
        if text is not loaded.text:
            stripped.append(relative)
            contents[relative] = text.encode("utf-8")
        else:
            contents[relative] = Path(path).read_bytes()
        folder = os.path.dirname(path)
        for kind, value in _references(loaded.data):
            local = _local(value)
            if local is None or os.path.isabs(local):
                continue
            target = os.path.normpath(os.path.join(folder, local))
            line = _line_of(loaded.text, value)
            where = f"{display_path(path)}:{line}" if line else display_path(path)
            pending.append((target, where, f"{kind} {value!r}"))
    if problems:
        raise OutputError(problems)
    environment = copy.deepcopy(resolution.environment)
    out_registry = environment.get("resource_registry", {})
    for key, path in registry_files:
        _assign(out_registry, key, os.path.relpath(path, base).replace(os.sep, "/"))
    return _write_directory(
        Path(output_dir),
        base,
        contents,
        _environment_yaml(environment, resolution.environments),
        stripped,
        overwrite,
    )


def _write_directory(
    directory: Path,
    root: str,
    contents: Mapping[str, bytes],
    environment_text: str,
    stripped: Sequence[str],
    overwrite: bool,
) -> Written:
    if directory.exists() and not directory.is_dir():
        raise OutputError([f"{directory} exists and is not a directory"], usage=True)
    if directory.is_dir() and any(directory.iterdir()) and not overwrite:
        raise OutputError(
            [f"{directory} is not empty; choose a new or empty directory, or overwrite"],
            usage=True,
        )
    directory.mkdir(parents=True, exist_ok=True)
    real = os.path.realpath(directory)
    files = {ENVIRONMENT_FILE: environment_text.encode("utf-8"), **contents}
    for relative in sorted(files):
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if not _inside(os.path.realpath(target.parent), real) or target.is_symlink():
            raise OutputError(
                [f"{target} lies behind a symbolic link out of {directory}; refusing to write"]
            )
        temporary = target.with_name(f".{target.name}.onespec-tmp")
        temporary.write_bytes(files[relative])
        os.replace(temporary, target)
    return Written(
        str(directory),
        str(directory / ENVIRONMENT_FILE),
        tuple(sorted(contents)),
        tuple(sorted(stripped)),
        root,
    )


__all__ = [
    "CAPABILITIES",
    "REQUIRES",
    "RESOURCE_TYPE",
    "Candidate",
    "CapabilitiesError",
    "Choices",
    "Decision",
    "FileRecord",
    "FindResult",
    "OutputError",
    "Problem",
    "Resolution",
    "ResolutionError",
    "Scan",
    "Summary",
    "Written",
    "check_heat_environment",
    "choices",
    "deep_update",
    "evaluate",
    "find",
    "implementation",
    "parse_section",
    "read_environment",
    "resolve",
    "scan",
    "strip_capabilities",
    "summary",
    "template_capabilities",
    "write_resolution",
]
