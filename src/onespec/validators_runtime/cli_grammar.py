"""The grammar every ``onespec`` command shares, stated once.

Exit codes
    0: done, the input is valid (warnings allowed).
    1: the input was read and is invalid -- a finding, drift, a file that is not valid YAML,
    not UTF-8, or empty (:func:`empty_input`).
    2: the command cannot run as asked -- a usage error, an unknown option or name, a file that
    does not exist or cannot be read, a directory where a file is expected, a configuration
    that cannot be used.

Files
    Every file argument is an :class:`InputFile`: a regular file, or ``-`` for standard input
    (once per command, :class:`GrammarCommand`). Every file a command reads, and standard
    input, is read through :mod:`onespec.validators_runtime.inputs`, which checks what the path
    names before reading: anything but a regular file (a directory, a named pipe, a device
    such as ``/dev/zero``, a socket), a file the user may not read, a file over the command's
    size limit, and standard input past that limit, are refused with ``Error: FILE: what it
    is`` and exit 2, at once, without reading the file (:func:`input_error`). Walkers
    (``audit``, ``template-capabilities -r``) report such a file among their results and go
    on. Heat's own readers keep Heat's answer for a template over ``max_template_size`` (a
    finding, exit 1).

Messages
    A diagnostic goes to standard error as one line, ``Error: ...`` or ``Warning: ...`` (click
    writes its usage errors the same way). A report -- what a command was asked for -- goes to
    standard output, as text or, with ``-f json`` or ``-f yaml``, as one document -- also when
    the command fails (:func:`error_document`); with ``-f table|csv|value``, as its rows
    (:func:`echo_report`, :mod:`.cli_formats`), ``-c NAME`` picking the columns. Lines of a
    text report may name a finding's severity (``error: [code] ...``), which is content, not a
    diagnostic.

YAML
    A file that is not YAML is reported as ``FILE:LINE: not valid YAML: PROBLEM``
    (:func:`yaml_problem`), by every reader.

Names
    Wherever a name is looked up -- a command, a choice, a distribution -- an unknown one is
    answered with the closest known name: :func:`closest` for choices, keys and values, and
    click's own suggestion for a command (:class:`GrammarGroup`).

Progress
    Long work reports progress on standard error, and only when standard error is a terminal
    and the output is not JSON (:func:`progress_bar`, click's own, and :func:`progress`), so
    that logs, pipes and programs get the result alone.

The standard library and click only: the runtime commands import this at start-up.
"""

from __future__ import annotations

import json
import operator
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, overload

import click

from onespec.errors import OnespecError
from onespec.validators_runtime.cli_formats import (
    COLUMN_FORMATS,
    DOCUMENT_FORMATS,
    ONE_ROW,
    REPORT_FORMATS,
    ROW_FORMATS,
    ColumnError,
    Rows,
    listing,
    render,
)
from onespec.validators_runtime.inputs import (
    STDIN_NAME,
    InputError,
    blank,
    read_bytes,
    regular_file,
)

#: "Did you mean" is one fact with one folding, for the command line as for every finding.
from onespec.validators_runtime.problems import Location, Problem, closest, did_you_mean

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar  # what click.progressbar returns

    from onespec.validators_runtime.repeated_keys import RepeatedKey

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

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


#: The formats a command keeps when its output is data a program reads (the heat-config
#: hook's answer, a script, the address of a server): text, or the JSON the program expects.
PROGRAM_FORMATS = ("text", "json")

_FORMAT_HELP = (
    "text: sentences for people; json, yaml: the whole report; table, csv, value: its rows, "
    "as the openstack client prints them (value: bare cells, for shell pipelines)."
)


def format_option(
    default: str = "text",
    help_text: str = _FORMAT_HELP,
    choices: tuple[str, ...] = REPORT_FORMATS,
    *,
    short_column: bool = True,
) -> Callable[[F], F]:
    """``-f/--format`` as the ``openstack`` client (cliff) spells it, with ``-c/--column
    NAME`` (repeatable) where the choices include the formats of rows; JSON by default only
    where a program reads the output (the heat-config hook). ``short_column=False`` where the
    command already gives ``-c`` another meaning: ``--column`` alone."""
    formats = click.option(
        "-f",
        "--format",
        "output_format",
        type=SuggestingChoice(list(choices)),
        default=default,
        show_default=True,
        help=help_text,
    )
    if not set(choices) & set(ROW_FORMATS):
        return formats
    column = click.option(
        *(("-c", "--column") if short_column else ("--column",)),
        "columns",
        multiple=True,
        metavar="NAME",
        expose_value=False,
        callback=_keep_columns,
        help="A column to show, in every format but text; repeat for several, in that order.",
    )

    def both(function: F) -> F:
        return formats(column(function))

    return both


