"""``onespec:flavor-rules``, ``onespec:image-properties`` and ``onespec:flavor-differences``:
the whole-flavor area, rendered from its definitions."""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

from onespec.definitions import flavor_differences, flavor_rule_catalogue, image_properties
from onespec.generator.flavors import rst
from onespec.sphinxext.rendered import RenderedLines


class _Rendered(RenderedLines):
    required_arguments = 0
    has_content = False
    label = ""
    lines: Any = None

    def run(self) -> list[nodes.Node]:
        self.note_sources([flavor_rule_catalogue, image_properties, flavor_differences, rst])
        rendered = self.render(type(self).lines(), label=self.label, css_class="onespec-flavors")
        for reference in rendered.findall(addnodes.pending_xref):
            if reference.get("refdomain") == "onespec":
                # An image property's flavor twin and rule: links where the project documents
                # them, plain text (and no warning) where it shows this page alone.
                reference["onespec_optional"] = True
        return rendered.children


class FlavorRules(_Rendered):
    """``.. onespec:flavor-rules::``: every rule between keys, by phase."""

    label = "onespec:flavor-rules"
    lines = staticmethod(rst.rules_lines)


class ImageProperties(_Rendered):
    """``.. onespec:image-properties::``: every image property Nova reads, with its twin."""

    label = "onespec:image-properties"
    lines = staticmethod(rst.image_properties_lines)


class FlavorDifferences(_Rendered):
    """``.. onespec:flavor-differences::``: where onespec's verdict differs from Nova's."""

    label = "onespec:flavor-differences"
    lines = staticmethod(rst.differences_lines)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive_to_domain("onespec", "flavor-rules", FlavorRules)
    app.add_directive_to_domain("onespec", "image-properties", ImageProperties)
    app.add_directive_to_domain("onespec", "flavor-differences", FlavorDifferences)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
