"""What is generated from ``src/onespec/definitions/template_capabilities.py`` -- the runtime's
copy of the grammar, the JSON Schemas and the reference -- is committed, and agrees with the
runtime's checks."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from onespec.definitions import template_capabilities as grammar
from onespec.generator import manifest
from onespec.generator import schema as schema_documents
from onespec.generator.manifest import OUTPUT_FACTORIES
from onespec.generator.template_capabilities import rst as capabilities_rst
from onespec.generator.template_capabilities import runtime as capabilities_runtime
from onespec.generator.template_capabilities.schema import ENVIRONMENT_REQUIRES, HOT_CAPABILITIES
from onespec.validators_runtime._generated import template_capabilities as generated
from onespec.validators_runtime.heat import template_capabilities as api
from onespec.validators_runtime.heat.template_capabilities import CapabilitiesError, parse_section
from tests.conftest import ROOT

TEMPLATE_SCHEMA = manifest.SCHEMAS[HOT_CAPABILITIES]()
ENVIRONMENT_SCHEMA = manifest.SCHEMAS[ENVIRONMENT_REQUIRES]()
TEMPLATE_VALIDATOR = Draft202012Validator(TEMPLATE_SCHEMA)
ENVIRONMENT_VALIDATOR = Draft202012Validator(ENVIRONMENT_SCHEMA)


# --- The generated runtime module ----------------------------------------------------------------


def test_the_committed_module_is_what_the_definitions_generate():
    assert (
        capabilities_runtime.OUTPUT.read_text(encoding="utf-8") == capabilities_runtime.render()
    ), (
        "src/onespec/validators_runtime/_generated/template_capabilities.py is stale: "
        "run `onespec generate all`"
    )
    assert "template-capabilities" in OUTPUT_FACTORIES


def test_the_generated_module_is_plain_literals_and_imports_nothing():
    tree = ast.parse(capabilities_runtime.render())
    for node in tree.body:
        if isinstance(node, ast.Expr):
            continue
        assert isinstance(node, ast.Assign), ast.dump(node)
        ast.literal_eval(node.value)


def test_the_generated_facts_are_the_definitions():
    assert {key.name: key.kind for key in grammar.KEYS} == generated.KEYS
    assert generated.ENVIRONMENT_SECTIONS == grammar.ENVIRONMENT_SECTIONS
    assert generated.HOT_SECTIONS == grammar.HOT_SECTIONS
    assert generated.MAX_TEMPLATE_SIZE == 524_288


# --- The JSON Schemas ----------------------------------------------------------------------------


def test_the_schemas_are_valid_and_committed():
    for name, schema in (
        (HOT_CAPABILITIES, TEMPLATE_SCHEMA),
        (ENVIRONMENT_REQUIRES, ENVIRONMENT_SCHEMA),
    ):
        Draft202012Validator.check_schema(schema)
        assert schema["$id"] == schema_documents.ID_BASE + name
        committed = ROOT / "outputs" / "schemas" / name
        assert committed.read_text(encoding="utf-8") == schema_documents.dumps(schema), (
            f"{committed} is stale: run `onespec generate all`"
        )


def runtime_accepts(section: object, name: str) -> bool:
    try:
        parse_section(section, name)
    except CapabilitiesError:
        return False
    return True


_values = st.one_of(
    st.text(max_size=5),
    st.lists(st.one_of(st.text(max_size=5), st.integers(), st.none()), max_size=3),
    st.integers(),
    st.booleans(),
    st.none(),
    st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2),
)
_sections = st.one_of(
    st.dictionaries(
        st.one_of(st.sampled_from(["deployment", "resource_type", "x"]), st.text(max_size=5)),
        _values,
        max_size=4,
    ),
    st.lists(st.text(max_size=3), max_size=2),
    st.text(max_size=3),
)


@given(_sections)
def test_the_template_schema_agrees_with_the_runtime(section):
    valid = not list(TEMPLATE_VALIDATOR.iter_errors({"capabilities": section}))
    assert valid == runtime_accepts(section, "capabilities")


@given(_sections)
def test_the_environment_schema_agrees_with_the_runtime_on_requires(section):
    valid = not list(ENVIRONMENT_VALIDATOR.iter_errors({"requires": section}))
    assert valid == runtime_accepts(section, "requires")


def test_the_environment_schema_on_the_seed_and_on_what_resolve_writes(tmp_path):
    seed = (
        ROOT / "tests" / "validators_runtime" / "heat" / "template_capabilities" / "data" / "seed"
    )
    import yaml

    for name in ("environment.yaml", "docker.yaml", "ansible.yaml", "any.yaml"):
        data = yaml.safe_load((seed / name).read_text())
        assert list(ENVIRONMENT_VALIDATOR.iter_errors(data)) == [], name
    resolved = api.resolve([seed / "environment.yaml"]).environment
    assert list(ENVIRONMENT_VALIDATOR.iter_errors(resolved)) == []
    for template in ("puppet/controller.yaml", "docker/controller.yaml"):
        data = yaml.safe_load((seed / template).read_text())
        assert list(TEMPLATE_VALIDATOR.iter_errors(data)) == []


@pytest.mark.parametrize(
    "environment",
    [
        {"resources": {}},
        {"parameters": None},
        {"requires": {"resource_type": "OS::X"}},
        {"resource_registry": {"OS::X": []}},
        {"resource_registry": {"OS::X": 3}},
        {"resource_registry": {"OS::X": ["a.yaml", 3]}},
    ],
)
def test_the_environment_schema_refuses_what_heat_or_onespec_refuse(environment):
    assert list(ENVIRONMENT_VALIDATOR.iter_errors(environment))


def test_the_environment_schema_accepts_heats_own_lists():
    environment = {
        "resource_registry": {
            "base_url": "/srv/templates",
            "OS::X": None,
            "resources": {"srv": {"hooks": ["pre-create"], "restricted_actions": "replace"}},
        },
        "event_sinks": [],
    }
    assert list(ENVIRONMENT_VALIDATOR.iter_errors(environment)) == []


# --- The reference ----------------------------------------------------------------------------


def test_the_reference_lines_describe_every_section_and_key():
    text = "\n".join(capabilities_rst.lines())
    for item in (*grammar.SECTIONS, *grammar.KEYS):
        assert f".. onespec:capability:: {item.name}\n   :topic: template capabilities\n" in text
    for rule in grammar.RULES:
        assert " ".join(rule.text.split()) in text
    assert ":Not allowed: ``resource_type``" in text
    assert "``conditions`` (since 2016-10-14)" in text


@pytest.mark.parametrize("part", capabilities_rst.PARTS)
def test_every_part_renders(part):
    assert list(capabilities_rst.lines(part))


def test_the_reference_page_uses_the_directive():
    page = (ROOT / "doc" / "source" / "reference" / "capabilities.rst").read_text()
    assert ".. onespec:auto-capabilities::\n" in page
    index = (ROOT / "doc" / "source" / "index.rst").read_text()
    assert "   reference/capabilities\n" in index
    assert "   guides/capabilities\n" in index
