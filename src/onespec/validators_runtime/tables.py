"""Plain lookup tables for extra specs, and the one function that builds them.

This is the one place that decides how a key finds its definition. The generator calls
:func:`build_tables` to write ``_generated/extra_specs.py`` and the runtime calls it for
out-of-tree definitions found at run time, so committed tables and run-time tables can never
disagree. Records come from definitions through :mod:`onespec.validators_runtime.compiler`; this
module needs nothing but the standard library.

Everything produced here is plain data (tuples, dicts, strings, ints) so that it can be written
out as a Python literal and imported without building anything.

How a key is found, in order:

1. ``exact``: the whole key, for definitions without parameters (most of them).
2. Otherwise the key is split at its first colon into a prefix and a rest. The prefix selects
   *groups*: a literal prefix through ``prefixes``, a patterned one (``trait{group}``) through
   ``patterned_prefixes``. No group: the key belongs to another service and is accepted.
3. In each group, the rest is looked up in the group's exact table, then among its patterned
   rests. Patterned entries are indexed by their literal head, so a lookup tries one dict probe
   per distinct head length instead of every pattern: the cost does not grow with the number of
   definitions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from onespec.definitions.key_templates import DIGITS_PATTERN, template_regex, template_text

# (name, type, regex, min, max, max_length)
ParameterRecord = tuple[str, str, str, int | None, int | None, int | None]
#: A key template: literal strings and parameter records, in order.
Template = tuple["str | ParameterRecord", ...]


class SpecRecord(NamedTuple):
    """One compiled extra spec: what validation needs, nothing only documentation needs.

    The compiler builds these, :func:`build_tables` indexes them, the runtime checks values with
    them, and the generated module stores them as plain tuples in this field order (its
    ``SPEC_FIELDS``), so that importing it builds nothing.
    """

    name: str
    namespace: str
    type: str
    min: int | None
    max: int | None
    enum: tuple[str, ...]
    pattern: str | None
    pattern_hint: str | None
    max_length: int | None
    status: str
    since: str | None
    replacement: str | None
    removal: str | None
    #: The key template before the first colon.
    prefix: Template
    #: The key template after the first colon.
    rest: Template


#: A spec record as :class:`Tables` holds it: a :class:`SpecRecord`, or the generated module's
#: plain tuple of the same fields, which the runtime makes a SpecRecord when it loads.
SpecRow = tuple[object, ...]

#: Position of each field in a spec record, as the generated module states it.
SPEC_FIELDS: tuple[str, ...] = SpecRecord._fields

#: Position of each field in a parameter record.
PARAMETER_FIELDS: tuple[str, ...] = ("name", "type", "regex", "min", "max", "max_length")

# (head, regex, spec or group index, parameter records)
PatternEntry = tuple[str, str, int, tuple[ParameterRecord, ...]]


class Tables(NamedTuple):
    """The compiled form of a list of definitions, in precedence order."""

    specs: tuple[SpecRow, ...]
    exact: dict[str, int]
    prefixes: dict[str, int]
    patterned_prefixes: tuple[PatternEntry, ...]
    groups: tuple[tuple[dict[str, int], tuple[PatternEntry, ...]], ...]


def _regex(segments: Sequence[str | ParameterRecord]) -> str:
    """Parameter ``n`` (counted from 0) becomes the named group ``pn``: the generated tables
    carry no parameter names in their regular expressions."""
    numbered = iter(range(len(segments)))
    return template_regex(
        s if isinstance(s, str) else (f"p{next(numbered)}", s[2]) for s in segments
    )


def _is_patterned(segments: Sequence[str | ParameterRecord]) -> bool:
    return any(not isinstance(s, str) for s in segments)


def _pattern_entry(segments: Sequence[str | ParameterRecord], index: int) -> PatternEntry:
    head = segments[0] if segments and isinstance(segments[0], str) else ""
    parameters = tuple(s for s in segments if not isinstance(s, str))
    return (head, _regex(segments), index, parameters)


def parameter_problem(
    parameters: Sequence[ParameterRecord], values: Sequence[str]
) -> tuple[ParameterRecord, str, str] | None:
    """The first parameter whose matched text breaks its bounds, with the text and the reason."""
    for parameter, text in zip(parameters, values, strict=True):
        _, kind, _, minimum, maximum, max_length = parameter
        if max_length is not None and len(text) > max_length:
            return parameter, text, f"is longer than {max_length} characters"
        if kind == "int":
            number = int(text)
            if minimum is not None and number < minimum:
                return parameter, text, f"is less than {minimum}"
            if maximum is not None and number > maximum:
                return parameter, text, f"is greater than {maximum}"
    return None


def build_tables(records: Iterable[Sequence[Any]]) -> Tables:
    """Index spec records, given in precedence order (in-tree first), into :class:`Tables`.

    Records may be :class:`SpecRecord` or the plain tuples of the generated module.

    Names are assumed unique; the caller merges sources and reports clashes before this.
    """
    specs: list[SpecRecord] = []
    exact: dict[str, int] = {}
    prefixes: dict[str, int] = {}
    prefix_groups: dict[str, int] = {}
    patterned_prefixes: list[PatternEntry] = []
    group_exact: list[dict[str, int]] = []
    group_patterns: list[list[PatternEntry]] = []

    for raw in records:
        record = SpecRecord._make(raw)
        index = len(specs)
        specs.append(record)
        prefix, rest = record.prefix, record.rest
        template = template_text(prefix)
        group = prefix_groups.get(template)
        if group is None:
            group = prefix_groups[template] = len(group_exact)
            group_exact.append({})
            group_patterns.append([])
            if _is_patterned(prefix):
                patterned_prefixes.append(_pattern_entry(prefix, group))
            else:
                prefixes[template] = group
        if _is_patterned(rest):
            group_patterns[group].append(_pattern_entry(rest, index))
        else:
            group_exact[group].setdefault(template_text(rest), index)
            if not _is_patterned(prefix):
                exact.setdefault(record.name, index)

    return Tables(
        specs=tuple(specs),
        exact=exact,
        prefixes=prefixes,
        patterned_prefixes=tuple(patterned_prefixes),
        groups=tuple(
            (exact_rests, tuple(patterns))
            for exact_rests, patterns in zip(group_exact, group_patterns, strict=True)
        ),
    )


# --- Looking a key up in the tables --------------------------------------------------------


class Pattern:
    """A patterned key template, compiled on first use so startup stays cheap."""

    __slots__ = (
        "_compiled",
        "bounded",
        "head",
        "index",
        "names",
        "parameters",
        "regex",
        "template",
    )

    def __init__(self, entry: PatternEntry, template: str) -> None:
        self.head, self.regex, self.index, self.parameters = entry
        self.template = template
        self.names = tuple(f"p{n}" for n in range(len(self.parameters)))
        self.bounded = any(_needs_bounds_check(parameter) for parameter in self.parameters)
        self._compiled: re.Pattern[str] | None = None

    def match(self, text: str) -> tuple | None:
        """None when ``text`` does not match; ``()`` when it does; else the broken parameter
        as ``(parameter record, text, reason)``."""
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.regex)
        found = compiled.fullmatch(text)
        if found is None:
            return None
        if not self.bounded:
            return ()
        values = [found.group(name) for name in self.names]
        return parameter_problem(self.parameters, values) or ()


def _needs_bounds_check(parameter: tuple) -> bool:
    """Whether a match of the parameter's pattern may still break its bounds.

    ``{id}`` with ``[0-9]+`` and a minimum of 0 cannot: skipping the check keeps the commonest
    patterned keys (``hw:numa_cpus.0``) on the fast path.
    """
    _, kind, pattern, minimum, maximum, max_length = parameter
    if max_length is not None:
        return True
    if kind != "int":
        return False
    if maximum is not None:
        return True
    return minimum is not None and not (minimum <= 0 and pattern == DIGITS_PATTERN)


class HeadIndex:
    """Patterns indexed by their literal head: one dict probe per distinct head length.

    The cost of finding the candidates for a text depends on how many different head lengths
    there are, not on how many patterns: 10,000 patterns with ten head lengths cost ten probes.
    """

    __slots__ = ("_by_length",)

    def __init__(self, patterns: Iterable[Pattern]) -> None:
        by_length: dict[int, dict[str, list[Pattern]]] = {}
        for pattern in patterns:
            by_length.setdefault(len(pattern.head), {}).setdefault(pattern.head, []).append(pattern)
        self._by_length = tuple(sorted(by_length.items()))

    def candidates(self, text: str) -> list[Pattern]:
        found: list[Pattern] | None = None
        merged = False
        for length, table in self._by_length:
            patterns = table.get(text[:length])
            if patterns:
                if found is None:
                    found = patterns
                else:
                    found = [*found, *patterns]
                    merged = True
        if found is None:
            return []
        if merged:
            found.sort(key=lambda pattern: pattern.index)  # precedence: in-tree first
        return found

    def __bool__(self) -> bool:
        return bool(self._by_length)
