"""The one way a directive turns generated rST lines into document nodes.

Every ``auto-*`` directive renders lines from the definitions, parses them in place inside a
container (so that their titles and objects join the page) and asks Sphinx to re-read the page
when the definitions or their rendering change. That is done here, once.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


class RenderedLines(SphinxDirective):
    """A directive whose content is rST rendered from the definitions."""

    def note_sources(self, sources: Iterable[ModuleType | str]) -> None:
        """Re-read this document when any of ``sources`` (modules, module names, paths) changes."""
        for source in sources:
            if isinstance(source, str) and not source.endswith(".py"):
                source = importlib.import_module(source)
            path = source.__file__ if isinstance(source, ModuleType) else source
            if path:
                self.env.note_dependency(str(Path(path).resolve()))

    def render(self, lines: Iterable[str], *, label: str, css_class: str) -> nodes.container:
        """Parse ``lines`` into a container; ``label`` names them in warnings' locations."""
        content = StringList()
        document, _ = self.get_source_info()
        source = f"{document}:<{label}>"
        for number, line in enumerate(lines):
            content.append(line, source, number)
        container = nodes.container(classes=[css_class])
        nested_parse_with_titles(self.state, content, container, self.content_offset)
        return container
