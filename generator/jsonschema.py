"""JSON Schemas generated from the definitions, for tools that cannot import onespec.

An editor, a CI job in another language or an API gateway can check extra specs with any
JSON Schema validator; the schema written here gives the verdict that
:mod:`validators_runtime.extra_specs` gives in strict mode, except for the few rules JSON
Schema cannot state, which :data:`DIFFERENCES` lists (and the schema's own description
repeats).

Everything here is a pure function from definitions to a JSON-ready dict; :func:`dumps` turns a
dict into text, and :data:`SCHEMAS` maps each file name to the function that builds it, so a
new schema joins by adding one entry.

Every regular expression written into a schema must mean the same in Python's ``re`` (which the
``jsonschema`` library uses) and in ECMA-262 with the ``u`` flag (which JSON Schema specifies
and most other validators use). Where the two differ (``\\d``, ``\\w``, ``\\s``, ``.``, ``$``,
escapes of ordinary punctuation), :func:`portable` rewrites a definition's pattern into the
syntax both read alike, and refuses what has no such spelling instead of guessing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from definitions.model import (
    FALSE_STRINGS,
    MAX_LENGTH,
    TRUE_STRINGS,
    ExtraSpec,
    LiteralText,
    Parameter,
    Segment,
    Value,
    segments_text,
)
from generator.capabilities_schema import (
    ENVIRONMENT_REQUIRES,
    HOT_CAPABILITIES,
    environment_requires_schema,
    hot_capabilities_schema,
)
from generator.component_schema import SOFTWARE_COMPONENT, software_component_schema
from generator.outputs import ROOT, Output

#: The JSON Schema dialect every schema is written in.
DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: Where every schema's ``$id`` starts. A schema's id is this plus its file name, and never
#: changes: other schemas and tools refer to it.
ID_BASE = "https://onespec.dev/schemas/"

#: The directory the schemas are written to; it holds nothing else.
DIRECTORY = ROOT / "outputs" / "schemas"

FLAVOR_EXTRA_SPECS = "flavor-extra-specs.schema.json"


class SchemaError(ValueError):
    """A definition uses something a JSON Schema cannot state faithfully.

    Raised at generation time, naming the definition, so that the schema is never silently
    looser or stricter than the runtime.
    """


@dataclass(frozen=True)
class Difference:
    """A runtime rule the schema cannot state, and what the schema does instead."""

    name: str
    text: str


#: Where a schema's verdict differs from the runtime's. Each is stated in the schema's
#: description and in ``doc/source/guides/json-schema.rst``, and tested by example.
DIFFERENCES: tuple[Difference, ...] = (
    Difference(
        "json-numbers",
        "Values must be JSON strings. The runtime, like Nova's API, also accepts a JSON number "
        'and checks its decimal form (2 is read as "2"); the schema rejects it.',
    ),
    Difference(
        "unicode-digits",
        "Integer values, and the \\d of value patterns (CPU lists, page sizes, PCI aliases), "
        "accept the ASCII digits 0-9 only. Python's int() and \\d also accept other Unicode "
        "decimal digits, such as Arabic-Indic or fullwidth ones, which the runtime therefore "
        "accepts and the schema rejects.",
    ),
    Difference(
        "unicode-word-characters",
        "The \\w of key patterns (the filter steps of capabilities keys) means ASCII letters, "
        "digits and the underscore. Python's \\w also matches other Unicode letters and digits, "
        "which the runtime therefore accepts and the schema rejects.",
    ),
)


# --- Regular expressions that read the same in Python and ECMA-262 ------------------------------

#: The very end of the text. Python's ``$`` also matches before a final newline and ECMA-262's
#: does not; refusing a following newline makes both mean the end.
END = r"$(?!\n)"

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

_CLASS_SHORTHANDS = {"d": "0-9", "w": "A-Za-z0-9_", "s": WHITESPACE_MEMBERS}
_NEGATED_SHORTHANDS = {"D": "[^0-9]", "W": "[^A-Za-z0-9_]", "S": f"[^{WHITESPACE_MEMBERS}]"}
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


def anchored(pattern: str) -> str:
    """A pattern that must match the whole text: JSON Schema's ``pattern`` searches."""
    return f"^(?:{pattern}){END}"


