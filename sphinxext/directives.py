"""Directives that render definitions from the registry into the document being read."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

from definitions import extra_specs as catalogue
from definitions.registry import load
from generator import rst

LOGGER = logging.getLogger(__name__)


def _deprecated_choice(argument: str | None) -> str:
    return directives.choice(argument, ("include", "only", "exclude"))


class AutoExtraSpecs(SphinxDirective):
    """``.. onespec:auto-extra-specs:: NAMESPACE``: every definition of one namespace.

    Options: ``:summary:`` renders a table only; ``:deprecated: include|only|exclude`` selects
    deprecated definitions. Use ``""`` (two double quotes) for the keys without a namespace.
    """

    required_arguments = 1
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {
        "summary": directives.flag,
        "deprecated": _deprecated_choice,
    }

    def run(self) -> list[nodes.Node]:
        argument = self.arguments[0].strip()
        name = "" if argument in {'""', "''"} else argument
        registry = load()
        namespace = next((ns for ns in registry.namespaces if ns.name == name), None)
        if namespace is None:
            known = [ns.name for ns in registry.namespaces]
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            LOGGER.warning(
                f"unknown extra-spec namespace {name!r}{hint}",
                location=self.get_location(),
                type="onespec",
                subtype="namespace",
            )
            return []
        self._note_sources(name)
        lines = rst.namespace_lines(
            namespace,
            registry.by_namespace(name),
            summary="summary" in self.options,
            deprecated=self.options.get("deprecated", "include"),
            known=frozenset(registry.sources),
        )
        content = StringList()
        document, _ = self.get_source_info()
        source = f"{document}:<onespec:auto-extra-specs {name or '(no namespace)'}>"
        for number, line in enumerate(lines):
            content.append(line, source, number)
        container = nodes.container(classes=["onespec-extra-specs"])
        nested_parse_with_titles(self.state, content, container, self.content_offset)
        elsewhere = set(registry.sources) - {d.name for d in registry.by_namespace(name)}
        for reference in container.findall(addnodes.pending_xref):
            if reference.get("refdomain") == "onespec" and reference["reftarget"] in elsewhere:
                # A link to another namespace's spec: a link where the project documents it,
                # plain text (and no warning) where it does not.
                reference["onespec_optional"] = True
        return container.children

    def _note_sources(self, namespace: str) -> None:
        """Re-read this document when the definitions it shows, or their rendering, change."""
        module = catalogue.module_for(namespace)
        files = [rst.__file__]
        if module is not None and module.__file__:
            files.append(module.__file__)
        for path in files:
            self.env.note_dependency(str(Path(path).resolve()))
