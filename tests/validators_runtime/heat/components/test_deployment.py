"""``build_deployment_config``: what a deployment delivers for each action, and when it runs."""

from __future__ import annotations

import json
import uuid

import pytest

from onespec.validators_runtime.heat.components import (
    ComponentValidationError,
    DeploymentConfig,
    Unresolved,
    build_deployment_config,
    validate_component,
)

PROPERTIES = {
    "configs": [
        {"actions": ["CREATE"], "config": "#!/bin/bash\n# install\n", "tool": "script"},
        {"actions": ["UPDATE"], "config": "#!/bin/bash\n# reconfigure\n", "tool": "script"},
        {"actions": ["SUSPEND", "QUIESCE"], "config": "drain", "tool": "ansible"},
    ],
    "inputs": [
        {"name": "http_port", "type": "Number", "default": 8080},
        {"name": "https_port"},
        {"name": "debug", "type": "Boolean", "default": False, "replace_on_change": True},
    ],
    "outputs": [{"name": "root_url"}, {"name": "failure", "error_output": True}],
    "options": {"ansible": {"become": True}},
}


def build(action: str = "CREATE", **kwargs) -> DeploymentConfig:
    kwargs.setdefault("server_id", "9f1c")
    kwargs.setdefault("input_values", {"https_port": 8443})
    return build_deployment_config(
        validate_component(PROPERTIES, name="appserver-config"), action=action, **kwargs
    )


def inputs(derived: DeploymentConfig) -> dict:
    return {item["name"]: item["value"] for item in derived.document["inputs"]}


def test_the_document_holds_every_config_and_group_component():
    derived = build(config_id="c0ffee", resource_name="appserver-deployment")
    document = derived.document
    assert document["id"] == "c0ffee"
    assert document["name"] == "appserver-deployment"
    assert document["group"] == "component"
    assert document["config"] == {"configs": PROPERTIES["configs"]}
    assert document["outputs"] == [
        {"name": "root_url", "description": None, "type": "String", "error_output": False},
        {"name": "failure", "description": None, "type": "String", "error_output": True},
    ]
    assert document["options"] == {"ansible": {"become": True}}
    json.loads(derived.to_json())  # plain JSON


def test_inputs_carry_values_then_the_deploy_inputs_including_action_and_status():
    derived = build(
        "UPDATE",
        status="IN_PROGRESS",
        stack_id="stack/1234",
        resource_name="appserver-deployment",
        signal_transport="NO_SIGNAL",
    )
    names = [item["name"] for item in derived.document["inputs"]]
    assert names == [
        "http_port",
        "https_port",
        "debug",
        "deploy_server_id",
        "deploy_action",
        "deploy_status",
        "deploy_stack_id",
        "deploy_resource_name",
        "deploy_signal_transport",
    ]
    assert inputs(derived) == {
        "http_port": 8080,  # the default
        "https_port": 8443,  # the deployment's value
        "debug": False,
        "deploy_server_id": "9f1c",
        "deploy_action": "UPDATE",
        "deploy_status": "IN_PROGRESS",
        "deploy_stack_id": "stack/1234",
        "deploy_resource_name": "appserver-deployment",
        "deploy_signal_transport": "NO_SIGNAL",
    }
    declared = derived.document["inputs"][2]
    assert declared == {
        "name": "debug",
        "description": None,
        "type": "Boolean",
        "default": False,
        "replace_on_change": True,
        "value": False,
    }
    deploy_action = derived.document["inputs"][4]
    assert deploy_action["type"] == "String"
    assert "action" in deploy_action["description"]


def test_an_undeclared_value_becomes_a_string_input():
    derived = build(input_values={"https_port": 1, "extra": "x"})
    extra = next(item for item in derived.document["inputs"] if item["name"] == "extra")
    assert extra == {"name": "extra", "description": None, "type": "String", "value": "x"}


