"""``onespec component``: check software components, preview what a deployment delivers, and run
the heat-config hook that applies the config of each lifecycle action.

Exit codes: 0 ok, 1 invalid input (an invalid component or template, a failed run), 2 usage
error.
"""

from __future__ import annotations

import json
import os
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from onespec.validators_runtime import inputs
from onespec.validators_runtime._generated import components as facts
from onespec.validators_runtime.cli_grammar import (
    FORMAT_OPTION,
    PROGRAM_FORMATS,
    GrammarCommand,
    GrammarGroup,
    InputFile,
    Invalid,
    InvalidInput,
    echo_json,
    echo_report,
    format_option,
    listing,
)
from onespec.validators_runtime.heat.components.deployment import (
    DeploymentConfig,
    build_deployment_config,
)
from onespec.validators_runtime.heat.components.hook import (
    MAX_REQUEST,
    OUTPUTS_DIR,
    SCRIPT_OUTPUTS_DIR,
    SCRIPT_WORKING_DIR,
    USAGE,
    WORKING_DIR,
    HookSettings,
    dumps,
    failure,
    run_hook,
    run_script_hook,
)
from onespec.validators_runtime.heat.components.model import (
    Component,
    ComponentValidationError,
    Unresolved,
    json_default,
)
from onespec.validators_runtime.heat.components.template import Template, TemplateError
from onespec.validators_runtime.problems import Location, Problem


def _template_options(command: Callable[..., Any]) -> Callable[..., Any]:
    command = click.option(
        "-P",
        "--parameter",
        "parameters",
        multiple=True,
        metavar="NAME=VALUE",
        help="A value for a template parameter that get_param reads (repeatable); without "
        "one, a parameter's default is used.",
    )(command)
    return click.option(
        "--files-root",
        type=click.Path(file_okay=False, path_type=Path),
        help="The directory get_file may read under. [default: the template's directory]",
    )(command)


def _pairs(pairs: tuple[str, ...], hint: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint=hint)
        values[key] = value
    return values


def _load(path: Path, files_root: Path | None, parameters: tuple[str, ...]) -> Template:
    return Template.load(path, files_root=files_root, parameters=_pairs(parameters, "--parameter"))


def _names(items: Any) -> str:
    items = list(items)
    return ", ".join(items) if items else "none"


@click.group("component", cls=GrammarGroup)
def component() -> None:
    """Software components (OS::Heat::SoftwareComponent): one config per lifecycle action.

    \b
    Example:
      onespec component validate stack.yaml
      onespec component metadata stack.yaml --resource deployment --action UPDATE
      onespec component hook < derived-config.json
    """


# --- validate ----------------------------------------------------------------------------------


def _component_report(template: Template, name: str) -> dict[str, Any]:
    try:
        found: Component | None = template.component(name)
        problems = []
    except ComponentValidationError as exc:
        found = None
        problems = [problem.to_dict() for problem in exc.problems]
    return {
        "name": name,
        "valid": found is not None,
        "actions": list(found.actions) if found else [],
        "extended_actions": list(found.extended_actions) if found else [],
        "tools": list(found.tools) if found else [],
        "problems": problems,
    }


def _template_report(
    path: Path, files_root: Path | None, parameters: tuple[str, ...]
) -> dict[str, Any]:
    shown = inputs.STDIN_NAME if str(path) == "-" else str(path)
    try:
        template = _load(path, files_root, parameters)
    except TemplateError as exc:
        # ``error`` as before; ``problems`` in the one shape of a finding, as everywhere.
        where = Location(exc.path or shown, exc.line)
        problem = Problem("invalid-template", exc.reason, location=where)
        return {
            "template": shown,
            "valid": False,
            "error": str(exc),
            "problems": [problem.to_dict()],
            "components": [],
        }
    reports = [_component_report(template, name) for name in template.components()]
    return {
        "template": shown,
        "valid": all(report["valid"] for report in reports),
        "error": None,
        "problems": [],
        "components": reports,
    }


def _print_template(report: Mapping[str, Any]) -> None:
    name = report["template"]
    if report["error"]:
        click.echo(f"error: {report['error']}")
        return
    if not report["components"]:
        click.echo(f"{name}: no {facts.RESOURCE_TYPE} resources.")
    for item in report["components"]:
        if item["valid"]:
            text = (
                f"{name}: {item['name']}: valid; runs on {_names(item['actions'])} "
                f"with {_names(item['tools'])}"
            )
            if item["extended_actions"]:
                text += (
                    f"; extended actions {_names(item['extended_actions'])} run only when a "
                    "deployment passes them by name"
                )
            click.echo(text + ".")
        else:
            count = len(item["problems"])
            click.echo(
                f"{name}: {item['name']}: invalid ({count} problem{'s' if count != 1 else ''})"
            )
            for problem in item["problems"]:
                click.echo(
                    f"  error: [{problem['code']}] {problem['path'] or '(properties)'}: "
                    f"{problem['message']}"
                )


