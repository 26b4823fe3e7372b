"""The vocabulary of ``OS::Heat::SoftwareComponent``: lifecycle actions, tools, the grammar.

A software component (the seed ``action-aware-sw-config``) keeps one configuration per lifecycle
action of one piece of software -- install on CREATE, reconfigure on UPDATE, drain on SUSPEND --
in a single resource. A ``OS::Heat::SoftwareDeployment`` hands all of them to the server, with the
action and status it is running, and the hook on the server picks the configuration to apply.

Every fact about that contract is stated here, once: the actions (when each fires and what the
hook receives), the statuses, the tools, the shape of the properties and of their entries, the
input types, what a deployment adds to the inputs and what the hook answers. The JSON Schema, the
reference documentation and the runtime's validator and hook are generated from it; the runtime
reads it through ``src/onespec/validators_runtime/_generated/components.py``, written by
:mod:`onespec.generator.components.runtime`.

Descriptions are reStructuredText; the generators strip the markup where plain text is needed.
Like :mod:`onespec.definitions.model`, this module uses the standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable

from onespec.definitions.component_vocabulary import (
    _TOOL,
    DEFAULT_INPUT_TYPE,
    DeployStatus,
    DeployValue,
    Field,
    InputType,
    LifecycleAction,
    Shape,
    StatusCode,
    Tool,
)
from onespec.definitions.model import FALSE_STRINGS, TRUE_STRINGS, DefinitionError

#: The resource type the properties belong to.
RESOURCE_TYPE = "OS::Heat::SoftwareComponent"

#: The resource type that delivers a component to a server.
DEPLOYMENT_TYPE = "OS::Heat::SoftwareDeployment"

#: The ``group`` of the derived config a deployment of a component delivers: the name of the
#: heat-config hook that receives it.
GROUP = "component"

#: Where heat-config looks for its hooks on a server (``HEAT_CONFIG_HOOKS`` overrides it there).
HOOKS_DIR = "/var/lib/heat-config/hooks"


#: A decimal number written as a string: what a ``Number`` input accepts besides a JSON number.
NUMBER_PATTERN = r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"

#: An id the hook may use as a file name (a UUID, as Heat gives every derived config, fits).
CONFIG_ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}"

#: The intrinsic functions of HOT (every template version). A mapping with one of these as its
#: only key is a value Heat computes; a static check cannot know it, except for ``get_file`` and
#: ``get_param``, which ``onespec component`` resolves.
HOT_FUNCTIONS: tuple[str, ...] = (
    "and",
    "contains",
    "digest",
    "equals",
    "filter",
    "get_attr",
    "get_file",
    "get_param",
    "get_resource",
    "if",
    "list_concat",
    "list_concat_unique",
    "list_join",
    "make_url",
    "map_merge",
    "map_replace",
    "not",
    "or",
    "repeat",
    "resource_facade",
    "str_replace",
    "str_replace_strict",
    "str_replace_vstrict",
    "str_split",
    "yaql",
)


# --- Lifecycle actions and statuses --------------------------------------------------------------


ACTIONS: tuple[LifecycleAction, ...] = (
    LifecycleAction(
        "CREATE",
        "Install: the first configuration a server receives.",
        fires=(
            "When the stack creates the deployment, after the server it deploys to has been "
            "created: the configuration runs the first time the server's agent collects its "
            "metadata. A deployment that is replaced is created anew, so CREATE fires again on "
            "the replacement — that is what happens when an input marked ``replace_on_change`` "
            "changes value."
        ),
        hook_receives=(
            "``deploy_action`` ``CREATE`` and ``deploy_status`` ``IN_PROGRESS``, every input with "
            "its value, the outputs to collect and every config of the component; the hook runs "
            "the config whose ``actions`` list ``CREATE``. The stack waits for the result: a "
            "non-zero ``deploy_status_code`` fails the create."
        ),
    ),
    LifecycleAction(
        "UPDATE",
        "Reconfigure: a stack update changed the deployment.",
        fires=(
            "When a stack update changes the deployment: its input values, the component's "
            "properties or the server it deploys to. A change of an input marked "
            "``replace_on_change`` replaces the deployment instead, which fires DELETE on the old "
            "deployment and CREATE on the new one."
        ),
        hook_receives=(
            "``deploy_action`` ``UPDATE`` and ``deploy_status`` ``IN_PROGRESS`` with the *new* "
            "input values; the hook runs the config whose ``actions`` list ``UPDATE``. Outputs "
            "the run writes replace the previous ones."
        ),
    ),
    LifecycleAction(
        "DELETE",
        "Clean up: the deployment is about to go.",
        fires=(
            "When the stack deletes the deployment: a stack delete, an update that removes the "
            "deployment, or its replacement. The deployment depends on its server, so the server "
            "still runs: a DELETE config can deregister it, flush data or release a licence "
            "before the server is deleted. Without a DELETE config Heat deletes the deployment "
            "at once, without waiting for the server."
        ),
        hook_receives=(
            "``deploy_action`` ``DELETE`` and ``deploy_status`` ``IN_PROGRESS`` with the last "
            "input values; the hook runs the config whose ``actions`` list ``DELETE``."
        ),
    ),
    LifecycleAction(
        "SUSPEND",
        "Quiesce: the stack is being suspended.",
        fires=(
            "When the stack is suspended. Heat suspends the deployment before the server it "
            "depends on, so the server still runs: a SUSPEND config can drain sessions or stop "
            "services cleanly."
        ),
        hook_receives=(
            "``deploy_action`` ``SUSPEND`` and ``deploy_status`` ``IN_PROGRESS`` with the "
            "current input values; the hook runs the config whose ``actions`` list ``SUSPEND``."
        ),
    ),
    LifecycleAction(
        "RESUME",
        "Wake up: a suspended stack is being resumed.",
        fires=(
            "When a suspended stack is resumed, after the server has been resumed (Heat "
            "resumes what the deployment depends on first)."
        ),
        hook_receives=(
            "``deploy_action`` ``RESUME`` and ``deploy_status`` ``IN_PROGRESS`` with the "
            "current input values; the hook runs the config whose ``actions`` list ``RESUME``."
        ),
    ),
)

#: The actions of an entry that does not list its own.
DEFAULT_ACTIONS: tuple[str, ...] = ("CREATE", "UPDATE")

#: What an upper-case name that is not a standard action means.
EXTENDED_ACTIONS = (
    "Any other upper-case name (``QUIESCE``, ``EVACUATE``, ``UPGRADE``) is an extended "
    "action. Heat never fires one by itself: a deployment passes it as ``deploy_action`` when it "
    "is asked to, and the hook then runs the config that lists it, like any other. Heat's other "
    "resource actions (``CHECK``, ``SNAPSHOT``, ``ADOPT``, ``ROLLBACK``, ``INIT``) never reach a "
    "deployment as such: a rollback runs as an update or a delete."
)


STATUSES: tuple[DeployStatus, ...] = (
    DeployStatus(
        "IN_PROGRESS",
        "The action is running and the deployment waits for the hook's result: the status every "
        "action is delivered with.",
    ),
    DeployStatus(
        "COMPLETE",
        "The action has completed. A hook sees it only when the metadata of a finished "
        "deployment is delivered again; it has nothing left to do.",
    ),
    DeployStatus(
        "FAILED",
        "The action has failed. A hook sees it only when the metadata of a failed deployment is "
        "delivered again.",
    ),
)

DEFAULT_STATUS = "IN_PROGRESS"


# --- Tools ---------------------------------------------------------------------------------------


TOOLS: tuple[Tool, ...] = (
    Tool(
        "script",
        "The config is a program: it is written to a file and run as an executable, so it "
        "starts with ``#!`` and its interpreter (``#!/bin/bash``). Each input is an environment "
        "variable of the same name; ``heat_outputs_path`` names the file prefix outputs are "
        "written to (``$heat_outputs_path.root_url``). A non-zero exit status fails the "
        "deployment.",
        builtin=True,
    ),
)

#: What happens to a tool the hook does not know itself.
DISPATCHED_TOOLS = (
    "Any other tool names a heat-config hook installed on the server: the hook of that name in "
    "the hooks directory receives the same JSON, narrowed to the chosen config (``config`` is "
    "that entry's text and ``group`` the tool) and to that tool's options, and answers as every "
    "heat-config hook does. The hooks of heat-agents (``puppet``, ``ansible``, ``salt``, "
    "``chef``, ...) work unchanged."
)


# --- The grammar of the properties ---------------------------------------------------------------


INPUT_TYPES: tuple[InputType, ...] = (
    InputType(
        "String",
        "A string. A number is accepted too (a port written ``8080``); a boolean is not, "
        "because YAML reads an unquoted ``yes`` or ``off`` as one: quote it.",
        "As written; a number as its decimal text.",
    ),
    InputType(
        "Number",
        'A number, or a string holding a decimal number such as ``"8080"`` or ``"0.5"``.',
        "Its decimal text (``8080``, ``0.5``).",
    ),
    InputType(
        "CommaDelimitedList",
        "A list of strings or numbers, or one string of comma-separated items.",
        'A list as JSON text (``["a", "b"]``); a string as written.',
    ),
    InputType(
        "Json",
        "A mapping or a list, or a string holding one as JSON text.",
        "JSON text.",
    ),
    InputType(
        "Boolean",
        "``true`` or ``false``; also ``yes``/``no``, ``on``/``off``, ``1``/``0``, ``t``/``f`` "
        "and ``y``/``n`` as strings, in any case, and the numbers 1 and 0.",
        "``true`` or ``false``.",
    ),
)


#: The spellings a ``Boolean`` input accepts as a string, after stripping and lower-casing.
BOOLEAN_TRUE: frozenset[str] = TRUE_STRINGS
BOOLEAN_FALSE: frozenset[str] = FALSE_STRINGS

_TYPE_NAMES = tuple(t.name for t in INPUT_TYPES)

CONFIG_ENTRY = Shape(
    "config",
    "A ``configs`` entry",
    "One configuration of the component and the actions it is applied for.",
    (
        Field(
            "actions",
            "list",
            "The lifecycle actions this configuration is applied for: standard actions (CREATE, "
            "DELETE, SUSPEND, RESUME, UPDATE) or extended ones. An action may appear in one "
            "entry only, and once: the order of two configurations for one action would be "
            "undefined. Defaults to CREATE and UPDATE — so two entries that both leave it out "
            "clash.",
            default=DEFAULT_ACTIONS,
            items="action",
            min_items=1,
        ),
        Field(
            "config",
            "string",
            "The configuration itself, as the tool reads it: for the ``script`` tool a program "
            "starting with ``#!``. Usually ``{get_file: scripts/install.sh}``.",
            default="",
        ),
        Field(
            "tool",
            "string",
            "The tool that applies the configuration on the server: ``script``, or the name of "
            "a heat-config hook installed there (``puppet``, ``ansible``, ...). The name of a "
            "hook file: letters, digits, ``_``, ``.`` and ``-``, starting with a letter or digit.",
            required=True,
        ),
    ),
)

INPUT = Shape(
    "input",
    "An input",
    "A value the deployment passes to every configuration of the component.",
    (
        Field(
            "name",
            "string",
            "The input's name; for the ``script`` tool, the name of an environment variable. "
            "Unique among the inputs; the names the deployment adds (``deploy_action``, ...) and "
            "``heat_outputs_path`` are taken.",
            required=True,
        ),
        Field("description", "string", "What the input is for."),
        Field(
            "type",
            "string",
            "What the value may be.",
            default=DEFAULT_INPUT_TYPE,
            choices=_TYPE_NAMES,
        ),
        Field(
            "default",
            "any",
            "The value when the deployment gives none; it must fit the type.",
        ),
        Field(
            "replace_on_change",
            "boolean",
            "Whether a change of this input's value replaces the deployment (DELETE, then "
            "CREATE on the new one) instead of updating it (UPDATE).",
            default=False,
        ),
    ),
)

OUTPUT = Shape(
    "output",
    "An output",
    "A value the configurations report back; the deployment exposes it as an attribute.",
    (
        Field(
            "name",
            "string",
            "The output's name, unique among the outputs; the ``script`` tool reads it from the "
            "file ``$heat_outputs_path.NAME``, so it holds no ``/``. The names of the hook's own "
            "result keys (``deploy_stdout``, ...) are taken.",
            required=True,
        ),
        Field("description", "string", "What the output holds."),
        Field(
            "type",
            "string",
            "The type of the value.",
            default=DEFAULT_INPUT_TYPE,
            choices=_TYPE_NAMES,
        ),
        Field(
            "error_output",
            "boolean",
            "Whether a value for this output means the run failed: the configuration writes it "
            "to report an error, and the deployment fails with the value as its reason.",
            default=False,
        ),
    ),
)

PROPERTIES = Shape(
    "properties",
    "The properties",
    "The properties of an ``OS::Heat::SoftwareComponent`` resource.",
    (
        Field(
            "configs",
            "list",
            "The configurations of the component's lifecycle actions, at least one.",
            required=True,
            items="config",
            min_items=1,
        ),
        Field(
            "inputs",
            "list",
            "The inputs of every configuration: one set for the whole component, the union of "
            "what each configuration needs.",
            items="input",
        ),
        Field(
            "outputs",
            "list",
            "The outputs of every configuration, for the whole component.",
            items="output",
        ),
        Field(
            "options",
            "map",
            "Options for the tools, the same for every configuration, passed through whole: "
            "Heat delivers them unchanged in the derived config, and heat-agents and onespec's "
            "hook hand them unchanged to the hook of the chosen configuration's tool, which "
            "reads the keys it knows. Nothing is namespaced, narrowed or dropped.",
        ),
    ),
)

SHAPES: tuple[Shape, ...] = (PROPERTIES, CONFIG_ENTRY, INPUT, OUTPUT)


# --- What a deployment adds, and what the hook answers -------------------------------------------


#: The inputs a deployment adds after the component's own, in this order.
DEPLOY_INPUTS: tuple[DeployValue, ...] = (
    DeployValue("deploy_server_id", "ID of the server being deployed to."),
    DeployValue(
        "deploy_action",
        "Name of the current action being deployed: a standard or an extended action. The hook "
        "runs the config that lists it.",
    ),
    DeployValue(
        "deploy_status",
        "Status of the current action: ``IN_PROGRESS`` while the deployment waits for the hook.",
    ),
    DeployValue("deploy_stack_id", "ID of the stack this deployment belongs to."),
    DeployValue("deploy_resource_name", "Name of this deployment resource in the stack."),
    DeployValue(
        "deploy_signal_transport",
        "How the server should signal to Heat with the deployment output values.",
    ),
    DeployValue(
        "deploy_signal_id",
        "Where the server signals the result to: a signed URL, for ``CFN_SIGNAL`` and "
        "``TEMP_URL_SIGNAL``.",
        always=False,
    ),
    DeployValue(
        "deploy_signal_verb",
        "The HTTP method of the signal: ``POST`` for ``CFN_SIGNAL``, ``PUT`` for "
        "``TEMP_URL_SIGNAL``.",
        always=False,
    ),
    DeployValue(
        "deploy_auth_url",
        "Keystone's URL, for ``HEAT_SIGNAL`` and ``ZAQAR_SIGNAL``.",
        always=False,
    ),
    DeployValue(
        "deploy_username",
        "The stack domain user that signals, for ``HEAT_SIGNAL`` and ``ZAQAR_SIGNAL``.",
        always=False,
    ),
    DeployValue(
        "deploy_user_id",
        "That user's ID, for ``HEAT_SIGNAL`` and ``ZAQAR_SIGNAL``.",
        always=False,
    ),
    DeployValue(
        "deploy_password",
        "That user's password, for ``HEAT_SIGNAL`` and ``ZAQAR_SIGNAL``.",
        always=False,
    ),
    DeployValue(
        "deploy_project_id",
        "The stack's user project, for ``HEAT_SIGNAL`` and ``ZAQAR_SIGNAL``.",
        always=False,
    ),
    DeployValue(
        "deploy_region_name",
        "The region, for ``HEAT_SIGNAL`` and ``ZAQAR_SIGNAL`` when the cloud names one.",
        always=False,
    ),
    DeployValue(
        "deploy_queue_id",
        "The Zaqar queue the server posts the result to, for ``ZAQAR_SIGNAL``.",
        always=False,
    ),
)

_CREDENTIALS: tuple[tuple[str, str], ...] = (
    ("deploy_auth_url", "<keystone URL: set by Heat>"),
    ("deploy_username", "<stack domain user: set by Heat>"),
    ("deploy_user_id", "<stack domain user ID: set by Heat>"),
    ("deploy_password", "<password: set by Heat>"),
    ("deploy_project_id", "<stack user project ID: set by Heat>"),
    ("deploy_region_name", "<region: set by Heat>"),
)

#: The inputs Heat's ``SoftwareDeployment`` adds for each signal transport, after
#: ``deploy_signal_transport``, in its order, with the placeholder ``onespec component
#: metadata`` shows where Heat puts a URL or a credential (checked against Heat's own code in
#: ``tests/peers/heat_derived_inputs.py``).
SIGNAL_INPUTS: dict[str, tuple[tuple[str, str], ...]] = {
    "CFN_SIGNAL": (
        ("deploy_signal_id", "<signed CFN signal URL: set by Heat>"),
        ("deploy_signal_verb", "POST"),
    ),
    "TEMP_URL_SIGNAL": (
        ("deploy_signal_id", "<Swift TempURL: set by Heat>"),
        ("deploy_signal_verb", "PUT"),
    ),
    "HEAT_SIGNAL": _CREDENTIALS,
    "ZAQAR_SIGNAL": (*_CREDENTIALS, ("deploy_queue_id", "<Zaqar queue ID: set by Heat>")),
    "NO_SIGNAL": (),
}

#: The keys of the hook's result besides the outputs.
HOOK_RESULT: tuple[DeployValue, ...] = (
    DeployValue("deploy_stdout", "What the configuration printed on standard output."),
    DeployValue("deploy_stderr", "What it printed on standard error, and the hook's own notes."),
    DeployValue(
        "deploy_status_code",
        "0 when the configuration succeeded; otherwise the program's exit status or one of the "
        "codes below. Anything but 0 fails the deployment.",
        type="Integer",
    ),
)


HOOK_STATUS_CODES: tuple[StatusCode, ...] = (
    StatusCode("succeeded", 0, "The configuration succeeded, or no config handles the action."),
    StatusCode(
        "failed",
        1,
        "The configuration could not run (no hook for its tool, a program that cannot start, "
        "input that is not a derived config), or an output marked ``error_output`` has a value.",
    ),
    StatusCode("usage", 2, "The hook was called with invalid options."),
    StatusCode(
        "timed-out",
        124,
        "The configuration ran longer than the hook's ``--timeout``; its whole process group "
        "was killed.",
    ),
)

#: How a program killed by signal N is reported: 128 + N, as a shell reports it.
SIGNAL_STATUS_BASE = 128

#: The environment variable the ``script`` tool names the outputs' file prefix in.
OUTPUTS_PATH_VARIABLE = "heat_outputs_path"

#: The transports a deployment signals its result by (``signal_transport``).
SIGNAL_TRANSPORTS: tuple[str, ...] = (
    "CFN_SIGNAL",
    "TEMP_URL_SIGNAL",
    "HEAT_SIGNAL",
    "ZAQAR_SIGNAL",
    "NO_SIGNAL",
)
DEFAULT_SIGNAL_TRANSPORT = "CFN_SIGNAL"
if set(SIGNAL_INPUTS) != set(SIGNAL_TRANSPORTS) or not {
    name for values in SIGNAL_INPUTS.values() for name, _ in values
} <= {value.name for value in DEPLOY_INPUTS}:
    raise DefinitionError("SIGNAL_INPUTS must cover every transport, with deploy inputs only")

#: Input names a component may not declare: the deployment or the ``script`` tool sets them.
RESERVED_INPUT_NAMES: tuple[str, ...] = (
    *(value.name for value in DEPLOY_INPUTS),
    OUTPUTS_PATH_VARIABLE,
)

#: Output names a component may not declare: the hook's result uses them.
RESERVED_OUTPUT_NAMES: tuple[str, ...] = tuple(value.name for value in HOOK_RESULT)


# --- Lookups -------------------------------------------------------------------------------------


def action(name: str) -> LifecycleAction:
    """The standard action ``name``; ``KeyError`` for any other."""
    for candidate in ACTIONS:
        if candidate.name == name:
            return candidate
    raise KeyError(name)


def standard_action_names() -> tuple[str, ...]:
    return tuple(a.name for a in ACTIONS)


def shape(name: str) -> Shape:
    """The shape ``name`` (``properties``, ``config``, ``input``, ``output``)."""
    for candidate in SHAPES:
        if candidate.name == name:
            return candidate
    raise KeyError(name)


def check(shapes: Iterable[Shape] = SHAPES) -> None:
    """Check that the vocabulary holds together: every list's items name something known."""
    known = {s.name for s in shapes} | {"string", "action"}
    for each in shapes:
        for item in each.fields:
            if item.items is not None and item.items not in known:
                raise DefinitionError(
                    f"items {item.items!r} names no shape", name=each.name, field=item.name
                )
    for name in DEFAULT_ACTIONS:
        action(name)
    if DEFAULT_STATUS not in {s.name for s in STATUSES}:
        raise DefinitionError(f"the default status {DEFAULT_STATUS!r} is not a status")
    if DEFAULT_SIGNAL_TRANSPORT not in SIGNAL_TRANSPORTS:
        raise DefinitionError(f"the default transport {DEFAULT_SIGNAL_TRANSPORT!r} is unknown")
    for value in (*DEPLOY_INPUTS, *HOOK_RESULT):
        if value.type not in (*_TYPE_NAMES, "Integer"):
            raise DefinitionError(f"unknown type {value.type!r}", name=value.name, field="type")
    codes = [c.code for c in HOOK_STATUS_CODES]
    if len(set(codes)) != len(codes) or codes[0] != 0:
        raise DefinitionError("hook status codes are unique, and the first is 0 (success)")
    if GROUP in {t.name for t in TOOLS} or not _TOOL.fullmatch(GROUP):
        raise DefinitionError(f"the group {GROUP!r} must be a hook name and not a tool")


check()
