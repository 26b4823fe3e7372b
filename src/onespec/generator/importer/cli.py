"""``onespec import``: write an out-of-tree definitions package from another catalogue."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath

import click

from onespec.generator.importer.metadefs import (
    ImportedNamespace,
    MetadefImportError,
    read_directory,
)
from onespec.generator.importer.nova import read_tree
from onespec.generator.importer.package import PackageNameError, render_package
from onespec.validators_runtime.cli_grammar import (
    GrammarGroup,
    echo_report,
    format_option,
    listing,
)


def printable(text: str) -> str:
    """*text* as a terminal may show it: line breaks, control characters and undecodable bytes
    of the source (names, file names) escaped, so a report never runs on a terminal."""
    return text if text.isprintable() else repr(text)[1:-1]


#: What each command reads, as the report counts it.
_KINDS = {"glance-metadefs": "metadef files", "nova": "validator modules"}

_PACKAGE = click.option(
    "--package",
    "package",
    required=True,
    metavar="NAME",
    help="The distribution name of the package to write (its module is NAME with '_').",
)
_OUTPUT = click.option(
    "--output",
    "output",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="The directory to write the package into; it must be empty or not exist.",
)
_FORMAT = format_option(help_text="The report: text for people, JSON for machines.")


@click.group("import", cls=GrammarGroup)
def import_() -> None:
    """Bootstrap an out-of-tree definitions package from another catalogue."""


@import_.command("glance-metadefs")
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@_PACKAGE
@_OUTPUT
@_FORMAT
def glance_metadefs(directory: Path, package: str, output: Path, output_format: str) -> None:
    """Import the Glance metadef files of DIRECTORY (its .json files) as extra-spec definitions.

    The properties each namespace associates with OS::Nova::Flavor become definitions, named
    with that association's prefix; types, enums, bounds, patterns and defaults are carried.
    What cannot be carried is listed in the report and in each module's NOT_CARRIED. Exits 0
    when the package was written, 2 when the input or the options cannot be used.

    \b
    Example:
      onespec import glance-metadefs /etc/glance/metadefs --package acme-specs --output acme
    """
    _write(package, output, output_format, lambda: read_directory(directory), "glance-metadefs")


@import_.command("nova")
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
@_PACKAGE
@_OUTPUT
@_FORMAT
def nova(path: Path, package: str, output: Path, output_format: str) -> None:
    """Import Nova's extra-spec validators from the Nova tree at PATH.

    PATH is a Nova source tree, an installed ``nova`` package's parent, or Nova's
    ``nova/api/validation/extra_specs`` folder itself. The modules are parsed, never imported:
    validators stated with literals become definitions; those built when Nova runs (in loops
    over os-traits, with f-strings) are listed as not carried.

    \b
    Example:
      onespec import nova ~/src/nova --package nova-validators --output nova-validators
    """
    _write(package, output, output_format, lambda: read_tree(path), "nova")


def _write_all(output: Path, files: Mapping[PurePosixPath, str]) -> None:
    """Write every file, or none: the package is built in a folder beside ``output`` and renamed
    into place, so a failure (a full disk, a name the file system refuses) leaves nothing."""
    building: Path | None = None
    try:
        parent = output.absolute().parent
        parent.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(prefix=f".{output.name}-", dir=parent))
        for relative, text in files.items():
            target = building / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        if output.exists():
            output.rmdir()  # empty: checked before anything was read
        building.rename(output)
        building = None
    except OSError as error:
        where = error.filename or output
        raise click.ClickException(
            f"--output {printable(str(output))}: cannot write {printable(str(where))}: "
            f"{error.strerror or error}; nothing was written"
        ) from None
    finally:
        if building is not None:
            shutil.rmtree(building, ignore_errors=True)


def _write(
    package: str,
    output: Path,
    output_format: str,
    read: Callable[[], tuple[ImportedNamespace, ...]],
    command: str,
) -> None:
    """Read, write the package, and report: the part every source shares."""
    if output.exists() and any(output.iterdir()):
        raise click.UsageError(f"--output {output}: not empty; give a new or empty directory")
    try:
        namespaces = read()
        files = render_package(package, namespaces, command)
    except (MetadefImportError, PackageNameError) as error:
        raise click.UsageError(str(error)) from None
    _write_all(output, files)
    imported = sum(len(namespace.definitions) for namespace in namespaces)
    not_carried = [item for namespace in namespaces for item in namespace.not_carried]
    if output_format != "text":
        report = {
            "package": package,
            "output": str(output),
            "files": len(files),
            "definitions": imported,
            "namespaces": [
                {"namespace": ns.name, "source": ns.source, "definitions": len(ns.definitions)}
                for ns in namespaces
            ],
            "not_carried": [
                {"source": i.source, "what": i.what, "reason": i.reason} for i in not_carried
            ],
        }
        echo_report(report, listing("namespaces", columns=("namespace", "source", "definitions")))
        return
    click.echo(
        f"Wrote {package} to {printable(str(output))}: {imported} definitions from "
        f"{len(namespaces)} {_KINDS[command]}, {len(files)} files."
    )
    if not_carried:
        click.echo(f"Not carried over ({len(not_carried)}):")
        for item in not_carried:
            click.echo(f"  {printable(str(item))}")