#: ``-f table|csv|value``: one row a component of each template, its problems in a cell.
_COMPONENT_ROWS = listing(
    "templates[].components", columns=("template", "name", "valid", "problems")
)


@component.command("validate")
@click.argument(
    "templates",
    nargs=-1,
    required=True,
    type=InputFile(path_type=Path),
)
@_template_options
@FORMAT_OPTION
def validate_command(
    templates: tuple[Path, ...],
    files_root: Path | None,
    parameters: tuple[str, ...],
    output_format: str,
) -> None:
    """Check every OS::Heat::SoftwareComponent resource of HOT TEMPLATES.

    Reports every problem with its path in the resource's properties, such as
    configs[1].actions[0]. get_file is read relative to the template (never outside
    --files-root); get_param takes -P values or the parameter's default; other functions are
    values Heat computes, accepted unchecked. Exits 0 when every component is valid, 1 when a
    component or a template is invalid.
    """
    reports = [_template_report(path, files_root, parameters) for path in templates]
    valid = all(report["valid"] for report in reports)
    if output_format != "text":
        echo_report({"valid": valid, "templates": reports}, _COMPONENT_ROWS)
    else:
        for report in reports:
            _print_template(report)
        checked = sum(len(report["components"]) for report in reports)
        invalid = sum(not item["valid"] for r in reports for item in r["components"])
        broken = sum(bool(report["error"]) for report in reports)
        summary = (
            f"{checked} component{'s' if checked != 1 else ''} checked in {len(reports)} "
            f"template{'s' if len(reports) != 1 else ''}: "
        )
        summary += "valid." if valid else f"{invalid} invalid, {broken} unreadable."
        click.echo(summary)
    if not valid:
        raise Invalid() from None


# --- metadata ----------------------------------------------------------------------------------


def _deployment_source(
    template: Template, name: str
) -> tuple[str, dict[str, Any], dict[str, Any], list[str]]:
    """(component name, input values, deployment settings, notes) of a deployment resource."""
    properties, _ = template.properties(name)
    properties = properties if isinstance(properties, Mapping) else {}
    config = properties.get("config")
    target = config.raw.get("get_resource") if isinstance(config, Unresolved) else None
    if not isinstance(target, str) or template.resource_type(target) != facts.RESOURCE_TYPE:
        raise click.BadParameter(
            f"the deployment {name!r} does not deploy a software component of this template "
            "(its config is not {get_resource: NAME} of an OS::Heat::SoftwareComponent)",
            param_hint="--resource",
        )
    values = properties.get("input_values") or {}
    if not isinstance(values, Mapping):
        values = {}
    settings: dict[str, Any] = {}
    server = properties.get("server")
    if isinstance(server, str):
        settings["server_id"] = server
    elif isinstance(server, Unresolved) and isinstance(server.raw.get("get_resource"), str):
        settings["server_id"] = server.raw["get_resource"]
    transport = properties.get("signal_transport")
    if transport in facts.SIGNAL_TRANSPORTS:
        settings["signal_transport"] = transport
    notes = []
    if properties.get("actions") is not None:
        notes.append(
            "The deployment's actions property is ignored: the component's configs say which "
            "actions it runs for."
        )
    return target, dict(values), settings, notes


def _print_metadata(derived: DeploymentConfig, resource: str, notes: list[str]) -> None:
    component = derived.component
    handled = derived.trigger_actions
    click.echo(
        f"{resource} deploys {component.name} ({facts.RESOURCE_TYPE}) for {derived.action} "
        f"({derived.status})."
    )
    if derived.selected is not None:
        click.echo(f"The hook runs configs[{derived.selected}] with the tool {derived.tool}.")
    else:
        click.echo(
            f"No config handles {derived.action}: Heat does not run the deployment for it, and "
            "a hook given this config does nothing."
        )
    others = [a for a in facts.STANDARD_ACTIONS if a not in handled]
    line = f"The deployment runs for {_names(handled)}"
    line += f"; not for {_names(others)}." if others else "."
    click.echo(line)
    for note in notes:
        click.echo(note)
    click.echo("Inputs:")
    for item in derived.document["inputs"]:
        value = json.dumps(item["value"], default=json_default)
        click.echo(f"  {item['name']} = {value}")
    outputs = [item["name"] for item in derived.document["outputs"]]
    click.echo(f"Outputs: {_names(outputs)}")


