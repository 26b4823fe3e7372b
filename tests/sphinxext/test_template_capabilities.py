"""The ``capability`` object type and ``onespec:auto-capabilities``, through real Sphinx builds."""

from __future__ import annotations

import posixpath

import pytest
from sphinx.util.inventory import InventoryFile

from onespec.definitions import template_capabilities as grammar
from tests.sphinxext.building import domain_index, make, page


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pages = {
        "grammar": page("Capabilities", ".. onespec:auto-capabilities::\n"),
        "keys": page("Keys only", ".. onespec:auto-capabilities::\n   :part: rules\n"),
        "usage": page(
            "Usage",
            "Set :onespec:capability:`deployment` in :onespec:capability:`capabilities`; "
            "the environment's :onespec:capability:`requires` picks; "
            ":any:`resource_type` works too.\n",
        ),
    }
    return make(tmp_path_factory.mktemp("capabilities"), pages)


def inventory(build) -> dict[str, str]:
    with (build.outdir / "objects.inv").open("rb") as stream:
        data = InventoryFile.load(stream, "", posixpath.join)
    return {name: item.uri for name, item in data.get("onespec:capability", {}).items()}


def test_the_site_builds_without_warnings(site):
    assert site.warnings == []


def test_every_section_and_key_is_an_object_in_the_inventory(site):
    names = {item.name for item in (*grammar.SECTIONS, *grammar.KEYS)}
    entries = inventory(site)
    assert set(entries) == names
    assert all(uri.startswith("grammar.html#onespec-capability-") for uri in entries.values())


def test_references_link_to_the_objects(site):
    html = site.html("usage")
    for name in ("deployment", "capabilities", "requires", "resource_type"):
        assert f'href="grammar.html#onespec-capability-{name}"' in html, name


def test_the_domain_index_groups_them_under_one_topic(site):
    groups = domain_index((site.outdir / "onespec-index.html").read_text(encoding="utf-8"))
    entries = groups["template capabilities"]
    assert sorted(name for name, _, _ in entries) == sorted(
        item.name for item in (*grammar.SECTIONS, *grammar.KEYS)
    )
    assert {extra for _, _, extra in entries} == {"template capability"}


def test_the_rendered_page_shows_the_examples(site):
    html = site.html("grammar")
    assert "OS::TripleO::Controller" in html
    assert "What Heat accepts" in html
    assert "524,288" in html


def test_an_unknown_capability_reference_is_a_warning(tmp_path):
    build = make(
        tmp_path,
        {
            "grammar": page("Capabilities", ".. onespec:auto-capabilities::\n"),
            "bad": page("Bad", "See :onespec:capability:`deploymnt`.\n"),
        },
    )
    (warning,) = build.warnings_with("unknown template capability 'deploymnt'")
    assert "did you mean 'deployment'?" in warning
