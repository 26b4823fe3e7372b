"""Where a problem is and what it is: the one shape every area reports in.

Every area -- extra specs, whole flavors, image specs, Heat components and template
capabilities, plugin labels, the HTTP API, the review tools -- says *where* with a
:class:`Location` (the file, the 1-based line, and the path inside the document) and *what* with
a :class:`Problem` (a code, a severity, a sentence, the offending value, a suggestion). The JSON
form of every finding of every report (``--format json``, ``yaml``, the rows of ``table``) and of
the API's error bodies is :meth:`Problem.to_dict`: the same base keys everywhere, and the same
names for what only some findings have -- ``keys`` (the extra-spec or property keys involved),
``nova_exception`` and ``phase`` (whole flavors), and ``key`` (one extra spec: the spelling kept
for the clients that read it before ``keys``).

Also here, because every area needs the same answer: :func:`shown` (a value quoted in a message,
bounded, so a hostile input cannot make a message large) and :func:`closest` (the "did you
mean" of every message, with one folding). Standard library only.
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning"]

#: Integers with more digits than this are never printed whole (a 4,301-digit integer cannot
#: even be turned into a string by default).
_DIGITS = 255
_INT_LIMIT = 10**_DIGITS

_SHOWN = reprlib.Repr()
_SHOWN.maxlevel = 3
_SHOWN.maxstring = _SHOWN.maxother = _SHOWN.maxlong = 80
#: The longest a string quoted whole in a message may be.
_MAX_SHOWN_STRING = 300


def shown(value: Any) -> str:
    """``repr(value)`` for a message, bounded: long strings, deep nesting and huge integers are
    elided, so the message stays small whatever the input."""
    if type(value) is str:
        if len(value) <= _MAX_SHOWN_STRING:
            return repr(value)
        return repr(value[:_MAX_SHOWN_STRING]) + f"... ({len(value)} characters)"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _INT_LIMIT:
        return f"<an integer of more than {_DIGITS} digits>"
    try:
        return _SHOWN.repr(value)
    except (ValueError, RecursionError):
        return f"<{type(value).__name__}>"


def plain(value: Any) -> Any:
    """A value as JSON can carry it: itself when it is a short plain scalar, else :func:`shown`."""
    if value is None or isinstance(value, bool | float):
        return value
    if isinstance(value, str) and len(value) <= _MAX_SHOWN_STRING:
        return value
    if isinstance(value, int) and abs(value) < _INT_LIMIT:
        return value
    return shown(value)


def folded(word: str) -> str:
    """A name as "did you mean" compares it: ignoring case, ``_`` and ``-``."""
    return word.lower().replace("_", "").replace("-", "")


#: How similar (difflib's ratio) a name must be to a typo to be suggested.
CUTOFF = 0.6


def closest(word: Any, choices: Iterable[Any], *, cutoff: float = CUTOFF) -> str | None:
    """The known name a typo most probably meant, or None.

    First the same name ignoring case, ``_`` and ``-`` (``CPU_Policy`` -> ``cpu_policy``), then
    the closest by difflib's ``get_close_matches``. Non-string words and choices never match.
    For many choices searched often, :class:`Suggestions` gives the same answers faster.
    """
    if not isinstance(word, str):
        return None
    names = [choice for choice in choices if isinstance(choice, str)]
    key = folded(word)
    for name in names:
        if folded(name) == key:
            return name
    import difflib  # on the first typo only: most callers never meet one

    matches = difflib.get_close_matches(word, names, n=1, cutoff=cutoff)
    return matches[0] if matches else None


class Suggestions:
    """:func:`closest` over many choices (every standard trait), fast enough for each request.

    The same folding first (an index answers at once); then trigram overlap picks a short list
    and difflib's ratio ranks it. Comparing a typo with thousands of names through difflib
    alone takes milliseconds; the short list keeps a suggestion well under one.
    """

    __slots__ = ("_choices", "_folded", "_grams")

    def __init__(self, choices: Iterable[str]) -> None:
        self._choices = tuple(dict.fromkeys(choices))
        self._folded: dict[str, str] = {}
        grams: dict[str, list[int]] = {}
        for number, choice in enumerate(self._choices):
            self._folded.setdefault(folded(choice), choice)
            for gram in _trigrams(choice):
                grams.setdefault(gram, []).append(number)
        self._grams = grams

    def same_folded(self, word: str) -> str | None:
        """The choice that is ``word`` ignoring case, ``_`` and ``-``: one dict probe."""
        return self._folded.get(folded(word))

    def closest(self, word: str, cutoff: float = CUTOFF, shortlist: int = 8) -> str | None:
        same = self.same_folded(word)
        if same is not None:
            return same
        counts: dict[int, int] = {}
        for gram in _trigrams(word):
            for number in self._grams.get(gram, ()):
                counts[number] = counts.get(number, 0) + 1
        if not counts:
            return None
        import difflib
        import heapq

        best, best_ratio = None, cutoff
        matcher = difflib.SequenceMatcher(None, "", word, autojunk=False)
        for number in heapq.nlargest(shortlist, counts, key=counts.__getitem__):
            choice = self._choices[number]
            matcher.set_seq1(choice)
            ratio = matcher.ratio()
            if ratio >= best_ratio and (best is None or ratio > best_ratio):
                best, best_ratio = choice, ratio
        return best


def _trigrams(word: str) -> set[str]:
    padded = f"\x00{word.lower()}\x00"
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def did_you_mean(word: Any, choices: Iterable[Any]) -> str:
    """`` Did you mean 'x'?`` when a known name is close to ``word``, else the empty string."""
    suggestion = closest(word, choices)
    return f" Did you mean {suggestion!r}?" if suggestion is not None else ""


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def key_path_text(key_path: Iterable[Any]) -> str:
    """A path inside a document as :attr:`Location.path` writes it: ``("configs", 1,
    "actions")`` is ``configs[1].actions``, and a key that is not a name is quoted
    (``resource_registry['OS::Nova::Server']``), bounded as :func:`shown` bounds it."""
    text = ""
    for part in key_path:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        elif (
            isinstance(part, str) and len(part) <= _MAX_SHOWN_STRING and _IDENTIFIER.fullmatch(part)
        ):
            text += f".{part}" if text else part
        else:
            text += f"[{shown(part)}]"
    return text


@dataclass(frozen=True)
class Location:
    """Where a problem is. Any part may be unknown.

    ``file`` is the file as the user named it (``-`` for standard input), ``line`` is 1-based,
    and ``path`` is where inside the document: ``configs[1].actions``, ``packages[0].name``,
    an extra spec's key, or a JSON pointer for an HTTP body.
    """

    file: str | None = None
    line: int | None = None
    path: str | None = None

    def __str__(self) -> str:
        where = self.file or ""
        if self.line is not None:
            where = f"{where}:{self.line}" if where else f"line {self.line}"
        if self.path:
            where = f"{where}: {self.path}" if where else self.path
        return where

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "path": self.path}


NOWHERE = Location()


@dataclass(frozen=True)
class Problem:
    """One problem: its ``code`` (which rule), ``severity``, where, a sentence saying what is
    wrong, the offending ``value`` and the most probable intended one (``suggestion``); ``keys``,
    the extra-spec or property keys it is about, where it is about some."""

    code: str
    message: str
    severity: Severity = "error"
    location: Location = field(default=NOWHERE)
    value: Any = None
    suggestion: str | None = None
    keys: tuple[str, ...] = ()

    def __str__(self) -> str:
        where = str(self.location)
        return f"{where}: {self.message}" if where else self.message

    def to_dict(self) -> dict[str, Any]:
        """The one JSON shape of a finding, in every report: the base keys (``BASE_KEYS``),
        and ``keys`` when the finding is about some."""
        shape = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            **self.location.to_dict(),
            "value": plain(self.value),
            "suggestion": self.suggestion,
        }
        if self.keys:
            shape["keys"] = list(self.keys)
        return shape


#: The keys every finding's JSON has, in this order (:meth:`Problem.to_dict`).
BASE_KEYS = ("code", "severity", "message", "file", "line", "path", "value", "suggestion")


__all__ = [
    "BASE_KEYS",
    "CUTOFF",
    "NOWHERE",
    "Location",
    "Problem",
    "Severity",
    "Suggestions",
    "closest",
    "did_you_mean",
    "folded",
    "key_path_text",
    "plain",
    "shown",
]
