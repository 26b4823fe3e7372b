"""``onespec audit`` (keys read against keys defined) and ``onespec diff`` (what changed)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from onespec.errors import OnespecError
from onespec.generator.review import audit as auditing
from onespec.generator.review import idioms as idiom_table
from onespec.generator.review import nova_catalogue, reads
from onespec.generator.review.catalogues import CatalogueError, load
from onespec.generator.review.compare import compare
from onespec.generator.review.render import RENDERERS
from onespec.generator.review.revisions import TRUST_OPTION, RevisionError
from onespec.generator.review.revisions import load as load_side
from onespec.validators_runtime import inputs
from onespec.validators_runtime.cli_grammar import (
    GrammarCommand,
    InputFile,
    InvalidInput,
    echo_report,
    format_option,
    input_error,
    listing,
    progress_bar,
)
from onespec.validators_runtime.problems import Location

#: ``-f table|csv|value``: one row a finding, where the key is read or defined.
_AUDIT_ROWS = listing("findings", columns=("severity", "code", "file", "line", "message"))


class _Usage(OnespecError, click.ClickException):
    exit_code = 2


@click.command(cls=GrammarCommand)
@click.argument(
    "sources",
    metavar="SRC...",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, path_type=Path),
)
@click.option(
    "--catalogue",
    default="in-tree",
    show_default=True,
    help="in-tree, nova (Nova's validators found in the sources) or an entry point's name.",
)
@click.option(
    "--idioms",
    "idioms_file",
    type=InputFile(path_type=Path),
    help="A YAML file of more reader idioms and prefixes (see the guide); '-' reads standard "
    "input.",
)
@click.option(
    "--exclude",
    multiple=True,
    default=("tests",),
    show_default=True,
    help="Folder names to skip (repeat the option).",
)
@format_option()
def audit(
    sources: tuple[Path, ...],
    catalogue: str,
    idioms_file: Path | None,
    exclude: tuple[str, ...],
    output_format: str,
) -> None:
    """Check that every extra-spec key SRC reads is defined, and every definition is read.

    Python files are parsed, never imported. Exit 0: no findings; 1: findings; 2: usage.
    """
    started = time.perf_counter()
    try:
        chosen = load(catalogue, sources)
        idioms, prefixes = idiom_table.DEFAULT_IDIOMS, idiom_table.DEFAULT_PREFIXES
        not_keys = idiom_table.DEFAULT_NOT_KEYS
        if idioms_file is not None:
            table = idiom_table.load_file(idioms_file)
            idioms, prefixes = (*idioms, *table.idioms), (*prefixes, *table.prefixes)
            not_keys = (*not_keys, *table.not_keys)
    except inputs.InputError as error:
        raise input_error(error) from None
    except (idiom_table.IdiomYAMLError, idiom_table.IdiomFileError) as error:
        raise InvalidInput(str(error)) from None
    except CatalogueError as error:
        raise _Usage(str(error)) from None
    # A Nova tree's validator modules define keys; they are never counted as reads, whichever
    # catalogue the audit compares against. Paths are reported from the folder holding nova/.
    nova_root = nova_catalogue.find_root(sources)
    skip = list(chosen.defining_files)
    if nova_root is not None:
        skip += sorted((nova_root / nova_catalogue.VALIDATOR_PACKAGE).glob("*.py"))
    python_files = reads.python_files(sources, exclude, skip)
    with progress_bar("reading Python files", python_files, output_format=output_format) as files:
        anchor = nova_root or next((s for s in sources if s.is_dir()), None)
        found = reads.scan(
            files,
            auditing.namespace_patterns(chosen.definitions),
            idioms,
            anchor,
            auditing.bare_names(chosen.definitions),
            not_keys,
        )
    findings = [
        *auditing.unparsable(found.unparsable),
        *auditing.audit(chosen.definitions, found, prefixes, chosen.origins),
    ]
    elapsed = time.perf_counter() - started
    if output_format != "text":
        document = {
            "catalogue": chosen.label,
            "definitions": len(chosen.definitions),
            "files": found.files_seen,
            "files_parsed": found.files_parsed,
            "reads": len(found.reads),
            "seconds": round(elapsed, 3),
            "notes": [note.to_dict() for note in chosen.notes],
            "findings": [finding.to_dict() for finding in findings],
        }
        echo_report(document, _AUDIT_ROWS)
    else:
        for note in chosen.notes:
            click.echo(f"note: {note}", err=True)
        for finding in findings:
            where = str(Location(finding.location.file, finding.location.line)) or "(catalogue)"
            click.echo(f"{where}: {finding.severity}: {finding.code}: {finding.message}")
        errors = sum(finding.severity == "error" for finding in findings)
        click.echo(
            f"{len(findings)} finding(s), {errors} error(s): {len(found.reads)} reads in "
            f"{found.files_seen} files against {len(chosen.definitions)} definitions "
            f"of {chosen.label} ({elapsed:.2f} s)"
        )
    if findings:
        raise click.exceptions.Exit(1)


@click.command(cls=GrammarCommand)
@click.argument("old")
@click.argument("new")
@format_option(
    help_text="text, json, rst (a table) or reno (a release note's YAML).",
    choices=("text", "json", "rst", "reno"),
)
@click.option(
    "--repository",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="The git checkout whose revisions OLD and NEW name.",
)
@click.option(
    TRUST_OPTION,
    "trust_revisions",
    is_flag=True,
    help=(
        "Load git revisions: their definitions are Python code, imported (run) in a child "
        "process with your privileges. Without it, a git revision is refused."
    ),
)
def diff(old: str, new: str, output_format: str, repository: Path, trust_revisions: bool) -> None:
    """Report what changed from catalogue OLD to NEW, key by key, most breaking first.

    OLD and NEW are each a git revision of a definitions tree (HEAD~5, a tag; loading one runs
    its code, so it takes --trust-revisions), the name of an installed distribution publishing
    onespec.extra_specs entry points, or nova:PATH (a Nova source tree, read without running
    it). Exit 0: no breaking change; 1: something breaks existing flavors; 2: usage.
    """
    try:
        before, after = (
            load_side(side, repository, trust_revisions=trust_revisions) for side in (old, new)
        )
    except RevisionError as error:
        raise _Usage(str(error)) from None
    for side in (before, after):
        for note in side.notes:
            click.echo(f"note: {side.label}: {note}", err=True)
    changes = compare(before.definitions, after.definitions)
    click.echo(RENDERERS[output_format](changes, before.label, after.label), nl=False)
    if any(change.breaks for change in changes):
        raise click.exceptions.Exit(1)
