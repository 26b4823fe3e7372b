"""What a deployment of a software component delivers to its server, for one action.

Heat's ``OS::Heat::SoftwareDeployment`` stores a *derived config* for every action it runs and
puts it in the server's metadata, where heat-config hands it to the hook named by its ``group``.
For a component that is the whole ``configs`` list -- the hook picks the entry itself -- with the
inputs and their values, to which the deployment adds ``deploy_action``, ``deploy_status`` and the
other ``deploy_*`` values. The deployment runs only for the actions some config handles, so it
never waits for a server that has nothing to do.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from onespec.validators_runtime._generated import components as facts
from onespec.validators_runtime.heat.components.model import (
    Component,
    ComponentValidationError,
    Problem,
    Unresolved,
    json_default,
    problem_at,
)
from onespec.validators_runtime.heat.components.validation import (
    child,
    type_problem,
    validate_component,
)

_ACTION = re.compile(facts.ACTION_PATTERN)
_CONFIG_ID = re.compile(facts.CONFIG_ID_PATTERN)


@dataclass(frozen=True, eq=False)
class DeploymentConfig:
    """The derived config of one deployment action, and whether the deployment runs at all.

    ``document`` is what the server receives (the hook's standard input). ``trigger_actions`` are
    the actions some config handles; for any other action Heat does not run the deployment and
    ``triggers`` is False. ``selected`` is the index of the config the hook will run.
    """

    component: Component
    action: str
    status: str
    document: dict[str, Any]
    trigger_actions: tuple[str, ...]
    selected: int | None

    @property
    def triggers(self) -> bool:
        return self.action in self.trigger_actions

    @property
    def tool(self) -> str | Unresolved | None:
        """The tool of the config the hook will run, or None when none handles the action."""
        if self.selected is None:
            return None
        return self.component.configs[self.selected].tool

    def to_json(self, *, indent: int | None = 2) -> str:
        """The document as JSON; unresolved values are written as the template has them."""
        return json.dumps(self.document, indent=indent, default=json_default)


def _input_document(
    name: str, type_name: str, value: Any, description: str | None = None
) -> dict[str, Any]:
    return {"name": name, "description": description, "type": type_name, "value": value}


def build_deployment_config(
    component: Component | Mapping[str, Any],
    *,
    action: str,
    status: str = facts.DEFAULT_STATUS,
    input_values: Mapping[str, Any] | None = None,
    server_id: str,
    stack_id: str = "",
    resource_name: str = "",
    signal_transport: str = facts.DEFAULT_SIGNAL_TRANSPORT,
    signal_id: str | None = None,
    config_id: str | None = None,
    name: str | None = None,
) -> DeploymentConfig:
    """The derived config a deployment of ``component`` delivers for ``action``.

    ``component`` is a validated :class:`Component` or the raw properties (validated here).
    ``input_values`` are the deployment's values by input name: a declared input without one gets
    its default, and a value for an undeclared name becomes a String input, as in Heat. Raises
    :class:`ComponentValidationError` when the component, the action, the status or a value is
    invalid -- with paths such as ``input_values.http_port``.
    """
    if not isinstance(component, Component):
        component = validate_component(component, name=name or resource_name or None)
    values = dict(input_values or {}) if isinstance(input_values, Mapping | None) else None
    problems = _problems(
        component, action, status, values, input_values, server_id, signal_transport, config_id
    )
    if problems:
        raise ComponentValidationError(
            problems,
            name=component.name,
            subject=f"the deployment of software component {component.name or '(unnamed)'!r}",
        )
    assert values is not None  # noqa: S101 - _problems reported anything else
    inputs: list[dict[str, Any]] = []
    for declared in component.inputs:
        item = declared.to_dict()
        # A name Heat computes when the stack runs (Unresolved) is never among the values given:
        # such an input gets its default.
        item["value"] = values.pop(declared.name, declared.default)  # type: ignore[arg-type]
        inputs.append(item)
    for undeclared, value in values.items():
        inputs.append(_input_document(undeclared, facts.DEFAULT_INPUT_TYPE, value))
    deploy_values = {
        "deploy_server_id": server_id,
        "deploy_action": action,
        "deploy_status": status,
        "deploy_stack_id": stack_id,
        "deploy_resource_name": resource_name,
        "deploy_signal_transport": signal_transport,
        # What Heat adds for the transport: placeholders where Heat puts URLs and credentials.
        **dict(facts.SIGNAL_INPUTS.get(signal_transport, ())),
    }
    if signal_id is not None and "deploy_signal_id" in deploy_values:
        deploy_values["deploy_signal_id"] = signal_id
    for input_name, description, type_name, always in facts.DEPLOY_INPUTS:
        if always or deploy_values.get(input_name) is not None:
            inputs.append(
                _input_document(input_name, type_name, deploy_values[input_name], description)
            )
    document = {
        "id": config_id or str(uuid.uuid4()),
        "name": name or resource_name or component.name or "",
        "group": facts.GROUP,
        "config": {"configs": [entry.to_dict() for entry in component.configs]},
        "inputs": inputs,
        "outputs": [output.to_dict() for output in component.outputs],
        "options": component.to_properties()["options"],
    }
    return DeploymentConfig(
        component, action, status, document, component.actions, component.config_for(action)
    )


def _problems(
    component: Component,
    action: Any,
    status: Any,
    values: dict[str, Any] | None,
    raw_values: Any,
    server_id: Any,
    signal_transport: Any,
    config_id: Any,
) -> list[Problem]:
    problems: list[Problem] = []
    if not isinstance(action, str) or not _ACTION.fullmatch(action):
        problems.append(
            problem_at(
                "action",
                "invalid-action",
                f"{action!r} is not an action: one of {', '.join(facts.STANDARD_ACTIONS)} or an "
                "extended action (an upper-case name).",
            )
        )
    if status not in facts.STATUSES:
        problems.append(
            problem_at(
                "status",
                "invalid-value",
                f"{status!r} is not a deployment status: one of {', '.join(facts.STATUSES)}.",
            )
        )
    if signal_transport not in facts.SIGNAL_TRANSPORTS:
        problems.append(
            problem_at(
                "signal_transport",
                "invalid-value",
                f"{signal_transport!r} is not a signal transport: one of "
                f"{', '.join(facts.SIGNAL_TRANSPORTS)}.",
            )
        )
    if not isinstance(server_id, str):
        problems.append(problem_at("server_id", "wrong-type", "The server ID must be a string."))
    if config_id is not None and (
        not isinstance(config_id, str) or not _CONFIG_ID.fullmatch(config_id)
    ):
        problems.append(
            problem_at(
                "config_id",
                "invalid-value",
                f"{config_id!r} is not a config id: up to 128 letters, digits, '_', '.' and '-', "
                "starting with a letter or digit (the hook uses it as a file name).",
            )
        )
    if values is None:
        problems.append(
            problem_at(
                "input_values",
                "wrong-type",
                f"The input values must be a mapping, not {raw_values!r}.",
            )
        )
        return problems
    declared = {item.name: item for item in component.inputs}
    for key, value in values.items():
        where = child("input_values", key)
        if not isinstance(key, str) or not key or "=" in key or "\0" in key:
            problems.append(
                problem_at(
                    where,
                    "invalid-name",
                    f"{key!r} cannot name an input: a non-empty string without '=' or NUL.",
                )
            )
        elif key in facts.RESERVED_INPUT_NAMES:
            problems.append(
                problem_at(where, "reserved-name", f"{key!r} is set by the deployment itself.")
            )
        elif key in declared and (reason := type_problem(declared[key].type, value)):
            problems.append(
                problem_at(
                    where,
                    "invalid-value",
                    f"The value {reason}, so it does not fit the type {declared[key].type} "
                    f"of the input {key!r}.",
                )
            )
    return problems
