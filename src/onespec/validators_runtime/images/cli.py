"""``onespec image``: check a spec, validate an instance against it, render it as a script.

Exit codes (:mod:`onespec.validators_runtime.cli_grammar`): 0 passed (warnings allowed), 1 the image
or the spec is invalid, 2 a usage error: a spec that does not exist, bad arguments, an unreachable
remote.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from onespec.validators_runtime.cli_grammar import (
    FORMAT_OPTION,
    PROGRAM_FORMATS,
    GrammarGroup,
    InputFile,
    InvalidInput,
    UnusableInput,
    echo_json,
    echo_report,
    format_option,
    input_error,
    listing,
    progress_wanted,
    with_content,
)
from onespec.validators_runtime.cli_grammar import warning as report_warning
from onespec.validators_runtime.images.errors import (
    ImageArgumentError,
    ImageValidationError,
    ImageValidationSpecificationError,
    RemoteError,
)
from onespec.validators_runtime.images.schema_check import schema_errors
from onespec.validators_runtime.inputs import STDIN_NAME, InputError
from onespec.validators_runtime.problems import Problem

if TYPE_CHECKING:
    pass

_RESOURCE_ROOTS = click.option(
    "--resource-root",
    "resource_roots",
    multiple=True,
    metavar="DIR",
    help="A directory script paths are relative to; repeat to search several, in order "
    "(default: the spec's directory).",
)
_ARGS = click.option(
    "--arg",
    "arguments",
    multiple=True,
    metavar="NAME=VALUE",
    help="A value for one of the spec's arguments (or another variable scripts name); repeat.",
)


def _quiet_loader() -> None:
    """Warnings are part of these commands' output: do not also log them.

    paramiko logs a traceback for a peer that does not speak SSH before it raises the error
    that these commands report in one line; its log adds nothing but noise.
    """
    logging.getLogger("onespec.validators_runtime.images").setLevel(logging.ERROR)
    logging.getLogger("paramiko").setLevel(logging.CRITICAL + 1)


def _pairs(arguments: tuple[str, ...]) -> dict[str, str]:
    values: dict[str, str] = {}
    for pair in arguments:
        name, equals, value = pair.partition("=")
        if not equals or not name:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--arg")
        values[name] = value
    return values


def _named(spec: str) -> str:
    """The spec as messages name it: standard input as every reader names it."""
    return STDIN_NAME if spec == "-" else spec


def _roots(spec: str, resource_roots: tuple[str, ...]) -> list[Path]:
    return [Path(root) for root in resource_roots] or [Path(spec).parent]


def _load(spec: str, resource_roots: tuple[str, ...]) -> Any:
    """Load the spec, or exit 1 with the loader's located message (the file exists: click
    checked)."""
    from onespec.validators_runtime.images.reading import read_spec_text
    from onespec.validators_runtime.images.root import loads

    try:
        text = with_content(read_spec_text(spec), spec)
    except InputError as exc:
        raise input_error(exc) from None
    try:
        return loads(text, file=_named(spec), resource_roots=_roots(spec, resource_roots))
    except ImageValidationSpecificationError as exc:
        raise InvalidInput(str(exc)) from None


def _plural(count: int, noun: str) -> str:
    """``1 warning``, ``2 warnings``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


@click.group("image", cls=GrammarGroup)
def image() -> None:
    """Image specs: check them, validate instances against them, render them as scripts."""


#: ``-f table|csv|value``: one row a problem of the spec, errors then warnings.
_CHECK_ROWS = listing(
    "errors", "warnings", columns=("severity", "code", "file", "line", "path", "message")
)
#: One row a step of the validation: what each validator did.
_STEP_ROWS = listing("steps", columns=("outcome", "path", "kind", "label", "detail"))


# --- check ----------------------------------------------------------------------------------------