@component.command("metadata")
@click.argument(
    "template_path",
    metavar="TEMPLATE",
    type=InputFile(path_type=Path),
)
@click.option(
    "--resource",
    required=True,
    metavar="NAME",
    help="An OS::Heat::SoftwareDeployment that deploys a component (its input_values and server "
    "are used), or an OS::Heat::SoftwareComponent.",
)
@click.option(
    "--action", required=True, help="CREATE, UPDATE, DELETE, SUSPEND, RESUME or an extended action."
)
@click.option(
    "--status",
    type=click.Choice(list(facts.STATUSES)),
    default=facts.DEFAULT_STATUS,
    show_default=True,
    help="The deployment's status, passed as deploy_status.",
)
@click.option(
    "--input",
    "inputs",
    multiple=True,
    metavar="NAME=VALUE",
    help="An input value, overriding the deployment's (repeatable).",
)
@click.option("--server-id", help="deploy_server_id. [default: the deployment's server]")
@click.option(
    "--signal-transport",
    type=click.Choice(facts.SIGNAL_TRANSPORTS),
    help="How the server signals its result; adds the inputs Heat adds for it, with "
    "placeholders where Heat puts a URL or a credential. [default: the deployment's "
    f"signal_transport, else {facts.DEFAULT_SIGNAL_TRANSPORT}]",
)
@click.option("--stack-id", default="", help="deploy_stack_id.")
@click.option("--config-id", help="The derived config's id. [default: a new UUID]")
@_template_options
@format_option(choices=PROGRAM_FORMATS)  # the derived config, as the hook reads it
def metadata_command(
    template_path: Path,
    resource: str,
    action: str,
    status: str,
    inputs: tuple[str, ...],
    server_id: str | None,
    signal_transport: str | None,
    stack_id: str,
    config_id: str | None,
    files_root: Path | None,
    parameters: tuple[str, ...],
    output_format: str,
) -> None:
    """Show what a deployment delivers to its server for one action.

    With --format json, prints the derived config exactly as the server's hook receives it,
    so it can be piped into `onespec component hook` to rehearse a deployment. Exits 1 when the
    template or the component is invalid, 2 on a usage error (such as an unknown resource).
    """
    if not re.fullmatch(facts.ACTION_PATTERN, action):
        raise click.BadParameter(
            f"{action!r} is not an action: one of {', '.join(facts.STANDARD_ACTIONS)} or an "
            "extended action (an upper-case name)",
            param_hint="--action",
        )
    overrides = _pairs(inputs, "--input")
    try:
        template = _load(template_path, files_root, parameters)
    except TemplateError as exc:
        raise InvalidInput(str(exc)) from None
    kind = template.resource_type(resource)
    notes: list[str] = []
    values: dict[str, Any]
    settings: dict[str, Any] = {}
    if kind == facts.RESOURCE_TYPE:
        component_name, values = resource, {}
    elif kind == facts.DEPLOYMENT_TYPE:
        component_name, values, settings, notes = _deployment_source(template, resource)
    else:
        choices = template.resources_of_type(facts.DEPLOYMENT_TYPE) + template.components()
        what = "is not a resource" if kind is None else f"is a {kind}"
        raise click.BadParameter(
            f"{resource!r} {what} of the template; give a software deployment or component: "
            f"{_names(choices)}",
            param_hint="--resource",
        )
    values.update(overrides)
    if server_id is not None:
        settings["server_id"] = server_id
    settings.setdefault("server_id", "")
    if signal_transport is not None:
        settings["signal_transport"] = signal_transport
    try:
        derived = build_deployment_config(
            template.component(component_name),
            action=action,
            status=status,
            input_values=values,
            stack_id=stack_id,
            resource_name=resource,
            config_id=config_id,
            **settings,
        )
    except ComponentValidationError as exc:
        listed = "".join(f"\n  [{problem.code}] {problem}" for problem in exc.problems)
        raise InvalidInput(f"{exc.subject} is invalid:{listed}", exc.problems) from None
    if output_format == "json":
        echo_json(derived.to_json())
    else:
        _print_metadata(derived, resource, notes)


# --- hook --------------------------------------------------------------------------------------


class _AnswersInJson(GrammarCommand):
    """A command that answers a usage error with a hook result, whatever the format asked:
    heat-config reads JSON."""

    def answer_unread(self, error: click.ClickException, arguments: Sequence[str]) -> None:
        click.echo(dumps(failure(f"usage: {error.format_message()}", status_code=USAGE)))


