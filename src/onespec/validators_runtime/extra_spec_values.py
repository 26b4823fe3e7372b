"""What the value of one extra spec may be, at run time: the check and its "did you mean".

Built from the plain records of :mod:`onespec.validators_runtime.tables`; importing this module
costs nothing (regular expressions are compiled on first use, difflib imported on the first
typo). Standard library only.
"""

from __future__ import annotations

import re

from onespec.validators_runtime._generated import extra_specs as _generated
from onespec.validators_runtime.problems import closest
from onespec.validators_runtime.tables import SpecRecord

MAX_LENGTH: int = _generated.MAX_LENGTH
TRUE_STRINGS = frozenset(_generated.TRUE_STRINGS)
FALSE_STRINGS = frozenset(_generated.FALSE_STRINGS)
_BOOL_SPELLINGS = tuple(sorted(TRUE_STRINGS | FALSE_STRINGS))
#: The counts flavors and images usually set (sockets, nodes, ports, queues), each spelt as
#: text with its number: the values an integer key or property is checked by one look-up.
SMALL_COUNTS: dict[str, int] = {str(number): number for number in range(17)}


class ValueRule:
    """The run-time form of one spec record: just what checking a value needs.

    The registry finds the rule for a key; the rule says whether the key's value is valid and,
    when it is not, why and what was probably meant.
    """

    __slots__ = (
        "_compiled",
        "accepted",
        "enum",
        "enum_set",
        "kind",
        "max_length",
        "maximum",
        "minimum",
        "name",
        "namespace",
        "pattern",
        "pattern_hint",
        "removal",
        "replacement",
        "since",
        "status",
    )

    def __init__(self, record: SpecRecord) -> None:
        self.name = record.name
        self.namespace = record.namespace
        self.kind = record.type
        self.minimum = record.min
        self.maximum = record.max
        self.enum = record.enum
        self.pattern = record.pattern
        self.pattern_hint = record.pattern_hint
        self.max_length = record.max_length
        self.status = record.status
        self.since = record.since
        self.replacement = record.replacement
        self.removal = record.removal
        self.enum_set = frozenset(self.enum)
        self._compiled: re.Pattern[str] | None = None
        #: Values valid without further checks (each allowed value, each boolean spelling),
        #: so the common case costs one look-up; :meth:`problem` decides the others.
        self.accepted: frozenset[str] = frozenset(
            value for value in self._plain_values() if self.problem(value) is None
        )

    def _plain_values(self) -> tuple[str, ...]:
        if self.kind == "bool":
            return _BOOL_SPELLINGS
        if self.kind == "int":
            return tuple(SMALL_COUNTS)
        if self.enum or self.pattern is None:
            return self.enum  # each kept only where the pattern, if any, matches it too
        return _words_of(self.pattern)

    def problem(self, value: str) -> tuple[str, str | None] | None:
        """Why ``value`` is invalid and what was probably meant, or None when it is valid."""
        if len(value) > MAX_LENGTH:
            return f"is longer than {MAX_LENGTH} characters", None
        kind = self.kind
        if kind == "bool":
            folded = value.strip().lower()
            if folded in TRUE_STRINGS or folded in FALSE_STRINGS:
                return None
            return (
                "is not a boolean (use true or false; yes/no, on/off, 1/0, t/f and y/n work too)",
                closest(folded, _BOOL_SPELLINGS),
            )
        if kind == "int":
            try:
                number = int(value)
            except ValueError:
                return "is not an integer", _integral(value)
            if self.minimum is not None and number < self.minimum:
                return f"is less than the minimum of {self.minimum}", str(self.minimum)
            if self.maximum is not None and number > self.maximum:
                return f"is greater than the maximum of {self.maximum}", str(self.maximum)
            return None
        if self.enum and value not in self.enum_set:
            allowed = ", ".join(self.enum)
            return f"is not one of the allowed values: {allowed}", closest(value, self.enum)
        if self.pattern is not None:
            compiled = self._compiled
            if compiled is None:
                compiled = self._compiled = re.compile(self.pattern)
            if compiled.fullmatch(value) is None:
                if self.pattern_hint:
                    return f"is not {self.pattern_hint} (pattern {self.pattern!r})", None
                return f"does not match the pattern {self.pattern!r}", None
        if self.max_length is not None and len(value) > self.max_length:
            return f"is longer than {self.max_length} characters", None
        return None


_WORD = re.compile(r"[A-Za-z0-9_-]+")


def _words_of(pattern: str) -> tuple[str, ...]:
    """The plain words a pattern offers as alternatives (``large`` and ``small`` in
    ``(large|small|\\d+)``): the values such a key is usually set to."""
    if pattern[:1] == "(" and pattern[-1:] == ")":
        pattern = pattern[1:-1]
    words, depth, start = [], 0, 0
    for index, char in enumerate(pattern + "|"):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            alternative = pattern[start:index]
            if _WORD.fullmatch(alternative):
                words.append(alternative)
            start = index + 1
    return tuple(words)


def _integral(value: str) -> str | None:
    """``'2.0'`` was probably meant as ``'2'``."""
    try:
        number = float(value)
    except ValueError:
        return None
    if number.is_integer() and abs(number) < 2**63:
        return str(int(number))
    return None
