"""``onespec template-capabilities``: find, summarise and resolve the capabilities of HOT templates.

Exit codes: 0 when all is well; 1 when the input is invalid (a file that cannot be loaded, a
malformed section, a list of templates that does not resolve to exactly one); 2 on a usage error.
Introspection commands still print what they found when some files are invalid; the invalid
files are reported on standard error.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click

from onespec.validators_runtime.cli_formats import ONE_ROW, Rows
from onespec.validators_runtime.cli_grammar import (
    FORMAT_OPTION,
    GrammarGroup,
    InputFile,
    Invalid,
    UnusableInput,
    echo_report,
    format_option,
    listing,
    progress_bar,
)
from onespec.validators_runtime.cli_grammar import error as report_error
from onespec.validators_runtime.cli_grammar import warning as report_warning
from onespec.validators_runtime.heat import template_capabilities as api
from onespec.validators_runtime.heat.hot_loader import MAX_TEMPLATE_SIZE, HeatFileError
from onespec.validators_runtime.problems import Location, Problem

F = TypeVar("F", bound=Callable[..., Any])
R = TypeVar("R")


def _options(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    def apply(function: F) -> F:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return apply


_MAX_SIZE = click.option(
    "--max-size",
    type=click.IntRange(min=1),
    default=MAX_TEMPLATE_SIZE,
    show_default=True,
    metavar="CHARACTERS",
    help="Refuse files longer than this, as Heat's max_template_size does.",
)
_NO_CACHE = click.option(
    "--no-cache",
    is_flag=True,
    help="Parse every file, neither reading nor writing the cache in the user's cache directory.",
)
_VERBOSE = click.option(
    "-v", "--verbose", is_flag=True, help="Also report warnings (duplicate keys, skipped paths)."
)
#: The paths of a scan: files, directories (with -r), or '-' for one file on standard input.
_SCANNED = InputFile(dir_okay=True)

#: ``-r``: one meaning in every scan, as in grep -- walk the directories among the paths.
_RECURSIVE = click.option(
    "-r", "--recursive", is_flag=True, help="Scan the directories among the paths, recursively."
)
_SKIP_INVALID = click.option(
    "--skip-invalid",
    is_flag=True,
    help="Leave out files that cannot be read as Heat reads them (each still listed on standard "
    "error) instead of exiting 1 for them: for trees that ship files Heat refuses.",
)
_SCAN_OPTIONS = _options(_MAX_SIZE, _NO_CACHE, _VERBOSE, _SKIP_INVALID)


def _report(problems: Iterable[api.Problem], verbose: bool, skip_invalid: bool = False) -> bool:
    """Print errors (and, with ``verbose``, warnings) on standard error; True if any error
    fails the command -- none with ``skip_invalid``, which lists each file it left out."""
    failed = False
    for problem in problems:
        # The file and line; the key path is in --format json (the sentence names the key).
        where = Location(problem.location.file, problem.location.line)
        if problem.severity == "error" and skip_invalid:
            report_warning(f"skipped {where}: {problem.message}")
        elif problem.severity == "error":
            failed = True
            report_error(f"{where}: {problem.message}")
        elif verbose:
            report_warning(f"{where}: {problem.message}")
    return failed


def _scanned(paths: tuple[str, ...], recursive: bool) -> tuple[str, ...]:
    """The paths of a scan; a directory without -r is a usage error, as in grep."""
    for path in paths:
        if not recursive and path != "-" and os.path.isdir(path):
            raise click.UsageError(f"{path!r} is a directory: give -r to scan it")
    return paths


def _scan(
    query: Callable[..., R],
    paths: tuple[str, ...],
    recursive: bool,
    output_format: str,
    no_cache: bool,
    max_size: int,
    *arguments: Any,
) -> R:
    """Run a query over the paths of a scan, counting the files read on a terminal: a scan of
    a whole tree takes tens of seconds."""
    scanned = _scanned(paths, recursive)
    with progress_bar("scanning files", output_format=output_format) as bar:
        return query(
            scanned,
            *arguments,
            recursive=recursive,
            cache=not no_cache,
            max_size=max_size,
            progress=lambda _path: bar.update(1),
        )


def _constraint(pair: str) -> tuple[str, str]:
    key, equals, value = pair.partition("=")
    if not equals or not key:
        raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="-c/--capability")
    return key, value


def _json(data: Any, rows: Rows = ONE_ROW) -> None:
    """The report in the format asked; file names and values as they are, not escaped."""
    echo_report(data, rows, ascii_only=False)


#: ``-f table|csv|value``: one row a matching template (``-f value`` is the text's list).
_FIND_ROWS = listing("matches", columns=("template",))
#: One row a resource type, with the templates that name it; the labels are in the document.
_SUMMARY_ROWS = listing(
    "resource_types", columns=("resource_type", "templates"), key="resource_type"
)
#: One row a resource type with several implementations, each with its environments.
_CHOICES_ROWS = listing(
    "choices", columns=("resource_type", "implementations"), key="resource_type"
)
#: One row a list of templates resolved (or not), with the one chosen.
_RESOLVE_ROWS = listing("decisions", columns=("resource_type", "environment", "line", "chosen"))


@click.group("template-capabilities", cls=GrammarGroup)
def template_capabilities() -> None:
    """Template capabilities: find, summarise and resolve them.

    A HOT template declares what it provides in a `capabilities` section; an environment
    states what it needs in `requires` and may map a resource type to a list of templates.
    Heat rejects both, so `resolve` writes an environment (and templates) that Heat accepts.
    """


@template_capabilities.command("find")
@_RECURSIVE
@click.option(
    "-c",
    "--capability",
    "constraints",
    multiple=True,
    required=True,
    metavar="KEY=VALUE",
    help="A capability the template must declare; repeat to require several.",
)
@format_option(short_column=False)  # -c is --capability here, as it was first
@_SCAN_OPTIONS
@click.argument("paths", nargs=-1, required=True, type=_SCANNED, metavar="PATH...")
def find_command(
    recursive: bool,
    constraints: tuple[str, ...],
    output_format: str,
    max_size: int,
    no_cache: bool,
    verbose: bool,
    skip_invalid: bool,
    paths: tuple[str, ...],
) -> None:
    """Print the templates whose capabilities match every -c KEY=VALUE, one per line.

    A list value in a template matches when one of its members is VALUE. Exits as grep does:
    0 when a template matched, 1 when none did (or a file is invalid, unless
    --skip-invalid), 2 on a usage error.

    \b
    Example:
      onespec template-capabilities find -r -c resource_type=OS::TripleO::Controller .
    """
    pairs = [_constraint(pair) for pair in constraints]
    result = _scan(api.find, paths, recursive, output_format, no_cache, max_size, pairs)
    if output_format != "text":
        _json(result.to_dict(), _FIND_ROWS)
    else:
        for path in result.matches:
            click.echo(path)
    if _report(result.problems, verbose, skip_invalid) or not result.matches:
        raise Invalid() from None


@template_capabilities.command("summary")
@_RECURSIVE
@FORMAT_OPTION
@_SCAN_OPTIONS
@click.argument("paths", nargs=-1, required=True, type=_SCANNED, metavar="PATH...")
def summary_command(
    recursive: bool,
    output_format: str,
    max_size: int,
    no_cache: bool,
    verbose: bool,
    skip_invalid: bool,
    paths: tuple[str, ...],
) -> None:
    """Print the capabilities that the templates offer.

    `labels` maps each label key to the values templates declare for it; `resource_types`
    maps each type that templates name in `resource_type` to those templates.

    \b
    Examples:
      onespec template-capabilities summary puppet/controller.yaml docker/controller.yaml
      onespec template-capabilities summary -r . -f json
    """
    result = _scan(api.summary, paths, recursive, output_format, no_cache, max_size)
    if output_format != "text":
        _json(result.to_dict(), _SUMMARY_ROWS)
    else:
        report = result.to_dict()
        for key, values in report["labels"].items():
            click.echo(f"label {key}: {', '.join(values)}")
        for kind, templates in report["resource_types"].items():
            click.echo(f"resource type {kind}: {', '.join(templates)}")
    if _report(result.problems, verbose, skip_invalid):
        raise Invalid() from None


@template_capabilities.command("choices")
@_RECURSIVE
@FORMAT_OPTION
@_SCAN_OPTIONS
@click.argument("paths", nargs=-1, required=True, type=_SCANNED, metavar="ENV_FILE...")
def choices_command(
    recursive: bool,
    output_format: str,
    max_size: int,
    no_cache: bool,
    verbose: bool,
    skip_invalid: bool,
    paths: tuple[str, ...],
) -> None:
    """List each resource type that the environments map to different implementations.

    Paths are normalised relative to each environment file. These are the choices that
    capabilities make explicit.

    \b
    Example:
      onespec template-capabilities choices -r overcloud-resource-registry-puppet.yaml environments
    """
    result = _scan(api.choices, paths, recursive, output_format, no_cache, max_size)
    if output_format != "text":
        _json(result.to_dict(), _CHOICES_ROWS)
    else:
        for name, implementations in result.types.items():
            click.echo(f"{name}: {len(implementations)} implementations")
            for implementation, environments in implementations.items():
                click.echo(f"  {implementation}")
                click.echo(f"      from {', '.join(environments)}")
    if _report(result.problems, verbose, skip_invalid):
        raise Invalid() from None


@template_capabilities.command("resolve")
@click.option(
    "-e",
    "--environment",
    "environments",
    multiple=True,
    required=True,
    type=InputFile(),
    metavar="ENV",
    help="An environment file; repeat for several, merged in order as Heat merges them.",
)
@click.option(
    "--output-dir",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Write DIR/environment.yaml beside copies of its templates without capabilities.",
)
@click.option(
    "--root",
    type=click.Path(exists=True, file_okay=False),
    metavar="DIR",
    help="With --output-dir: the directory whose layout the copies keep, and outside which "
    "nothing is copied (default: the directory of the environments).",
)
@click.option(
    "--overwrite", is_flag=True, help="With --output-dir: write into a directory that has files."
)
@FORMAT_OPTION
@_MAX_SIZE
def resolve_command(
    environments: tuple[str, ...],
    output_dir: str | None,
    root: str | None,
    overwrite: bool,
    output_format: str,
    max_size: int,
) -> None:
    """Resolve the environments' lists of templates; print an environment Heat accepts.

    Each `resource_registry` list is replaced by the one template whose capabilities satisfy
    `requires`, and `requires` is dropped. Without --output-dir, local paths are absolute and
    the templates are the originals (Heat rejects those that have a `capabilities` section).
    Exits 0 when every list resolved, 1 when any has no candidate or several (each candidate
    is listed, with why it did or did not match), 2 on a usage error.

    \b
    Example:
      onespec template-capabilities resolve -e environments/puppet.yaml --output-dir build/
    """
    if (root or overwrite) and output_dir is None:
        raise click.UsageError("'--root' and '--overwrite' apply to '--output-dir' only")
    try:
        resolution = api.resolve(environments, max_size=max_size)
    except api.ResolutionError as exc:
        if output_format != "text":
            _json(
                {"resolved": False, "decisions": [d.to_dict() for d in exc.decisions]},
                _RESOLVE_ROWS,
            )
        report_error(str(exc))
        raise Invalid() from None
    except HeatFileError as exc:
        if output_format != "text":
            where = Location(exc.path, exc.line)
            located = Problem("invalid-file", exc.reason, location=where)
            _json({"resolved": False, "error": str(exc), "problems": [located.to_dict()]})
        report_error(str(exc))
        raise Invalid() from None
    written = None
    if output_dir is not None:
        try:
            written = api.write_resolution(
                resolution, output_dir, root=root, overwrite=overwrite, max_size=max_size
            )
        except api.OutputError as exc:
            if exc.usage:
                raise UnusableInput(str(exc)) from None
            if output_format != "text":
                problems = [Problem("output", reason).to_dict() for reason in exc.problems]
                _json({"resolved": False, "error": str(exc), "problems": problems})
            for problem in exc.problems:
                report_error(problem)
            raise Invalid() from None
    for warning in resolution.warnings:
        report_warning(str(warning))
    if output_format != "text":
        report = {"resolved": True, **resolution.to_dict()}
        if written is not None:
            report["written"] = {
                "environment": written.environment,
                "files": list(written.files),
                "stripped": list(written.stripped),
                "root": written.root,
            }
        _json(report, _RESOLVE_ROWS)
    elif written is not None:
        click.echo(written.environment)
        count = len(written.files)
        click.echo(
            f"Wrote {written.environment} and {count} file{'s' if count != 1 else ''} "
            f"({len(written.stripped)} without their capabilities section), laid out as "
            f"{written.root}",
            err=True,
        )
    else:
        click.echo(resolution.to_yaml(), nl=False)
        if resolution.annotated:
            click.echo(
                "Note: Heat rejects the capabilities section of "
                f"{', '.join(resolution.annotated)}; use '--output-dir' for copies without it",
                err=True,
            )
