"""The vocabulary that every onespec definition is written in.

A definition is a frozen dataclass: a plain, comparable value that the generator turns into text and
the runtime compiles into lookup tables. This module uses the standard library only, because the
runtime (which services import) may import it and nothing else of ``definitions``.

The other stdlib-only modules of the vocabulary: ``onespec.definitions.nova_shape`` (the
Nova-shaped ``ExtraSpecValidator`` turned into this model) and
``onespec.definitions.entry_points`` (definitions other packages publish). Plugin labels have
their own, ``onespec.definitions.plugin_labels``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from onespec.definitions.key_templates import DIGITS_PATTERN, template_regex, template_text
from onespec.errors import OnespecError

#: Longest key or value a flavor extra spec may have (the size of Nova's database columns).
MAX_LENGTH = 255

#: The characters Nova's API allows in an extra-spec key, as a regular-expression class: letters,
#: digits, ``_``, ``:``, ``.``, ``-`` and the space. A definition's name (its literal text; the
#: ``{parameter}`` placeholders aside) is held to the same rule, so no definition names a key the
#: API would refuse.
KEY_CHARACTERS = "A-Za-z0-9_:. -"
_KEY_TEXT = re.compile(f"[{KEY_CHARACTERS}]*")

#: The value types an extra spec may have. Values always arrive as strings; the type says how the
#: string is read.
VALUE_TYPES: tuple[type, ...] = (str, int, bool)

#: The spellings Nova accepts for a boolean, after stripping and lower-casing.
TRUE_STRINGS: frozenset[str] = frozenset({"1", "t", "true", "on", "y", "yes"})
FALSE_STRINGS: frozenset[str] = frozenset({"0", "f", "false", "off", "n", "no"})

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DEFAULT_PARAMETER_PATTERNS = {int: DIGITS_PATTERN, str: "[^:]+"}


class DefinitionError(OnespecError, ValueError):
    """A definition is malformed.

    Carries the definition's name and the field path inside it, because a catalogue has hundreds
    of entries and "invalid pattern" alone would not say which one to fix.
    """

    def __init__(self, message: str, *, name: str | None = None, field: str | None = None) -> None:
        self.name = name
        self.field = field
        self.reason = message
        where = ""
        if name is not None:
            where = f"definition {name!r}"
            if field:
                where += f", field {field!r}"
            where += ": "
        elif field:
            where = f"field {field!r}: "
        super().__init__(where + message)


def definition_error(message: str, name: str | None, field: str | None = None) -> DefinitionError:
    return DefinitionError(message, name=name, field=field)


def type_name(value_type: type) -> str:
    """The name a value type is documented and serialised under (``str``, ``int``, ``bool``)."""
    return value_type.__name__


def parse_type(value: Any, *, name: str | None = None, field: str = "type") -> type:
    """Turn ``int``, ``"int"`` or ``"integer"`` into the type object, or explain the mistake."""
    if isinstance(value, type) and value in VALUE_TYPES:
        return value
    aliases = {"str": str, "string": str, "int": int, "integer": int, "bool": bool, "boolean": bool}
    if isinstance(value, str) and value in aliases:
        return aliases[value]
    raise definition_error(f"type must be one of str, int or bool, not {value!r}", name, field)


def _check_pattern(pattern: str, name: str | None, field: str) -> None:
    if not isinstance(pattern, str) or not pattern:
        raise definition_error(
            f"a pattern must be a non-empty string, not {pattern!r}", name, field
        )
    try:
        re.compile(pattern)
    except re.error as exc:
        message = f"pattern {pattern!r} is not a valid regular expression: {exc}"
        raise definition_error(message, name, field) from None


def _check_bounds(minimum: Any, maximum: Any, name: str | None, field: str) -> None:
    for label, bound in (("min", minimum), ("max", maximum)):
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
            raise definition_error(
                f"{label} must be an integer, not {bound!r}", name, f"{field}.{label}"
            )
    if minimum is not None and maximum is not None and minimum > maximum:
        raise definition_error(f"min {minimum} is greater than max {maximum}", name, field)


@dataclass(frozen=True)
class EnumMember:
    """One allowed value of an enumerated extra spec, with what choosing it means."""

    value: str
    description: str = ""


def enum_members(raw: Any, name: str | None, field: str) -> tuple[EnumMember, ...]:
    """Accept a list of strings, of ``(value, description)`` pairs, of mappings or a mapping."""
    if isinstance(raw, Mapping):
        raw = list(raw.items())
    if isinstance(raw, str) or not isinstance(raw, Iterable):
        raise definition_error(f"enum must be a list of allowed values, not {raw!r}", name, field)
    members: list[EnumMember] = []
    for index, item in enumerate(raw):
        where = f"{field}[{index}]"
        if isinstance(item, EnumMember):
            member = item
        elif isinstance(item, str):
            member = EnumMember(item)
        elif isinstance(item, Mapping):
            unknown = set(item) - {"value", "description"}
            if unknown or "value" not in item:
                raise definition_error(
                    f"an enum member mapping takes 'value' and 'description', got {sorted(item)}",
                    name,
                    where,
                )
            member = EnumMember(item["value"], item.get("description", ""))
        elif isinstance(item, tuple) and len(item) == 2:
            member = EnumMember(*item)
        else:
            raise definition_error(f"an enum member must be a string, not {item!r}", name, where)
        if not isinstance(member.value, str) or not isinstance(member.description, str):
            raise definition_error(f"enum member {member.value!r} must be a string", name, where)
        members.append(member)
    values = [member.value for member in members]
    duplicates = sorted({value for value in values if values.count(value) > 1})
    if duplicates:
        raise definition_error(
            f"enum lists {', '.join(map(repr, duplicates))} more than once", name, field
        )
    if not members:
        raise definition_error("enum must list at least one value", name, field)
    return tuple(members)


@dataclass(frozen=True)
class Value:
    """What an extra spec's value may be.

    ``min`` and ``max`` apply to integers; ``enum``, ``pattern`` and ``max_length`` to strings.
    Where a string has both an enum and a pattern, both must hold (Nova silently checked only the
    pattern). ``pattern_hint`` describes the pattern in words for error messages and documentation,
    so users are not shown a raw regular expression.
    """

    type: type
    description: str = ""
    min: int | None = None
    max: int | None = None
    enum: tuple[EnumMember, ...] = ()
    pattern: str | None = None
    pattern_hint: str | None = None
    max_length: int | None = None
    default: str | int | bool | None = None

    def __post_init__(self) -> None:
        self._check(None)

    def _check(self, name: str | None) -> None:
        """Validate the combination of fields; ``name`` is the owning definition, for messages."""
        object.__setattr__(self, "type", parse_type(self.type, name=name, field="value.type"))
        if not isinstance(self.description, str):
            raise definition_error("description must be a string", name, "value.description")
        if self.type is not int and (self.min is not None or self.max is not None):
            raise definition_error(
                f"min and max apply to int values, not {type_name(self.type)}", name, "value"
            )
        _check_bounds(self.min, self.max, name, "value")
        if self.type is not str:
            for label in ("enum", "pattern", "max_length"):
                if getattr(self, label):
                    raise definition_error(
                        f"{label} applies to str values, not {type_name(self.type)}",
                        name,
                        f"value.{label}",
                    )
        if self.enum:
            object.__setattr__(self, "enum", enum_members(self.enum, name, "value.enum"))
        if self.pattern is not None:
            _check_pattern(self.pattern, name, "value.pattern")
        if self.max_length is not None and (
            isinstance(self.max_length, bool)
            or not isinstance(self.max_length, int)
            or not 0 < self.max_length <= MAX_LENGTH
        ):
            raise definition_error(
                f"max_length must be from 1 to {MAX_LENGTH}", name, "value.max_length"
            )
        if self.default is not None and (
            not isinstance(self.default, self.type)
            or (isinstance(self.default, bool) and self.type is not bool)
        ):
            raise definition_error(
                f"default {self.default!r} is not of type {type_name(self.type)}",
                name,
                "value.default",
            )

    @property
    def enum_values(self) -> tuple[str, ...]:
        """The allowed values alone, in their documented order."""
        return tuple(member.value for member in self.enum)


@dataclass(frozen=True)
class Parameter:
    """A named, variable part of a patterned extra-spec name such as ``{id}``.

    An ``int`` parameter matches digits and is then checked against ``min`` and ``max``; a ``str``
    parameter matches ``pattern`` (by default anything but a colon) and ``max_length``.
    """

    name: str
    type: type = str
    description: str = ""
    pattern: str | None = None
    min: int | None = None
    max: int | None = None
    max_length: int | None = None

    def __post_init__(self) -> None:
        self._check(None)

    def _check(self, owner: str | None) -> None:
        field_path = f"parameters.{self.name}"
        if not isinstance(self.name, str) or not _IDENTIFIER.fullmatch(self.name):
            raise definition_error(
                f"parameter name {self.name!r} is not an identifier", owner, "parameters"
            )
        object.__setattr__(self, "type", parse_type(self.type, name=owner, field=field_path))
        if self.type is bool:
            raise definition_error("a parameter is a str or an int, not a bool", owner, field_path)
        if self.type is str and (self.min is not None or self.max is not None):
            raise definition_error("min and max apply to int parameters", owner, field_path)
        _check_bounds(self.min, self.max, owner, field_path)
        if self.pattern is not None:
            _check_pattern(self.pattern, owner, f"{field_path}.pattern")
        if self.max_length is not None and (
            isinstance(self.max_length, bool) or not isinstance(self.max_length, int)
        ):
            raise definition_error(
                "max_length must be an integer", owner, f"{field_path}.max_length"
            )

    @property
    def regex(self) -> str:
        """The regular expression this parameter matches, before its bounds are checked."""
        return self.pattern or _DEFAULT_PARAMETER_PATTERNS[self.type]


class Support(enum.StrEnum):
    """How far a definition can be relied on."""

    SUPPORTED = "supported"
    EXPERIMENTAL = "experimental"
    DEPRECATED = "deprecated"


@dataclass(frozen=True)
class Status:
    """Support status, with the releases that matter to someone planning an upgrade.

    ``since`` is the release the status began in (the release that introduced a supported spec, or
    that deprecated a deprecated one); ``replacement`` names what to use instead; ``removal`` is
    the release in which the spec is planned to go away.
    """

    level: Support = Support.SUPPORTED
    since: str | None = None
    replacement: str | None = None
    removal: str | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "level", Support(self.level))
        except ValueError:
            choices = ", ".join(level.value for level in Support)
            raise DefinitionError(
                f"status must be one of {choices}, not {self.level!r}", field="status.level"
            ) from None
        if self.level is not Support.DEPRECATED and (self.replacement or self.removal):
            raise DefinitionError(
                "only a deprecated spec has a replacement or a removal release",
                field="status.replacement" if self.replacement else "status.removal",
            )

    @property
    def deprecated(self) -> bool:
        return self.level is Support.DEPRECATED


SUPPORTED = Status()

#: Nova's major versions and the names of the OpenStack releases that shipped them: a reader
#: plans an upgrade by release name ("Victoria"), Nova's packages carry the number ("22.0.0").
NOVA_RELEASES: dict[int, str] = {
    13: "Mitaka",
    14: "Newton",
    15: "Ocata",
    16: "Pike",
    17: "Queens",
    18: "Rocky",
    19: "Stein",
    20: "Train",
    21: "Ussuri",
    22: "Victoria",
    23: "Wallaby",
    24: "Xena",
    25: "Yoga",
    26: "Zed",
    27: "2023.1 Antelope",
    28: "2023.2 Bobcat",
    29: "2024.1 Caracal",
    30: "2024.2 Dalmatian",
    31: "2025.1 Epoxy",
    32: "2025.2 Flamingo",
    33: "2026.1 Gazpacho",
    34: "2026.2 Hibiscus",
}


def nova_release(version: str | None) -> str | None:
    """A Nova version as every output names it: ``"22.0.0 (Victoria)"``.

    An extra spec's ``since`` and ``removal`` are Nova's versions; a version that is not one
    of Nova's releases (``"1.0"``, a major Nova has not shipped) is left as written.
    """
    if version is None:
        return None
    major, dot, rest = version.partition(".")
    name = NOVA_RELEASES.get(int(major)) if major.isascii() and major.isdigit() else None
    if name is None or not dot or not rest.replace(".", "").isdigit():
        return version
    return f"{version} ({name})"


def deprecation_sentence(
    subject: str, since: str | None, removal: str | None, replacement: str | None = None
) -> str:
    """How every output says that a key is deprecated, in one wording.

    ``subject`` starts the sentence ("This extra spec", "Extra spec 'hw:x'"); ``replacement`` is
    given as the output shows a name (a reference, a quoted key), or None.
    """
    sentence = f"{subject} is deprecated"
    if since:
        sentence += f" since {nova_release(since)}"
    if removal:
        sentence += f" and will be removed in {nova_release(removal)}"
    sentence += "."
    if replacement:
        sentence += f" Use {replacement} instead."
    return sentence


@dataclass(frozen=True)
class LiteralText:
    """A literal run of characters inside a name template."""

    text: str


Segment = LiteralText | Parameter


@dataclass(frozen=True)
class ExtraSpec:
    """A flavor extra spec: a key (or a key pattern), what its value may be, and why to set it.

    ``virt_drivers`` is documentation only. How a key depends on or excludes another is not
    said here: those are rules between keys, enforced, in
    ``onespec.definitions.flavor_rule_catalogue``.
    ``namespace`` is derived from the name when it is not given: the text before the first colon,
    without its parameters (``trait{group}:HW_CPU_X86_AVX`` belongs to ``trait``); keys without a
    colon belong to the unnamed namespace ``""``.
    """

    name: str
    description: str
    value: Value
    parameters: tuple[Parameter, ...] = ()
    status: Status = SUPPORTED
    virt_drivers: tuple[str, ...] = ()
    namespace: str | None = None
    segments: tuple[Segment, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        name = self.name
        if not isinstance(name, str) or not name:
            raise DefinitionError(f"a definition needs a non-empty string name, not {name!r}")
        if name.startswith(":"):
            raise definition_error(
                "the name must not start with a colon (an empty namespace)", name, "name"
            )
        if len(name) > MAX_LENGTH:
            raise definition_error(f"the name is longer than {MAX_LENGTH} characters", name, "name")
        if not isinstance(self.description, str):
            raise definition_error("description must be a string", name, "description")
        if not isinstance(self.value, Value):
            raise definition_error(
                f"value must be a Value, not {type(self.value).__name__}", name, "value"
            )
        self.value._check(name)
        for label in ("parameters", "virt_drivers"):
            items = getattr(self, label)
            if isinstance(items, str | bytes) or not isinstance(items, Iterable):
                raise definition_error(f"{label} must be a list", name, label)
            object.__setattr__(self, label, tuple(items))
        for item in self.virt_drivers:
            if not isinstance(item, str) or not item:
                raise definition_error(
                    f"every entry must be a non-empty string, not {item!r}", name, "virt_drivers"
                )
        if not isinstance(self.status, Status):
            raise definition_error("status must be a Status", name, "status")
        object.__setattr__(self, "segments", self._parse_name())
        if self.namespace is None:
            object.__setattr__(self, "namespace", self._derived_namespace())
        elif not isinstance(self.namespace, str):
            raise definition_error("namespace must be a string", name, "namespace")

    def _parse_name(self) -> tuple[Segment, ...]:
        by_name: dict[str, Parameter] = {}
        for parameter in self.parameters:
            if not isinstance(parameter, Parameter):
                raise definition_error(
                    f"parameter {parameter!r} is not a Parameter", self.name, "parameters"
                )
            parameter._check(self.name)
            if parameter.name in by_name:
                raise definition_error(
                    f"parameter {parameter.name!r} is declared twice", self.name, "parameters"
                )
            by_name[parameter.name] = parameter
        segments: list[Segment] = []
        used: list[str] = []
        position = 0
        for match in _PLACEHOLDER.finditer(self.name):
            if match.start() > position:
                segments.append(LiteralText(self.name[position : match.start()]))
            placeholder = match.group(1)
            if placeholder not in by_name:
                raise definition_error(
                    f"{{{placeholder}}} has no parameter declared for it", self.name, "name"
                )
            if placeholder in used:
                raise definition_error(
                    f"{{{placeholder}}} appears twice in the name", self.name, "name"
                )
            if segments and isinstance(segments[-1], Parameter):
                raise definition_error(
                    "two parameters must be separated by literal text", self.name, "name"
                )
            used.append(placeholder)
            segments.append(by_name[placeholder])
            position = match.end()
        if position < len(self.name):
            segments.append(LiteralText(self.name[position:]))
        stray = [
            s.text
            for s in segments
            if isinstance(s, LiteralText) and ("{" in s.text or "}" in s.text)
        ]
        if stray:
            raise definition_error("the name has an unbalanced brace", self.name, "name")
        refused = sorted(
            {
                character
                for s in segments
                if isinstance(s, LiteralText) and not _KEY_TEXT.fullmatch(s.text)
                for character in s.text
                if not _KEY_TEXT.fullmatch(character)
            }
        )
        if refused:
            raise definition_error(
                f"the name holds {', '.join(map(repr, refused[:5]))}, which Nova's API refuses in "
                f"a key (it allows {KEY_CHARACTERS})",
                self.name,
                "name",
            )
        unused = sorted(set(by_name) - set(used))
        if unused:
            raise definition_error(
                f"parameters {unused} do not appear in the name", self.name, "parameters"
            )
        return tuple(segments)

    def _derived_namespace(self) -> str:
        prefix = self.key_prefix
        return "".join(s.text for s in prefix if isinstance(s, LiteralText))

    def _split(self) -> tuple[tuple[Segment, ...], tuple[Segment, ...]]:
        """Split the template at the first literal colon: (prefix segments, rest segments)."""
        for index, segment in enumerate(self.segments):
            if isinstance(segment, LiteralText) and ":" in segment.text:
                head, _, tail = segment.text.partition(":")
                prefix = (*self.segments[:index], *((LiteralText(head),) if head else ()))
                rest = (*((LiteralText(tail),) if tail else ()), *self.segments[index + 1 :])
                return prefix, rest
        return (), self.segments

    @property
    def key_prefix(self) -> tuple[Segment, ...]:
        """The template of the part of a key before its first colon (empty: no namespace)."""
        return self._split()[0]

    @property
    def key_rest(self) -> tuple[Segment, ...]:
        """The template of the part of a key after its first colon (the whole key if none)."""
        return self._split()[1]

    @property
    def is_patterned(self) -> bool:
        return bool(self.parameters)

    @property
    def deprecated(self) -> bool:
        return self.status.deprecated

    def name_regex(self) -> str:
        """An anchored-by-fullmatch regex for the keys this definition claims.

        Literal text is escaped: the dot in ``hw:numa_cpus.{id}`` is a dot.
        """
        return segments_regex(self.segments)


def segments_regex(segments: Sequence[Segment]) -> str:
    """The regular expression of a name template, each parameter a group named after it."""
    return template_regex(
        s.text if isinstance(s, LiteralText) else (s.name, s.regex) for s in segments
    )


def segments_text(segments: Sequence[Segment]) -> str:
    """The template written back as text, ``{param}`` placeholders included."""
    return template_text(s.text if isinstance(s, LiteralText) else (s.name, s) for s in segments)


@dataclass(frozen=True)
class UnlistedKeyHint:
    """The key probably meant by a key of the namespace that no definition lists, and why.

    For a namespace whose reader understands more keys than its validator accepts: Nova's
    ComputeCapabilitiesFilter reads ``capabilities:boot_option`` from the host's stats, while
    its validator refuses the key from microversion 2.86 on. A finding about such a key names
    the spelling both accept. ``template`` holds ``{name}`` (the key after the namespace's
    colon) once; ``reason`` is the sentence the finding adds.
    """

    template: str
    reason: str

    def __post_init__(self) -> None:
        if not isinstance(self.template, str) or self.template.count("{name}") != 1:
            raise DefinitionError(
                "an unlisted-key hint's template must hold {name} once", field="template"
            )
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise DefinitionError("an unlisted-key hint needs a reason", field="reason")


@dataclass(frozen=True)
class Namespace:
    """A family of extra specs that share a key prefix, documented together on one page.

    ``name`` is the prefix as definitions derive it (``hw``, ``trait``; ``""`` for keys without a
    colon); ``title`` and ``description`` introduce the family in the reference;
    ``unlisted_key_hint`` says what a key no definition lists probably meant.
    """

    name: str
    title: str
    description: str
    unlisted_key_hint: UnlistedKeyHint | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or ":" in self.name or "{" in self.name:
            raise DefinitionError(f"namespace name {self.name!r} must be a plain prefix")
        for label in ("title", "description"):
            if not isinstance(getattr(self, label), str):
                raise DefinitionError(f"namespace {self.name!r}: {label} must be a string")
        hint = self.unlisted_key_hint
        if hint is not None and not isinstance(hint, UnlistedKeyHint):
            raise DefinitionError(
                f"namespace {self.name!r}: unlisted_key_hint must be an UnlistedKeyHint"
            )
