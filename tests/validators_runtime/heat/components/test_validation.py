"""``validate_component``: every rule, each problem with its JSON path, and nothing but the error.

The rules are the issue's (and the seed's): ``configs`` is a non-empty list of entries with
``actions`` (default CREATE and UPDATE, never empty), ``config`` and a required ``tool``; an action
belongs to one entry only, and appears once in it; extended actions are upper-case names; with
several tools the options are namespaced; input defaults fit their types.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onespec.validators_runtime.heat.components import (
    Component,
    ComponentValidationError,
    Problem,
    Unresolved,
    type_problem,
    validate_component,
)

SCRIPT = "#!/bin/bash\necho hello\n"


def entry(actions: Any = None, tool: str = "script", config: Any = SCRIPT, **extra: Any) -> dict:
    item: dict[str, Any] = {"config": config, "tool": tool, **extra}
    if actions is not None:
        item["actions"] = actions
    return item


def appserver() -> dict:
    """The seed's example, with the scripts inlined."""
    return {
        "configs": [
            entry(["CREATE"], config="#!/bin/bash\n# install\n"),
            entry(["UPDATE"], config="#!/bin/bash\n# reconfigure\n"),
            entry(["SUSPEND"], config="#!/bin/bash\n# drain\n"),
        ],
        "inputs": [{"name": "http_port"}, {"name": "https_port"}, {"name": "default_con_timeout"}],
        "outputs": [{"name": "admin_url"}, {"name": "root_url"}],
    }


def problems(properties: Any, **kwargs: Any) -> list[Problem]:
    with pytest.raises(ComponentValidationError) as caught:
        validate_component(properties, **kwargs)
    return list(caught.value.problems)


def only(properties: Any) -> Problem:
    found = problems(properties)
    assert len(found) == 1, [str(p) for p in found]
    return found[0]


# --- Valid components ----------------------------------------------------------------------------


def test_the_seed_example_is_valid_and_its_defaults_are_filled_in():
    component = validate_component(appserver(), name="appserver-config")
    assert isinstance(component, Component)
    assert component.name == "appserver-config"
    assert component.actions == ("CREATE", "UPDATE", "SUSPEND")
    assert component.extended_actions == ()
    assert component.tools == ("script",)
    assert [i.type for i in component.inputs] == ["String"] * 3
    assert [i.replace_on_change for i in component.inputs] == [False] * 3
    assert [o.error_output for o in component.outputs] == [False, False]
    assert component.config_for("UPDATE") == 1
    assert component.config_for("RESUME") is None
    properties = component.to_properties()
    assert properties["configs"][2] == {
        "actions": ["SUSPEND"],
        "config": "#!/bin/bash\n# drain\n",
        "tool": "script",
    }
    assert properties["options"] == {}


def test_actions_default_to_create_and_update():
    component = validate_component({"configs": [entry()]})
    assert component.configs[0].actions == ("CREATE", "UPDATE")
    assert component.configs[0].actions_given is False
    assert component.actions == ("CREATE", "UPDATE")
    # null is "not given", as in Heat
    explicit_null = {"actions": None, "config": SCRIPT, "tool": "script"}
    assert validate_component({"configs": [explicit_null]}).actions == ("CREATE", "UPDATE")


def test_extended_actions_are_accepted_and_listed():
    component = validate_component(
        {"configs": [entry(["CREATE", "QUIESCE"]), entry(["UPGRADE_V2", "DELETE"])]}
    )
    assert component.extended_actions == ("QUIESCE", "UPGRADE_V2")
    assert component.actions == ("CREATE", "DELETE", "QUIESCE", "UPGRADE_V2")
    assert component.config_for("UPGRADE_V2") == 1


def test_the_standard_actions_are_heats_five():
    component = validate_component(
        {"configs": [entry([a]) for a in ("RESUME", "SUSPEND", "DELETE", "UPDATE", "CREATE")]}
    )
    assert component.actions == ("CREATE", "UPDATE", "DELETE", "SUSPEND", "RESUME")
    assert component.extended_actions == ()