def _keep_columns(context: click.Context, _parameter: click.Parameter, value: Any) -> None:
    """``-c`` goes to the context, not to each command's arguments: :func:`echo_report` uses
    it, and no command needs to know of it."""
    context.meta[_COLUMNS] = tuple(value or ())


_COLUMNS = "onespec.columns"

#: ``-f/--format text|json|yaml|value|table|csv`` and ``-c/--column``, on every command that
#: reports.
FORMAT_OPTION = format_option()


class Invalid(OnespecError, click.exceptions.Exit):
    """Exit 1: the input was read and is invalid; the command has already reported why."""

    def __init__(self) -> None:
        super().__init__(EXIT_INVALID)


class _Located(OnespecError, click.ClickException):
    """An ``Error:`` line that can also say where, as :class:`Problem` s, for ``-f json``."""

    def __init__(self, message: str, problems: Sequence[Problem] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)


class InvalidInput(_Located):
    """Exit 1 with an ``Error:`` line: the input was read and is invalid (bad YAML, say)."""

    exit_code = EXIT_INVALID


class UnusableInput(_Located):
    """Exit 2 with an ``Error:`` line: the input cannot be used at all, like a usage error."""

    exit_code = EXIT_USAGE


#: Files up to this size are looked into when the command line is read, to refuse an empty one.
_BLANK_PROBE = 64 * 1024


