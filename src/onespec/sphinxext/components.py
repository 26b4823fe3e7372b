"""Directives that render the software-component vocabulary into the document being read.

``.. onespec:auto-component-actions::``
    Every lifecycle action as an ``onespec:component-action`` object (indexed, referable with
    ``:onespec:component-action:`CREATE```), then what extended actions are.

``.. onespec:auto-component-grammar:: SECTION``
    One table of the grammar: ``properties``, ``config``, ``input``, ``output``,
    ``input-types``, ``tools``, ``statuses``, ``deploy-inputs``, ``hook-result`` or
    ``schema-differences``.

Loaded by the ``sphinxext`` extension; both render the lines of
:mod:`onespec.generator.components.rst`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

from onespec.definitions import components as vocabulary
from onespec.generator.components import rst as component_rst
from onespec.generator.components import schema as component_schema
from onespec.sphinxext.rendered import RenderedLines
from onespec.validators_runtime.problems import closest

LOGGER = logging.getLogger(__name__)


class _Rendered(RenderedLines):
    """Parse generated lines in place, and re-read the page when their sources change."""

    def render_component(self, lines: Iterable[str], label: str) -> list[nodes.Node]:
        self.note_sources([vocabulary, component_rst, component_schema])
        return self.render(lines, label=label, css_class="onespec-software-component").children


class AutoComponentActions(_Rendered):
    """``.. onespec:auto-component-actions::``: every lifecycle action, described."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        lines = component_rst.actions_lines()
        return self.render_component(lines, "onespec:auto-component-actions")


class AutoComponentGrammar(_Rendered):
    """``.. onespec:auto-component-grammar:: SECTION``: one part of the grammar, as a table."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        section = self.arguments[0].strip()
        if section not in component_rst.SECTIONS:
            close = closest(section, component_rst.SECTIONS)
            hint = f"; did you mean {close!r}?" if close is not None else ""
            LOGGER.warning(
                f"unknown software-component section {section!r}{hint} (known: "
                f"{', '.join(component_rst.SECTIONS)})",
                location=self.get_location(),
                type="onespec",
                subtype="section",
            )
            return []
        label = f"onespec:auto-component-grammar {section}"
        return self.render_component(component_rst.section_lines(section), label)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive_to_domain("onespec", "auto-component-actions", AutoComponentActions)
    app.add_directive_to_domain("onespec", "auto-component-grammar", AutoComponentGrammar)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