def portable(pattern: str) -> str:
    """A Python pattern respelled so that Python's ``re`` and ECMA-262 read it alike.

    ``\\d`` and ``\\w`` become their ASCII classes (ECMA-262's meaning; see
    :data:`DIFFERENCES`), ``\\s`` Python's whitespace, ``.`` "anything but a newline", named
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


# --- Integers and booleans as Nova reads them ---------------------------------------------------


def integer_pattern(minimum: int | None, maximum: int | None) -> str:
    """An anchored pattern for the strings Python's ``int()`` reads as ``minimum..maximum``.

    ``int()`` allows surrounding whitespace, a sign, leading zeros and single underscores
    between digits; ``-0`` is 0. Either bound may be None (open). Non-ASCII digits are left out
    (see :data:`DIFFERENCES`).
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
    """
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
    spellings = [
        *sorted(TRUE_STRINGS, key=_spelling_order),
        *sorted(FALSE_STRINGS, key=_spelling_order),
    ]
    alternatives = "|".join(_case_insensitive(word) for word in spellings)
    return f"^{WHITESPACE}*(?:{alternatives}){WHITESPACE}*{END}"


def _spelling_order(word: str) -> tuple[bool, int, str]:
    return (not word.isdigit(), len(word), word)


# --- Keys ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Group:
    """Definitions whose keys share a prefix template, as the runtime's tables group them.

    The runtime matches a key's prefix with the prefix of the group's *first* definition, so
    the schema does too.
    """

    template: str
    prefix: tuple[Segment, ...]
    definitions: tuple[ExtraSpec, ...]

    @property
    def bare(self) -> bool:
        """Keys without a colon: no prefix, and the rest is the whole key."""
        return not self.template


def _groups(definitions: Iterable[ExtraSpec]) -> tuple[_Group, ...]:
    """Group definitions by prefix template, in the order the runtime's tables do."""
    prefixes: dict[str, tuple[Segment, ...]] = {}
    members: dict[str, list[ExtraSpec]] = {}
    for definition in definitions:
        template = segments_text(definition.key_prefix)
        prefixes.setdefault(template, definition.key_prefix)
        members.setdefault(template, []).append(definition)
    return tuple(_Group(t, prefixes[t], tuple(members[t])) for t in prefixes)


def _parameter_pattern(parameter: Parameter, owner: str, *, bounded: bool) -> str:
    """The pattern of one parameter; ``bounded`` folds its min/max or max_length in."""
    parts = _parameter_tokens(parameter, owner)
    has_range = parameter.type is int and (parameter.min is not None or parameter.max is not None)
    if bounded and has_range:
        return _bounded_integer(parameter, owner)
    if bounded and parameter.max_length is not None:
        return _bounded_length(parameter, parts, owner)
    return _as_unit(parts)


def _parameter_tokens(parameter: Parameter, owner: str) -> list[Token]:
    """A parameter's tokens; anchors and lookarounds would see other text in a whole-key match."""
    try:
        parts = tokens(parameter.regex)
    except SchemaError as exc:
        raise SchemaError(f"definition {owner!r}, parameter {{{parameter.name}}}: {exc}") from None
    if any(kind in {"anchor", "lookaround"} for kind, _ in parts):
        raise SchemaError(
            f"definition {owner!r}, parameter {{{parameter.name}}}: anchors and lookarounds "
            "mean something else once the parameter is part of a whole key"
        )
    return parts


def _bounded_integer(parameter: Parameter, owner: str) -> str:
    """An int parameter (digits only) with its range folded into the pattern."""
    if parameter.regex != "[0-9]+" or parameter.max_length is not None:
        raise SchemaError(
            f"definition {owner!r}, parameter {{{parameter.name}}}: only the default digits "
            "pattern, without max_length, can carry an integer range"
        )
    return digits_range(max(parameter.min or 0, 0), parameter.max, separators=False)


