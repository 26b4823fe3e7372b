"""The API's generated schemas and runtime modules: generated from the definitions, and true to the
service's behaviour.

The agreement tests compare a schema's verdict with the service's own checks on generated
bodies, so that neither can change without the other.
"""

from __future__ import annotations

import json
import re
import subprocess
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from onespec.definitions import api as api_facts
from onespec.definitions.model import DefinitionError
from onespec.definitions.plugin_labels import LABELS, Label, LabelEffect, Scope, labels
from onespec.generator import manifest
from onespec.generator import schema as schema_documents
from onespec.generator.api import plugin_labels
from onespec.generator.api import schemas as api_schemas
from onespec.validators_runtime._generated import api as generated_api
from onespec.validators_runtime._generated import plugin_labels as generated_labels
from onespec.validators_runtime.plugin_labels import labels as runtime_labels
from onespec.validators_runtime.plugin_labels.fake import PLUGIN as FAKE
from onespec.validators_runtime.plugin_labels.labels import Problem, plugin_view
from onespec.validators_runtime.plugin_labels.spi import plugin_info
from onespec.validators_runtime.service.routes import flavors
from tests.generator.extra_specs.test_schema import _NODE_SCRIPT, NODE

SCHEMAS = {name: build() for name, build in api_schemas.BUILDERS.items()}


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(SCHEMAS[name])


# --- Generated and committed ---------------------------------------------------------------------


def test_the_api_schemas_are_entries_of_the_schema_output():
    assert set(api_schemas.BUILDERS) <= set(manifest.SCHEMAS)
    for name in api_schemas.BUILDERS:
        assert manifest.SCHEMAS[name]() == SCHEMAS[name]


def test_the_committed_runtime_modules_are_what_the_definitions_generate():
    assert api_schemas.OUTPUT.read_text(encoding="utf-8") == api_schemas.render()
    assert plugin_labels.OUTPUT.read_text(encoding="utf-8") == plugin_labels.render()


def test_the_runtime_carries_the_same_schemas_as_outputs():
    assert generated_api.SCHEMAS == SCHEMAS
    for name, schema in SCHEMAS.items():
        committed = json.loads((schema_documents.DIRECTORY / name).read_text(encoding="utf-8"))
        assert committed == schema


def test_the_runtime_modules_are_plain_literals():
    import ast

    for text in (api_schemas.render(), plugin_labels.render()):
        for node in ast.parse(text).body:
            if isinstance(node, ast.Expr):
                continue
            assert isinstance(node, ast.Assign)
            ast.literal_eval(node.value)


def test_the_label_records_are_the_definitions():
    assert plugin_labels.LABEL_FIELDS == generated_labels.LABEL_FIELDS
    records = tuple(plugin_labels.label_record(label) for label in LABELS)
    assert records == generated_labels.LABELS
    assert runtime_labels.LABELS["enabled"].summary("version") == LABELS[0].version


def test_no_schema_refers_elsewhere():
    for name, schema in SCHEMAS.items():
        assert '"$ref"' not in json.dumps(schema), name


# --- The label definitions -----------------------------------------------------------------------


def test_the_issue_s_four_labels_with_their_mutability():
    by_name = {label.name: label for label in labels()}
    assert list(by_name) == ["enabled", "hidden", "stable", "deprecated"]
    assert by_name["enabled"].mutable and by_name["enabled"].default
    assert by_name["enabled"].scopes == (Scope.PLUGIN, Scope.VERSION)
    assert by_name["hidden"].mutable and not by_name["hidden"].default
    assert not by_name["stable"].mutable
    assert not by_name["deprecated"].mutable
    assert by_name["deprecated"].effect is LabelEffect.WARN


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"name": "Enabled"}, "lower-case"),
        ({"mutable": "yes"}, "mutable must be true or false"),
        ({"description": " "}, "needs a description"),
        ({"effect": "block"}, "effect must be one of"),
        ({"plugin": None, "version": None}, "plugins, versions or both"),
        ({"plugin": ""}, "non-empty string"),
        ({"effect": "warn"}, "needs a warning that mentions {subject}"),
        ({"warning": "{subject} is odd."}, "only a warn label has a warning"),
    ],
)
def test_a_malformed_label_is_refused_naming_its_field(fields, words):
    base = {
        "name": "shiny",
        "description": "Shiny.",
        "mutable": True,
        "default": False,
        "plugin": "x",
    }
    with pytest.raises(DefinitionError, match=re.escape(words)):
        Label(**{**base, **fields})


# --- Views match their schemas -------------------------------------------------------------------

