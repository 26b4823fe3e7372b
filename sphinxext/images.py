"""``onespec:auto-image-validators``: the image-spec grammar, rendered from its definitions."""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

from definitions import image_validators as grammar
from generator import image_validators as render


class AutoImageValidators(SphinxDirective):
    """``.. onespec:auto-image-validators::``: every section and validator kind of a spec.

    Each becomes an ``onespec:image-validator`` object (link to one with
    ``:onespec:image-validator:`package```), with its accepted forms, its keys, and what it does
    with and without reconcile, all read from ``definitions/image_validators.py``.
    """

    required_arguments = 0
    has_content = False

    def run(self) -> list[nodes.Node]:
        for module in (grammar, render):
            # Re-read this document when the grammar or its rendering changes.
            self.env.note_dependency(str(Path(module.__file__ or "").resolve()))
        document, _ = self.get_source_info()
        content = StringList()
        for number, line in enumerate(render.reference_lines()):
            content.append(line, f"{document}:<onespec:auto-image-validators>", number)
        container = nodes.container(classes=["onespec-image-validators"])
        nested_parse_with_titles(self.state, content, container, self.content_offset)
        return container.children
