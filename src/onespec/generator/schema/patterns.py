"""Regular expressions that read the same in Python's ``re`` and in ECMA-262 (``u`` flag).

Every regular expression written into a schema must mean the same in Python's ``re`` (which the
``jsonschema`` library uses) and in ECMA-262 with the ``u`` flag (which JSON Schema specifies
and most other validators use). Where the two differ (``\\d``, ``\\w``, ``\\s``, ``.``, ``$``,
escapes of ordinary punctuation), :func:`portable` rewrites a definition's pattern into the
syntax both read alike, and refuses what has no such spelling instead of guessing. Integers and
booleans are spelled as Nova reads them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from onespec.definitions.key_templates import END
from onespec.definitions.key_templates import anchored as anchored
from onespec.definitions.model import FALSE_STRINGS, TRUE_STRINGS
from onespec.generator.schema import SchemaError
from onespec.generator.schema.decimal_digits import members as digit_members

# END (the very end of the text, alike in both) and anchored() are the project's one
# anchoring rule, shared with the runtime.

#: Every character ``str.isspace()`` accepts: what ``str.strip()`` removes and what Python's
#: ``\s`` matches. ECMA-262's ``\s`` is a different set, so it is spelled out.
WHITESPACE_MEMBERS = r"\t-\r\x1c- \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"

WHITESPACE = f"[{WHITESPACE_MEMBERS}]"

#: What ``int()`` skips around a number: the same set without U+001C..U+001F, which ``int()``
#: does not take for space (it reads ASCII text with C's ``isspace``).
INT_WHITESPACE = r"[\t-\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"

#: Characters ECMA-262 lets (and requires) a pattern to escape. ``re.escape`` escapes more
#: (``-``, space, ``#``, ``&``, ``~``), which the ``u`` flag rejects as invalid escapes.
_SYNTAX_CHARACTERS = frozenset("^$\\.*+?()[]{}|/")

#: Every decimal digit Python's ``\\d`` and ``int()`` read, of every script
#: (:mod:`~onespec.generator.schema.decimal_digits`).
DIGIT_MEMBERS = digit_members(0, 9)

#: Any digit: the class :func:`digits_range` writes for a digit of any value.
ANY_DIGIT = f"[{DIGIT_MEMBERS}]"

_CLASS_SHORTHANDS = {"d": DIGIT_MEMBERS, "w": "A-Za-z0-9_", "s": WHITESPACE_MEMBERS}

_NEGATED_SHORTHANDS = {
    "D": f"[^{DIGIT_MEMBERS}]",
    "W": "[^A-Za-z0-9_]",
    "S": f"[^{WHITESPACE_MEMBERS}]",
}

_CONTROL_ESCAPES = frozenset("ntrfv")

_HEX_ESCAPES = {"x": 2, "u": 4}

_BRACES = re.compile(r"\{(\d*)(,?)(\d*)\}")

_STRUCTURE = {")": "close", "|": "alternation", "^": "anchor"}


# A token of a portable pattern: its kind (atom, quantifier, open, close, alternation, anchor,
# lookaround) and its text.
Token = tuple[str, str]


def literal(text: str) -> str:
    """A pattern matching ``text`` itself, escaping only what ECMA-262 allows to be escaped."""
    return "".join(f"\\{char}" if char in _SYNTAX_CHARACTERS else char for char in text)


def portable(pattern: str) -> str:
    """A Python pattern respelled so that Python's ``re`` and ECMA-262 read it alike.

    ``\\d`` becomes every script's decimal digits and ``\\s`` Python's whitespace (Python's
    meanings, which Nova and the runtime use), ``\\w`` its ASCII class (ECMA-262's meaning; see
    the JSON Schema guide's differences), ``.`` "anything but a newline", named
    groups plain groups. Raises :class:`SchemaError` for what has no common spelling.
    """
    return "".join(text for _, text in tokens(pattern))


def tokens(pattern: str) -> list[Token]:
    """Split a Python pattern into portable tokens; see :func:`portable`."""
    result: list[Token] = []
    position = 0
    while position < len(pattern):
        char = pattern[position]
        if char == "\\":
            text, position = _escape(pattern, position + 1, in_class=False)
            result.append(("atom", text))
        elif char == "[":
            text, position = _character_class(pattern, position + 1)
            result.append(("atom", text))
        elif char == "(":
            kind, text, position = _group_opening(pattern, position + 1)
            result.append((kind, text))
        elif char in "*+?":
            _quantifier(result, char, pattern)
            position += 1
        elif char == "{" and (braces := _BRACES.match(pattern, position)):
            _quantifier(result, _braces(braces, pattern), pattern)
            position = braces.end()
        elif char == ".":
            result.append(("atom", r"[^\n]"))
            position += 1
        elif char == "$":
            raise SchemaError(f"pattern {pattern!r}: '$' has no portable meaning; leave it out")
        elif char in _STRUCTURE:
            result.append((_STRUCTURE[char], char))
            position += 1
        else:
            result.append(("atom", literal(char)))
            position += 1
    return result


def _quantifier(result: list[Token], text: str, pattern: str) -> None:
    """Append a quantifier, or make the previous one lazy; refuse possessive quantifiers."""
    if result and result[-1][0] == "quantifier":
        if text != "?":
            raise SchemaError(f"pattern {pattern!r}: possessive quantifiers are Python-only")
        result[-1] = ("quantifier", result[-1][1] + "?")
        return
    result.append(("quantifier", text))


def _braces(match: re.Match[str], pattern: str) -> str:
    """``{m}``, ``{m,}``, ``{m,n}``; Python's ``{,n}`` is spelled ``{0,n}`` for ECMA-262."""
    low, comma, high = match.groups()
    if not low and not high:
        raise SchemaError(f"pattern {pattern!r}: write {match.group()} with explicit bounds")
    return f"{{{low or 0}{comma}{high}}}"


def _group_opening(pattern: str, position: int) -> tuple[str, str, int]:
    """The opening of a group: plain, non-capturing, lookaround; a named group becomes plain."""
    rest = pattern[position:]
    if rest.startswith("?:"):
        return "open", "(?:", position + 2
    for opening in ("?=", "?!", "?<=", "?<!"):
        if rest.startswith(opening):
            return "lookaround", f"({opening}", position + len(opening)
    if rest.startswith("?P<"):
        return "open", "(", pattern.index(">", position) + 1
    if rest.startswith("?"):
        construct = rest[: rest.find(")") + 1] or rest
        raise SchemaError(f"pattern {pattern!r}: ({construct} has no portable spelling")
    return "open", "(", position


def _escape(pattern: str, position: int, *, in_class: bool) -> tuple[str, int]:
    """An escape sequence, starting after its backslash, respelled portably."""
    char = pattern[position]
    if char in _CLASS_SHORTHANDS:
        members = _CLASS_SHORTHANDS[char]
        return (members if in_class else f"[{members}]"), position + 1
    if char in _NEGATED_SHORTHANDS and not in_class:
        return _NEGATED_SHORTHANDS[char], position + 1
    if char in _CONTROL_ESCAPES:
        return f"\\{char}", position + 1
    if char in _HEX_ESCAPES:
        end = position + 1 + _HEX_ESCAPES[char]
        return f"\\{pattern[position:end]}", end
    if char == "b" and in_class:
        return r"\x08", position + 1
    if char.isalnum():
        raise SchemaError(f"pattern {pattern!r}: \\{char} has no portable spelling")
    if in_class:
        return (f"\\{char}" if char in "\\]^-[" else char), position + 1
    return literal(char), position + 1


def _character_class(pattern: str, position: int) -> tuple[str, int]:
    """A character class, starting after its ``[``; a leading ``]`` is a literal, as in Python."""
    parts = ["["]
    if pattern[position] == "^":
        parts.append("^")
        position += 1
    first = True
    while True:
        char = pattern[position]
        if char == "]" and not first:
            return "".join(parts) + "]", position + 1
        if char == "\\":
            text, position = _escape(pattern, position + 1, in_class=True)
        else:
            text, position = ("\\" + char if char in "[]" else char), position + 1
        parts.append(text)
        first = False


def _can_match(parts: Sequence[Token], char: str) -> bool:
    """Whether any atom of ``parts`` can match ``char`` (a cautious over-estimate)."""
    return any(kind == "atom" and re.fullmatch(text, char) for kind, text in parts)


def integer_pattern(minimum: int | None, maximum: int | None) -> str:
    """An anchored pattern for the strings Python's ``int()`` reads as ``minimum..maximum``.

    ``int()`` allows surrounding whitespace, a sign, leading zeros and single underscores
    between digits; ``-0`` is 0. Either bound may be None (open). Digits may be of any script,
    as ``int()`` reads them.
    """
    body = signed_range(minimum, maximum, separators=True)
    return f"^{INT_WHITESPACE}*{body}{INT_WHITESPACE}*{END}"


def signed_range(minimum: int | None, maximum: int | None, *, separators: bool) -> str:
    """An optionally signed integer from ``minimum`` to ``maximum`` (None: open), unanchored."""
    if minimum is not None and maximum is not None and minimum > maximum:
        return "(?!)"
    positive = (max(minimum or 0, 0), maximum)
    negative = (
        max(-maximum, 0) if maximum is not None else 0,
        None if minimum is None else -minimum,
    )
    alternatives = []
    if positive[1] is None or positive[1] >= positive[0]:
        alternatives.append(("\\+?", positive))
    if negative[1] is None or negative[1] >= negative[0]:
        alternatives.append(("-", negative))
    if len(alternatives) == 2 and alternatives[0][1] == alternatives[1][1]:
        return "[+-]?" + digits_range(*positive, separators=separators)
    parts = [sign + digits_range(*bounds, separators=separators) for sign, bounds in alternatives]
    return parts[0] if len(parts) == 1 else f"(?:{'|'.join(parts)})"


def digits_range(minimum: int, maximum: int | None, *, separators: bool) -> str:
    """Unsigned digit strings (leading zeros allowed) whose value is ``minimum..maximum``.

    With ``separators``, single underscores may stand between digits, as ``int()`` allows.
    A digit may be of any script, as ``int()`` and ``\\d`` read them: each digit of the
    range, worked out in ASCII, becomes the class of the digits of its value
    (:func:`_any_script`).
    """
    return _any_script(_ascii_digits_range(minimum, maximum, separators=separators))


def _any_script(pattern: str) -> str:
    """An ASCII digit pattern of :func:`_ascii_digits_range` with each digit, and each class
    of digits, widened to the digits of the same values in every script. Counts in braces
    (``{3}``, ``{2,}``) are left alone; nothing else in such a pattern is a digit."""
    out: list[str] = []
    position = 0
    while position < len(pattern):
        char = pattern[position]
        if char == "{":
            end = pattern.index("}", position)
            out.append(pattern[position : end + 1])
            position = end + 1
        elif char == "[":
            end = pattern.index("]", position)
            body = pattern[position + 1 : end]
            if "-" in body:
                low, high = int(body[0]), int(body[2])
                out.append(f"[{digit_members(low, high)}]")
            else:
                out.append(f"[{''.join(digit_members(int(d), int(d)) for d in body)}]")
            position = end + 1
        elif char.isdigit():
            out.append(f"[{digit_members(int(char), int(char))}]")
            position += 1
        else:
            out.append(char)
            position += 1
    return "".join(out)


def _ascii_digits_range(minimum: int, maximum: int | None, *, separators: bool) -> str:
    """:func:`digits_range` in ASCII digits."""
    sep = "_?" if separators else ""
    if minimum == 0 and maximum is None:
        return f"[0-9](?:{sep}[0-9])*" if sep else "[0-9]+"
    alternatives = []
    if minimum == 0:
        alternatives.append(f"0(?:{sep}0)*" if sep else "0+")
    if maximum is None or maximum >= max(minimum, 1):
        sequences = _nonzero_ranges(max(minimum, 1), maximum)
        nonzero = "|".join(_render_digits(atoms, sep) for atoms in sequences)
        zeros = f"(?:0{sep})*" if sep else "0*"
        alternatives.append(f"{zeros}{nonzero}" if len(sequences) == 1 else f"{zeros}(?:{nonzero})")
    return alternatives[0] if len(alternatives) == 1 else f"(?:{'|'.join(alternatives)})"


def _nonzero_ranges(low: int, high: int | None) -> list[list[str]]:
    """``low..high`` (``low`` >= 1, no leading zeros) as digit-class sequences, one per length.

    An open end adds "any number with more digits", as one sequence ending in ``{n,}``.
    """
    sequences: list[list[str]] = []
    length = len(str(low))
    top_length = len(str(high)) if high is not None else length
    for size in range(length, top_length + 1):
        start = max(low, 10 ** (size - 1))
        stop = min(high, 10**size - 1) if high is not None else 10**size - 1
        if high is None and start == 10 ** (size - 1):
            return [*sequences, ["[1-9]", _more_digits(size - 1)]]
        sequences.extend(_same_length(str(start), str(stop)))
    if high is None:
        sequences.append(["[1-9]", _more_digits(length)])
    return sequences


def _more_digits(least: int) -> str:
    """The open tail of a range: ``least`` or more further digits."""
    count = {0: "*", 1: "+"}.get(least, f"{{{least},}}")
    return f"[0-9]{count}"


def _same_length(low: str, high: str) -> list[list[str]]:
    """Digit strings of one length from ``low`` to ``high``, as lists of one class per digit."""
    if low == high:
        return [list(low)]
    if len(low) == 1:
        return [[_digit_class(int(low), int(high))]]
    if low[0] == high[0]:
        return [[low[0], *rest] for rest in _same_length(low[1:], high[1:])]
    width = len(low) - 1
    sequences: list[list[str]] = []
    first, last = int(low[0]), int(high[0])
    if low[1:] != "0" * width:
        sequences += [[low[0], *rest] for rest in _same_length(low[1:], "9" * width)]
        first += 1
    upper: list[list[str]] = []
    if high[1:] != "9" * width:
        upper = [[high[0], *rest] for rest in _same_length("0" * width, high[1:])]
        last -= 1
    if first <= last:
        sequences.append([_digit_class(first, last), *["[0-9]"] * width])
    return sequences + upper


def _digit_class(low: int, high: int) -> str:
    if low == high:
        return str(low)
    if high == low + 1:
        return f"[{low}{high}]"
    return f"[{low}-{high}]"


def _render_digits(atoms: list[str], sep: str) -> str:
    """Join one class per digit, with ``sep`` between digits and runs of ``[0-9]`` counted."""
    parts = [atoms[0]]
    index = 1
    while index < len(atoms):
        atom = atoms[index]
        if atom != "[0-9]" and atom.startswith("[0-9]"):  # the open tail, from _more_digits
            count = atom[len("[0-9]") :]
            parts.append(f"(?:{sep}[0-9]){count}" if sep else f"[0-9]{count}")
            index += 1
            continue
        run = 1
        while index + run < len(atoms) and atoms[index + run] == atom:
            run += 1
        if run == 1:
            parts.append(f"{sep}{atom}")
        elif sep:
            parts.append(f"(?:{sep}{atom}){{{run}}}")
        else:
            parts.append(f"{atom}{{{run}}}")
        index += run
    return "".join(parts)


def _case_insensitive(word: str) -> str:
    """``true`` as ``[Tt][Rr][Uu][Ee]``: ECMA-262 has no inline flag for one alternative."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else literal(c) for c in word)


def boolean_pattern() -> str:
    """An anchored pattern for Nova's boolean spellings, in any case, with surrounding space.

    Nova strips the value and lower-cases it before comparing; no non-ASCII character
    lower-cases into one of these letters, so the ASCII case variants are all there is.
    """
    return _spellings_pattern(
        [*sorted(TRUE_STRINGS, key=_spelling_order), *sorted(FALSE_STRINGS, key=_spelling_order)]
    )


def true_pattern() -> str:
    """An anchored pattern for the spellings Nova reads as true (``FlexibleBoolean``,
    ``bool_from_string``), in any case, with surrounding space: a whole-flavor rule that asks
    whether a boolean key is on matches its value against this."""
    return _spellings_pattern(sorted(TRUE_STRINGS, key=_spelling_order))


def _spellings_pattern(spellings: list[str]) -> str:
    alternatives = "|".join(_case_insensitive(word) for word in spellings)
    return f"^{WHITESPACE}*(?:{alternatives}){WHITESPACE}*{END}"


def _spelling_order(word: str) -> tuple[bool, int, str]:
    return (not word.isdigit(), len(word), word)
