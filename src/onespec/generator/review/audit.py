"""The audit: keys a service reads against the keys its catalogue defines.

Three findings, each with file and line: a key read in a namespace the catalogue governs that no
definition matches (``undefined-read``, an error: the validator would refuse or never document
it); a definition nothing reads (``never-read``, a warning: dead or misnamed); a read whose value
is compared with a literal the definition's enum does not allow (``unknown-enum-value``, a
warning: the branch can never be taken, or the enum is missing a member). A fourth,
``unparsable`` (an error), names a file the audit could not read as Python, so a typo hidden in
such a file is never a silent "0 errors".

Findings are the runtime's one :class:`~onespec.validators_runtime.problems.Problem` shape: the
location's ``path`` is the key, and ``value`` the key or the compared literal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from onespec.definitions.model import ExtraSpec, segments_regex
from onespec.generator.review.idioms import PrefixReader
from onespec.generator.review.reads import WILDCARD, KeyRead, ReadsFound
from onespec.validators_runtime.problems import Location, Problem, Severity, closest, shown

#: An audit's finding: the shared shape, with the key as the location's path.
Finding = Problem

#: Values tried for a computed part of a key, to see which definitions it may reach.
_SAMPLES = ("0", "1", "x", "X", "CUSTOM_X", "HW_CPU_X86_AVX", "VCPU", "cpu_info", "")


def finding(
    code: str,
    severity: Severity,
    key: str,
    file: str,
    line: int | None,
    message: str,
    **extra: Any,
) -> Finding:
    where = Location(file or None, line, key)
    keys = (key,) if key else ()
    return Problem(code, message, severity, where, **{"value": key, "keys": keys, **extra})


def unparsable(files: Sequence[tuple[str, int | None, str]]) -> list[Finding]:
    """A finding for each file that is not Python the audit can read: (file, line, why)."""
    return [
        finding("unparsable", "error", "", file, line, f"not read: {why}")
        for file, line, why in files
    ]


def bare_names(definitions: Iterable[ExtraSpec]) -> list[str]:
    """Parameter-free names without a namespace (``group_policy``)."""
    return sorted(d.name for d in definitions if not d.key_prefix and not d.is_patterned)


def namespace_patterns(definitions: Iterable[ExtraSpec]) -> list[str]:
    """The regexes of every namespace the definitions govern (``hw``, ``trait(...)?``)."""
    return sorted(
        {
            re.sub(r"\(\?P<\w+>", "(?:", segments_regex(d.key_prefix))
            for d in definitions
            if d.key_prefix
        }
    )


@dataclass(frozen=True)
class _Compiled:
    definition: ExtraSpec
    regex: re.Pattern[str]


def _matches(read: str, compiled: Sequence[_Compiled]) -> list[ExtraSpec]:
    """The definitions a read may reach.

    A computed part (``quota:{}_limit``) reaches a definition when the read, as a pattern,
    matches the definition's name (``quota:cpu_limit``, ``hw:numa_cpus.{id}``), or when a
    sample value in its place gives a key the definition claims (``trait:{}``).
    """
    if WILDCARD not in read:
        return [c.definition for c in compiled if c.regex.fullmatch(read)]
    as_pattern = re.compile(".+".join(re.escape(part) for part in read.split(WILDCARD)))
    hits: dict[str, ExtraSpec] = {
        c.definition.name: c.definition for c in compiled if as_pattern.fullmatch(c.definition.name)
    }
    for sample in _SAMPLES:
        key = read.replace(WILDCARD, sample)
        for c in compiled:
            if c.definition.name not in hits and c.regex.fullmatch(key):
                hits[c.definition.name] = c.definition
    return list(hits.values())


def _literal_head(definition: ExtraSpec) -> str:
    head = []
    for segment in definition.segments:
        if not hasattr(segment, "text"):
            break
        head.append(segment.text)
    return "".join(head)


def audit(
    definitions: Sequence[ExtraSpec],
    found: ReadsFound,
    prefixes: Sequence[PrefixReader] = (),
    origins: Mapping[str, tuple[str, int]] | None = None,
) -> list[Finding]:
    """Every finding, errors first, then by file and line."""
    compiled = [_Compiled(d, re.compile(d.name_regex())) for d in definitions]
    read_names: set[str] = set()
    findings: list[Finding] = []
    seen_undefined: set[tuple[str, str, int]] = set()
    for read in found.reads:
        _, colon, rest = read.key.partition(":")
        if colon and rest.replace(WILDCARD, "") == "":
            continue  # 'hw:{}': wholly computed (inside a reader idiom); nothing to check
        matched = _matches(read.key, compiled)
        read_names.update(d.name for d in matched)
        # A comparison repeats a read already reported where the value was read.
        first_sight = read.via != "comparison"
        if not matched and first_sight and (read.key, read.file, read.line) not in seen_undefined:
            seen_undefined.add((read.key, read.file, read.line))
            findings.append(
                finding(
                    "undefined-read",
                    "error",
                    read.key,
                    read.file,
                    read.line,
                    f"{shown(read.key)} is read ({read.via}) but no definition matches it",
                )
            )
        for definition in matched:
            findings.extend(_enum_findings(definition, read))
    heads = [p.prefix for p in found.prefixes] + [p.prefix for p in prefixes]
    for definition in definitions:
        if definition.name in read_names:
            continue
        head = _literal_head(definition)
        if any(
            head.startswith(prefix)
            or (
                prefix.startswith(head)
                and definition.is_patterned
                and len(head) > len(head.partition(":")[0])
            )
            for prefix in heads
        ):
            continue
        file, line = (origins or {}).get(definition.name, ("", None))
        findings.append(
            finding(
                "never-read",
                "warning",
                definition.name,
                file,
                line,
                f"{definition.name!r} is defined but never read in the sources",
            )
        )
    order = {"error": 0, "warning": 1}
    findings.sort(
        key=lambda f: (
            order[f.severity],
            f.code,
            f.location.file or "",
            f.location.line or 0,
            f.location.path or "",
        )
    )
    return findings


def _enum_findings(definition: ExtraSpec, read: KeyRead) -> list[Finding]:
    allowed = definition.value.enum_values
    if not allowed or not read.compared:
        return []
    return [
        finding(
            "unknown-enum-value",
            "warning",
            definition.name,
            read.file,
            read.line,
            f"{definition.name!r} is compared with {value!r}, which its enum "
            f"({', '.join(allowed)}) does not allow",
            suggestion=closest(value, allowed),
        )
        for value in read.compared
        if value not in allowed
    ]
