"""The software-component vocabulary reaches the runtime as generated literals."""

from __future__ import annotations

import ast

from onespec.definitions import components as vocabulary
from onespec.generator.components import runtime as component_runtime
from onespec.generator.manifest import OUTPUT_FACTORIES
from onespec.validators_runtime._generated import components as generated
from tests.conftest import PACKAGE

GENERATED = PACKAGE / "validators_runtime" / "_generated" / "components.py"


def test_the_committed_module_is_the_generated_one():
    assert GENERATED.read_text(encoding="utf-8") == component_runtime.render()
    assert component_runtime.OUTPUT == GENERATED
    output = OUTPUT_FACTORIES["components"]()
    assert output.render() == {GENERATED: component_runtime.render()}


def test_the_generated_module_imports_nothing():
    tree = ast.parse(GENERATED.read_text(encoding="utf-8"))
    assert [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)] == []


def test_the_runtime_sees_the_vocabulary():
    assert tuple(a.name for a in vocabulary.ACTIONS) == generated.STANDARD_ACTIONS
    assert generated.STANDARD_ACTIONS == ("CREATE", "UPDATE", "DELETE", "SUSPEND", "RESUME")
    assert generated.DEFAULT_ACTIONS == ("CREATE", "UPDATE")
    assert generated.INPUT_TYPES == ("String", "Number", "CommaDelimitedList", "Json", "Boolean")
    assert set(generated.SHAPES) == {s.name for s in vocabulary.SHAPES}
    assert generated.SHAPES["config"]["tool"]["required"] is True
    assert generated.SHAPES["config"]["actions"]["default"] == ["CREATE", "UPDATE"]
    assert "deploy_status" in generated.RESERVED_INPUT_NAMES
    assert generated.HOOK_STATUS_CODES == {
        "succeeded": 0,
        "failed": 1,
        "usage": 2,
        "timed-out": 124,
    }
    # Descriptions reach the runtime as plain text.
    assert "``" not in generated.ACTIONS["CREATE"]["fires"]
