"""The ``onespec`` command line.

Every command follows one grammar (exit codes, messages, ``--format``, suggestions, progress):
:mod:`onespec.validators_runtime.cli_grammar` states it.
The ``generate`` group is imported only when it is used, so that the runtime commands work
without the generator's dependencies and start quickly; the runtime is imported only by the
commands that validate, so that ``generate`` can rebuild its tables even when they are stale.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
from collections.abc import Mapping
from typing import Any

import click
import yaml

from onespec.validators_runtime import inputs, repeated_keys, yaml_limits
from onespec.validators_runtime.cli_grammar import (
    FORMAT_OPTION,
    GrammarGroup,
    InputFile,
    Invalid,
    InvalidInput,
    SuggestingChoice,
    UnusableInput,
    echo_report,
    input_error,
    listing,
    warn_repeated,
    with_content,
    yaml_message,
)
from onespec.validators_runtime.flavor_parts.inputs import properties_text
from onespec.validators_runtime.problems import Location, Problem, shown


class LazyGroup(GrammarGroup):
    """A group whose listed subcommands are imported on first use."""

    def __init__(
        self, *args: Any, lazy_subcommands: Mapping[str, str] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_subcommands = dict(lazy_subcommands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_subcommands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands:
            module_name, _, attribute = self.lazy_subcommands[cmd_name].partition(":")
            return getattr(importlib.import_module(module_name), attribute)
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.NoSuchCommand as unknown:
            # click suggests from ``commands``, which holds none of the lazy subcommands: the
            # same error, suggesting from every name the group lists.
            raise click.NoSuchCommand(
                unknown.command_name, possibilities=self.list_commands(ctx), ctx=ctx
            ) from None

    def load_all(self) -> None:
        """Import every lazy subcommand into ``commands``.

        For tools that walk ``commands`` rather than asking ``get_command`` -- sphinx-click,
        which documents the whole tree -- at the price of the imports a run avoids.
        """
        context = click.Context(self)
        for name in self.lazy_subcommands:
            command = self.get_command(context, name)
            if command is not None:
                self.add_command(command, name)


@click.group(
    cls=LazyGroup,
    lazy_subcommands={
        "generate": "onespec.generator.cli:generate",
        "template-capabilities": (
            "onespec.validators_runtime.heat.template_capabilities.cli:template_capabilities"
        ),
        "component": "onespec.validators_runtime.heat.components.cli:component",
        "serve": "onespec.validators_runtime.service.cli:serve",
        "db": "onespec.validators_runtime.service.cli:db",
        "policy": "onespec.validators_runtime.service.cli:policy",
        "plugins": "onespec.validators_runtime.service.client:plugins",
        "image": "onespec.validators_runtime.images.cli:image",
        "import": "onespec.generator.importer.cli:import_",
        "audit": "onespec.generator.review.cli:audit",
        "diff": "onespec.generator.review.cli:diff",
        "schemas": "onespec.validators_runtime.schemas_cli:schemas",
    },
    # Wide terminals get whole summaries: click stops at 80 columns unless told otherwise.
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 200},
)
@click.version_option(package_name="onespec", prog_name="onespec")
def cli() -> None:
    """onespec: one definition per fact; docs, exports and validators generated from it."""


# --- validate ------------------------------------------------------------------------------------


@cli.group(cls=GrammarGroup)
def validate() -> None:
    """Validate metadata against the definitions."""


class _StringResolver(yaml.resolver.Resolver):
    """No implicit tags: every scalar stays a string, as extra specs arrive over the API.

    Without this, YAML would turn ``yes`` into True and ``1.0`` into a float, and the value
    checked would not be the value the user wrote.
    """


_StringResolver.yaml_implicit_resolvers = {}
#: A safe loader with the string resolver, composing through the counting composer
#: (:mod:`onespec.validators_runtime.yaml_limits`): alias bombs and deep nesting are refused with a
#: line.
_StringLoader: type = yaml_limits.counting_loader("_StringLoader", resolver=_StringResolver)


def _looks_like_json(text: str) -> bool:
    """Standard input has no file name: JSON is recognised by parsing as JSON."""
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


#: The keys under which the OpenStack client and Nova's API print a flavor's extra specs.
_SPEC_KEYS = ("extra_specs", "properties", "Properties")


def _specs_of(flavor: Mapping[Any, Any], name: str, where: str) -> tuple[str | None, Any]:
    """(label, extra specs) of one flavor object as Nova's API or the OpenStack client print it."""
    label = next((str(flavor[k]) for k in ("name", "Name", "id", "ID") if k in flavor), None)
    for key in _SPEC_KEYS:
        if key in flavor:
            return label, flavor[key]
    raise InvalidInput(
        f"{name}: {where} is a flavor without extra specs (none of {', '.join(_SPEC_KEYS)})"
    )


