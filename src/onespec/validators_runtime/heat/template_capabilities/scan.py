"""Scanning a tree of templates and environments into records, one per file (cached by content)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from onespec.validators_runtime import inputs
from onespec.validators_runtime._generated import template_capabilities as _facts
from onespec.validators_runtime.heat.hot_loader import (
    C_LOADER,
    MAX_ALIAS_EXPANSION,
    MAX_TEMPLATE_SIZE,
    Loaded,
    LoadError,
    classify,
    load,
    version_text,
)
from onespec.validators_runtime.heat.template_capabilities.model import (
    REQUIRES,
    SCAN_SUFFIXES,
    CapabilitiesError,
    Values,
    kind_of,
)
from onespec.validators_runtime.heat.template_capabilities.registry import (
    RegistryEntry,
    registry_entries,
)
from onespec.validators_runtime.heat.template_capabilities.sections import (
    parse_section,
    template_capabilities,
)
from onespec.validators_runtime.problems import Location, Problem, Severity, key_path_text

#: A problem as the cache keeps it (JSON): ``[code, line, key path text, message]``.
StoredProblem = list[Any]


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


def _stored(code: str, line: int | None, key_path: tuple[Any, ...], message: str) -> StoredProblem:
    return [code, line, key_path_text(key_path) or None, message]


def _section_problem(error: CapabilitiesError) -> StoredProblem:
    return _stored("invalid-section", error.line, error.key_path, error.reason)


def facts_of(loaded: Loaded) -> dict[str, Any]:
    """The JSON-ready facts a scan keeps (and caches) about a loaded file."""
    kind, detail = classify(loaded.data)
    errors: list[StoredProblem] = []
    facts: dict[str, Any] = {"kind": kind, "detail": detail}
    data = loaded.data
    if kind == "template":
        version_key = next(k for k in _facts.TEMPLATE_VERSION_KEYS if k in data)
        facts["version"] = version_text(data[version_key])
        try:
            capabilities = template_capabilities(loaded)
        except CapabilitiesError as exc:
            errors.append(_section_problem(exc))
        else:
            if capabilities is not None:
                facts["capabilities"] = {k: list(v) for k, v in capabilities.items()}
    elif kind == "environment":
        for section in data:
            if data[section] is None:
                message = f'environment has empty section "{section}"'
                errors.append(_stored("empty-section", loaded.line(section), (section,), message))
        if data.get(REQUIRES) is not None:
            try:
                requires = parse_section(data[REQUIRES], REQUIRES, loaded)
            except CapabilitiesError as exc:
                errors.append(_section_problem(exc))
            else:
                facts["requires"] = {k: list(v) for k, v in requires.items()}
        registry = data.get("resource_registry")
        if isinstance(registry, Mapping):
            entries, registry_errors = registry_entries(registry, loaded)
            errors += [
                _stored("invalid-registry", line, ("resource_registry", *path), message)
                for line, path, message in registry_errors
            ]
            facts["registry"] = [[list(path), value] for path, value in entries]
        elif registry is not None:
            message = f"resource_registry must be a mapping, not {kind_of(registry)}"
            line = loaded.line("resource_registry")
            errors.append(_stored("invalid-registry", line, ("resource_registry",), message))
    facts["errors"] = errors
    facts["warnings"] = [
        [w.code, w.location.line, w.location.path, w.message] for w in loaded.warnings
    ]
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
        "errors": [[error.code, error.line, None, error.reason]],
        "warnings": [],
    }


def _problem(file: str, stored: StoredProblem, severity: Severity) -> Problem:
    code, line, key_path, message = stored
    return Problem(code, message, severity, Location(file, line, key_path))


def _record(path: str, facts: Mapping[str, Any]) -> FileRecord:
    problems = [_problem(path, item, "error") for item in facts.get("errors", ())]
    problems += [_problem(path, item, "warning") for item in facts.get("warnings", ())]

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
    """Every file a scan read, in order, and the problems of paths that are not files.

    Every problem has the shape every area reports in
    (:class:`~onespec.validators_runtime.problems.Problem`): a code (``missing``,
    ``is-a-directory``, a :class:`~onespec.validators_runtime.heat.hot_loader.LoadError` code,
    ``invalid-section``, ``empty-section``, ``invalid-registry``, ``duplicate-key``), and where:
    the file, the line and the key path inside the file, when known.
    """

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
    explicitly is read whatever its name, and ``-`` is standard input. Each file is yielded
    once. A directory without ``recursive``, and a path that does not exist, are problems
    (errors).
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
        if given == "-":  # standard input, read once
            if once(given):
                yield given, None
        elif os.path.isdir(given):
            if not recursive:
                yield (
                    given,
                    Problem(
                        "is-a-directory",
                        "is a directory (scan it with -r)",
                        location=Location(given),
                    ),
                )
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
            yield given, Problem("missing", "no such file or directory", location=Location(given))


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
    progress: Callable[[str], object] | None = None,
) -> Scan:
    """Load every file under ``paths`` as Heat would, and record what each one is.

    ``progress`` is called with each file's path once it is read (a counter on a terminal).

    With ``cache``, facts are reused while a file's path, size and modification time are
    unchanged (see :mod:`onespec.validators_runtime.heat.template_capabilities.cache`).
    """
    store = None
    if cache:
        from onespec.validators_runtime.heat.template_capabilities.cache import FactCache

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
        absolute = path if path == "-" else os.path.abspath(path)
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
            walked_into = path not in named
            try:
                loaded = load(
                    absolute, max_size=max_size, alias_limit=alias_limit, reword=not walked_into
                )
                facts = facts_of(loaded)
            except LoadError as exc:
                facts = (
                    _other_facts(exc)
                    if walked_into and exc.code in NOT_HEAT_CODES
                    else _error_facts(exc)
                )
            if store is not None and stat is not None and facts.get("detail") != "unreadable":
                store.put(absolute, stat, facts, read_at)
        records.append(_record(inputs.STDIN_NAME if path == "-" else path, facts))
        if progress is not None:
            progress(path)
    if store is not None:
        store.save()
    return Scan(tuple(records), tuple(problems), store.hits if store is not None else 0)