def test_each_transport_adds_what_heat_adds_with_placeholders():
    cfn = inputs(build())  # CFN_SIGNAL, Heat's default
    assert cfn["deploy_signal_verb"] == "POST"
    assert cfn["deploy_signal_id"].startswith("<signed CFN signal URL")
    assert inputs(build(signal_id="https://heat/signal"))["deploy_signal_id"] == (
        "https://heat/signal"
    )
    heat = inputs(build(signal_transport="HEAT_SIGNAL"))
    assert "deploy_signal_id" not in heat and "deploy_queue_id" not in heat
    assert heat["deploy_password"] == "<password: set by Heat>"  # noqa: S105 - a placeholder
    assert "deploy_queue_id" in inputs(build(signal_transport="ZAQAR_SIGNAL"))
    none = inputs(build(signal_transport="NO_SIGNAL"))
    assert not {"deploy_signal_id", "deploy_signal_verb", "deploy_auth_url"} & set(none)


def test_the_id_defaults_to_a_new_uuid():
    first, second = build().document["id"], build().document["id"]
    assert first != second
    uuid.UUID(first)


@pytest.mark.parametrize(
    ("action", "selected", "tool"),
    [
        ("CREATE", 0, "script"),
        ("UPDATE", 1, "script"),
        ("SUSPEND", 2, "ansible"),
        ("QUIESCE", 2, "ansible"),
    ],
)
def test_which_config_runs(action, selected, tool):
    derived = build(action)
    assert derived.triggers is True
    assert derived.selected == selected
    assert derived.tool == tool
    assert inputs(derived)["deploy_action"] == action


@pytest.mark.parametrize("action", ["RESUME", "DELETE", "EVACUATE"])
def test_an_action_without_a_config_does_not_trigger(action):
    derived = build(action)
    assert derived.triggers is False
    assert derived.selected is None
    assert derived.tool is None
    assert derived.trigger_actions == ("CREATE", "UPDATE", "SUSPEND", "QUIESCE")


def test_raw_properties_are_validated_first():
    derived = build_deployment_config(PROPERTIES, action="CREATE", server_id="s", name="x")
    assert derived.component.name == "x"
    with pytest.raises(ComponentValidationError) as caught:
        build_deployment_config({"configs": []}, action="CREATE", server_id="s")
    assert caught.value.problems[0].location.path == "configs"


@pytest.mark.parametrize(
    ("kwargs", "path", "code"),
    [
        ({"action": "create"}, "action", "invalid-action"),
        ({"status": "DONE"}, "status", "invalid-value"),
        ({"signal_transport": "PIGEON"}, "signal_transport", "invalid-value"),
        ({"server_id": 3}, "server_id", "wrong-type"),
        ({"config_id": "../../etc/passwd"}, "config_id", "invalid-value"),
        ({"input_values": ["x"]}, "input_values", "wrong-type"),
        ({"input_values": {"http_port": "eighty"}}, "input_values.http_port", "invalid-value"),
        ({"input_values": {"debug": "perhaps"}}, "input_values.debug", "invalid-value"),
        ({"input_values": {"deploy_action": "x"}}, "input_values.deploy_action", "reserved-name"),
        ({"input_values": {"a=b": "x"}}, 'input_values["a=b"]', "invalid-name"),
    ],
)
def test_invalid_arguments_are_reported_with_their_path(kwargs, path, code):
    action = kwargs.pop("action", "CREATE")
    with pytest.raises(ComponentValidationError) as caught:
        build(action, **kwargs)
    assert [(p.location.path, p.code) for p in caught.value.problems] == [(path, code)]
    assert str(caught.value).startswith(
        "the deployment of software component 'appserver-config' is invalid (1 problem): "
    )


def test_values_of_the_right_type_in_another_form_are_accepted():
    derived = build(input_values={"http_port": "9090", "debug": "yes"})
    assert inputs(derived)["http_port"] == "9090"
    assert inputs(derived)["debug"] == "yes"


def test_unresolved_values_pass_and_are_serialised_as_written():
    value = Unresolved("get_attr", {"get_attr": ["db", "port"]})
    derived = build(input_values={"http_port": value})
    assert json.loads(derived.to_json())["inputs"][0]["value"] == {"get_attr": ["db", "port"]}
