"""The vocabulary is defined once, reaches the runtime as generated literals, and holds together."""

from __future__ import annotations

import ast
import dataclasses

import pytest

from onespec.definitions import components as vocabulary
from onespec.definitions.components import Field, LifecycleAction, Shape, Tool
from onespec.definitions.model import DefinitionError
from onespec.generator.components import runtime as component_runtime
from onespec.generator.manifest import OUTPUT_FACTORIES
from onespec.validators_runtime._generated import components as generated
from tests.conftest import ROOT
from tests.validators_runtime.test_isolation import imported_after, offending

GENERATED = ROOT / "validators_runtime" / "_generated" / "components.py"


def test_the_committed_module_is_the_generated_one():
    assert GENERATED.read_text(encoding="utf-8") == component_runtime.render()
    assert component_runtime.OUTPUT == GENERATED
    output = OUTPUT_FACTORIES["components"]()
    assert output.render() == {GENERATED: component_runtime.render()}


def test_the_generated_module_imports_nothing():
    tree = ast.parse(GENERATED.read_text(encoding="utf-8"))
    assert [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)] == []


@pytest.mark.parametrize(
    "module",
    [
        "onespec.validators_runtime.heat.components",
        "onespec.validators_runtime.heat.components.hook",
        "onespec.validators_runtime.heat.components.template",
        "onespec.validators_runtime.heat.components.cli",
    ],
)
def test_the_runtime_imports_no_tooling_and_no_definitions(module):
    modules = imported_after(f"import {module}")
    assert module in modules
    assert offending(modules) == set()
    assert "onespec.definitions.components" not in modules


def test_running_the_hook_imports_no_tooling():
    modules = imported_after(
        "from onespec.validators_runtime.heat.components.hook import run_hook\n"
        'run_hook(\'{"config": {"configs": []}, '
        '"inputs": [{"name": "deploy_action", "value": "CREATE"}]}\')\n'
    )
    assert offending(modules) == set()


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


def test_every_action_says_when_it_fires_and_what_the_hook_receives():
    for action in vocabulary.ACTIONS:
        assert action.name in action.hook_receives
        assert action.fires.startswith("When")
        assert action.standard


def test_the_vocabulary_checks_itself():
    vocabulary.check()
    with pytest.raises(DefinitionError, match="names no shape"):
        vocabulary.check((Shape("x", "X", "An x.", (Field("f", "list", "F.", items="nothing"),)),))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: LifecycleAction("create", "s", "f", "h"), "must match"),
        (lambda: LifecycleAction("CREATE", "", "f", "h"), "summary"),
        (lambda: Tool("../x", "d"), "must match"),
        (lambda: Field("Bad", "string", "d"), "lower-case identifier"),
        (lambda: Field("f", "number", "d"), "kind must be one of"),
        (lambda: Field("f", "string", "d", required=True, default="x"), "no default"),
        (lambda: Field("f", "string", "d", items="x"), "apply to lists"),
        (lambda: Field("f", "list", "d"), "says what its items are"),
        (lambda: Field("f", "boolean", "d", choices=("a",)), "choices apply to strings"),
        (lambda: Field("f", "boolean", "d", default="yes"), "is not a boolean"),
        (lambda: Field("f", "string", "d", default="c", choices=("a", "b")), "not a choice"),
        (lambda: Shape("s", "S", "d", (Field("f", "any", "d"),) * 2), "declared twice"),
    ],
)
def test_malformed_vocabulary_is_refused(make, message):
    with pytest.raises(DefinitionError, match=message):
        make()


def test_vocabulary_entries_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        vocabulary.ACTIONS[0].name = "X"  # type: ignore[misc]


def test_the_shape_lookup():
    assert vocabulary.shape("config") is vocabulary.CONFIG_ENTRY
    assert vocabulary.action("SUSPEND").name == "SUSPEND"
    with pytest.raises(KeyError):
        vocabulary.action("QUIESCE")
    with pytest.raises(KeyError):
        vocabulary.shape("nope")
