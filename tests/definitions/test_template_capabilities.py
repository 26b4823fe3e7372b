"""The template-capabilities grammar is defined once, checks itself, and needs nothing but the
standard library."""

from __future__ import annotations

import ast

import pytest

from onespec.definitions import template_capabilities as grammar
from onespec.definitions.model import DefinitionError
from tests.conftest import PACKAGE


def test_the_well_known_keys_and_sections():
    assert [section.name for section in grammar.SECTIONS] == ["capabilities", "requires"]
    assert grammar.key("resource_type").kind == "type"
    assert grammar.key("deployment").kind == "label"
    assert grammar.forbidden_in("requires") == ("resource_type",)
    assert grammar.forbidden_in("capabilities") == ()
    assert grammar.key("nothing") is None


def test_definitions_are_checked():
    with pytest.raises(DefinitionError, match="kind must be type or label"):
        grammar.CapabilityKey("x", "other", "s", "d", ("capabilities",))  # type: ignore[arg-type]
    with pytest.raises(DefinitionError, match="sections must name"):
        grammar.CapabilityKey("x", "label", "s", "d", ("elsewhere",))
    with pytest.raises(DefinitionError, match="plain name"):
        grammar.CapabilityKey("two words", "label", "s", "d", ("capabilities",))


def test_the_definitions_use_the_standard_library_only():
    tree = ast.parse((PACKAGE / "definitions" / "template_capabilities.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert imported <= {"__future__", "re", "dataclasses", "typing", "onespec.definitions.model"}
