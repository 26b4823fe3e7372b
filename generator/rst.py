"""reStructuredText for the reference, rendered from the definitions.

Every function yields lines, so that the output can be tested as a plain string and shared by the
Sphinx directives (which parse it) and anything else that wants rST. The lines use the
``onespec`` domain: each extra spec becomes an ``.. onespec:extra-spec::`` object, and every
mention of another spec a ``:onespec:extra-spec:`` reference, so Sphinx builds the index, the
cross-references and the intersphinx inventory from them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

from definitions.model import (
    ExtraSpec,
    Label,
    LabelEffect,
    Namespace,
    Parameter,
    Scope,
    Support,
    type_name,
)
from definitions.nova_differences import NovaDifference

DeprecatedFilter = Literal["include", "only", "exclude"]

_TYPE_WORDS = {"str": "string", "int": "integer", "bool": "boolean"}
_BOOLEAN_SPELLINGS = "``true`` or ``false`` (also ``yes``/``no``, ``on``/``off``, ``1``/``0``)"


def literal(text: str) -> str:
    """``text`` as an inline literal, safe for any content (backslashes and backquotes too)."""
    if not text:
        return "(empty)"
    if "``" in text or "`" in text[-1:] or text != text.strip():
        # An interpreted role with escaped content keeps backquotes, backslashes and
        # surrounding spaces exactly; the escaped spaces let the role start and end.
        escaped = text.replace("\\", "\\\\").replace("`", "\\`")
        return f":code:`\\ {escaped}\\ `" if text != text.strip() else f":code:`{escaped}`"
    return f"``{text}``"


def spec_ref(name: str) -> str:
    """A cross-reference to the extra spec ``name``."""
    return f":onespec:extra-spec:`{name}`"


_LITERAL = re.compile(r"``([^`]+)``")


def link_specs(text: str, known: Collection[str]) -> str:
    """Turn ````hw:cpu_policy```` literals that name a known spec into references."""
    if not known:
        return text
    return _LITERAL.sub(lambda m: spec_ref(m.group(1)) if m.group(1) in known else m.group(0), text)


def _indent(lines: Iterable[str], prefix: str = "   ") -> Iterator[str]:
    for line in lines:
        yield f"{prefix}{line}" if line else ""


def _paragraph(text: str) -> Iterator[str]:
    yield from text.strip().splitlines()


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
        sentence = "This extra spec is deprecated"
        if status.since:
            sentence += f" since {status.since}"
        if status.removal:
            sentence += f" and will be removed in {status.removal}"
        sentence += "."
        if status.replacement:
            sentence += f" Use {spec_ref(status.replacement)} instead."
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
    body: list[str] = [*_status_lines(spec), *_paragraph(description), ""]
    body += [*_value_fields(spec, known), *_relation_fields(spec)]
    yield from _indent(body)
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
        yield from _paragraph(link_specs(namespace.description, known))
        yield ""
    if not selected:
        return
    if summary:
        yield from summary_lines(selected)
        return
    for spec in selected:
        yield from extra_spec_lines(spec, known)


# --- Plugin labels -------------------------------------------------------------------------------

_EFFECTS = {
    LabelEffect.GATE: (
        "While the status is false, a cluster of the plugin or version allows deletion only: "
        "creating, scaling or changing one is refused."
    ),
    LabelEffect.WARN: (
        "While the status is true, every operation on a cluster of the plugin or version "
        "succeeds, with a warning for the user."
    ),
    LabelEffect.HIDE: (
        "While the status is true, the command line and the dashboard leave the plugin out of "
        "their listings; the API still lists it."
    ),
    LabelEffect.NONE: "None: the label informs users and changes nothing.",
}


def _yes_no(value: bool) -> str:
    return literal("true" if value else "false")


def plugin_label_lines(label: Label) -> Iterator[str]:
    """One label as an ``onespec:plugin-label`` object: what it means, where, and who sets it."""
    yield f".. onespec:plugin-label:: {label.name}"
    yield f"   :scope: {' and '.join(scope.value for scope in label.scopes)}"
    yield ""
    if label.mutable:
        mutable = (
            "yes: an administrator may change it for a project (``PATCH /plugins/{name}``); the "
            "plugin's default applies until then"
        )
    else:
        mutable = "no: only the plugin sets it, and it is never stored"
    body = [*_paragraph(label.description), ""]
    body.append(f":Mutable: {mutable}")
    body.append(f":Default: {_yes_no(label.default)}, unless the plugin says otherwise")
    for scope in label.scopes:
        body.append(f":On {'the plugin' if scope is Scope.PLUGIN else 'each version'}: "
                    f"{literal(label.summary(scope) or '')}")  # fmt: skip
    body.append(f":Effect: {_EFFECTS[label.effect]}")
    if label.warning:
        example = label.warning.format(subject="Version '2.2' of plugin 'ambari'")
        body.append(f":Warning: {example}")
    yield from _indent(body)
    yield ""


def plugin_labels_lines(labels: Sequence[Label]) -> Iterator[str]:
    """A summary table of the labels, then each label in full."""
    yield ".. list-table::"
    yield "   :header-rows: 1"
    yield "   :widths: 20 20 15 15 30"
    yield ""
    yield "   * - Label"
    yield "     - Applies to"
    yield "     - Mutable"
    yield "     - Default"
    yield "     - Effect"
    for label in labels:
        yield f"   * - :onespec:plugin-label:`{label.name}`"
        yield f"     - {' and '.join(f'{scope.value}s' for scope in label.scopes)}"
        yield f"     - {'yes' if label.mutable else 'no'}"
        yield f"     - {_yes_no(label.default)}"
        yield f"     - {label.effect.value}"
    yield ""
    for label in labels:
        yield from plugin_label_lines(label)


# --- Policy rules and HTTP operations ------------------------------------------------------------


def policy_rule_lines(
    name: str, check_str: str, description: str, operations: Sequence[tuple[str, str]]
) -> Iterator[str]:
    """One policy rule as an ``onespec:policy-rule`` object, with its default."""
    yield f".. onespec:policy-rule:: {name}"
    yield f"   :area: {name.rpartition(':')[0] or name}"
    yield ""
    body = [*_paragraph(description), "", f":Default: {literal(check_str)}"]
    if operations:
        body.append(":Operations:")
        body += [f"   * {literal(f'{method} {path}')}" for method, path in operations]
    else:
        body.append(":Operations: none; other rules refer to it as " + literal(f"rule:{name}"))
    yield from _indent(body)
    yield ""


def http_operation_lines(document: Mapping[str, Any]) -> Iterator[str]:
    """Every operation of an OpenAPI document as a section: method and path, what it does, its
    parameters, its body's schema, its responses and the policy rule that guards it."""
    schemas = document.get("components", {}).get("schemas", {})
    for path, item in document["paths"].items():
        for method, operation in item.items():
            title = f"{method.upper()} {path}"
            yield title
            yield "-" * len(title)
            yield ""
            yield f"{operation['summary']}."
            yield ""
            policy = operation.get("x-openstack-policy")
            yield f":Policy: :onespec:policy-rule:`{policy}`" if policy else ":Policy: none"
            for parameter in operation.get("parameters", ()):
                where = parameter["in"]
                text = " ".join(parameter.get("description", "").split())
                yield f":{where.capitalize()} {literal(parameter['name'])}: {text}"
            body = operation.get("requestBody")
            if body is not None:
                schema = body["content"]["application/json"]["schema"]["$ref"].rpartition("/")[2]
                yield f":Body: {body['description']} ({_schema_title(schemas, schema)})"
            for status, response in operation["responses"].items():
                content = response.get("content", {}).get("application/json")
                text = response["description"]
                if content and "$ref" in content["schema"]:
                    name = content["schema"]["$ref"].rpartition("/")[2]
                    text += f" ({_schema_title(schemas, name)})"
                yield f":{status}: {text}"
            yield ""


def _schema_title(schemas: Mapping[str, Any], name: str) -> str:
    title = schemas.get(name, {}).get("title", name)
    return f"schema *{title}*"


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


def render(lines: Iterable[str]) -> str:
    """Join rendered lines into text ending with one newline."""
    return "\n".join(lines).rstrip("\n") + "\n"