def _flavor_sets(data: Any, name: str) -> list[tuple[str | None, Any]]:
    """Each set of extra specs in a file, with the flavor it belongs to when the file says.

    Accepts a mapping of key to value; ``{"extra_specs": {...}}`` as Nova's API takes it;
    ``{"properties": {...}}`` as ``openstack flavor show -c properties -f json`` prints it; a
    flavor object (``openstack flavor show -f json``, ``{"flavor": {...}}``); and a list of
    flavors (``openstack flavor list --long -f json``, ``{"flavors": [...]}``).
    """
    if isinstance(data, Mapping):
        if len(data) == 1 and next(iter(data)) in _SPEC_KEYS:
            return [(None, next(iter(data.values())))]
        if set(data) == {"flavor"} and isinstance(data["flavor"], Mapping):
            return [_specs_of(data["flavor"], name, "flavor")]
        if set(data) == {"flavors"} and isinstance(data["flavors"], list):
            data = data["flavors"]
        elif any(k in data for k in _SPEC_KEYS) and any(
            k in data for k in ("name", "Name", "id", "ID")
        ):
            return [_specs_of(data, name, "the file")]
        else:
            return [(None, data)]
    if isinstance(data, list) and all(isinstance(flavor, Mapping) for flavor in data):
        return [_specs_of(flavor, name, f"item {i} of the list") for i, flavor in enumerate(data)]
    return [(None, data)]


#: The largest extra-spec file read, in bytes: a list of a thousand flavors of fifty extra specs
#: each fits many times over.
MAX_SPECS_FILE_SIZE = 16 << 20


def _load_file(path: str) -> list[tuple[str | None, dict[Any, Any]]]:
    """Read the extra specs of one or more flavors from a YAML or JSON file (``-``: stdin)."""
    name = inputs.STDIN_NAME if path == "-" else path
    try:
        text = with_content(inputs.read_text(path, limit=MAX_SPECS_FILE_SIZE), path)
    except inputs.InputError as exc:
        raise input_error(exc) from None
    try:
        if name.endswith(".json") or (path == "-" and _looks_like_json(text)):
            data, repeats = repeated_keys.load_json(text, parse_int=str, parse_float=str)
        else:
            data, repeats = repeated_keys.load_yaml(text, _StringLoader)
    except yaml_limits.YAMLLimitError as exc:
        raise UnusableInput(f"{name}:{exc.line}: {exc.reason}") from None
    except yaml.YAMLError as exc:
        if "maximum nesting depth" in (getattr(exc, "problem", None) or ""):
            # libyaml's own nesting limit: hostile input, refused like the composer's limits.
            raise UnusableInput(yaml_message(exc, name)) from None
        raise InvalidInput(yaml_message(exc, name)) from None
    except ValueError as exc:
        raise InvalidInput(f"{name}: not valid JSON: {exc}") from None
    except RecursionError:
        raise UnusableInput(
            f"{name}: is nested too deeply to be extra specs (a mapping of keys to values)"
        ) from None
    warn_repeated(name, repeats)
    sets = []
    for label, specs in _flavor_sets(data, name):
        if isinstance(specs, str):
            # `openstack flavor show -f value -c properties`: KEY='VALUE', KEY='VALUE' ...
            specs = properties_text(specs) or specs
        if not isinstance(specs, Mapping):
            raise InvalidInput(
                f"{name}: holds {_what(specs)}; expected a mapping of extra-spec keys to "
                "values, a flavor or a list of flavors"
            )
        sets.append((label, dict(specs)))
    return sets


def _what(data: Any) -> str:
    """What a document holds, in the words of YAML and JSON (never a Python type's name)."""
    if data is None:
        return "nothing (null)"
    if isinstance(data, list):
        return "a list"
    if isinstance(data, str):
        return f"the text {shown(data)}"
    if isinstance(data, bool):
        return f"the boolean {str(data).lower()}"
    if isinstance(data, int | float):
        return f"the number {shown(data)}"
    return "a scalar"


