"""``onespec:auto-image-validators``: the image-spec grammar, rendered from its definitions."""

from __future__ import annotations

from docutils import nodes

from onespec.definitions import image_validators as grammar
from onespec.generator.images import grammar as render
from onespec.sphinxext.rendered import RenderedLines


class AutoImageValidators(RenderedLines):
    """``.. onespec:auto-image-validators::``: every section and validator kind of a spec.

    Each becomes an ``onespec:image-validator`` object (link to one with
    ``:onespec:image-validator:`package```), with its accepted forms, its keys, and what it does
    with and without reconcile, all read from ``src/onespec/definitions/image_validators.py``.
    """

    required_arguments = 0
    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_sources([grammar, render])
        label = "onespec:auto-image-validators"
        lines = render.reference_lines()
        return self.render(lines, label=label, css_class="onespec-image-validators").children