def test_options_pass_through_whole_with_one_tool_or_several():
    for options in (
        {"puppet": {"modulepath": "/etc/puppet/modules"}, "script": {}},
        {"log_level": "debug", "chef": {"environment": "prod"}},
        {"chef": {}, "puppet": {}},
    ):
        component = validate_component(
            {
                "configs": [
                    entry(["CREATE"], tool="chef", config="x"),
                    entry(["SUSPEND"], tool="puppet", config="y"),
                ],
                "options": options,
            }
        )
        assert component.tool_options("chef") == options
        assert component.tool_options("puppet") == options
        assert component.to_properties()["options"] == options
    flat = validate_component(
        {"configs": [entry(tool="chef", config="x")], "options": {"chef": {"log_level": "info"}}}
    )
    assert flat.tool_options("chef") == {"chef": {"log_level": "info"}}


def test_defaults_that_fit_their_types():
    fitting = {
        "String": ["text", 8080, 0.5, ""],
        "Number": [8080, -1.5, "8080", "-0.5", "1e3", ".5"],
        "Boolean": [True, False, "yes", " Off ", "TRUE", "1", 0, 1],
        "CommaDelimitedList": ["a,b", ["a", "b", 3], []],
        "Json": [{"a": [1]}, [1, 2], '{"a": 1}', "[]"],
    }
    for type_name, values in fitting.items():
        inputs = [{"name": f"i{n}", "type": type_name, "default": v} for n, v in enumerate(values)]
        validate_component({"configs": [entry()], "inputs": inputs})


def test_unresolved_values_are_accepted_anywhere():
    call = Unresolved("get_attr", {"get_attr": ["x", "y"]})
    component = validate_component(
        {
            "configs": [
                entry([call, "CREATE"], config=call),
                entry(call, tool="puppet", config="x"),
            ],
            "inputs": [{"name": "a", "type": "Number", "default": call}],
            "options": call,
        }
    )
    assert component.actions == ("CREATE",)
    assert component.options == call


# --- Every rule, with its path -------------------------------------------------------------------


def test_properties_must_be_a_mapping():
    problem = only(["configs"])
    assert (problem.location.path, problem.code) == ("", "wrong-type")
    assert "mapping, not a list" in problem.message


def test_configs_is_required_and_not_empty():
    assert (only({}).location.path, only({}).code) == ("configs", "missing-field")
    problem = only({"configs": []})
    assert (problem.location.path, problem.code) == ("configs", "empty")
    assert only({"configs": None}).code == "wrong-type"
    assert only({"configs": "script"}).code == "wrong-type"


def test_unknown_fields_are_reported_with_a_suggestion():
    problem = only({"configs": [entry()], "input": []})
    assert (problem.location.path, problem.code) == ("input", "unknown-field")
    assert "Did you mean 'inputs'?" in problem.message
    assert (problem.value, problem.suggestion) == ("input", "inputs")
    problem = only({"configs": [entry(action=["CREATE"])]})
    assert (problem.location.path, problem.code) == ("configs[0].action", "unknown-field")
    assert "'actions'" in problem.message
    assert problem.suggestion == "actions"
    # The shared folding: case, "_" and "-" are ignored before spelling is compared.
    problem = only({"configs": [entry()], "Out-Puts": []})
    assert problem.suggestion == "outputs"


def test_an_entry_must_be_a_mapping_with_a_tool():
    problem = only({"configs": [entry(), "script"]})
    assert (problem.location.path, problem.code) == ("configs[1]", "wrong-type")
    problem = only({"configs": [{"actions": ["CREATE"], "config": SCRIPT}]})
    assert (problem.location.path, problem.code) == ("configs[0].tool", "missing-field")
    problem = only({"configs": [entry(tool=None)]})
    assert (problem.location.path, problem.code) == ("configs[0].tool", "wrong-type")


def test_config_is_a_string():
    problem = only({"configs": [entry(config=["echo"])]})
    assert (problem.location.path, problem.code) == ("configs[0].config", "wrong-type")


def test_actions_must_not_be_empty():
    problem = only({"configs": [entry([])]})
    assert (problem.location.path, problem.code) == ("configs[0].actions", "empty")


