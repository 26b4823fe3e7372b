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

from definitions.model import (
    ExtraSpec,
    Namespace,
    Parameter,
    Support,
    deprecation_sentence,
    type_name,
)
from definitions.nova_differences import NovaDifference
from generator.rst import indent, literal, paragraph

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


def first_sentence(text: str) -> str:
    """The first sentence of a description, for summary tables."""
    flat = " ".join(text.split())
    end = re.search(r"[.?!] ", flat)
    return flat[: end.start() + 1] if end else flat


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
        text += f" -- {' '.join(parameter.description.split())}"
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
                yield f"     -- {' '.join(link_specs(member.description, known).split())}"
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


def _relation_fields(spec: ExtraSpec) -> Iterator[str]:
    if spec.parameters:
        yield ":Parameters:"
        for parameter in spec.parameters:
            yield f"   * {_parameter_text(parameter)}"
    if spec.virt_drivers:
        yield f":Virt drivers: {', '.join(spec.virt_drivers)}"
    if spec.requires:
        yield f":Requires: {', '.join(spec_ref(name) for name in spec.requires)}"
    if spec.conflicts:
        yield f":Conflicts with: {', '.join(spec_ref(name) for name in spec.conflicts)}"
    status = spec.status
    if status.level is not Support.DEPRECATED:
        text = status.level.value
        if status.since:
            text += f", since {status.since}"
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


def summary_lines(definitions: Sequence[ExtraSpec]) -> Iterator[str]:
    """A table of keys, allowed values and first sentences, linking to the full entries."""
    yield ".. list-table::"
    yield "   :header-rows: 1"
    yield "   :widths: 30 25 45"
    yield ""
    yield "   * - Key"
    yield "     - Value"
    yield "     - Description"
    for spec in definitions:
        name = spec_ref(spec.name)
        if spec.deprecated:
            name += " (deprecated)"
        yield f"   * - {name}"
        yield f"     - {_table_cell(_summary_value(spec))}"
        yield f"     - {_table_cell(first_sentence(spec.description))}"
    yield ""


def namespace_lines(
    namespace: Namespace,
    definitions: Sequence[ExtraSpec],
    *,
    summary: bool = False,
    deprecated: DeprecatedFilter = "include",
    known: Collection[str] = (),
) -> Iterator[str]:
    """A namespace's introduction followed by its extra specs, in full or as a summary.

    ``known`` names the specs that literals in descriptions may link to.
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
    for spec in selected:
        yield from extra_spec_lines(spec, known)


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
