"""The reference, the schema and the runtime tables all come from the one grammar."""

from __future__ import annotations

import json

from onespec.definitions import image_validators as grammar
from onespec.generator.images import grammar as generated
from onespec.generator.schema import DIRECTORY
from onespec.validators_runtime._generated import image_validators as tables
from tests.conftest import ROOT

DOC = ROOT / "doc" / "source"


def test_the_reference_describes_every_section_and_kind():
    lines = list(generated.reference_lines())
    described = [
        line.split("::", 1)[1].strip() for line in lines if "onespec:image-validator::" in line
    ]
    assert described == [s.name for s in grammar.SECTIONS] + [k.key for k in grammar.KINDS]
    text = "\n".join(lines)
    for kind in grammar.KINDS:
        assert kind.reconcile in text and kind.check_only in text
        for form in kind.forms:
            assert form.description in text


def test_the_reference_page_and_the_guide_are_in_the_toctree():
    page = (DOC / "reference" / "image-spec.rst").read_text(encoding="utf-8")
    assert ".. onespec:auto-image-validators::" in page
    index = (DOC / "index.rst").read_text(encoding="utf-8")
    assert "\n   reference/image-spec\n" in index and "\n   guides/image-specs\n" in index
    guide = (DOC / "guides" / "image-specs.rst").read_text(encoding="utf-8")
    assert guide.startswith("======================\nWriting an image spec\n")


def test_the_committed_schema_and_tables_are_generated_from_the_grammar():
    committed = json.loads((DIRECTORY / generated.SCHEMA_FILE).read_text(encoding="utf-8"))
    assert committed == generated.schema() == tables.SCHEMA
    assert generated.RUNTIME_MODULE.read_text(encoding="utf-8") == generated.render_runtime()
    for name, value in grammar.tables().items():
        assert getattr(tables, name) == value, name
