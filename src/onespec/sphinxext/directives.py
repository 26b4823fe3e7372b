"""Directives that render definitions from the registry into the document being read."""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.util import logging

from onespec.definitions import extra_specs as catalogue
from onespec.definitions.registry import load
from onespec.generator import rst
from onespec.generator.api import rst as api_rst
from onespec.generator.extra_specs import rst as spec_rst
from onespec.sphinxext.rendered import RenderedLines
from onespec.validators_runtime.problems import closest

LOGGER = logging.getLogger(__name__)


def _deprecated_choice(argument: str | None) -> str:
    # An option given without a value arrives as None, which docutils' choice refuses with
    # its own message; the stub types the argument as str.
    return directives.choice(argument, ("include", "only", "exclude"))  # type: ignore[arg-type]


class AutoExtraSpecs(RenderedLines):
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
            close = closest(name, known)
            hint = f"; did you mean {close!r}?" if close is not None else ""
            LOGGER.warning(
                f"unknown extra-spec namespace {name!r}{hint}",
                location=self.get_location(),
                type="onespec",
                subtype="namespace",
            )
            return []
        self._note_sources(name)
        lines = spec_rst.namespace_lines(
            namespace,
            registry.by_namespace(name),
            summary="summary" in self.options,
            deprecated=self.options.get("deprecated", "include"),
            known=frozenset(registry.sources),
        )
        label = f"onespec:auto-extra-specs {name or '(no namespace)'}"
        container = self.render(lines, label=label, css_class="onespec-extra-specs")
        elsewhere = set(registry.sources) - {d.name for d in registry.by_namespace(name)}
        for reference in container.findall(addnodes.pending_xref):
            if reference.get("refdomain") != "onespec":
                continue
            if reference["reftarget"] in elsewhere or reference["reftype"] == "flavor-rule":
                # A link to another namespace's spec, or to a rule between keys: a link where
                # the project documents it, plain text (and no warning) where it does not.
                reference["onespec_optional"] = True
        return container.children

    def _note_sources(self, namespace: str) -> None:
        """Re-read this document when the definitions it shows, or their rendering, change."""
        module = catalogue.module_for(namespace)
        self.note_sources([spec_rst, rst] if module is None else [spec_rst, rst, module])


class ExtraSpecsByPurpose(RenderedLines):
    """``.. onespec:extra-specs-by-purpose::``: every extra spec, grouped by what it is for.

    One section per purpose of ``definitions/extra_spec_purposes.py`` (Placement, scheduler
    filters, virt driver features, ...), each a table linking to the keys' entries, which must
    be rendered elsewhere in the project (``auto-extra-specs``).
    """

    has_content = False
    required_arguments = 0

    def run(self) -> list[nodes.Node]:
        from onespec.definitions import extra_spec_purposes

        self.note_sources([extra_spec_purposes, spec_rst, rst])
        lines = spec_rst.purpose_lines(extra_spec_purposes.PURPOSES, load().definitions)
        container = self.render(lines, label=self.name, css_class="onespec-by-purpose")
        return container.children


class _RenderedLines(RenderedLines):
    """A directive without arguments whose content is rST rendered from the definitions."""

    has_content = False
    required_arguments = 0
    #: What the document depends on: re-read it when these modules change.
    sources: ClassVar[tuple[str, ...]] = ()
    label: ClassVar[str] = ""

    def lines(self) -> list[str]:
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        self.note_sources(self.sources)
        container = self.render(self.lines(), label=self.name, css_class=f"onespec-{self.label}")
        return container.children


class AutoPluginLabels(_RenderedLines):
    """``.. onespec:auto-plugin-labels::``: every plugin label, from the definitions."""

    sources = (
        "onespec.definitions.plugin_labels",
        "onespec.definitions.model",
        "onespec.generator.api.rst",
    )
    label = "plugin-labels"

    def lines(self) -> list[str]:
        from onespec.definitions.plugin_labels import labels

        return list(api_rst.plugin_labels_lines(labels()))


class PolicyDefaults(_RenderedLines):
    """``.. onespec:policy-defaults::``: every policy rule of the API with its default."""

    sources = ("onespec.definitions.policy", "onespec.generator.api.rst")
    label = "policy-defaults"

    def lines(self) -> list[str]:
        from onespec.definitions.policy import RULES

        lines: list[str] = []
        for rule in RULES:
            lines += api_rst.policy_rule_lines(
                rule.name, rule.check_str, rule.description, rule.operations
            )
        return lines


class HttpOperations(_RenderedLines):
    """``.. onespec:http-operations::``: every operation of the API's OpenAPI document."""

    sources = (
        "onespec.validators_runtime.service.openapi",
        "onespec.validators_runtime._generated.api",
        "onespec.definitions.policy",
        "onespec.generator.api.rst",
    )
    label = "http-operations"

    def lines(self) -> list[str]:
        from onespec.validators_runtime.service.openapi import document

        return list(api_rst.http_operation_lines(document()))


class NovaDifferences(_RenderedLines):
    """``.. onespec:nova-differences::``: where the verdicts deliberately differ from Nova's."""

    sources = ("onespec.definitions.nova_differences", "onespec.generator.extra_specs.rst")
    label = "nova-differences"

    def lines(self) -> list[str]:
        from onespec.definitions.nova_differences import DIFFERENCES

        return list(spec_rst.nova_difference_lines(DIFFERENCES))
