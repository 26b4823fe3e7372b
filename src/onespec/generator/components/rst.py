"""reStructuredText for the software-component reference, rendered from the vocabulary.

Like :mod:`onespec.generator.rst`, every function yields lines, shared by the Sphinx directives of
:mod:`onespec.sphinxext.components` and anything else that wants rST. Each lifecycle action becomes
an ``.. onespec:component-action::`` object, so actions are indexed and can be referenced with
``:onespec:component-action:`CREATE```.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from onespec.definitions import components as vocabulary
from onespec.definitions.component_vocabulary import Field, LifecycleAction, Shape
from onespec.generator.components.schema import DIFFERENCES
from onespec.generator.rst import literal

#: The sections :func:`section_lines` renders, with what each shows.
SECTIONS: dict[str, str] = {
    "properties": "the properties of the resource",
    "config": "the fields of a configs entry",
    "input": "the fields of an input",
    "output": "the fields of an output",
    "input-types": "the input types, and how the script tool passes each",
    "tools": "the tools",
    "statuses": "the statuses a deployment passes",
    "deploy-inputs": "the inputs a deployment adds",
    "hook-result": "the keys of the hook's result",
    "schema-differences": "what the JSON Schema does not check",
}

_KIND_WORDS = {"string": "string", "boolean": "boolean", "list": "list", "map": "mapping"}


def action_ref(name: str) -> str:
    """A cross-reference to the lifecycle action ``name``."""
    return f":onespec:component-action:`{name}`"


def _flat(text: str) -> str:
    return " ".join(text.split())


def action_lines(action: LifecycleAction) -> Iterator[str]:
    """One action as an ``onespec:component-action`` object."""
    yield f".. onespec:component-action:: {action.name}"
    yield f"   :resource: {vocabulary.RESOURCE_TYPE}"
    yield ""
    yield f"   {_flat(action.summary)}"
    yield ""
    yield f"   :Fires: {_flat(action.fires)}"
    yield f"   :The hook receives: {_flat(action.hook_receives)}"
    if action.name in vocabulary.DEFAULT_ACTIONS:
        yield "   :Default: yes — a ``configs`` entry that lists no actions handles it"
    yield ""


def actions_lines() -> Iterator[str]:
    """Every standard action, then what extended actions are."""
    for action in vocabulary.ACTIONS:
        yield from action_lines(action)
    yield _flat(vocabulary.EXTENDED_ACTIONS)
    yield ""


def _items_text(item: Field) -> str:
    if item.items == "action":
        return "list of actions"
    if item.items == "string":
        return "list of strings"
    return f"list of {item.items} mappings"


def _type_text(item: Field) -> str:
    if item.kind == "list":
        text = _items_text(item)
        if item.min_items:
            text += f", at least {item.min_items}"
        return text
    if item.kind == "any":
        return "any value"
    text = _KIND_WORDS[item.kind]
    if item.choices:
        text += ": " + ", ".join(literal(choice) for choice in item.choices)
    return text


def _default_text(item: Field) -> str:
    if item.required:
        return "required"
    default = item.default
    if default is None or default == "":
        return "optional"
    if isinstance(default, bool):
        return f"default {literal(str(default).lower())}"
    if isinstance(default, tuple):
        return "default " + ", ".join(literal(str(value)) for value in default)
    return f"default {literal(str(default))}"


def _table(headers: Iterable[str], widths: str, rows: Iterable[Iterable[str]]) -> Iterator[str]:
    yield ".. list-table::"
    yield "   :header-rows: 1"
    yield f"   :widths: {widths}"
    yield ""
    for row in [list(headers), *(list(row) for row in rows)]:
        first, *rest = row
        yield f"   * - {_flat(first)}"
        for cell in rest:
            yield f"     - {_flat(cell)}"
    yield ""


def shape_lines(shape: Shape) -> Iterator[str]:
    """A table of a mapping's fields: name, type, whether required, meaning."""
    yield _flat(shape.description)
    yield ""
    yield from _table(
        ("Field", "Type", "Required", "Description"),
        "20 22 13 45",
        ((literal(f.name), _type_text(f), _default_text(f), f.description) for f in shape.fields),
    )


def section_lines(section: str) -> Iterator[str]:
    """The lines of one of :data:`SECTIONS`; ``KeyError`` for an unknown one."""
    if section in {"properties", "config", "input", "output"}:
        yield from shape_lines(vocabulary.shape(section))
    elif section == "input-types":
        yield from _table(
            ("Type", "Value", "Environment variable (script tool)"),
            "20 45 35",
            ((literal(t.name), t.description, t.environment) for t in vocabulary.INPUT_TYPES),
        )
        yield f"An input that declares no type is a {literal(vocabulary.DEFAULT_INPUT_TYPE)}."
        yield ""
    elif section == "tools":
        for tool in vocabulary.TOOLS:
            yield f"{literal(tool.name)} (built in)"
            yield f"   {_flat(tool.description)}"
        yield ""
        yield _flat(vocabulary.DISPATCHED_TOOLS)
        yield ""
    elif section == "statuses":
        yield from _table(
            ("Status", "Meaning"),
            "20 80",
            ((literal(s.name), s.description) for s in vocabulary.STATUSES),
        )
    elif section == "deploy-inputs":
        yield from _table(
            ("Input", "Value"),
            "30 70",
            (
                (literal(d.name), d.description + ("" if d.always else " (only when set)"))
                for d in vocabulary.DEPLOY_INPUTS
            ),
        )
    elif section == "hook-result":
        yield from _table(
            ("Key", "Value"),
            "30 70",
            ((literal(d.name), d.description) for d in vocabulary.HOOK_RESULT),
        )
        yield from _table(
            ("Status code", "Meaning"),
            "20 80",
            [
                *((str(c.code), c.meaning) for c in vocabulary.HOOK_STATUS_CODES),
                (
                    f"{vocabulary.SIGNAL_STATUS_BASE} + N",
                    "The program was killed by signal N (as a shell reports it).",
                ),
                ("any other", "The program's own exit status."),
            ],
        )
    elif section == "schema-differences":
        for name, text in DIFFERENCES:
            yield f"* {_flat(text)} (``{name}``)"
        yield ""
    else:
        raise KeyError(section)
