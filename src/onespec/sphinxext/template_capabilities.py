"""``.. onespec:auto-capabilities::``: the grammar of template capabilities, from the definitions.

Loaded by the ``sphinxext`` extension (``app.setup_extension``); it adds the directive to the
``onespec`` domain, whose ``capability`` object type the rendered lines use.
"""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from onespec.definitions import template_capabilities as grammar
from onespec.generator.template_capabilities import rst as capabilities_rst
from onespec.sphinxext.rendered import RenderedLines


def _part(argument: str | None) -> str:
    # An option given without a value arrives as None, which docutils' choice refuses with
    # its own message; the stub types the argument as str.
    return directives.choice(argument, capabilities_rst.PARTS)  # type: ignore[arg-type]


class AutoCapabilities(RenderedLines):
    """``.. onespec:auto-capabilities::``: sections, well-known keys, rules and Heat's limits.

    ``:part: sections|keys|rules|heat`` renders one part only (default: all).
    """

    required_arguments = 0
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {"part": _part}

    def run(self) -> list[nodes.Node]:
        part = self.options.get("part", "all")
        self.note_sources([grammar, capabilities_rst])
        lines = capabilities_rst.lines(part)
        label = f"onespec:auto-capabilities {part}"
        return self.render(lines, label=label, css_class="onespec-capabilities").children


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive_to_domain("onespec", "auto-capabilities", AutoCapabilities)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
