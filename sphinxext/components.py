"""Directives that render the software-component vocabulary into the document being read.

``.. onespec:auto-component-actions::``
    Every lifecycle action as an ``onespec:component-action`` object (indexed, referable with
    ``:onespec:component-action:`CREATE```), then what extended actions are.

``.. onespec:auto-component-grammar:: SECTION``
    One table of the grammar: ``properties``, ``config``, ``input``, ``output``,
    ``input-types``, ``tools``, ``statuses``, ``deploy-inputs``, ``hook-result`` or
    ``schema-differences``.

Loaded by the ``sphinxext`` extension; both render the lines of :mod:`generator.component_rst`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

from definitions import software_component as vocabulary
from generator import component_rst, component_schema

LOGGER = logging.getLogger(__name__)


class _Rendered(SphinxDirective):
    """Parse generated lines in place, and re-read the page when their sources change."""

    def render(self, lines: Iterable[str], label: str) -> list[nodes.Node]:
        for module in (vocabulary, component_rst, component_schema):
            self.env.note_dependency(str(Path(module.__file__ or "").resolve()))
        content = StringList()
        document, _ = self.get_source_info()
        for number, line in enumerate(lines):
            content.append(line, f"{document}:<{label}>", number)
        container = nodes.container(classes=["onespec-software-component"])
        nested_parse_with_titles(self.state, content, container, self.content_offset)
        return container.children


class AutoComponentActions(_Rendered):
    """``.. onespec:auto-component-actions::``: every lifecycle action, described."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        return self.render(component_rst.actions_lines(), "onespec:auto-component-actions")


class AutoComponentGrammar(_Rendered):
    """``.. onespec:auto-component-grammar:: SECTION``: one part of the grammar, as a table."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        section = self.arguments[0].strip()
        if section not in component_rst.SECTIONS:
            close = difflib.get_close_matches(section, component_rst.SECTIONS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            LOGGER.warning(
                f"unknown software-component section {section!r}{hint} (known: "
                f"{', '.join(component_rst.SECTIONS)})",
                location=self.get_location(),
                type="onespec",
                subtype="section",
            )
            return []
        label = f"onespec:auto-component-grammar {section}"
        return self.render(component_rst.section_lines(section), label)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive_to_domain("onespec", "auto-component-actions", AutoComponentActions)
    app.add_directive_to_domain("onespec", "auto-component-grammar", AutoComponentGrammar)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