class InputFile(click.Path):
    """A file argument: a regular file, or ``-`` for standard input (``allow_dash=False`` for a
    file handed to another program, such as an SSH key). Checked when the command line is
    read: a path that does not exist or names anything but a regular file is a usage error
    (exit 2); a file that holds nothing (:func:`.inputs.blank`) is invalid input (exit 1).
    ``dir_okay=True`` for the paths of a scan, which may be directories. Files onespec reads
    itself are checked again, with their size, where they are read (:mod:`.inputs`)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("dir_okay", False)
        kwargs.setdefault("allow_dash", True)
        super().__init__(**kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        # Whether the path exists, and what it is, is the reader's question, in its words:
        # click's own checks are not run.
        text = os.fsdecode(value) if isinstance(value, bytes) else os.fspath(value)
        converted = self.coerce_path_result(text)
        if (self.allow_dash and text == "-") or (self.dir_okay and os.path.isdir(text)):
            return converted
        try:
            status = regular_file(text)
            if status.st_size <= _BLANK_PROBE and blank(read_bytes(text, limit=_BLANK_PROBE)):
                raise empty_input(text)
        except InputError as problem:
            self.fail(str(problem), param, ctx)
        return converted


def input_error(problem: InputError) -> click.ClickException:
    """The command-line error for an input the reader refused (:mod:`.inputs`): exit 2, the
    file cannot be read as the command needs it; exit 1 when it was read and is not what the
    command reads (not UTF-8, empty)."""
    located = [Problem(problem.code, problem.reason, location=problem.location)]
    if problem.code in INVALID_CONTENT:
        return InvalidInput(str(problem), located)
    return UnusableInput(str(problem), located)


#: The reader's refusals of what a file holds (exit 1); the others refuse the path (exit 2).
INVALID_CONTENT = frozenset({"encoding", "empty"})


def empty_input(file: str) -> InvalidInput:
    """Exit 1: ``file`` was read and holds nothing -- no bytes, only white space or comments.

    One answer in every command: an empty file is never taken for an empty set of whatever
    the command reads (it is far more often the wrong file, or one truncated on the way).
    """
    name = STDIN_NAME if file == "-" else file
    problem = Problem("empty", "is empty: it holds nothing to read", location=Location(file=name))
    return InvalidInput(str(problem), [problem])


def with_content(text: str, file: str) -> str:
    """``text`` read from ``file``, or exit 1 when it holds nothing (:func:`empty_input`):
    for standard input, which cannot be looked into when the command line is read."""
    if blank(text.encode("utf-8", "surrogatepass")):
        raise empty_input(file)
    return text


# --- the report: one document, in the format asked, whatever happens --------------------

_PRINTED = "onespec.report_printed"


def _printed() -> None:
    context = click.get_current_context(silent=True)
    if context is not None:
        context.meta[_PRINTED] = True


def echo_json(document: Any) -> None:
    """Print one JSON document (``document`` already serialised, or data) whatever the format:
    for output a program reads (the hook's answer). Reports use :func:`echo_report`."""
    click.echo(document if isinstance(document, str) else json.dumps(document, indent=2))
    _printed()


def _table_width() -> int | None:
    """The width to fit a table to: the terminal's, when standard output is one, or
    ``COLUMNS`` when it is set; none (the table as wide as it is) in a pipe."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if progress_wanted(sys.stdout):  # a terminal
        return shutil.get_terminal_size().columns
    return None


def echo_report(document: Any, rows: Rows = ONE_ROW, *, ascii_only: bool = True) -> None:
    """Print a report's document in the format the command line asked for (``-f``), with
    the columns it asked for (``-c``): ``rows`` says which list of records in it the
    ``table``, ``csv`` and ``value`` formats print, and their default columns
    (:mod:`.cli_formats`). A column the report does not have is a usage error (exit 2)."""
    context = click.get_current_context(silent=True)
    output_format = context.params.get("output_format", "json") if context else "json"
    asked = context.meta.get(_COLUMNS, ()) if context else ()
    try:
        text = render(document, output_format, rows, asked, _table_width(), ascii_only=ascii_only)
    except ColumnError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(text, nl=False)
    _printed()


def error_document(error: click.ClickException) -> dict[str, Any]:
    """The JSON document of a command that could not report: ``valid`` false, the exit code
    and the problems, in the one shape of a finding (:meth:`Problem.to_dict`)."""
    problems = getattr(error, "problems", ())
    if not problems:
        code = "usage" if error.exit_code == EXIT_USAGE else "invalid-input"
        problems = (Problem(code, error.format_message()),)
    return {
        "valid": False,
        "exit_code": error.exit_code,
        "problems": [problem.to_dict() for problem in problems],
    }


def _document_asked(arguments: Sequence[str]) -> str | None:
    """``json`` or ``yaml`` when a command line that click could not read asked for one of
    them (the last ``-f`` counts, as for click), else None."""
    asked = None
    for index, word in enumerate(arguments):
        if word == "--":
            break
        following = arguments[index + 1] if index + 1 < len(arguments) else None
        if word in ("-f", "--format"):
            asked = following
        elif word.startswith("--format="):
            asked = word.partition("=")[2]
        elif word.startswith("-f") and len(word) > 2:
            asked = word[2:]
    return asked if asked in DOCUMENT_FORMATS else None


def print_error_document(error: click.ClickException, output_format: str) -> None:
    """:func:`error_document` as one document in ``output_format`` (json or yaml)."""
    click.echo(render(error_document(error), output_format), nl=False)


def _stdin_once(context: click.Context) -> None:
    """Standard input can be read once: ``-`` may be given to one file argument, once."""
    given = 0
    for parameter in context.command.params:
        if not isinstance(parameter.type, click.Path):
            continue
        value = context.params.get(parameter.name or "")
        values = value if isinstance(value, tuple | list) else (value,)
        given += sum(1 for item in values if item is not None and str(item) == "-")
    if given > 1:
        raise click.UsageError("'-' (standard input) can be given once: it can be read once")


class GrammarCommand(click.Command):
    """A command that keeps the grammar's promises about its arguments and its output:

    - with ``-f json`` or ``-f yaml``, standard output carries one document even when the
      command fails -- the report, or :func:`error_document` (the ``Error:`` line still goes to
      standard error, and the exit code is unchanged); with ``table``, ``csv`` and ``value``
      the error is the ``Error:`` line alone;
    - ``-c/--column`` is refused with ``text``, which has no columns;
    - standard input (``-``) is given to one file argument at most.
    """

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        given = list(args)  # the parser consumes the list it reads
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.ClickException as exc:
            self.answer_unread(exc, given)
            raise

    def answer_unread(self, error: click.ClickException, arguments: Sequence[str]) -> None:
        """What goes to standard output when the command line cannot be read: with ``-f
        json`` or ``-f yaml``, :func:`error_document`, when the command offers that format."""
        asked = _document_asked(arguments)
        if asked is not None and asked in self._formats():
            print_error_document(error, asked)

    def _formats(self) -> tuple[str, ...]:
        for parameter in self.params:
            if parameter.name == "output_format" and isinstance(parameter.type, click.Choice):
                return tuple(str(choice) for choice in parameter.type.choices)
        return ()

    def invoke(self, ctx: click.Context) -> Any:
        output_format = ctx.params.get("output_format")
        try:
            _stdin_once(ctx)
            if ctx.meta.get(_COLUMNS) and output_format not in COLUMN_FORMATS:
                raise click.UsageError(
                    f"-c/--column picks the columns of {', '.join(COLUMN_FORMATS)} output, "
                    f"not of {output_format}: add -f json, -f table, ..."
                )
            return super().invoke(ctx)
        except click.ClickException as exc:
            if output_format in DOCUMENT_FORMATS and not ctx.meta.get(_PRINTED):
                print_error_document(exc, output_format)
            raise


def error(message: str) -> None:
    """One diagnostic line on standard error, with the one error prefix."""
    click.echo(f"Error: {message}", err=True)


def warning(message: str) -> None:
    """One warning line on standard error."""
    click.echo(f"Warning: {message}", err=True)


#: How many keys given twice one file's warnings name; past this, one line counts the rest.
MAX_REPEAT_WARNINGS = 20


def warn_repeated(file: str, repeats: Sequence[RepeatedKey]) -> None:
    """A warning for each key a file gives twice (bounded): the file still loads, the later
    value winning, so the verdict and the exit status are left as they are."""
    for repeat in repeats[:MAX_REPEAT_WARNINGS]:
        warning(repeat.message(file))
    more = len(repeats) - MAX_REPEAT_WARNINGS
    if more > 0:
        warning(f"{file}: {more} more key{'s are' if more != 1 else ' is'} given twice.")


def progress_wanted(stream: Any = None) -> bool:
    """Whether progress lines are wanted: only when standard error is a terminal."""
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``1 image``, ``2 images``: a count with its noun in the number it takes."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def progress(message: str, *, nl: bool = True, force: bool | None = None) -> None:
    """A progress line on standard error, when :func:`progress_wanted` (or ``force``)."""
    if force if force is not None else progress_wanted():
        click.echo(message, err=True, nl=nl)


#: The formats people read, which progress may accompany on a terminal.
_FOR_PEOPLE = ("text", "table")

#: A bar is redrawn after this share of its total (at most this many times), or after this
#: many items of unknown total: redrawing after every item would take as long as the work
#: itself when the items are quick (a cached scan, a fleet of small flavors), and a line
#: redrawn more often than this shows nothing more.
_REDRAWS = 500
_UNCOUNTED_STEPS = 100


def _uncounted() -> Iterator[Any]:
    """Nothing to iterate, and no length: a bar over it counts the work's own updates without
    a total (click needs an iterable or a length, and an empty tuple's length is 0, done)."""
    yield from ()


@overload
def progress_bar(
    label: str, items: None = None, *, total: int | None = None, output_format: str = "text"
) -> ProgressBar[Any]: ...


@overload
def progress_bar(
    label: str, items: Iterable[T], *, total: int | None = None, output_format: str = "text"
) -> ProgressBar[T]: ...


def progress_bar(
    label: str,
    items: Iterable[T] | None = None,
    *,
    total: int | None = None,
    output_format: str = "text",
) -> ProgressBar[T]:
    """click's progress bar for long work, redrawn in place on standard error: ``LABEL
    [###---] N/TOTAL`` with the time left when the total is known (``total``, or the length of
    ``items``), ``LABEL  N`` when it is not.

    Hidden unless wanted (:func:`progress_wanted`: standard error is a terminal) and always
    with a format a program reads (json, yaml, csv, value) -- pass ``output_format`` -- so
    pipes, logs and programs get the result alone (click alone would print the label once
    when it is not on a terminal). Iterate over
    the bar to take ``items``, or call its ``update(1)`` as work that reports itself goes on.
    """
    shown = output_format in _FOR_PEOPLE and progress_wanted(sys.stderr)
    if items is None and total is None:
        items = _uncounted()
    if total is None:
        total = operator.length_hint(items, -1)
        total = None if total < 0 else total
    return click.progressbar(
        items,
        length=total,
        label=label,
        hidden=not shown,
        file=sys.stderr,
        show_pos=True,
        show_percent=False,
        bar_template="%(label)s  %(info)s" if total is None else "%(label)s  [%(bar)s]  %(info)s",
        update_min_steps=_UNCOUNTED_STEPS if total is None else max(1, total // _REDRAWS),
    )


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


class GrammarGroup(click.Group):
    """A group whose commands are :class:`GrammarCommand` s and whose groups are grammar groups
    too. An unknown subcommand is click's own usage error (exit 2), which names the closest
    known commands (click 8.4 and later)."""

    command_class = GrammarCommand
    group_class = type


__all__ = [
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_USAGE",
    "FORMAT_OPTION",
    "INVALID_CONTENT",
    "PROGRAM_FORMATS",
    "REPORT_FORMATS",
    "GrammarCommand",
    "GrammarGroup",
    "InputFile",
    "Invalid",
    "InvalidInput",
    "Rows",
    "SuggestingChoice",
    "UnusableInput",
    "closest",
    "counted",
    "did_you_mean",
    "echo_json",
    "echo_report",
    "empty_input",
    "error",
    "error_document",
    "format_option",
    "input_error",
    "listing",
    "print_error_document",
    "progress",
    "progress_bar",
    "progress_wanted",
    "warning",
    "with_content",
    "yaml_message",
    "yaml_problem",
]
