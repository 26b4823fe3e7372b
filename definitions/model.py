"""The vocabulary that every onespec definition is written in.

A definition is a frozen dataclass: a plain, comparable value that the generator turns into text and
the runtime compiles into lookup tables. This module uses the standard library only, because the
runtime (which services import) may import it and nothing else of ``definitions``.

The seed shape -- ``ExtraSpecValidator(name=..., value={'type': int, 'min': 1}, parameters=[...])``
-- is accepted too, and turned into the typed model, so that validators written for that shape load
unchanged.
"""

from __future__ import annotations

import enum
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # importlib.metadata is slow to import; only loading plugins needs it
    import importlib.metadata

LOG = logging.getLogger(__name__)

#: The entry-point group in which out-of-tree packages publish extra-spec definitions.
ENTRY_POINT_GROUP = "onespec.extra_specs"

#: Longest key or value a flavor extra spec may have (the size of Nova's database columns).
MAX_LENGTH = 255

#: The value types an extra spec may have. Values always arrive as strings; the type says how the
#: string is read.
VALUE_TYPES: tuple[type, ...] = (str, int, bool)

#: The spellings Nova accepts for a boolean, after stripping and lower-casing.
TRUE_STRINGS: frozenset[str] = frozenset({"1", "t", "true", "on", "y", "yes"})
FALSE_STRINGS: frozenset[str] = frozenset({"0", "f", "false", "off", "n", "no"})

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: The pattern of an int parameter that names none: digits, so never a negative number.
DIGITS_PATTERN = "[0-9]+"
_DEFAULT_PARAMETER_PATTERNS = {int: DIGITS_PATTERN, str: "[^:]+"}


class DefinitionError(ValueError):
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


def _fail(message: str, name: str | None, field: str | None = None) -> DefinitionError:
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
    raise _fail(f"type must be one of str, int or bool, not {value!r}", name, field)


def _check_pattern(pattern: str, name: str | None, field: str) -> None:
    if not isinstance(pattern, str) or not pattern:
        raise _fail(f"a pattern must be a non-empty string, not {pattern!r}", name, field)
    try:
        re.compile(pattern)
    except re.error as exc:
        message = f"pattern {pattern!r} is not a valid regular expression: {exc}"
        raise _fail(message, name, field) from None


def _check_bounds(minimum: Any, maximum: Any, name: str | None, field: str) -> None:
    for label, bound in (("min", minimum), ("max", maximum)):
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
            raise _fail(f"{label} must be an integer, not {bound!r}", name, f"{field}.{label}")
    if minimum is not None and maximum is not None and minimum > maximum:
        raise _fail(f"min {minimum} is greater than max {maximum}", name, field)


@dataclass(frozen=True)
class EnumMember:
    """One allowed value of an enumerated extra spec, with what choosing it means."""

    value: str
    description: str = ""


