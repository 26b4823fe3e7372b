"""reStructuredText for the reference, rendered from the definitions.

Every function yields lines, so that the output can be tested as a plain string and shared by the
Sphinx directives (which parse it) and anything else that wants rST. The lines use the
``onespec`` domain: each extra spec becomes an ``.. onespec:extra-spec::`` object, and every
mention of another spec a ``:onespec:extra-spec:`` reference, so Sphinx builds the index, the
cross-references and the intersphinx inventory from them.

"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Literal

from onespec.definitions.extra_spec_purposes import Purpose
from onespec.definitions.flavor_rule_queries import rules_reading
from onespec.definitions.flavor_rules import Rule
from onespec.definitions.model import (
    ExtraSpec,
    Namespace,
    Parameter,
    Support,
    deprecation_sentence,
    nova_release,
    type_name,
)
from onespec.definitions.nova_differences import NovaDifference
from onespec.generator.rst import indent, literal, paragraph
from onespec.generator.text import first_sentence

DeprecatedFilter = Literal["include", "only", "exclude"]

_TYPE_WORDS = {"str": "string", "int": "integer", "bool": "boolean"}

_BOOLEAN_SPELLINGS = "``true`` or ``false`` (also ``yes``/``no``, ``on``/``off``, ``1``/``0``)"


def spec_ref(name: str) -> str:
    """A cross-reference to the extra spec ``name``."""
    return f":onespec:extra-spec:`{name}`"


_LITERAL = re.compile(r"``([^`]+)``")


def link_specs(text: str, known: Collection[str]) -> str:
    """Turn ````hw:cpu_policy```` literals that name a known spec into references."""
    if not known:
        return text
    return _LITERAL.sub(lambda m: spec_ref(m.group(1)) if m.group(1) in known else m.group(0), text)


def filter_deprecated(
    definitions: Iterable[ExtraSpec], deprecated: DeprecatedFilter = "include"
) -> list[ExtraSpec]:
    """Keep all definitions, only the deprecated ones, or all but the deprecated ones."""
    if deprecated == "only":
        return [d for d in definitions if d.deprecated]
    if deprecated == "exclude":
        return [d for d in definitions if not d.deprecated]
    return list(definitions)


def _bounds(minimum: int | None, maximum: int | None) -> str | None:
    if minimum is not None and maximum is not None:
        return f"from {minimum} to {maximum}"
    if minimum is not None:
        return f"at least {minimum}"
    if maximum is not None:
        return f"at most {maximum}"
    return None


def _parameter_text(parameter: Parameter) -> str:
    parts = [_TYPE_WORDS[type_name(parameter.type)]]
    if parameter.pattern:
        parts.append(f"matching {literal(parameter.pattern)}")
    if bounds := _bounds(parameter.min, parameter.max):
        parts.append(bounds)
    if parameter.max_length is not None:
        parts.append(f"at most {parameter.max_length} characters")
    text = f"{literal('{' + parameter.name + '}')} ({', '.join(parts)})"
    if parameter.description:
        text += f" — {' '.join(parameter.description.split())}"
    return text


def _status_lines(spec: ExtraSpec) -> Iterator[str]:
    status = spec.status
    if status.level is Support.DEPRECATED:
        replacement = spec_ref(status.replacement) if status.replacement else None
        sentence = deprecation_sentence(
            "This extra spec", status.since, status.removal, replacement
        )
        yield ".. warning::"
        yield ""
        yield f"   {sentence}"
        yield ""
    elif status.level is Support.EXPERIMENTAL:
        yield ".. note::"
        yield ""
        yield "   This extra spec is experimental: its meaning may still change."
        yield ""


def _value_fields(spec: ExtraSpec, known: Collection[str]) -> Iterator[str]:
    value = spec.value
    kind = type_name(value.type)
    yield f":Type: {_TYPE_WORDS[kind]}"
    if kind == "bool":
        yield f":Values: {_BOOLEAN_SPELLINGS}, in any case"
    if value.enum:
        yield ":Allowed values:"
        for member in value.enum:
            yield f"   * {literal(member.value)}"
            if member.description:
                yield f"     — {' '.join(link_specs(member.description, known).split())}"
    if bounds := _bounds(value.min, value.max):
        yield f":Bounds: {bounds}"
    if value.pattern:
        hint = f" ({value.pattern_hint})" if value.pattern_hint else ""
        yield f":Pattern: {literal(value.pattern)}{hint}"
    if value.max_length is not None:
        yield f":Maximum length: {value.max_length}"
    if value.default is not None:
        default = value.default
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        yield f":Default: {literal(shown)}"
    if value.description:
        yield f":Value: {' '.join(link_specs(value.description, known).split())}"


def _rule_kind(rule: Rule) -> str:
    """How a rule between keys bites: the exception Nova raises, or a warning."""
    return f"Nova raises {rule.nova_exception}" if rule.severity == "error" else "a warning"


def _relation_fields(spec: ExtraSpec) -> Iterator[str]:
    if spec.parameters:
        yield ":Parameters:"
        for parameter in spec.parameters:
            yield f"   * {_parameter_text(parameter)}"
    if spec.virt_drivers:
        yield f":Virt drivers: {', '.join(spec.virt_drivers)}"
    rules = rules_reading(spec.name.replace(".{id}", ".N"))
    if rules:
        named = ", ".join(
            f":onespec:flavor-rule:`{rule.name}` ({_rule_kind(rule)})" for rule in rules
        )
        yield f":Rules with other keys: {named}"
    status = spec.status
    if status.level is not Support.DEPRECATED:
        text = status.level.value
        if status.since:
            text += f", since {nova_release(status.since)}"
        yield f":Status: {text}"


def extra_spec_lines(spec: ExtraSpec, known: Collection[str] = ()) -> Iterator[str]:
    """One extra spec as an ``onespec:extra-spec`` object with its full description.

    Literals in the description that name a spec in ``known`` become cross-references.
    """
    yield f".. onespec:extra-spec:: {spec.name}"
    yield f"   :namespace: {spec.namespace}"
    if spec.deprecated:
        yield "   :deprecated:"
    yield ""
    description = link_specs(spec.description, known)
    body: list[str] = [*_status_lines(spec), *paragraph(description), ""]
    body += [*_value_fields(spec, known), *_relation_fields(spec)]
    yield from indent(body)
    yield ""


def _table_cell(text: str) -> str:
    return " ".join(text.split())


def _summary_value(spec: ExtraSpec) -> str:
    value = spec.value
    kind = type_name(value.type)
    if value.enum:
        return ", ".join(literal(v) for v in value.enum_values)
    if bounds := _bounds(value.min, value.max):
        return f"{_TYPE_WORDS[kind]}, {bounds}"
    if value.pattern_hint:
        return value.pattern_hint
    return _TYPE_WORDS[kind]


#: A family of at least this many definitions that differ only by the key they describe (the
#: standard traits, the standard resource classes) is described by table rows, not entries.
REPEATED_AT_LEAST = 5


def repeated(definitions: Iterable[ExtraSpec]) -> frozenset[str]:
    """Names of definitions that a table row describes in full.

    Hundreds of entries that say the same thing about a different trait make a page nobody can
    scan (and of megabytes): a definition belongs to a family when its description, with the
    text after the key's first colon taken out, its value, parameters, status and relations are
    those of at least :data:`REPEATED_AT_LEAST` others. Deprecated definitions and the rest
    (patterns such as ``CUSTOM_{trait}``, special keys) keep their full entry.
    """
    families: dict[str, list[str]] = {}
    for spec in definitions:
        rest = spec.name.partition(":")[2]
        if spec.deprecated or not rest or rest not in spec.description:
            continue
        shape = repr(
            (
                spec.namespace,
                spec.description.replace(rest, "\0"),
                spec.value,
                spec.parameters,
                spec.status,
                spec.virt_drivers,
            )
        )
        families.setdefault(shape, []).append(spec.name)
    return frozenset(
        name for names in families.values() if len(names) >= REPEATED_AT_LEAST for name in names
    )


def entry_role(spec: ExtraSpec) -> str:
    """A table cell that describes the extra spec (a link target, indexed), not a link to it."""
    return f":onespec:extra-spec-entry:`{spec.name} <{spec.namespace}>`"


def summary_lines(
    definitions: Sequence[ExtraSpec],
    described_here: Collection[str] = (),
    known: Collection[str] = (),
) -> Iterator[str]:
    """A table of keys, allowed values and first sentences, linking to the full entries.

    A row whose key is in ``described_here`` is that key's description (see :func:`repeated`).
    """
    yield ".. list-table::"
    yield "   :header-rows: 1"
    yield "   :widths: 30 25 45"
    yield ""
    yield "   * - Key"
    yield "     - Value"
    yield "     - Description"
    for spec in definitions:
        name = entry_role(spec) if spec.name in described_here else spec_ref(spec.name)
        if spec.deprecated:
            name += " (deprecated)"
        yield f"   * - {name}"
        yield f"     - {_table_cell(_summary_value(spec))}"
        yield f"     - {link_specs(_table_cell(first_sentence(spec.description)), known)}"
    yield ""


def namespace_lines(
    namespace: Namespace,
    definitions: Sequence[ExtraSpec],
    *,
    summary: bool = False,
    deprecated: DeprecatedFilter = "include",
    known: Collection[str] = (),
) -> Iterator[str]:
    """A namespace's introduction, a table of its keys, then the entries the table links to.

    The table comes first so that a reader scans the namespace before reading any entry;
    families of near-identical definitions (:func:`repeated`) are described by their rows only.
    ``summary`` renders the table alone, linking to entries described elsewhere. ``known``
    names the specs that literals in descriptions may link to.
    """
    selected = filter_deprecated(definitions, deprecated)
    if namespace.description:
        yield from paragraph(link_specs(namespace.description, known))
        yield ""
    if not selected:
        return
    if summary:
        yield from summary_lines(selected)
        return
    in_rows = repeated(selected)
    yield from summary_lines(selected, in_rows, known)
    for spec in selected:
        if spec.name not in in_rows:
            yield from extra_spec_lines(spec, known)


def _purpose_of(spec: ExtraSpec, purposes: Sequence[Purpose]) -> str | None:
    for purpose in purposes:
        if spec.namespace in purpose.namespaces or (
            not spec.namespace and spec.name in purpose.keys
        ):
            return purpose.name
    return None


def purpose_lines(purposes: Sequence[Purpose], definitions: Sequence[ExtraSpec]) -> Iterator[str]:
    """The extra specs grouped by what they are for: a section and a table per purpose.

    Each key links to its entry; a family of near-identical keys (:func:`repeated`) is one row
    that names its first key and how many more there are. Keys of no purpose (those of
    out-of-tree namespaces) are listed last, under "Other keys".
    """
    groups: dict[str | None, list[ExtraSpec]] = {}
    for spec in definitions:
        groups.setdefault(_purpose_of(spec, purposes), []).append(spec)
    sections = [(p.title, p.description, groups.get(p.name, [])) for p in purposes]
    sections.append(("Other keys", "Keys that installed packages define.", groups.get(None, [])))
    for title, description, specs in sections:
        if not specs:
            continue
        yield title
        yield "=" * len(title)
        yield ""
        yield from paragraph(description)
        yield ""
        yield ".. list-table::"
        yield "   :header-rows: 1"
        yield "   :widths: 40 60"
        yield ""
        yield "   * - Key"
        yield "     - What it does"
        in_rows = repeated(specs)
        shown: set[str] = set()
        for spec in specs:
            if spec.name in shown:
                continue
            name = spec_ref(spec.name)
            if spec.deprecated:
                name += " (deprecated)"
            if spec.name in in_rows:
                family = [
                    s.name for s in specs if s.name in in_rows and s.namespace == spec.namespace
                ]
                shown.update(family)
                name += f" and {len(family) - 1} more like it"
            yield f"   * - {name}"
            yield f"     - {_table_cell(first_sentence(spec.description))}"
        yield ""


def _shortened(text: str, limit: int = 24) -> str:
    """*text* as a literal, cut with its length when it would not fit a line."""
    if not text:
        return "the empty string"
    if len(text) <= limit:
        return f"``{text}``"
    return f"``{text[: limit // 2]}...`` ({len(text)} characters)"


def nova_difference_lines(differences: Sequence[NovaDifference]) -> Iterator[str]:
    """Each deliberate difference from Nova's validators: a titled entry with the reason."""
    for difference in differences:
        key, value = difference.cases[0]
        yield f"**{difference.title}**"
        yield ""
        yield f"   :Nova: {difference.nova}."
        yield f"   :onespec: {difference.onespec}."
        yield f"   :Why: {difference.why}"
        yield f"   :Example: {_shortened(key, 40)} set to {_shortened(value)}."
        yield ""
