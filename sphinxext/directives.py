"""Directives that render definitions from the registry into the document being read."""

from __future__ import annotations

import difflib
import importlib
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


class _RenderedLines(SphinxDirective):
    """A directive without arguments whose content is rST rendered from the definitions."""

    has_content = False
    required_arguments = 0
    #: What the document depends on: re-read it when these files change.
    sources: ClassVar[tuple[str, ...]] = ()
    label: ClassVar[str] = ""

    def lines(self) -> list[str]:
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        for module_name in self.sources:
            module = importlib.import_module(module_name)
            if module.__file__:
                self.env.note_dependency(str(Path(module.__file__).resolve()))
        content = StringList()
        document, _ = self.get_source_info()
        source = f"{document}:<{self.name}>"
        for number, line in enumerate(self.lines()):
            content.append(line, source, number)
        container = nodes.container(classes=[f"onespec-{self.label}"])
        nested_parse_with_titles(self.state, content, container, self.content_offset)
        return container.children


class AutoPluginLabels(_RenderedLines):
    """``.. onespec:auto-plugin-labels::``: every plugin label, from the definitions."""

    sources = ("definitions.plugin_labels", "definitions.model", "generator.rst")
    label = "plugin-labels"

    def lines(self) -> list[str]:
        from definitions.plugin_labels import labels

        return list(rst.plugin_labels_lines(labels()))


class PolicyDefaults(_RenderedLines):
    """``.. onespec:policy-defaults::``: every policy rule of the API with its default."""

    sources = ("validators_runtime.plugins.policy", "generator.rst")
    label = "policy-defaults"

    def lines(self) -> list[str]:
        from validators_runtime.plugins.policy import RULES

        lines: list[str] = []
        for rule in RULES:
            lines += rst.policy_rule_lines(
                rule.name, rule.check_str, rule.description, rule.operations
            )
        return lines


class HttpOperations(_RenderedLines):
    """``.. onespec:http-operations::``: every operation of the API's OpenAPI document."""

    sources = (
        "validators_runtime.api.openapi",
        "validators_runtime._generated.api",
        "validators_runtime.plugins.policy",
        "generator.rst",
    )
    label = "http-operations"

    def lines(self) -> list[str]:
        from validators_runtime.api.openapi import document

        return list(rst.http_operation_lines(document()))


class NovaDifferences(_RenderedLines):
    """``.. onespec:nova-differences::``: where the verdicts deliberately differ from Nova's."""

    sources = ("definitions.nova_differences", "generator.rst")
    label = "nova-differences"

    def lines(self) -> list[str]:
        from definitions.nova_differences import DIFFERENCES

        return list(rst.nova_difference_lines(DIFFERENCES))
