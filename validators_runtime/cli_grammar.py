"""The grammar every ``onespec`` command shares, stated once.

Exit codes
    0: done, the input is valid (warnings allowed).
    1: the input was read and is invalid -- a finding, drift, a file that is not valid YAML.
    2: the command cannot run as asked -- a usage error, an unknown option or name, a file that
    does not exist or cannot be read, a configuration that cannot be used.

Files
    Every file a command reads, and standard input (``-``), is read through
    :mod:`onespec.validators_runtime.inputs`, which checks what the path names before reading:
    anything but a regular file (a directory, a named pipe, a device such as ``/dev/zero``, a
    socket), a file the user may not read, a file over the command's size limit, and standard
    input past that limit, are refused with ``Error: FILE: what it is`` and exit 2, at once,
    without reading the file (:func:`input_error`). Walkers (``audit``, ``capabilities -r``)
    report such a file among their results and go on. Heat's own readers keep Heat's answer
    for a template over ``max_template_size`` (a finding, exit 1).

Messages
    A diagnostic goes to standard error as one line, ``Error: ...`` or ``Warning: ...`` (click
    writes its usage errors the same way). A report -- what a command was asked for -- goes to
    standard output, as text or, with ``--format json``, as one JSON document; lines of a text
    report may name a finding's severity (``error: [code] ...``), which is content, not a
    diagnostic.

YAML
    A file that is not YAML is reported as ``FILE:LINE: not valid YAML: PROBLEM``
    (:func:`yaml_problem`), by every reader.

Names
    Wherever a name is looked up -- a command, a choice, a distribution -- an unknown one is
    answered with the closest known name (:func:`closest`).

Progress
    Long work reports progress on standard error, and only when standard error is a terminal
    (:func:`progress`), so that logs and pipes get the result alone.

The standard library and click only: the runtime commands import this at start-up.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from onespec.validators_runtime.inputs import InputError, regular_file

#: "Did you mean" is one fact with one folding, for the command line as for every finding.
from onespec.validators_runtime.problems import closest, did_you_mean

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


class SuggestingChoice(click.Choice):
    """A choice that answers an unknown value with the closest allowed one."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            hint = did_you_mean(str(value), [str(choice) for choice in self.choices])
            if not hint:
                raise
            self.fail(f"{exc.message}{hint}", param, ctx)


def format_option(
    default: str = "text",
    help_text: str = "Text for people, JSON for machines.",
    choices: tuple[str, ...] = ("text", "json"),
) -> Callable[[Any], Any]:
    """``-f/--format text|json`` (and more ``choices`` where a command offers them), as the
    ``openstack`` client and cliff spell it; JSON by default only where a program reads the
    output (the heat-config hook)."""
    return click.option(
        "-f",
        "--format",
        "output_format",
        type=SuggestingChoice(list(choices)),
        default=default,
        show_default=True,
        help=help_text,
    )


#: ``-f/--format text|json``, on every command that reports.
FORMAT_OPTION = format_option()


class Invalid(click.exceptions.Exit):
    """Exit 1: the input was read and is invalid; the command has already reported why."""

    def __init__(self) -> None:
        super().__init__(EXIT_INVALID)


class InvalidInput(click.ClickException):
    """Exit 1 with an ``Error:`` line: the input was read and is invalid (bad YAML, say)."""

    exit_code = EXIT_INVALID


class UnusableInput(click.ClickException):
    """Exit 2 with an ``Error:`` line: the input cannot be used at all, like a usage error."""

    exit_code = EXIT_USAGE


class InputFile(click.Path):
    """A file argument that must name a regular file (or ``-``, where ``allow_dash``), checked
    when the command line is read: for a file handed to another program (an SSH key), which
    would block on a named pipe as any reader does. Files onespec reads itself are checked again,
    with their size, where they are read (:mod:`.inputs`)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("exists", True)
        kwargs.setdefault("dir_okay", False)
        super().__init__(**kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        converted = super().convert(value, param, ctx)
        if converted != "-":
            try:
                regular_file(converted)
            except InputError as problem:
                self.fail(str(problem), param, ctx)
        return converted


def input_error(problem: InputError) -> click.ClickException:
    """The command-line error for an input the reader refused (:mod:`.inputs`): exit 2, the
    file cannot be read as the command needs it."""
    return UnusableInput(str(problem))


def error(message: str) -> None:
    """One diagnostic line on standard error, with the one error prefix."""
    click.echo(f"Error: {message}", err=True)


def warning(message: str) -> None:
    """One warning line on standard error."""
    click.echo(f"Warning: {message}", err=True)


def progress_wanted(stream: Any = None) -> bool:
    """Whether progress lines are wanted: only when standard error is a terminal."""
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def progress(message: str, *, nl: bool = True, force: bool | None = None) -> None:
    """A progress line on standard error, when :func:`progress_wanted` (or ``force``)."""
    if force if force is not None else progress_wanted():
        click.echo(message, err=True, nl=nl)


def yaml_problem(exc: BaseException) -> tuple[int | None, str]:
    """(line, problem) of a PyYAML error: the 1-based line and the problem in one sentence,
    without PyYAML's quoted snippets, carets or ``"<unicode string>"`` stream names."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark is not None else None
    parts = [getattr(exc, "problem", None), getattr(exc, "context", None)]
    problem = next((part for part in parts if part), None) or " ".join(str(exc).split())
    return line, str(problem)


def yaml_message(exc: BaseException, file: str) -> str:
    """``FILE:LINE: not valid YAML: PROBLEM``: the one way every command reports bad YAML."""
    line, problem = yaml_problem(exc)
    where = f"{file}:{line}" if line is not None else file
    return f"{where}: not valid YAML: {problem}"


class SuggestingGroup(click.Group):
    """A group that answers an unknown subcommand with the closest known one."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            hint = did_you_mean(name, self.list_commands(ctx))
            ctx.fail(f"No such command {name!r}.{hint}")
        return super().resolve_command(ctx, args)


__all__ = [
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_USAGE",
    "FORMAT_OPTION",
    "InputFile",
    "Invalid",
    "InvalidInput",
    "SuggestingChoice",
    "SuggestingGroup",
    "UnusableInput",
    "closest",
    "did_you_mean",
    "error",
    "format_option",
    "input_error",
    "progress",
    "progress_wanted",
    "warning",
    "yaml_message",
    "yaml_problem",
]
