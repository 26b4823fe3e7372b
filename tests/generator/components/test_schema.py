"""The JSON Schema of the component's properties: valid, committed, and never stricter than the
runtime. Where it is looser, the difference is one of ``component_schema.DIFFERENCES``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from onespec.generator import manifest
from onespec.generator import schema as schema_documents
from onespec.generator.components import schema as component_schema
from onespec.validators_runtime.heat.components import ComponentValidationError, validate_component
from tests.conftest import ROOT

SCHEMA = component_schema.software_component_schema()
VALIDATOR = Draft202012Validator(SCHEMA)
COMMITTED = ROOT / "outputs" / "schemas" / component_schema.SOFTWARE_COMPONENT
SCRIPT = "#!/bin/sh\n"


def schema_valid(properties: Any) -> bool:
    return VALIDATOR.is_valid(properties)


def runtime_valid(properties: Any) -> bool:
    try:
        validate_component(properties)
    except ComponentValidationError:
        return False
    return True


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$id"] == "https://onespec.dev/schemas/software-component.schema.json"


def test_the_committed_schema_is_the_generated_one():
    assert COMMITTED.read_text(encoding="utf-8") == schema_documents.dumps(SCHEMA)
    assert manifest.SCHEMAS[component_schema.SOFTWARE_COMPONENT] is (
        component_schema.software_component_schema
    )


def test_the_description_states_every_difference():
    for number, (_, text) in enumerate(component_schema.DIFFERENCES, 1):
        assert f"({number}) {text}" in SCHEMA["description"]


def test_the_seed_example_is_valid():
    example = {
        "configs": [
            {"actions": ["CREATE"], "config": SCRIPT, "tool": "script"},
            {"actions": ["UPDATE"], "config": SCRIPT, "tool": "script"},
            {"actions": ["SUSPEND"], "config": SCRIPT, "tool": "script"},
        ],
        "inputs": [{"name": "http_port"}, {"name": "https_port"}, {"name": "default_con_timeout"}],
        "outputs": [{"name": "admin_url"}, {"name": "root_url"}],
    }
    assert schema_valid(example)
    assert runtime_valid(example)


@pytest.mark.parametrize(
    "properties",
    [
        {},
        {"configs": []},
        {"configs": [{"config": SCRIPT}]},
        {"configs": [{"tool": "script", "config": SCRIPT, "actions": []}]},
        {"configs": [{"tool": "script", "config": SCRIPT, "actions": ["create"]}]},
        {"configs": [{"tool": "script", "config": SCRIPT, "actions": ["CREATE", "CREATE"]}]},
        {"configs": [{"tool": "component", "config": "x"}]},
        {"configs": [{"tool": "../x", "config": "x"}]},
        {"configs": [{"tool": "script", "config": "echo"}]},
        {"configs": [{"tool": "script"}]},
        {"configs": [{"tool": "script", "config": SCRIPT}], "extra": 1},
        {"configs": [{"tool": "script", "config": SCRIPT}], "inputs": [{"name": "a=b"}]},
        {"configs": [{"tool": "script", "config": SCRIPT}], "inputs": [{"name": "deploy_action"}]},
        {"configs": [{"tool": "script", "config": SCRIPT}], "outputs": [{"name": "a/b"}]},
        {
            "configs": [{"tool": "script", "config": SCRIPT}],
            "inputs": [{"name": "p", "type": "Number", "default": "eighty"}],
        },
        {
            "configs": [{"tool": "script", "config": SCRIPT}],
            "inputs": [{"name": "p", "default": True}],
        },
        {
            "configs": [{"tool": "script", "config": SCRIPT}],
            "inputs": [{"name": "p", "type": "Boolean", "default": "maybe"}],
        },
        {
            "configs": [{"tool": "script", "config": SCRIPT}],
            "outputs": [{"name": "o", "error_output": "yes"}],
        },
    ],
)
def test_rules_of_one_entry_are_in_the_schema_too(properties):
    assert not runtime_valid(properties)
    assert not schema_valid(properties)


@pytest.mark.parametrize(
    ("difference", "properties"),
    [
        ("one-config-per-action", {"configs": [{"tool": "script", "config": SCRIPT}] * 2}),
        (
            "unique-names",
            {
                "configs": [{"tool": "script", "config": SCRIPT}],
                "inputs": [{"name": "a"}, {"name": "a"}],
            },
        ),
        (
            "json-text",
            {
                "configs": [{"tool": "script", "config": SCRIPT}],
                "inputs": [{"name": "j", "type": "Json", "default": "not json"}],
            },
        ),
    ],
)
def test_each_difference_is_real(difference, properties):
    assert difference in {name for name, _ in component_schema.DIFFERENCES}
    assert schema_valid(properties)
    assert not runtime_valid(properties)


_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=6),
        st.sampled_from(["1", "yes", " Off ", "8080", "-0.5", "a,b", "[1]", '{"a": 1}', "true"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
_entry = st.fixed_dictionaries(
    {"tool": st.sampled_from(["script", "chef", "a.b-c", "component", "x/y", ""])},
    optional={
        "actions": st.one_of(
            st.none(),
            st.lists(st.sampled_from(["CREATE", "UPDATE", "DELETE", "X_1", "x", ""]), max_size=3),
        ),
        "config": st.one_of(st.none(), st.sampled_from([SCRIPT, "x", "", " #!"]), _values),
    },
)
_item = st.fixed_dictionaries(
    {"name": st.one_of(st.sampled_from(["a", "b", "", "x=y", "o/p", "deploy_action"]), _values)},
    optional={
        "type": st.one_of(
            st.none(),
            st.sampled_from(["String", "Number", "Boolean", "Json", "CommaDelimitedList", "x"]),
        ),
        "default": _values,
        "description": st.one_of(st.none(), st.text(max_size=3), _values),
        "replace_on_change": st.one_of(st.booleans(), st.sampled_from(["TRUE", "no"]), _values),
        "error_output": st.one_of(st.booleans(), st.sampled_from(["False", "1"]), _values),
    },
)
_properties = st.fixed_dictionaries(
    {"configs": st.lists(_entry, max_size=3)},
    optional={
        "inputs": st.one_of(st.none(), st.lists(_item, max_size=3)),
        "outputs": st.one_of(st.none(), st.lists(_item, max_size=3)),
        "options": st.one_of(st.none(), _values),
    },
)


@given(_properties)
def test_the_runtime_never_accepts_what_the_schema_refuses(properties):
    """Runtime-valid implies schema-valid: the schema is never stricter than the validator."""
    if runtime_valid(properties):
        errors = [error.message for error in VALIDATOR.iter_errors(properties)]
        assert errors == [], json.dumps(properties)


def _explained(problem, properties: dict) -> bool:
    """Whether a problem the schema cannot see is one of the documented differences."""
    if problem.code == "duplicate-action":  # one-config-per-action
        return "already handled" in problem.message
    if problem.code == "duplicate-name":  # unique-names
        return True
    if problem.code == "invalid-value" and problem.location.path.endswith(".default"):  # json-text
        index = int(problem.location.path.split("[")[1].split("]")[0])
        return properties["inputs"][index].get("type") == "Json"
    return False


@given(_properties)
def test_where_the_schema_accepts_what_the_runtime_refuses_it_is_a_documented_difference(
    properties,
):
    if not schema_valid(properties):
        return
    try:
        validate_component(properties)
    except ComponentValidationError as error:
        unexplained = [str(p) for p in error.problems if not _explained(p, properties)]
        assert unexplained == [], json.dumps(properties)