def _enum_members(raw: Any, name: str | None, field: str) -> tuple[EnumMember, ...]:
    """Accept a list of strings, of ``(value, description)`` pairs, of mappings or a mapping."""
    if isinstance(raw, Mapping):
        raw = list(raw.items())
    if isinstance(raw, str) or not isinstance(raw, Iterable):
        raise _fail(f"enum must be a list of allowed values, not {raw!r}", name, field)
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
                raise _fail(
                    f"an enum member mapping takes 'value' and 'description', got {sorted(item)}",
                    name,
                    where,
                )
            member = EnumMember(item["value"], item.get("description", ""))
        elif isinstance(item, tuple) and len(item) == 2:
            member = EnumMember(*item)
        else:
            raise _fail(f"an enum member must be a string, not {item!r}", name, where)
        if not isinstance(member.value, str) or not isinstance(member.description, str):
            raise _fail(f"enum member {member.value!r} must be a string", name, where)
        members.append(member)
    values = [member.value for member in members]
    duplicates = sorted({value for value in values if values.count(value) > 1})
    if duplicates:
        raise _fail(f"enum lists {', '.join(map(repr, duplicates))} more than once", name, field)
    if not members:
        raise _fail("enum must list at least one value", name, field)
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
            raise _fail("description must be a string", name, "value.description")
        if self.type is not int and (self.min is not None or self.max is not None):
            raise _fail(
                f"min and max apply to int values, not {type_name(self.type)}", name, "value"
            )
        _check_bounds(self.min, self.max, name, "value")
        if self.type is not str:
            for label in ("enum", "pattern", "max_length"):
                if getattr(self, label):
                    raise _fail(
                        f"{label} applies to str values, not {type_name(self.type)}",
                        name,
                        f"value.{label}",
                    )
        if self.enum:
            object.__setattr__(self, "enum", _enum_members(self.enum, name, "value.enum"))
        if self.pattern is not None:
            _check_pattern(self.pattern, name, "value.pattern")
        if self.max_length is not None and (
            isinstance(self.max_length, bool)
            or not isinstance(self.max_length, int)
            or not 0 < self.max_length <= MAX_LENGTH
        ):
            raise _fail(f"max_length must be from 1 to {MAX_LENGTH}", name, "value.max_length")
        if self.default is not None and (
            not isinstance(self.default, self.type)
            or (isinstance(self.default, bool) and self.type is not bool)
        ):
            raise _fail(
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
            raise _fail(f"parameter name {self.name!r} is not an identifier", owner, "parameters")
        object.__setattr__(self, "type", parse_type(self.type, name=owner, field=field_path))
        if self.type is bool:
            raise _fail("a parameter is a str or an int, not a bool", owner, field_path)
        if self.type is str and (self.min is not None or self.max is not None):
            raise _fail("min and max apply to int parameters", owner, field_path)
        _check_bounds(self.min, self.max, owner, field_path)
        if self.pattern is not None:
            _check_pattern(self.pattern, owner, f"{field_path}.pattern")
        if self.max_length is not None and (
            isinstance(self.max_length, bool) or not isinstance(self.max_length, int)
        ):
            raise _fail("max_length must be an integer", owner, f"{field_path}.max_length")

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


def deprecation_sentence(
    subject: str, since: str | None, removal: str | None, replacement: str | None = None
) -> str:
    """How every output says that a key is deprecated, in one wording.

    ``subject`` starts the sentence ("This extra spec", "Extra spec 'hw:x'"); ``replacement`` is
    given as the output shows a name (a reference, a quoted key), or None.
    """
    sentence = f"{subject} is deprecated"
    if since:
        sentence += f" since {since}"
    if removal:
        sentence += f" and will be removed in {removal}"
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

    ``virt_drivers``, ``requires`` and ``conflicts`` are documentation only: they are never
    enforced, because the drivers already check them, later and with more context.
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
    requires: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    namespace: str | None = None
    segments: tuple[Segment, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        name = self.name
        if not isinstance(name, str) or not name:
            raise DefinitionError(f"a definition needs a non-empty string name, not {name!r}")
        if name.startswith(":"):
            raise _fail("the name must not start with a colon (an empty namespace)", name, "name")
        if len(name) > MAX_LENGTH:
            raise _fail(f"the name is longer than {MAX_LENGTH} characters", name, "name")
        if not isinstance(self.description, str):
            raise _fail("description must be a string", name, "description")
        if not isinstance(self.value, Value):
            raise _fail(f"value must be a Value, not {type(self.value).__name__}", name, "value")
        self.value._check(name)
        for label in ("parameters", "virt_drivers", "requires", "conflicts"):
            items = getattr(self, label)
            if isinstance(items, str | bytes) or not isinstance(items, Iterable):
                raise _fail(f"{label} must be a list", name, label)
            object.__setattr__(self, label, tuple(items))
        for label in ("virt_drivers", "requires", "conflicts"):
            for item in getattr(self, label):
                if not isinstance(item, str) or not item:
                    raise _fail(
                        f"every entry must be a non-empty string, not {item!r}", name, label
                    )
        if not isinstance(self.status, Status):
            raise _fail("status must be a Status", name, "status")
        object.__setattr__(self, "segments", self._parse_name())
        if self.namespace is None:
            object.__setattr__(self, "namespace", self._derived_namespace())
        elif not isinstance(self.namespace, str):
            raise _fail("namespace must be a string", name, "namespace")

    def _parse_name(self) -> tuple[Segment, ...]:
        by_name: dict[str, Parameter] = {}
        for parameter in self.parameters:
            if not isinstance(parameter, Parameter):
                raise _fail(f"parameter {parameter!r} is not a Parameter", self.name, "parameters")
            parameter._check(self.name)
            if parameter.name in by_name:
                raise _fail(
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
                raise _fail(
                    f"{{{placeholder}}} has no parameter declared for it", self.name, "name"
                )
            if placeholder in used:
                raise _fail(f"{{{placeholder}}} appears twice in the name", self.name, "name")
            if segments and isinstance(segments[-1], Parameter):
                raise _fail("two parameters must be separated by literal text", self.name, "name")
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
            raise _fail("the name has an unbalanced brace", self.name, "name")
        unused = sorted(set(by_name) - set(used))
        if unused:
            raise _fail(f"parameters {unused} do not appear in the name", self.name, "parameters")
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
    """The regular expression of a name template, each parameter a named group."""
    parts = []
    for segment in segments:
        if isinstance(segment, LiteralText):
            parts.append(re.escape(segment.text))
        else:
            parts.append(f"(?P<{segment.name}>{segment.regex})")
    return "".join(parts)


def segments_text(segments: Sequence[Segment]) -> str:
    """The template written back as text, ``{param}`` placeholders included."""
    return "".join(s.text if isinstance(s, LiteralText) else f"{{{s.name}}}" for s in segments)


@dataclass(frozen=True)
class Namespace:
    """A family of extra specs that share a key prefix, documented together on one page.

    ``name`` is the prefix as definitions derive it (``hw``, ``trait``; ``""`` for keys without a
    colon); ``title`` and ``description`` introduce the family in the reference.
    """

    name: str
    title: str
    description: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or ":" in self.name or "{" in self.name:
            raise DefinitionError(f"namespace name {self.name!r} must be a plain prefix")
        for label in ("title", "description"):
            if not isinstance(getattr(self, label), str):
                raise DefinitionError(f"namespace {self.name!r}: {label} must be a string")


# --- The seed shape ------------------------------------------------------------------------------

_VALUE_KEYS = {
    "type",
    "description",
    "min",
    "max",
    "enum",
    "pattern",
    "pattern_hint",
    "max_length",
    "default",
}
_PARAMETER_KEYS = {"name", "type", "description", "pattern", "min", "max", "max_length"}


def _value_from_mapping(raw: Mapping[str, Any], name: str) -> Value:
    unknown = sorted(set(raw) - _VALUE_KEYS)
    if unknown:
        # Nova silently ignored such keys, so a typo like 'minimum' disabled a bound unnoticed.
        raise _fail(f"unknown keys {unknown}; a value takes {sorted(_VALUE_KEYS)}", name, "value")
    if "type" not in raw:
        raise _fail("a value needs a 'type'", name, "value")
    fields = dict(raw)
    fields["type"] = parse_type(fields["type"], name=name, field="value.type")
    if "enum" in fields:
        fields["enum"] = _enum_members(fields["enum"], name, "value.enum")
    try:
        return Value(**fields)
    except DefinitionError as exc:
        raise _fail(exc.reason, name, exc.field or "value") from None


def _parameter_from_mapping(raw: Mapping[str, Any], name: str, index: int) -> Parameter:
    unknown = sorted(set(raw) - _PARAMETER_KEYS)
    where = f"parameters[{index}]"
    if unknown:
        raise _fail(
            f"unknown keys {unknown}; a parameter takes {sorted(_PARAMETER_KEYS)}", name, where
        )
    if "name" not in raw:
        raise _fail("a parameter needs a 'name'", name, where)
    fields = dict(raw)
    if "type" in fields:
        fields["type"] = parse_type(fields["type"], name=name, field=f"{where}.type")
    try:
        return Parameter(**fields)
    except DefinitionError as exc:
        raise _fail(exc.reason, name, exc.field or where) from None


def ExtraSpecValidator(
    name: str,
    description: str = "",
    value: Mapping[str, Any] | Value | None = None,
    parameters: Iterable[Mapping[str, Any] | Parameter] = (),
    deprecated: bool = False,
    **fields: Any,
) -> ExtraSpec:
    """Build an :class:`ExtraSpec` from the shape the specification shows.

    The capitalised name is the specification's, kept so that out-of-tree code ports unchanged.

    ``value`` is a mapping such as ``{'type': int, 'min': 1}``; ``parameters`` a list of mappings
    such as ``{'name': 'id', 'type': int, 'description': '...'}``; ``deprecated=True`` marks the
    spec deprecated. Any field of :class:`ExtraSpec` (``status``, ``virt_drivers``, ...) may be
    given as a keyword too.
    """
    if not isinstance(name, str) or not name:
        raise DefinitionError(f"a definition needs a non-empty string name, not {name!r}")
    if value is None:
        raise _fail("a definition needs a value", name, "value")
    if isinstance(value, Mapping):
        value = _value_from_mapping(value, name)
    elif not isinstance(value, Value):
        raise _fail(f"value must be a mapping, not {type(value).__name__}", name, "value")
    if isinstance(parameters, str | bytes | Mapping) or not isinstance(parameters, Iterable):
        raise _fail("parameters must be a list of mappings", name, "parameters")
    typed_parameters = []
    for index, parameter in enumerate(parameters):
        if isinstance(parameter, Mapping):
            parameter = _parameter_from_mapping(parameter, name, index)
        typed_parameters.append(parameter)
    if deprecated:
        if "status" in fields:
            raise _fail("give either deprecated=True or a status, not both", name, "status")
        fields["status"] = Status(Support.DEPRECATED)
    allowed = {"status", "virt_drivers", "requires", "conflicts", "namespace"}
    unknown = sorted(set(fields) - allowed)
    if unknown:
        raise _fail(f"unknown fields {unknown}", name)
    return ExtraSpec(
        name=name,
        description=description,
        value=value,
        parameters=tuple(typed_parameters),
        **fields,
    )


def coerce_definition(obj: Any) -> ExtraSpec:
    """Turn anything an out-of-tree package may publish into an :class:`ExtraSpec`.

    Accepted: an ``ExtraSpec``; a mapping of the seed's keyword arguments; or any object with the
    seed's attributes (``name``, ``description``, ``value``, ``parameters``, ``deprecated``) --
    which is what validator objects written for Nova look like.
    """
    if isinstance(obj, ExtraSpec):
        return obj
    if isinstance(obj, Mapping):
        return ExtraSpecValidator(**obj)
    if all(hasattr(obj, attribute) for attribute in ("name", "value")):
        return ExtraSpecValidator(
            name=obj.name,
            description=getattr(obj, "description", "") or "",
            value=obj.value,
            parameters=getattr(obj, "parameters", None) or (),
            deprecated=bool(getattr(obj, "deprecated", False)),
        )
    raise DefinitionError(f"{obj!r} is not an extra-spec definition")


# --- Out-of-tree definitions ---------------------------------------------------------------------

ProblemKind = Literal["import-error", "malformed", "clash"]


@dataclass(frozen=True)
class PluginProblem:
    """Something wrong with an out-of-tree source; never fatal for the in-tree catalogue."""

    source: str
    kind: ProblemKind
    message: str
    name: str | None = None

    def __str__(self) -> str:
        return f"{self.source}: {self.message}"


@dataclass(frozen=True)
class PluginSource:
    """The definitions one entry point contributed, with where they came from."""

    entry_point: str
    target: str
    distribution: str | None
    definitions: tuple[ExtraSpec, ...]

    @property
    def label(self) -> str:
        return describe_entry_point(self.entry_point, self.target, self.distribution)


def describe_entry_point(name: str, target: str, distribution: str | None) -> str:
    """How an entry point is named in every report: ``entry point 'x' (pkg.mod:V) from dist``."""
    text = f"entry point {name!r} ({target})"
    if distribution:
        text += f" from {distribution}"
    return text


def _distribution_label(entry_point: importlib.metadata.EntryPoint) -> str | None:
    dist = getattr(entry_point, "dist", None)
    if dist is None:
        return None
    try:
        return f"{dist.metadata['Name']} {dist.version}"
    except Exception:  # a broken METADATA file must not hide the rest of the report
        return None


def _definitions_from_target(target: Any) -> Any:
    if callable(target) and not isinstance(target, type):
        return target()
    register = getattr(target, "register", None)
    if callable(register):  # a module with register(), as Nova's own plugins are written
        return register()
    return target


def load_entry_points(
    group: str = ENTRY_POINT_GROUP,
    entry_points: Iterable[importlib.metadata.EntryPoint] | None = None,
) -> tuple[tuple[PluginSource, ...], tuple[PluginProblem, ...]]:
    """Import every entry point of ``group`` and coerce what each names into definitions.

    Each entry point names a list of definitions (or a callable, or a module with ``register()``,
    returning one). An entry point that fails to import or holds anything malformed is reported and
    skipped whole, so a half-loaded plugin never changes validation silently. Entry points are read
    in a fixed order (by name, then target) so precedence between plugins does not depend on the
    order of ``sys.path``.
    """
    if entry_points is None:
        import importlib.metadata

        entry_points = importlib.metadata.entry_points(group=group)
    sources: list[PluginSource] = []
    problems: list[PluginProblem] = []
    for entry_point in sorted(entry_points, key=lambda ep: (ep.name, ep.value)):
        distribution = _distribution_label(entry_point)
        label = describe_entry_point(entry_point.name, entry_point.value, distribution)
        try:
            raw = _definitions_from_target(entry_point.load())
        except Exception as exc:
            problems.append(
                PluginProblem(label, "import-error", f"failed to load: {type(exc).__name__}: {exc}")
            )
            continue
        if isinstance(raw, str | bytes | Mapping) or not isinstance(raw, Iterable):
            problems.append(
                PluginProblem(label, "malformed", f"names {type(raw).__name__}, not a list")
            )
            continue
        try:
            definitions = tuple(coerce_definition(item) for item in raw)
        except (DefinitionError, TypeError) as exc:
            problems.append(PluginProblem(label, "malformed", str(exc)))
            continue
        sources.append(PluginSource(entry_point.name, entry_point.value, distribution, definitions))
    return tuple(sources), tuple(problems)


def merge_out_of_tree(
    in_tree_names: Iterable[str],
    sources: Iterable[PluginSource],
) -> tuple[tuple[tuple[ExtraSpec, str], ...], tuple[PluginProblem, ...]]:
    """Keep the out-of-tree definitions that do not clash, each with the label of its source.

    In-tree definitions win every clash; between two plugins the first in the fixed order wins.
    """
    taken: dict[str, str] = {name: "the in-tree catalogue" for name in in_tree_names}
    accepted: list[tuple[ExtraSpec, str]] = []
    problems: list[PluginProblem] = []
    for source in sources:
        for definition in source.definitions:
            owner = taken.get(definition.name)
            if owner is not None:
                problems.append(
                    PluginProblem(
                        source.label,
                        "clash",
                        f"defines {definition.name!r}, which {owner} already defines; "
                        "the existing definition is kept",
                        definition.name,
                    )
                )
                continue
            taken[definition.name] = source.label
            accepted.append((definition, source.label))
    return tuple(accepted), tuple(problems)


def log_problems(problems: Iterable[PluginProblem], logger: logging.Logger = LOG) -> None:
    """Report each out-of-tree problem once, as a warning naming its entry point."""
    for problem in problems:
        logger.warning("Out-of-tree extra-spec definitions: %s", problem)


# --- Plugin labels -------------------------------------------------------------------------------

#: The entry-point group in which packages publish service plugins (objects with ``name``,
#: ``title``, ``description``, ``versions`` and ``get_labels()``).
PLUGIN_ENTRY_POINT_GROUP = "onespec.plugins"

_LABEL_NAME = re.compile(r"[a-z][a-z0-9_]*")


class Scope(enum.StrEnum):
    """Where a plugin label is set: on the plugin as a whole, or on each of its versions."""

    PLUGIN = "plugin"
    VERSION = "version"


class LabelEffect(enum.StrEnum):
    """What a label's status does to the clusters of a plugin, beyond being shown.

    ``gate``: while the status is false, a cluster allows only deletion. ``warn``: while it is
    true, every operation succeeds with the label's warning for the user. ``hide``: while it is
    true, the command line and user interfaces leave the plugin out of their listings (the API
    still lists it). ``none``: the label informs and does nothing else.
    """

    GATE = "gate"
    WARN = "warn"
    HIDE = "hide"
    NONE = "none"


@dataclass(frozen=True)
class Label:
    """A plugin label: a named boolean a plugin and each of its versions carry.

    ``plugin`` and ``version`` are the one-line descriptions the API shows next to the label's
    status on a plugin and on a version; a label with no description for a scope does not apply
    there. ``mutable`` labels may be changed by an administrator, per project, through the API;
    immutable ones come from the plugin alone and are never stored. ``default`` is the status of
    a label its plugin says nothing about. ``warning`` (for a ``warn`` label) is the sentence
    shown to users, with ``{subject}`` standing for "Plugin 'x'" or "Version 1.0 of plugin 'x'".
    """

    name: str
    description: str
    mutable: bool
    default: bool
    effect: LabelEffect = LabelEffect.NONE
    plugin: str | None = None
    version: str | None = None
    warning: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _LABEL_NAME.fullmatch(self.name):
            raise DefinitionError(
                f"a label name is lower-case letters, digits and underscores, not {self.name!r}"
            )
        name = self.name
        for field_name in ("mutable", "default"):
            if not isinstance(getattr(self, field_name), bool):
                raise _fail(f"{field_name} must be true or false", name, field_name)
        if not isinstance(self.description, str) or not self.description.strip():
            raise _fail("a label needs a description", name, "description")
        try:
            object.__setattr__(self, "effect", LabelEffect(self.effect))
        except ValueError:
            choices = ", ".join(effect.value for effect in LabelEffect)
            raise _fail(
                f"effect must be one of {choices}, not {self.effect!r}", name, "effect"
            ) from None
        for scope in Scope:
            summary = getattr(self, scope.value)
            if summary is not None and (not isinstance(summary, str) or not summary.strip()):
                raise _fail(
                    f"the {scope.value} description must be a non-empty string", name, scope
                )
        if not self.scopes:
            raise _fail("a label applies to plugins, versions or both: describe it for one", name)
        if self.effect is LabelEffect.WARN:
            if not isinstance(self.warning, str) or "{subject}" not in self.warning:
                raise _fail("a warn label needs a warning that mentions {subject}", name, "warning")
        elif self.warning is not None:
            raise _fail("only a warn label has a warning", name, "warning")

    @property
    def scopes(self) -> tuple[Scope, ...]:
        """The scopes the label applies to, plugin first."""
        return tuple(scope for scope in Scope if getattr(self, scope.value) is not None)

    def summary(self, scope: Scope | str) -> str | None:
        """The one-line description shown at ``scope``, or None where the label does not apply."""
        return getattr(self, Scope(scope).value)
