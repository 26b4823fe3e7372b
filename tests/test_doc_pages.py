"""The hand-written parts of the documentation stay in step with the catalogue."""

from __future__ import annotations

from definitions.extra_specs import namespaces
from tests.conftest import ROOT

REFERENCE = ROOT / "doc" / "source" / "reference" / "extra-specs"


def test_every_namespace_has_a_reference_page_listed_in_the_index():
    index = (REFERENCE / "index.rst").read_text(encoding="utf-8")
    pages = {path.stem for path in REFERENCE.glob("*.rst")} - {"index"}
    expected = set()
    for namespace in namespaces():
        slug = namespace.name or "unnamespaced"
        expected.add(slug)
        page = (REFERENCE / f"{slug}.rst").read_text(encoding="utf-8")
        argument = namespace.name or '""'
        assert f".. onespec:auto-extra-specs:: {argument}\n" in page, slug
        assert f"\n   {slug}\n" in index, f"{slug} is missing from the reference toctree"
    assert pages == expected, "a reference page exists for a namespace the catalogue lacks"