def _parse_pairs(pairs: tuple[str, ...]) -> dict[str, str]:
    specs: dict[str, str] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals:
            if pair == "-" or os.path.isfile(pair):
                # Positional arguments are pairs only: a file is read with --file, so that a
                # key without '=' is never silently taken for a file that happens to exist.
                raise click.UsageError(
                    f"{pair!r} is a file, not KEY=VALUE: read it with '--file {pair}'"
                )
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="KEY=VALUE")
        specs[key] = value
    return specs


@validate.command("extra-specs")
@click.option(
    "--mode",
    type=SuggestingChoice(["strict", "permissive", "off"]),
    default="strict",
    show_default=True,
    help="strict: unknown keys are errors; permissive: unknown keys are warnings; off: no "
    "definition is consulted, but what Nova cannot store is still an error (a key that is empty "
    "or longer than 255 characters, a value that is not a string).",
)
@click.option(
    "--file",
    "file_",
    type=InputFile(),
    metavar="FILE",
    help="A YAML or JSON file of extra specs ('-' reads standard input).",
)
@click.option(
    "--property",
    "properties",
    multiple=True,
    metavar="KEY=VALUE",
    help="An extra spec, as `openstack flavor set --property` spells it (repeat the option); "
    "the same as a KEY=VALUE argument.",
)
@FORMAT_OPTION
@click.argument("pairs", nargs=-1, metavar="[KEY=VALUE]...")
def validate_extra_specs(
    mode: str,
    file_: str | None,
    properties: tuple[str, ...],
    output_format: str,
    pairs: tuple[str, ...],
) -> None:
    """Validate flavor extra specs given as KEY=VALUE arguments and/or in a file.

    Arguments (and --property options) override the file's entries with the same key. Exits 0
    when the specs are valid (warnings allowed), 1 when any is invalid, 2 on a usage error.

    \b
    Examples:
      onespec validate extra-specs hw:cpu_policy=dedicated hw:numa_nodes=2
      onespec validate extra-specs --property hw:cpu_policy=dedicated --property hw:numa_nodes=2
    """
    from onespec.validators_runtime import extra_specs as runtime

    pairs = (*properties, *pairs)
    if file_ is None and not pairs:
        raise click.UsageError("give KEY=VALUE pairs, '--file FILE', or both")
    flavors = _load_file(file_) if file_ is not None else [(None, {})]
    if pairs and len(flavors) > 1:
        raise click.UsageError("KEY=VALUE pairs apply to one flavor; the file holds several")
    flavors[0][1].update(_parse_pairs(pairs))
    results = []
    for label, specs in flavors:
        try:
            findings = runtime.validate(specs, mode=mode)
            valid = True
        except runtime.ExtraSpecValidationError as exc:
            findings = list(exc.findings)
            valid = False
        results.append((label, specs, valid, findings))
    valid = all(result[2] for result in results)
    checked = sum(len(result[1]) for result in results)
    if output_format != "text":
        report: dict[str, Any] = {
            "valid": valid,
            "mode": mode,
            "checked": checked,
            "note": _rules_note(mode),
        }
        if len(results) == 1 and results[0][0] is None:
            report["findings"] = [finding.to_dict() for finding in results[0][3]]
        else:
            report["flavors"] = [
                {
                    "flavor": label,
                    "valid": ok,
                    "checked": len(specs),
                    "findings": [finding.to_dict() for finding in findings],
                }
                for label, specs, ok, findings in results
            ]
        echo_report(report, _EXTRA_SPEC_ROWS)
    else:
        for label, _, _, findings in results:
            prefix = f"flavor {label}: " if label is not None else ""
            for finding in findings:
                # A rule between keys says, as `validate flavor` does, what Nova raises and when.
                raised = getattr(finding, "nova_exception", None)
                when = f"({raised}, {getattr(finding, 'phase', None)}) " if raised else ""
                click.echo(f"{prefix}{finding.severity}: [{finding.code}] {when}{finding.message}")
        every = [finding for result in results for finding in result[3]]
        errors = sum(1 for f in every if f.severity == "error")
        warnings = len(every) - errors
        verdict = "valid" if valid else "invalid"
        of_flavors = f" of {len(results)} flavors" if len(results) > 1 else ""
        click.echo(f"note: {_rules_note(mode)}")
        click.echo(
            f"{checked} extra spec{'s' if checked != 1 else ''}{of_flavors} checked in {mode} "
            f"mode: {verdict} ({errors} error{'s' if errors != 1 else ''}, "
            f"{warnings} warning{'s' if warnings != 1 else ''})."
        )
    if not valid:
        raise Invalid() from None


