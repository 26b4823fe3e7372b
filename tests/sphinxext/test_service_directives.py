"""The directives of the service's reference: plugin labels, policy rules, HTTP operations."""

from __future__ import annotations

import pytest

from onespec.definitions.plugin_labels import LABELS
from onespec.definitions.policy import RULES
from onespec.generator.api import rst as api_rst
from onespec.validators_runtime.service import openapi
from tests.conftest import ROOT
from tests.sphinxext.building import domain_index, make, page

REFS = page(
    "References",
    "See :onespec:plugin-label:`enabled`, :onespec:policy-rule:`onespec:plugins:update` and "
    ":onespec:plugin-label:`stable`.\n",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return make(
        tmp_path_factory.mktemp("service-docs"),
        {
            "labels": page("Labels", ".. onespec:auto-plugin-labels::\n"),
            "policy": page("Policy", ".. onespec:policy-defaults::\n"),
            "api": page("API", ".. onespec:http-operations::\n"),
            "refs": REFS,
        },
    )


def inventory(site, objtype):
    return site.inventory(objtype)


def test_the_site_builds_without_a_warning(site):
    assert site.warnings == []


def test_every_label_and_rule_is_an_object_others_can_link_to(site):
    labels = inventory(site, "onespec:plugin-label")
    assert sorted(labels) == sorted(label.name for label in LABELS)
    assert all(uri.startswith("labels.html#") for uri in labels.values())
    rules = inventory(site, "onespec:policy-rule")
    assert sorted(rules) == sorted(rule.name for rule in RULES)
    refs = site.html("refs")
    assert 'href="labels.html#onespec-plugin-label-enabled"' in refs
    assert "policy.html#onespec-policy-rule-onespec-plugins-update" in refs


def test_the_domain_index_groups_labels_by_scope_and_rules_by_area(site):
    groups = domain_index(site.html("onespec-index"))
    assert [name for name, _, _ in groups["plugin"]] == ["hidden"]
    assert {name for name, _, _ in groups["plugin and version"]} == {
        "enabled",
        "stable",
        "deprecated",
    }
    assert "onespec:plugins:update" in {name for name, _, _ in groups["onespec:plugins"]}
    # The groups of one kind stay together, in the order of the domain's object types: every
    # label scope before any policy area, although "onespec:plugins" sorts first by name.
    kinds = [{extra for _, _, extra in entries} for entries in groups.values()]
    assert kinds == sorted(kinds, key=lambda extras: "policy rule" in extras)
    assert list(groups).index("plugin and version") < list(groups).index("onespec:plugins")


def test_labels_say_who_may_change_them(site):
    html = site.html("labels")
    assert "only the plugin sets it, and it is never stored" in html
    assert "2.2’ of plugin ‘ambari’ is deprecated and may be removed" in html  # smart quotes


def test_every_operation_is_a_section_naming_its_policy(site):
    html = site.html("api")
    for path, item in openapi.document()["paths"].items():
        for method in item:
            assert f"{method.upper()} {path}" in html
    assert 'href="policy.html#onespec-policy-rule-onespec-plugins-update"' in html


def test_the_rendered_lines_are_plain_rst():
    lines = list(api_rst.plugin_label_lines(LABELS[0]))
    assert lines[:2] == [".. onespec:plugin-label:: enabled", "   :scope: plugin and version"]
    rule = RULES[1]
    text = "\n".join(api_rst.policy_rule_lines(rule.name, rule.check_str, rule.description, ()))
    assert ":Default: ``project_id:%(project_id)s``" in text


def test_the_real_documentation_lists_the_service_s_pages():
    index = (ROOT / "doc" / "source" / "index.rst").read_text(encoding="utf-8")
    for name in ("reference/plugin-labels", "reference/api", "reference/policy", "guides/api"):
        assert f"\n   {name}\n" in index
        assert (ROOT / "doc" / "source" / f"{name}.rst").is_file()