def test_an_action_in_two_entries():
    problem = only({"configs": [entry(["CREATE"]), entry(["UPDATE", "CREATE"])]})
    assert (problem.location.path, problem.code) == ("configs[1].actions[1]", "duplicate-action")
    assert "CREATE is already handled at configs[0].actions[0]" in problem.message
    assert str(problem).startswith("configs[1].actions[1]: ")


def test_an_action_twice_in_one_entry():
    # The shipped implementation missed this one.
    problem = only({"configs": [entry(["CREATE", "UPDATE", "CREATE"])]})
    assert (problem.location.path, problem.code) == ("configs[0].actions[2]", "duplicate-action")
    assert "listed twice in this config (first at configs[0].actions[0])" in problem.message


def test_two_entries_without_actions_clash_through_the_default():
    found = problems({"configs": [entry(), entry(tool="puppet", config="x")]})
    assert [(p.location.path, p.code) for p in found] == [
        ("configs[1].actions", "duplicate-action"),
        ("configs[1].actions", "duplicate-action"),
    ]
    assert "leaves out actions, so it handles CREATE by default" in found[0].message
    assert "configs[0].actions (by default)" in found[0].message
    assert "UPDATE" in found[1].message


def test_a_default_clashes_with_a_listed_action():
    problem = only({"configs": [entry(["UPDATE"]), entry()]})
    assert (problem.location.path, problem.code) == ("configs[1].actions", "duplicate-action")
    assert "UPDATE" in problem.message


def test_lower_case_actions_are_refused_with_the_upper_case_suggested():
    problem = only({"configs": [entry(["create"])]})
    assert (problem.location.path, problem.code) == ("configs[0].actions[0]", "invalid-action")
    assert "did you mean 'CREATE'?" in problem.message


@pytest.mark.parametrize("action", ["Quiesce", "1UP", "RE START", "", "ÄCTION", "X-1"])
def test_names_that_are_not_actions(action):
    problem = only({"configs": [entry([action])]})
    assert (problem.location.path, problem.code) == ("configs[0].actions[0]", "invalid-action")
    assert "extended action" in problem.message


def test_an_action_with_spaces_around_it():
    problem = only({"configs": [entry(["CREATE\n"])]})
    assert (problem.location.path, problem.code) == ("configs[0].actions[0]", "invalid-action")
    assert "Remove the spaces: did you mean 'CREATE'?" in problem.message


def test_an_action_must_be_a_string():
    problem = only({"configs": [entry(["CREATE", 1])]})
    assert (problem.location.path, problem.code) == ("configs[0].actions[1]", "wrong-type")


@pytest.mark.parametrize("tool", ["", "../script", "a/b", ".hidden", "x" * 65, "tool name"])
def test_a_tool_must_be_a_hook_file_name(tool):
    problem = only({"configs": [entry(tool=tool, config="x")]})
    assert (problem.location.path, problem.code) == ("configs[0].tool", "invalid-tool")


def test_the_component_hook_is_not_a_tool():
    problem = only({"configs": [entry(tool="component", config="x")]})
    assert (problem.location.path, problem.code) == ("configs[0].tool", "invalid-tool")
    assert "hook that runs software components" in problem.message


@pytest.mark.parametrize("config", ["", "echo hello\n", " #!/bin/sh\n"])
def test_a_script_config_starts_with_a_shebang(config):
    problem = only({"configs": [entry(config=config)]})
    assert (problem.location.path, problem.code) == ("configs[0].config", "not-executable")
    assert "#!/bin/bash" in problem.message


def test_a_script_entry_without_config_is_not_executable():
    problem = only({"configs": [{"tool": "script"}]})
    assert (problem.location.path, problem.code) == ("configs[0].config", "not-executable")
    assert "is empty" in problem.message


def test_options_is_a_mapping():
    problem = only({"configs": [entry()], "options": ["x"]})
    assert (problem.location.path, problem.code) == ("options", "wrong-type")