def _bounded_length(parameter: Parameter, parts: list[Token], owner: str) -> str:
    """``[...]*`` or ``[...]+`` with a max_length of n, as ``[...]{0,n}`` or ``[...]{1,n}``."""
    limit = parameter.max_length or 0
    shapes = {"*": 0, "+": 1}
    if len(parts) != 2 or parts[0][0] != "atom" or parts[1][1] not in shapes:
        raise SchemaError(
            f"definition {owner!r}, parameter {{{parameter.name}}}: max_length can be written "
            "into a pattern of one character class with * or + only"
        )
    least = shapes[parts[1][1]]
    if limit < least:
        return "(?!)"
    return f"{parts[0][1]}{{{least},{limit}}}"


def _as_unit(parts: list[Token]) -> str:
    """Tokens as one unit that a following literal cannot bind into (a group if needed)."""
    text = "".join(t for _, t in parts)
    simple = len(parts) == 1 or (len(parts) == 2 and parts[1][0] == "quantifier")
    return text if simple and parts[0][0] == "atom" else f"(?:{text})"


def _segments_pattern(segments: Sequence[Segment], owner: str, *, bounded: bool) -> str:
    return "".join(
        literal(segment.text)
        if isinstance(segment, LiteralText)
        else _parameter_pattern(segment, owner, bounded=bounded)
        for segment in segments
    )


def _prefix_pattern(group: _Group, *, bounded: bool) -> str:
    """The group's prefix, which must not be able to run past the key's first colon."""
    owner = group.definitions[0].name
    for segment in group.prefix:
        if isinstance(segment, Parameter) and _can_match(_parameter_tokens(segment, owner), ":"):
            raise SchemaError(
                f"definition {owner!r}, parameter {{{segment.name}}}: a parameter before the "
                "first colon must not match a colon"
            )
    return _segments_pattern(group.prefix, owner, bounded=bounded)


def _key_head(group: _Group, *, bounded: bool) -> str:
    """``^`` and what comes before a rest: the prefix and its colon, or no colon at all.

    A key that starts with a colon has an empty namespace, which the runtime never matches.
    """
    if group.bare:
        return r"^(?![\s\S]*:)"
    prefix = _prefix_pattern(group, bounded=bounded)
    guard = "(?!:)" if re.fullmatch(prefix, "") is not None else ""
    return f"^{guard}{prefix}:"


def key_pattern(group: _Group, definition: ExtraSpec) -> str:
    """The anchored pattern of the keys one patterned definition claims."""
    rest = _segments_pattern(definition.key_rest, definition.name, bounded=True)
    return f"{_key_head(group, bounded=True)}{rest}{END}"


def _catalogued_pattern(group: _Group) -> str:
    """Every key of one group, as one anchored pattern."""
    rests = "|".join(_segments_pattern(d.key_rest, d.name, bounded=True) for d in group.definitions)
    return f"{_key_head(group, bounded=True)}(?:{rests}){END}"


def _namespace_patterns(groups: Sequence[_Group]) -> list[str]:
    """Patterns of the keys in a known namespace: where a key must match some definition.

    That is a key whose prefix some group's prefix matches, bounds aside (a group suffix that
    is too long is an unknown key, not a foreign one), and a key without a colon that a
    patterned bare definition would match but for its bounds.
    """
    prefixes = "|".join(_prefix_pattern(g, bounded=False) for g in groups if not g.bare)
    patterns = [f"^(?!:)(?:{prefixes}):"] if prefixes else []
    for group in groups:
        for definition in group.definitions if group.bare else ():
            if definition.parameters:
                rest = _segments_pattern(definition.key_rest, definition.name, bounded=False)
                patterns.append(f"{_key_head(group, bounded=False)}{rest}{END}")
    return patterns


# --- Values and properties ----------------------------------------------------------------------


def value_schema(value: Value, owner: str) -> dict[str, Any]:
    """The rule for a value, stated on its string form."""
    schema: dict[str, Any] = {"type": "string", "maxLength": MAX_LENGTH}
    if value.type is bool:
        schema["pattern"] = boolean_pattern()
    elif value.type is int:
        schema["pattern"] = integer_pattern(value.min, value.max)
    else:
        if value.max_length is not None:
            schema["maxLength"] = min(value.max_length, MAX_LENGTH)
        if value.enum:
            schema["enum"] = list(value.enum_values)
        if value.pattern is not None:
            try:
                schema["pattern"] = anchored(portable(value.pattern))
            except SchemaError as exc:
                raise SchemaError(f"definition {owner!r}, value pattern: {exc}") from None
    return schema


