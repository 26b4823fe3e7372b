"""Write the label definitions as the runtime's tables: ``_generated/plugin_labels.py``.

The service may import nothing of ``definitions`` but the vocabulary, so the labels it checks
requests against arrive as plain literals, generated from :mod:`onespec.definitions.plugin_labels`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from onespec.definitions.plugin_labels import (
    ENTRY_POINT_GROUP,
    PLUGIN_NAME_PATTERN,
    VERSION_PATTERN,
    Label,
    Scope,
    labels,
)
from onespec.generator.literals import assignment, module_header, module_text
from onespec.generator.outputs import Output, generated_module

#: Where the module is written: inside the runtime package, wherever it is installed.
OUTPUT = generated_module("plugin_labels")

#: The fields of each label record, in order.
LABEL_FIELDS = ("name", "mutable", "default", "effect", "plugin", "version", "warning")


def label_record(label: Label) -> tuple:
    """A label as a tuple of plain values, in :data:`LABEL_FIELDS` order."""
    return (
        label.name,
        label.mutable,
        label.default,
        label.effect.value,
        label.plugin,
        label.version,
        label.warning,
    )


def render_lines(definitions: Iterable[Label]) -> Iterator[str]:
    """Yield the lines of the generated module for ``definitions``."""
    yield from module_header(
        "plugin-labels",
        "src/onespec/definitions/plugin_labels.py",
        "The plugin labels and the naming rules of plugins (plain data only).",
    )
    yield from assignment("ENTRY_POINT_GROUP", ENTRY_POINT_GROUP)
    yield from assignment("PLUGIN_NAME_PATTERN", PLUGIN_NAME_PATTERN)
    yield from assignment("VERSION_PATTERN", VERSION_PATTERN)
    yield from assignment("SCOPES", tuple(scope.value for scope in Scope))
    yield from assignment("LABEL_FIELDS", LABEL_FIELDS)
    yield from assignment("LABELS", tuple(label_record(label) for label in definitions))


def render(definitions: Iterable[Label] | None = None) -> str:
    """The whole generated module as text, ending with one newline."""
    chosen = labels() if definitions is None else definitions
    return module_text(render_lines(chosen))


def output() -> Output:
    """The ``plugin-labels`` output: ``validators_runtime/_generated/plugin_labels.py``."""
    return Output("plugin-labels", lambda: {OUTPUT: render()})