@pytest.mark.parametrize(
    ("type_name", "default", "reason"),
    [
        ("Number", "eighty", "is not a decimal number"),
        ("Number", True, "not a finite number"),
        ("Number", math.inf, "not a finite number"),
        ("Number", "8080 ", "is not a decimal number"),
        ("Boolean", "maybe", "is not a boolean"),
        ("Boolean", 2, "not a boolean"),
        ("String", True, "quote the value"),
        ("String", ["a"], "declare the type Json or CommaDelimitedList"),
        ("String", {"a": 1}, "declare the type Json"),
        ("CommaDelimitedList", {"a": 1}, "not a list"),
        ("CommaDelimitedList", ["a", None], "item 1 is null"),
        ("Json", "{not json", "not JSON text"),
        ("Json", "3", "neither a mapping nor a list"),
        ("Json", 3, "not a mapping or a list"),
    ],
)
def test_input_defaults_must_fit_their_type(type_name, default, reason):
    inputs = [{"name": "ok"}, {"name": "port", "type": type_name, "default": default}]
    problem = only({"configs": [entry()], "inputs": inputs})
    assert (problem.location.path, problem.code) == ("inputs[1].default", "invalid-value")
    assert reason in problem.message
    assert f"does not fit the type {type_name}" in problem.message


def test_a_default_of_an_undeclared_type_is_a_string():
    problem = only({"configs": [entry()], "inputs": [{"name": "a", "default": False}]})
    assert (problem.location.path, problem.code) == ("inputs[0].default", "invalid-value")


def test_an_unknown_type_is_reported_with_a_suggestion():
    problem = only({"configs": [entry()], "inputs": [{"name": "a", "type": "boolean"}]})
    assert (problem.location.path, problem.code) == ("inputs[0].type", "invalid-type")
    assert "Did you mean 'Boolean'?" in problem.message
    problem = only({"configs": [entry()], "outputs": [{"name": "a", "type": "Integer"}]})
    assert (problem.location.path, problem.code) == ("outputs[0].type", "invalid-type")


@pytest.mark.parametrize(
    ("kind", "name", "code"),
    [
        ("inputs", "", "invalid-name"),
        ("inputs", "a=b", "invalid-name"),
        ("inputs", "a\0b", "invalid-name"),
        ("inputs", "deploy_action", "reserved-name"),
        ("inputs", "deploy_status", "reserved-name"),
        ("inputs", "heat_outputs_path", "reserved-name"),
        ("outputs", "a/b", "invalid-name"),
        ("outputs", "", "invalid-name"),
        ("outputs", "deploy_status_code", "reserved-name"),
    ],
)
def test_names_that_cannot_be_used(kind, name, code):
    problem = only({"configs": [entry()], kind: [{"name": name}]})
    assert (problem.location.path, problem.code) == (f"{kind}[0].name", code)


@pytest.mark.parametrize("kind", ["inputs", "outputs"])
def test_names_are_unique(kind):
    problem = only({"configs": [entry()], kind: [{"name": "a"}, {"name": "b"}, {"name": "a"}]})
    assert (problem.location.path, problem.code) == (f"{kind}[2].name", "duplicate-name")
    assert f"already the name of {kind}[0]" in problem.message


@pytest.mark.parametrize("kind", ["inputs", "outputs"])
def test_an_input_or_output_needs_a_name(kind):
    problem = only({"configs": [entry()], kind: [{"description": "x"}]})
    assert (problem.location.path, problem.code) == (f"{kind}[0].name", "missing-field")


def test_booleans_take_heats_true_and_false_strings():
    component = validate_component(
        {
            "configs": [entry()],
            "inputs": [{"name": "a", "replace_on_change": "True"}],
            "outputs": [{"name": "b", "error_output": "false"}],
        }
    )
    assert component.inputs[0].replace_on_change is True
    assert component.outputs[0].error_output is False
    problem = only({"configs": [entry()], "outputs": [{"name": "b", "error_output": "yes"}]})
    assert (problem.location.path, problem.code) == ("outputs[0].error_output", "wrong-type")