@component.command("hook", cls=_AnswersInJson)
@click.option(
    "--as",
    "mode",
    type=click.Choice(["component", "script"]),
    default="component",
    show_default=True,
    help="component: the hook for group 'component', choosing the config for deploy_action. "
    "script: a drop-in for heat-agents' 'script' hook, which the stock 55-heat-config calls "
    "for a component whose chosen tool is script (HEAT_SCRIPT_WORKING, HEAT_SCRIPT_OUTPUTS; "
    "always exits 0, the failure in deploy_status_code).",
)
@click.option(
    "--hooks-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=facts.HOOKS_DIR,
    show_default=True,
    envvar="HEAT_CONFIG_HOOKS",
    help="Where the hooks of other tools are (also HEAT_CONFIG_HOOKS).",
)
@click.option(
    "--working-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where script configs are written and run. [default: HEAT_COMPONENT_WORKING, else "
    f"{WORKING_DIR}; with --as script, HEAT_SCRIPT_WORKING, else {SCRIPT_WORKING_DIR}]",
)
@click.option(
    "--outputs-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where script configs write their outputs. [default: HEAT_COMPONENT_OUTPUTS, else "
    f"{OUTPUTS_DIR}; with --as script, HEAT_SCRIPT_OUTPUTS, else {SCRIPT_OUTPUTS_DIR}]",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds a config may run; then its whole process group is killed. [default: none]",
)
@format_option(
    "json",
    "JSON, which heat-config reads; text, to read the answer when rehearsing.",
    choices=PROGRAM_FORMATS,
)
def hook_command(
    mode: str,
    hooks_dir: Path,
    working_dir: Path | None,
    outputs_dir: Path | None,
    timeout: float | None,
    output_format: str,
) -> None:
    """The heat-config hook for group 'component': JSON on standard input, JSON on standard output.

    Reads the derived config of a software deployment, runs the config whose actions list its
    deploy_action -- itself for the script tool, through the hook of that name in --hooks-dir
    for any other -- and prints the outputs with deploy_stdout, deploy_stderr and
    deploy_status_code. Install it as the hook 'component' (see the guide). Whatever fails, the
    answer is JSON; exits 0 when deploy_status_code is 0, 1 otherwise.

    With --as script it is heat-agents' 'script' hook instead, without its crashes: install it
    as the hook 'script', which the stock agent calls for components too. It exits 0 whatever
    the script did, as heat-agents' hooks do.
    """
    script = mode == "script"
    prefix = "HEAT_SCRIPT" if script else "HEAT_COMPONENT"
    if working_dir is None:
        working_dir = Path(
            os.environ.get(f"{prefix}_WORKING") or (SCRIPT_WORKING_DIR if script else WORKING_DIR)
        )
    if outputs_dir is None:
        outputs_dir = Path(
            os.environ.get(f"{prefix}_OUTPUTS") or (SCRIPT_OUTPUTS_DIR if script else OUTPUTS_DIR)
        )
    settings = HookSettings(hooks_dir, working_dir, outputs_dir, timeout, mode=mode)
    try:
        stdin = inputs.read_bytes("-", limit=MAX_REQUEST)
    except inputs.InputError as exc:  # never read past the limit: the answer says why
        answer = failure(str(exc))
    else:
        answer = run_script_hook(stdin, settings) if script else run_hook(stdin, settings)
    if output_format == "json":
        click.echo(dumps(answer))
    else:
        for name, value in answer.items():
            shown = value if isinstance(value, str) else json.dumps(value, default=json_default)
            click.echo(f"{name}: {shown}")
    if answer["deploy_status_code"] != 0 and not script:
        raise Invalid() from None


# --- actions -----------------------------------------------------------------------------------


@component.command("actions")
@FORMAT_OPTION
def actions_command(output_format: str) -> None:
    """List the lifecycle actions: when each fires and what the hook receives."""
    if output_format != "text":
        document = {
            "actions": [{"name": name, **facts.ACTIONS[name]} for name in facts.ACTIONS],
            "default_actions": list(facts.DEFAULT_ACTIONS),
            "extended_actions": facts.EXTENDED_ACTIONS,
        }
        echo_report(document, listing("actions", columns=("name", "summary")))
        return

    def wrapped(text: str, indent: str = "  ") -> str:
        return textwrap.fill(
            text, 88, initial_indent=indent, subsequent_indent=indent + "  ", break_on_hyphens=False
        )

    for name, action in facts.ACTIONS.items():
        default = " (default)" if name in facts.DEFAULT_ACTIONS else ""
        click.echo(f"{name}{default}: {action['summary']}")
        click.echo(wrapped(f"Fires: {action['fires']}"))
        click.echo(wrapped(f"The hook receives: {action['hook_receives']}"))
    click.echo(wrapped(f"Extended actions: {facts.EXTENDED_ACTIONS}", indent=""))