def _value_comment(value: Value) -> str | None:
    """The rule in words, for readers of a schema whose patterns are hard to read."""
    if value.type is bool:
        spellings = ", ".join(sorted(TRUE_STRINGS | FALSE_STRINGS))
        return f"A boolean as Nova reads it: {spellings}, in any case, with surrounding space."
    if value.type is int:
        low = "any" if value.min is None else str(value.min)
        high = "any" if value.max is None else str(value.max)
        return f"An integer as Python's int() reads it, from {low} to {high}."
    if value.pattern_hint:
        return f"Must be {value.pattern_hint}."
    return None


def property_schema(definition: ExtraSpec) -> dict[str, Any]:
    """What a key's value must be, with the definition's name and first sentence."""
    schema: dict[str, Any] = {"title": definition.name, "description": summary(definition)}
    if definition.deprecated:
        schema["deprecated"] = True
    comment = _value_comment(definition.value)
    if comment:
        schema["$comment"] = comment
    schema.update(value_schema(definition.value, definition.name))
    return schema


_ROLE = re.compile(r":[\w:.+-]+:`([^`<]*?)\s*(?:<[^>]*>)?`")
_LINK = re.compile(r"`([^`<]*?)\s*(?:<[^>]*>)?`__?")
_INLINE_LITERAL = re.compile(r"``(.+?)``")
_EMPHASIS = re.compile(r"\*{1,2}([^*\s][^*]*?)\*{1,2}")
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)[.!?](?=\s+[A-Z(\"'])")


def plain_text(text: str) -> str:
    """reStructuredText markup stripped to what a tooltip can show, on one line."""
    for pattern in (_ROLE, _LINK, _INLINE_LITERAL, _EMPHASIS):
        text = pattern.sub(r"\1", text)
    return " ".join(text.split())


def first_sentence(text: str) -> str:
    """The first sentence of plain text (all of it when there is only one)."""
    match = _SENTENCE_END.search(text)
    return text[: match.end()] if match else text


def summary(definition: ExtraSpec) -> str:
    """A property's description: the first sentence, and how it is deprecated if it is."""
    text = first_sentence(plain_text(definition.description))
    status = definition.status
    if status.deprecated:
        note = "Deprecated" + (f" since {status.since}" if status.since else "")
        if status.removal:
            note += f", to be removed in {status.removal}"
        if status.replacement:
            note += f"; use {status.replacement} instead"
        text = f"{text} {note}.".strip()
    return text


# --- The flavor extra-specs schema --------------------------------------------------------------


def schema_id(file_name: str) -> str:
    """The ``$id`` of a schema: stable, because other documents refer to it."""
    return ID_BASE + file_name


def flavor_extra_specs_schema(definitions: Sequence[ExtraSpec] | None = None) -> dict[str, Any]:
    """The schema of a flavor's extra specs; by default from the in-tree catalogue.

    Exact keys are ``properties`` and patterned ones ``patternProperties``, each with its
    value's rule. ``propertyNames`` carries the key rules the runtime applies in strict mode.
    """
    if definitions is None:
        from definitions.registry import in_tree

        definitions = in_tree()
    groups = _groups(definitions)
    return {
        "$schema": DIALECT,
        "$id": schema_id(FLAVOR_EXTRA_SPECS),
        "title": "Flavor extra specs",
        "description": _description(definitions, groups),
        "type": "object",
        "propertyNames": {
            "description": (
                "A key is 1 to 255 characters long. A key in a namespace that some definition "
                "claims must be a key that a definition claims; any other key is accepted."
            ),
            "minLength": 1,
            "maxLength": MAX_LENGTH,
            "if": {"$ref": "#/$defs/key-in-a-known-namespace"},
            "then": {"$ref": "#/$defs/catalogued-key"},
        },
        "properties": {d.name: property_schema(d) for d in definitions if not d.parameters},
        "patternProperties": _pattern_properties(groups),
        "additionalProperties": True,
        "$defs": {
            "key-in-a-known-namespace": {
                "description": (
                    "A key whose namespace (the text before its first colon) some definition "
                    "claims."
                ),
                "anyOf": [{"pattern": p} for p in _namespace_patterns(groups)] or [False],
            },
            "catalogued-key": {
                "description": "A key that a definition claims, one pattern per namespace.",
                "anyOf": [{"pattern": _catalogued_pattern(g)} for g in groups] or [False],
            },
        },
    }


def _pattern_properties(groups: Sequence[_Group]) -> dict[str, Any]:
    """One entry per patterned definition; two definitions may not claim the same pattern."""
    result: dict[str, Any] = {}
    for group in groups:
        for definition in group.definitions:
            if not definition.parameters:
                continue
            pattern = key_pattern(group, definition)
            if pattern in result:
                raise SchemaError(
                    f"definitions {result[pattern]['title']!r} and {definition.name!r} "
                    "claim the same keys"
                )
            result[pattern] = property_schema(definition)
    return result


def _description(definitions: Sequence[ExtraSpec], groups: Sequence[_Group]) -> str:
    """What the schema validates, where it comes from, and where it differs from the runtime."""
    known = ", ".join(group.template for group in groups if not group.bare)
    differences = " ".join(
        f"({number}) {difference.text}" for number, difference in enumerate(DIFFERENCES, 1)
    )
    return (
        "The extra specs of an OpenStack Nova flavor: an object that maps each extra-spec key "
        "to its value, a string. Validating against this schema gives the verdict of onespec's "
        f"runtime validator in strict mode, with the {len(definitions)} definitions of onespec's "
        "in-tree catalogue. A key is 1 to 255 characters long. A key in a namespace that a "
        f"definition claims ({known}) must be a key that a definition claims, and its value "
        "must be a string of at most 255 characters that satisfies the key's rule. Keys of any "
        "other namespace, and keys without a colon that no definition claims, belong to other "
        "services and are accepted unchecked. Deprecated keys are valid and carry the "
        "deprecated annotation. Where this schema differs from the runtime: "
        f"{differences} Generated by `onespec generate schemas`; do not edit."
    )


# --- Writing ------------------------------------------------------------------------------------


def dumps(schema: dict[str, Any]) -> str:
    """JSON text that is the same for the same schema: key order kept, 2-space indent."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


#: The HTTP API's schemas (plugin labels, flavor extra-spec bodies, errors), built by
#: :mod:`generator.api_schemas`, which imports this module for its helpers.
API_SCHEMAS = (
    "api-root.schema.json",
    "plugins.schema.json",
    "plugin.schema.json",
    "plugin-version.schema.json",
    "plugin-update.schema.json",
    "flavor-extra-specs-body.schema.json",
    "flavor-extra-spec-body.schema.json",
    "error.schema.json",
)


def _api_schema(name: str) -> Callable[[], dict[str, Any]]:
    def build() -> dict[str, Any]:
        from generator import api_schemas

        return api_schemas.BUILDERS[name]()

    build.__name__ = build.__qualname__ = f"api_schemas[{name!r}]"
    return build


#: Every schema this module writes, by file name, with the function that builds it. A new
#: schema (image properties, host capabilities) joins by adding an entry.
def _image_validation_spec_schema() -> dict[str, Any]:
    from generator.image_validators import schema  # it builds on this module's helpers

    return schema()


SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    FLAVOR_EXTRA_SPECS: flavor_extra_specs_schema,
    HOT_CAPABILITIES: hot_capabilities_schema,
    ENVIRONMENT_REQUIRES: environment_requires_schema,
    SOFTWARE_COMPONENT: software_component_schema,
    **{name: _api_schema(name) for name in API_SCHEMAS},
    "image-validation-spec.schema.json": _image_validation_spec_schema,
}


def render() -> dict[Path, str]:
    """Every schema's file and text."""
    return {DIRECTORY / name: dumps(build()) for name, build in SCHEMAS.items()}


def output() -> Output:
    """The ``schemas`` output: it owns ``outputs/schemas/`` whole."""
    return Output("schemas", render, owns=DIRECTORY)
