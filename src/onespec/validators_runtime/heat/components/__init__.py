"""Software components that act on lifecycle actions: validation and deployment configs.

::

    from onespec.validators_runtime.heat.components import (
        ComponentValidationError, build_deployment_config, validate_component)

    component = validate_component(properties, name="appserver-config")
    component.actions            # ('CREATE', 'UPDATE', 'SUSPEND'): the actions a deployment runs
    component.extended_actions   # upper-case names that are not Heat's own actions

    derived = build_deployment_config(
        component, action="UPDATE", input_values={"http_port": 8080}, server_id=server.id)
    derived.document             # what the server's hook receives for UPDATE
    derived.triggers             # False when no config handles the action: nothing runs

:func:`validate_component` raises :class:`ComponentValidationError` (a ``ValueError``) whose
``problems`` list every problem, each with a JSON path (``configs[1].actions[0]``), a ``code``
and a message. The hook that runs on the server is
``onespec.validators_runtime.heat.components.hook`` (``onespec component hook``); reading HOT
templates is ``onespec.validators_runtime.heat.components.template``.

The vocabulary -- actions, tools, fields, input types -- is defined once in
``src/onespec/definitions/components.py`` and reaches the runtime as generated literals.
"""

from __future__ import annotations

from onespec.validators_runtime._generated import components as vocabulary
from onespec.validators_runtime.heat.components.deployment import (
    DeploymentConfig,
    build_deployment_config,
)
from onespec.validators_runtime.heat.components.model import (
    Component,
    ComponentError,
    ComponentValidationError,
    ConfigEntry,
    Input,
    Output,
    Problem,
    Unresolved,
    json_default,
    tool_options,
)
from onespec.validators_runtime.heat.components.validation import (
    type_problem,
    validate_component,
)

#: The standard lifecycle actions, in Heat's order.
STANDARD_ACTIONS: tuple[str, ...] = vocabulary.STANDARD_ACTIONS

#: The actions of a ``configs`` entry that lists none.
DEFAULT_ACTIONS: tuple[str, ...] = vocabulary.DEFAULT_ACTIONS

#: The resource type whose properties :func:`validate_component` checks.
RESOURCE_TYPE: str = vocabulary.RESOURCE_TYPE

__all__ = [
    "DEFAULT_ACTIONS",
    "RESOURCE_TYPE",
    "STANDARD_ACTIONS",
    "Component",
    "ComponentError",
    "ComponentValidationError",
    "ConfigEntry",
    "DeploymentConfig",
    "Input",
    "Output",
    "Problem",
    "Unresolved",
    "build_deployment_config",
    "json_default",
    "tool_options",
    "type_problem",
    "validate_component",
]