statuses = st.dictionaries(
    st.sampled_from([label.name for label in LABELS]),
    st.fixed_dictionaries({"status": st.booleans()}),
)
stored_states = st.fixed_dictionaries(
    {
        "plugin_labels": statuses,
        "version_labels": st.dictionaries(st.sampled_from(["0.1", "0.2", "9.9"]), statuses),
    }
)


@given(stored=stored_states)
def test_every_view_matches_the_response_schemas(stored):
    info = plugin_info(FAKE)
    view = plugin_view(info, stored)
    assert validator(api_schemas.PLUGIN).is_valid({"plugin": view})
    assert validator(api_schemas.PLUGINS).is_valid({"plugins": [view, view]})
    version = plugin_view(info, stored, version="0.1")
    assert validator(api_schemas.PLUGIN_VERSION).is_valid({"plugin": version})
    assert not validator(api_schemas.PLUGIN).is_valid({"plugin": version})


def test_the_response_schema_pins_description_and_mutability():
    view = plugin_view(plugin_info(FAKE))
    view["plugin_labels"]["stable"]["mutable"] = True
    assert not validator(api_schemas.PLUGIN).is_valid({"plugin": view})
    view = plugin_view(plugin_info(FAKE))
    view["version_labels"]["0.1"]["enabled"]["description"] = "Something else"
    assert not validator(api_schemas.PLUGIN).is_valid({"plugin": view})
    view = plugin_view(plugin_info(FAKE))
    view["version_labels"]["0.1"]["hidden"] = view["plugin_labels"]["hidden"]
    assert not validator(api_schemas.PLUGIN).is_valid({"plugin": view})


# --- The PATCH body schema agrees with the service's checks --------------------------------------

label_names = st.sampled_from([*(label.name for label in LABELS), "enabeld", "colour"])
status_values = st.sampled_from([True, False, None, "true", 0, [], {}])
label_entries = st.one_of(
    st.fixed_dictionaries({"status": status_values}),
    st.fixed_dictionaries({"status": status_values, "mutable": st.booleans()}),
    st.just({}),
    st.sampled_from([True, "on", [], None]),
)
scope_changes = st.one_of(
    st.dictionaries(label_names, label_entries, max_size=4), st.sampled_from([[], "x", 1])
)
bodies = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "plugin_labels": scope_changes,
            "version_labels": st.one_of(
                st.dictionaries(st.sampled_from(["0.1", "0.2"]), scope_changes, max_size=2),
                st.sampled_from([[], "0.1"]),
            ),
            "labels": st.just({}),
        },
    ),
    st.sampled_from([[], "x", None, 3]),
)


well_formed = st.fixed_dictionaries(
    {},
    optional={
        "plugin_labels": st.dictionaries(
            st.sampled_from(["enabled", "hidden"]),
            st.fixed_dictionaries({"status": st.sampled_from([True, False, None])}),
        ),
        "version_labels": st.dictionaries(
            st.sampled_from(["0.1", "0.2"]),
            st.dictionaries(
                st.just("enabled"),
                st.fixed_dictionaries({"status": st.sampled_from([True, False, None])}),
            ),
        ),
    },
)


@given(body=st.one_of(well_formed, bodies))
def test_the_patch_schema_and_the_service_agree(body):
    info = plugin_info(FAKE)
    schema_says = validator(api_schemas.PLUGIN_UPDATE).is_valid(body)
    try:
        runtime_labels.validate_update(info, body)
        service_says = True
    except runtime_labels.LabelUpdateError as error:
        service_says = False
        assert error.problems
    assert schema_says == service_says, body


def test_an_unknown_version_is_what_only_the_service_can_refuse():
    body = {"version_labels": {"9.9": {"enabled": {"status": False}}}}
    assert validator(api_schemas.PLUGIN_UPDATE).is_valid(body)
    with pytest.raises(runtime_labels.LabelUpdateError, match=r"no version '9\.9'"):
        runtime_labels.validate_update(plugin_info(FAKE), body)


# --- The extra-spec body schemas agree with the service's checks ---------------------------------

keys = st.one_of(
    st.sampled_from(["hw:cpu_policy", "a b", "x.y-z_1", "", "a/b", "é", "k" * 255, "k" * 256]),
    st.text(alphabet="ab:. _-/{}", min_size=0, max_size=6),
)
values = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["x" * 255, "x" * 256, "a\u0000b", True, None, [], {}]),
    st.integers(),
    st.integers(min_value=10**254, max_value=10**256),
    st.floats(allow_nan=False, allow_infinity=False),
)


