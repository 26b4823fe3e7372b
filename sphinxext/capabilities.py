"""``.. onespec:auto-capabilities::``: the grammar of template capabilities, from the definitions.

Loaded by the ``sphinxext`` extension (``app.setup_extension``); it adds the directive to the
``onespec`` domain, whose ``capability`` object type the rendered lines use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

from definitions import capabilities as grammar
from generator import capabilities_rst


def _part(argument: str | None) -> str:
    return directives.choice(argument, capabilities_rst.PARTS)


class AutoCapabilities(SphinxDirective):
    """``.. onespec:auto-capabilities::``: sections, well-known keys, rules and Heat's limits.

    ``:part: sections|keys|rules|heat`` renders one part only (default: all).
    """

    required_arguments = 0
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {"part": _part}

    def run(self) -> list[nodes.Node]:
        part = self.options.get("part", "all")
        for path in (grammar.__file__, capabilities_rst.__file__):
            self.env.note_dependency(str(Path(path).resolve()))
        content = StringList()
        document, _ = self.get_source_info()
        source = f"{document}:<onespec:auto-capabilities {part}>"
        for number, line in enumerate(capabilities_rst.lines(part)):  # type: ignore[arg-type]
            content.append(line, source, number)
        container = nodes.container(classes=["onespec-capabilities"])
        nested_parse_with_titles(self.state, content, container, self.content_offset)
        return container.children


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive_to_domain("onespec", "auto-capabilities", AutoCapabilities)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