def test_every_problem_is_reported_at_once_in_document_order():
    found = problems(
        {
            "configs": [entry(["CREATE", "create"]), entry(["CREATE"], tool="../x", config="x")],
            "inputs": [{"name": "p", "type": "Number", "default": "x"}],
            "outputs": [{"name": "o/"}],
            "extra": 1,
        },
        name="broken",
    )
    assert [p.location.path for p in found] == [
        "extra",
        "configs[0].actions[1]",
        "configs[1].actions[0]",
        "configs[1].tool",
        "inputs[0].default",
        "outputs[0].name",
    ]


def test_the_error_names_the_component_and_every_problem():
    with pytest.raises(ComponentValidationError) as caught:
        validate_component({"configs": [entry(["create"])], "inputs": 3}, name="appserver")
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.name == "appserver"
    text = str(error)
    assert text.startswith("software component 'appserver' is invalid (2 problems): ")
    assert "configs[0].actions[0]: " in text
    assert "inputs: " in text
    assert [p.to_dict()["path"] for p in error.problems] == ["configs[0].actions[0]", "inputs"]


def test_paths_quote_keys_that_are_not_plain_names():
    problem = only({"configs": [entry()], "my option": 1})
    assert problem.location.path == '["my option"]'
    problem = only({"configs": [entry()], 3: 1})
    assert problem.location.path == "[3]"


def test_type_problem_knows_every_declared_type():
    from onespec.definitions.components import INPUT_TYPES

    for input_type in INPUT_TYPES:
        assert type_problem(input_type.name, None) is None
        assert "unknown type" not in (type_problem(input_type.name, object()) or "")


# --- Properties: only the documented error -------------------------------------------------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(["CREATE", "UPDATE", "QUIESCE", "script", "puppet", "component", "#!/bin/sh"]),
)
_keys = st.one_of(
    st.sampled_from(
        [
            "configs",
            "actions",
            "config",
            "tool",
            "inputs",
            "outputs",
            "options",
            "name",
            "type",
            "default",
            "description",
            "replace_on_change",
            "error_output",
            "String",
            "Number",
            "Boolean",
            "Json",
            "CommaDelimitedList",
            "script",
            "puppet",
        ]
    ),
    st.text(max_size=8),
    st.integers(),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(_keys, inner, max_size=5),
        st.builds(lambda raw: Unresolved("get_attr", raw), inner),
    ),
    max_leaves=30,
)
_entries = st.fixed_dictionaries(
    {},
    optional={
        "actions": st.one_of(
            st.lists(st.sampled_from(["CREATE", "UPDATE", "DELETE", "X_1", "create"]), max_size=3),
            _values,
        ),
        "config": st.one_of(st.sampled_from(["#!/bin/sh\n", "x", ""]), _values),
        "tool": st.one_of(st.sampled_from(["script", "chef", "a/b", "component"]), _values),
    },
)
_components = st.one_of(
    _values,
    st.fixed_dictionaries(
        {"configs": st.one_of(st.lists(_entries, max_size=4), _values)},
        optional={
            "inputs": st.one_of(
                st.lists(
                    st.fixed_dictionaries(
                        {"name": st.one_of(st.sampled_from(["a", "b", "deploy_action"]), _values)},
                        optional={
                            "type": st.one_of(
                                st.sampled_from(["String", "Number", "Boolean", "Json"]), _values
                            ),
                            "default": _values,
                            "replace_on_change": _values,
                        },
                    ),
                    max_size=3,
                ),
                _values,
            ),
            "outputs": _values,
            "options": _values,
        },
    ),
)


@given(_components)
def test_validate_component_returns_a_component_or_raises_the_documented_error(properties):
    try:
        component = validate_component(properties, name="c")
    except ComponentValidationError as error:
        assert error.problems, "an error without problems"
        for problem in error.problems:
            assert isinstance(problem.location.path, str)
            assert problem.code
            assert problem.message.endswith((".", "?"))
        return
    assert isinstance(component, Component)
    # A valid component's actions each belong to exactly one config.
    for action in component.actions:
        owners = [i for i, e in enumerate(component.configs) if action in e.actions]
        assert owners == [component.config_for(action)]