@image.command()
@click.argument("spec", type=InputFile())
@_RESOURCE_ROOTS
@FORMAT_OPTION
def check(spec: str, resource_roots: tuple[str, ...], output_format: str) -> None:
    """Check SPEC without running anything: its JSON Schema, then what only the loader sees.

    The loader checks that scripts exist inside the resource roots, that names and versions
    are ones package managers accept, that arguments are declared. Exits 0 when the spec is
    valid (warnings allowed), 1 when it is not, 2 when it cannot be read.

    \b
    Example:
      onespec image check plugin/resources/images/image.yaml
    """
    from onespec.validators_runtime.images.reading import read_spec_text, read_yaml
    from onespec.validators_runtime.images.root import vocabulary
    from onespec.validators_runtime.images.spec import SpecLoader

    _quiet_loader()
    try:
        text = with_content(read_spec_text(spec), spec)
    except InputError as exc:
        raise input_error(exc) from None
    roots = _roots(spec, resource_roots)
    spec = _named(spec)
    errors: list[Problem] = []
    warnings: list[Problem] = []
    loaded = None
    try:
        data, lines = read_yaml(text, spec)
    except ImageValidationSpecificationError as exc:
        errors.append(Problem("yaml", exc.reason, location=exc.location))
    else:
        errors = schema_errors(data, spec, lines)
        if not errors:
            loader = SpecLoader(
                spec,
                vocabulary=vocabulary(),
                resource_roots=roots,
                lines=lines,
            )
            try:
                loaded = loader.spec(data)
            except ImageValidationSpecificationError as exc:
                errors.append(Problem("spec", exc.reason, location=exc.location))
            warnings = [*loader.warnings, *loader.duplicate_keys()]
    valid = not errors
    if output_format != "text":
        body: dict[str, Any] = {
            "spec": spec,
            "valid": valid,
            "errors": [problem.to_dict() for problem in errors],
            "warnings": [problem.to_dict() for problem in warnings],
        }
        if loaded is not None:
            body["arguments"] = [
                {
                    "name": a.name,
                    "description": a.description,
                    "default": a.default,
                    "required": a.required,
                    "choices": list(a.choices),
                }
                for a in loaded.get_argument_list()
            ]
            body["validators"] = sum(1 for _ in loaded.validator.walk())
            body["packages"] = loaded.packages()
        echo_report(body, _CHECK_ROWS)
    else:
        for problem in (*errors, *warnings):
            click.echo(f"{problem.severity}: {problem}")
        if loaded is not None:
            count = sum(1 for _ in loaded.validator.walk())
            counts = ", ".join(
                (
                    _plural(count, "validator"),
                    _plural(len(loaded.arguments), "argument"),
                    _plural(len(warnings), "warning"),
                )
            )
            click.echo(f"{spec}: valid ({counts}).")
        else:
            click.echo(f"{spec}: invalid ({_plural(len(errors), 'error')}).")
    if not valid:
        sys.exit(1)


# --- validate -------------------------------------------------------------------------------------


def _remote(
    url: str, identity: str | None, known_hosts: str | None, accept_unknown_host: bool
) -> Any:
    from onespec.validators_runtime.images.remote import LocalRemote

    if url == "local":
        return LocalRemote()
    from onespec.validators_runtime.images.ssh import SSHRemote, parse_ssh_url

    try:
        user, host, port = parse_ssh_url(url)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--remote") from None
    return SSHRemote(
        host,
        user,
        port,
        identity=identity,
        known_hosts=known_hosts,
        accept_unknown_host=accept_unknown_host,
    )