def service_problems(specs: Any) -> list[Problem]:
    problems: list[Problem] = []
    flavors._specs(specs, ("extra_specs",), problems)
    return problems


@given(specs=st.dictionaries(keys, values, max_size=3))
def test_the_extra_specs_schema_and_the_service_agree(specs):
    schema_says = validator(api_schemas.FLAVOR_EXTRA_SPECS).is_valid({"extra_specs": specs})
    service_says = not service_problems(specs)
    long_numbers = any(
        not isinstance(v, bool | str) and isinstance(v, int | float) and len(str(v)) > 255
        for v in specs.values()
    )
    if long_numbers:  # the documented difference: a number's text is checked for length
        assert not service_says
    else:
        assert schema_says == service_says, specs


@given(key=keys, value=values)
def test_the_one_key_schema_and_the_service_agree(key, value):
    body = {key: value}
    schema_says = validator(api_schemas.FLAVOR_EXTRA_SPEC).is_valid(body)
    if isinstance(value, int | float) and not isinstance(value, bool) and len(str(value)) > 255:
        return
    assert schema_says == (not service_problems(body)), body
    assert not validator(api_schemas.FLAVOR_EXTRA_SPEC).is_valid({})
    assert not validator(api_schemas.FLAVOR_EXTRA_SPEC).is_valid({"a": "1", "b": "2"})


def test_the_key_characters_are_nova_s():
    pattern = re.compile(f"[{api_facts.EXTRA_SPEC_KEY_CHARACTERS}]+")
    allowed = {c for c in map(chr, range(128)) if pattern.fullmatch(c)}
    nova = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_:. ")
    assert allowed == nova


def test_flavor_ids_cannot_be_dot_segments():
    flavor_id = re.compile(api_facts.FLAVOR_ID_PATTERN)
    for good in ("1", "m1.large", "a b", "_x", "x."):
        assert flavor_id.fullmatch(good), good
    for bad in (".", "..", ".x", " x", "x ", "a/b", ""):
        assert not flavor_id.fullmatch(bad), bad


# --- Every pattern means the same in ECMA-262 ----------------------------------------------------


def _patterns(value: Any) -> list[str]:
    if isinstance(value, dict):
        found = [value["pattern"]] if isinstance(value.get("pattern"), str) else []
        return found + [p for v in value.values() for p in _patterns(v)]
    if isinstance(value, list):
        return [p for v in value for p in _patterns(v)]
    return []


def test_every_api_pattern_means_the_same_in_ecma_262():
    from onespec.validators_runtime.service import openapi

    assert NODE is not None, "Node.js is needed to check the patterns against ECMA-262"
    patterns = sorted(set(_patterns(SCHEMAS)) | set(_patterns(openapi.document())))
    strings = [
        "", "a", "fake", "0.1", "1.0\n", "..", ".x", "compute 2.86", "compute latest",
        "volume 3.0,\tcompute 2.1 ", "compute", "a\u0000b", "m1.large", "x ", "é", "hw:cpu policy",
        "k" * 255, "k" * 256, "2.86",
    ]  # fmt: skip
    done = subprocess.run(
        [NODE, "-e", _NODE_SCRIPT],
        input=json.dumps([(pattern, strings) for pattern in patterns]),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    for flags, outcomes in json.loads(done.stdout).items():
        for pattern, ecma in zip(patterns, outcomes, strict=True):
            assert not isinstance(ecma, str), f"/{pattern}/{flags}: {ecma}"
            python = [re.search(pattern, s) is not None for s in strings]
            assert python == ecma, f"/{pattern}/{flags}"


def test_a_nova_fault_is_one_member_named_as_nova_names_its_faults():
    """The fault object is written once, under any of Nova's names (``propertyNames``): each
    name takes it, an unknown name, two members or none are refused."""
    check = validator(api_schemas.NOVA_FAULT)
    fault = {"code": 400, "message": "Invalid input."}
    names = {*api_facts.NOVA_FAULT_NAMES.values(), api_facts.NOVA_OTHER_FAULT}
    assert {"badRequest", "itemNotFound", "forbidden"} <= names
    for name in names:
        assert check.is_valid({name: fault}), name
    assert not check.is_valid({"badrequest": fault})
    assert not check.is_valid({"badRequest": fault, "forbidden": fault})
    assert not check.is_valid({})
    assert not check.is_valid({"badRequest": {"code": 400}})  # no message
    assert not check.is_valid({"badRequest": {**fault, "extra": 1}})
    assert json.dumps(SCHEMAS[api_schemas.NOVA_FAULT]).count('"findings"') == 1  # written once
