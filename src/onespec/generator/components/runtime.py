"""Write the software-component vocabulary for the runtime: ``_generated/components.py``.

The runtime (the validator and the hook, which run on servers) may import nothing of
``definitions`` but :mod:`onespec.definitions.model`, so it reads the facts of
:mod:`onespec.definitions.components` from this module of plain literals. Descriptions are
written as plain text, for command-line output.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from onespec.definitions import component_vocabulary as kinds
from onespec.definitions import components as vocabulary
from onespec.generator.literals import assignment, module_header, module_text
from onespec.generator.outputs import Output, generated_module
from onespec.generator.text import plain_text

#: Where the module is written: inside the runtime package, wherever it is installed.
OUTPUT = generated_module("components")


def _shapes() -> dict[str, dict[str, dict[str, Any]]]:
    return {
        shape.name: {
            field.name: {
                "kind": field.kind,
                "required": field.required,
                "default": list(field.default)
                if isinstance(field.default, tuple)
                else field.default,
                "items": field.items,
                "min_items": field.min_items,
                "choices": field.choices,
            }
            for field in shape.fields
        }
        for shape in vocabulary.SHAPES
    }


def render_lines() -> Iterator[str]:
    """Yield the lines of the generated module."""
    v = vocabulary
    yield from module_header(
        "components",
        "src/onespec/definitions/components.py",
        "The software-component vocabulary, for the runtime (plain data only).",
    )
    for name in (
        "RESOURCE_TYPE",
        "DEPLOYMENT_TYPE",
        "GROUP",
        "HOOKS_DIR",
        "NUMBER_PATTERN",
        "CONFIG_ID_PATTERN",
        "HOT_FUNCTIONS",
        "DEFAULT_ACTIONS",
        "DEFAULT_STATUS",
        "OUTPUTS_PATH_VARIABLE",
        "SIGNAL_TRANSPORTS",
        "DEFAULT_SIGNAL_TRANSPORT",
        "RESERVED_INPUT_NAMES",
        "RESERVED_OUTPUT_NAMES",
    ):
        yield from assignment(name, getattr(v, name))
    for name in ("ACTION_PATTERN", "TOOL_PATTERN", "TOOL_MAX_LENGTH", "DEFAULT_INPUT_TYPE"):
        yield from assignment(name, getattr(kinds, name))
    yield from assignment("STANDARD_ACTIONS", tuple(a.name for a in v.ACTIONS))
    yield from assignment(
        "ACTIONS",
        {
            a.name: {
                "summary": plain_text(a.summary),
                "fires": plain_text(a.fires),
                "hook_receives": plain_text(a.hook_receives),
            }
            for a in v.ACTIONS
        },
    )
    yield from assignment("EXTENDED_ACTIONS", plain_text(v.EXTENDED_ACTIONS))
    yield from assignment("STATUSES", {s.name: plain_text(s.description) for s in v.STATUSES})
    yield from assignment(
        "TOOLS",
        {t.name: {"builtin": t.builtin, "description": plain_text(t.description)} for t in v.TOOLS},
    )
    yield from assignment("DISPATCHED_TOOLS", plain_text(v.DISPATCHED_TOOLS))
    yield from assignment("INPUT_TYPES", tuple(t.name for t in v.INPUT_TYPES))
    yield from assignment("BOOLEAN_TRUE", tuple(sorted(v.BOOLEAN_TRUE)))
    yield from assignment("BOOLEAN_FALSE", tuple(sorted(v.BOOLEAN_FALSE)))
    yield from assignment("SHAPES", _shapes())
    yield from assignment(
        "DEPLOY_INPUTS",
        tuple((d.name, plain_text(d.description), d.type, d.always) for d in v.DEPLOY_INPUTS),
    )
    yield from assignment("SIGNAL_INPUTS", v.SIGNAL_INPUTS)
    yield from assignment("HOOK_RESULT", tuple(d.name for d in v.HOOK_RESULT))
    yield from assignment("HOOK_STATUS_CODES", {c.name: c.code for c in v.HOOK_STATUS_CODES})
    yield from assignment("SIGNAL_STATUS_BASE", v.SIGNAL_STATUS_BASE)


def render() -> str:
    """The whole generated module as text, ending with one newline."""
    return module_text(render_lines())


def output() -> Output:
    """The ``components`` output: the runtime's copy of the software-component vocabulary."""
    return Output("components", lambda: {OUTPUT: render()})