@image.command()
@click.argument("spec", type=InputFile())
@click.option(
    "--remote",
    "remote_url",
    required=True,
    metavar="local|ssh://USER@HOST[:PORT]",
    help="Where to validate: this machine, or a host over SSH.",
)
@click.option("--identity", type=InputFile(allow_dash=False), help="The SSH private key file.")
@click.option(
    "--known-hosts",
    type=InputFile(allow_dash=False),
    help="The known_hosts file the host key is checked against (default: the user's).",
)
@click.option(
    "--accept-unknown-host",
    is_flag=True,
    help="Connect even when the host key is not in known_hosts (it is then not verified).",
)
@click.option(
    "--reconcile/--no-reconcile",
    default=False,
    show_default=True,
    help="Fix what can be fixed (install packages, run scripts to repair), or only check.",
)
@click.option("--distro", help="The instance's distribution, instead of reading os-release.")
@click.option(
    "--timeout",
    type=float,
    help="Seconds each command may take; on the local remote, a command that takes longer is "
    "killed with every process it started.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="A line on standard error per validator [default: when standard error is a terminal].",
)
@_ARGS
@_RESOURCE_ROOTS
@FORMAT_OPTION
def validate(
    spec: str,
    remote_url: str,
    identity: str | None,
    known_hosts: str | None,
    accept_unknown_host: bool,
    reconcile: bool,
    distro: str | None,
    timeout: float | None,
    progress: bool | None,
    arguments: tuple[str, ...],
    resource_roots: tuple[str, ...],
    output_format: str,
) -> None:
    """Validate the image of an instance against SPEC, one progress line per validator.

    Exits 0 when the image passes (after reconciling, with --reconcile), 1 when it fails or the
    spec is invalid, 2 on a usage error, bad arguments, or an unreachable remote.

    \b
    Examples:
      onespec image validate image.yaml --remote local --arg java_distro=openjdk
      onespec image validate image.yaml --remote ssh://centos@10.0.0.5 --identity key.pem
    """
    _quiet_loader()
    loaded = _load(spec, resource_roots)
    values = _pairs(arguments)
    try:
        loaded.resolve_arguments(values)
    except ImageArgumentError as exc:
        raise click.BadParameter(str(exc), param_hint="--arg") from None
    for name in values:
        if name not in loaded.arguments:
            report_warning(f"{name} is not an argument of the spec; passed as a variable")
    show_progress = progress_wanted() if progress is None else progress

    def report_step(step: Any) -> None:
        if show_progress:
            click.echo(f"{'  ' * step.depth}{step.line_text()}", err=True)

    try:
        remote = _remote(remote_url, identity, known_hosts, accept_unknown_host)
    except RemoteError as exc:
        raise UnusableInput(str(exc)) from None
    with remote:
        try:
            report = loaded.validate(
                remote,
                reconcile=reconcile,
                env_map=values,
                progress=report_step,
                distro=distro,
                timeout=timeout,
            )
        except ImageValidationError as exc:
            report = exc.report
            if report is None:
                raise InvalidInput(str(exc)) from None
        except RemoteError as exc:
            raise UnusableInput(str(exc)) from None
    if output_format != "text":
        echo_report(report.to_dict(), _STEP_ROWS)
    else:
        for warning in report.warnings:
            click.echo(f"warning: {warning}")
        for step in report.failures:
            click.echo(f"failed: {step.path}: {step.detail}")
        click.echo(report.summary())
    if not report.passed:
        sys.exit(1)


# --- script ---------------------------------------------------------------------------------------


@image.command()
@click.argument("spec", type=InputFile())
@click.option(
    "--distro",
    required=True,
    help="The distribution the script is for (ubuntu, debian, centos, rhel, fedora, ...).",
)
@click.option(
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    help="Write the script to this file (mode 0755) instead of standard output.",
)
@_ARGS
@_RESOURCE_ROOTS
@format_option(choices=PROGRAM_FORMATS)  # the script itself, or it in a JSON object
def script(
    spec: str,
    distro: str,
    output: str | None,
    arguments: tuple[str, ...],
    resource_roots: tuple[str, ...],
    output_format: str,
) -> None:
    """Render SPEC as one standalone, idempotent bash script that reconciles an image offline.

    With --format json, the script (or, with --output, the file written) in a JSON object.

    Cases by distribution and by argument are decided now; the script checks each step before
    changing anything, so running it twice changes nothing the second time. Run it with
    SIV_RECONCILE=0 in its environment to check only.

    \b
    Example:
      onespec image script image.yaml --distro ubuntu --arg java_distro=openjdk > pack.sh
    """
    from onespec.validators_runtime.images.script import render_script

    _quiet_loader()
    loaded = _load(spec, resource_roots)
    from onespec.validators_runtime.images.distro import known_distro

    try:
        target = known_distro(distro)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--distro") from None
    try:
        text = render_script(loaded, target, _pairs(arguments))
    except ImageArgumentError as exc:
        raise click.BadParameter(str(exc), param_hint="--arg") from None
    except ImageValidationSpecificationError as exc:
        raise InvalidInput(str(exc)) from None
    if output is not None:
        _write_whole(Path(output), text)
    if output_format == "json":
        body = {"spec": spec, "distro": distro, "output": output}
        echo_json(body if output is not None else {**body, "script": text})
    elif output is None:
        click.echo(text, nl=False)
    else:
        click.echo(f"wrote {output}", err=True)


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (mode 0755) whole or not at all: a temporary file in the same
    directory, renamed over ``path``, so a failure never leaves an empty or partial script."""
    import os
    import tempfile

    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as exc:
        raise click.BadParameter(
            f"cannot write {path}: {exc.strerror}", param_hint="--output"
        ) from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write(text)
        Path(temporary).chmod(0o755)
        os.replace(temporary, path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise click.BadParameter(
            f"cannot write {path}: {exc.strerror}", param_hint="--output"
        ) from None
