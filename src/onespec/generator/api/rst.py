"""reStructuredText for the service's reference: plugin labels, policy rules, HTTP operations."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from onespec.definitions.plugin_labels import Label, LabelEffect, Scope
from onespec.generator.rst import indent, literal, paragraph, yes_no

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
    body = [*paragraph(label.description), ""]
    body.append(f":Mutable: {mutable}")
    body.append(f":Default: {yes_no(label.default)}, unless the plugin says otherwise")
    for scope in label.scopes:
        body.append(f":On {'the plugin' if scope is Scope.PLUGIN else 'each version'}: "
                    f"{literal(label.summary(scope) or '')}")  # fmt: skip
    body.append(f":Effect: {_EFFECTS[label.effect]}")
    if label.warning:
        example = label.warning.format(subject="Version '2.2' of plugin 'ambari'")
        body.append(f":Warning: {example}")
    yield from indent(body)
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
        yield f"     - {yes_no(label.default)}"
        yield f"     - {label.effect.value}"
    yield ""
    for label in labels:
        yield from plugin_label_lines(label)


def policy_rule_lines(
    name: str, check_str: str, description: str, operations: Sequence[tuple[str, str]]
) -> Iterator[str]:
    """One policy rule as an ``onespec:policy-rule`` object, with its default."""
    yield f".. onespec:policy-rule:: {name}"
    yield f"   :area: {name.rpartition(':')[0] or name}"
    yield ""
    body = [*paragraph(description), "", f":Default: {literal(check_str)}"]
    if operations:
        body.append(":Operations:")
        body += [f"   * {literal(f'{method} {path}')}" for method, path in operations]
    else:
        body.append(":Operations: none; other rules refer to it as " + literal(f"rule:{name}"))
    yield from indent(body)
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