#: ``-f table|csv|value``: one row a finding (of each flavor, for a file of several).
_EXTRA_SPEC_ROWS = listing(
    "findings",
    "flavors[].findings",
    columns=("flavor", "severity", "code", "key", "message", "suggestion"),
)


def _rules_note(mode: str) -> str:
    """What a report of extra specs alone leaves to ``validate flavor``: said once a report,
    so that "valid" is not read as "Nova will boot it"."""
    if mode == "off":
        return "off mode applies no rule between keys; 'onespec validate flavor' applies them all."
    return (
        "rules between keys that need the flavor's sizes or an image are checked by "
        "'onespec validate flavor'."
    )


# The whole-flavor commands live with their runtime: validate flavor, validate image-properties.
from onespec.validators_runtime.flavor_change_cli import (  # noqa: E402
    COMMANDS as _CHANGE_COMMANDS,
)
from onespec.validators_runtime.flavor_cli import COMMANDS as _FLAVOR_COMMANDS  # noqa: E402

for _command in (*_FLAVOR_COMMANDS, *_CHANGE_COMMANDS):
    validate.add_command(_command)


# --- definitions ---------------------------------------------------------------------------------


@cli.group("definitions", cls=GrammarGroup)
def definitions_group() -> None:
    """Inspect the loaded definitions."""


@definitions_group.command()
@FORMAT_OPTION
def doctor(output_format: str) -> None:
    """Show what was loaded from where: the catalogue, each plugin, clashes, broken plugins.

    Exits 1 when any out-of-tree source has a problem, so it can gate a deployment.
    """
    from onespec.validators_runtime import extra_specs as runtime
    from onespec.validators_runtime._generated import extra_specs as generated
    from onespec.validators_runtime.tables import SpecRecord

    registry = runtime.default_registry()
    in_tree = len(generated.SPECS)
    namespaces = sorted({SpecRecord._make(record).namespace for record in generated.SPECS})
    plugins: dict[str, int] = {}
    for label in registry.sources.values():
        plugins[label] = plugins.get(label, 0) + 1
    if output_format != "text":
        document = {
            "in_tree": {
                "definitions": in_tree,
                "namespaces": namespaces,
                "source_versions": generated.SOURCE_VERSIONS,
            },
            "out_of_tree": [
                {"source": label, "definitions": count} for label, count in sorted(plugins.items())
            ],
            "problems": [
                {
                    **Problem(p.kind, p.message, location=Location(path=p.name)).to_dict(),
                    "source": p.source,
                    "kind": p.kind,
                    "name": p.name,
                }
                for p in registry.problems
            ],
        }
        echo_report(document, _DOCTOR_ROWS)
    else:
        versions = ", ".join(f"{k} {v}" for k, v in generated.SOURCE_VERSIONS.items())
        click.echo(
            f"In-tree catalogue: {in_tree} definitions in {len(namespaces)} namespaces "
            f"(standard names from {versions})."
        )
        if plugins:
            click.echo("Out-of-tree definitions:")
            for label, count in sorted(plugins.items()):
                click.echo(f"  {label}: {count} definition{'s' if count != 1 else ''}")
        else:
            click.echo(f"Out-of-tree definitions: none loaded from {runtime.ENTRY_POINT_GROUP}.")
        if registry.problems:
            click.echo("Problems:")
            for problem in registry.problems:
                click.echo(f"  {problem.kind}: {problem}")
        else:
            click.echo("Problems: none.")
    if registry.problems:
        raise Invalid() from None


#: ``-f table|csv|value``: one row a problem (what gates a deployment); what was loaded is in
#: the JSON and YAML document, and in the text.
_DOCTOR_ROWS = listing("problems", columns=("severity", "source", "code", "message"))


class _Diagnostic(logging.Formatter):
    """Log records as the grammar's diagnostics: ``Error: ...``, ``Warning: ...``."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"{record.levelname.capitalize()}: {record.getMessage()}"
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text


def main() -> None:
    """Console-script entry point."""
    handler = logging.StreamHandler()
    handler.setFormatter(_Diagnostic())
    logging.basicConfig(handlers=[handler])
    # Validation findings are part of the command's own output; do not print them twice.
    logging.getLogger("onespec.validators_runtime.extra_specs").setLevel(logging.ERROR)
    cli()


__all__ = ["cli", "main"]
