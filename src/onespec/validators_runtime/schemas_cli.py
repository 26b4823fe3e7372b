"""``onespec schemas``: where the installed JSON Schemas and their catalog are, for editors.

The schemas' ``$id`` URLs are identifiers, not addresses: nothing serves them. An editor that
checks files as they are typed (the YAML language server) needs the files themselves, which the
installed package ships (:mod:`onespec.validators_runtime.resources`). These commands print
where they are, and the language server's ``yaml.schemas`` setting that maps each schema, by
its local path, to the file names the catalog routes to it, so the setup works offline.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from onespec.validators_runtime import resources
from onespec.validators_runtime.cli_grammar import (
    FORMAT_OPTION,
    PROGRAM_FORMATS,
    GrammarGroup,
    UnusableInput,
    did_you_mean,
    echo_report,
    format_option,
)


def schema_directory() -> Path:
    """The directory of the installed schemas, as a path an editor can open."""
    directory = Path(str(resources.directory("schemas")))
    if not directory.is_dir():
        raise UnusableInput(
            f"the schemas are not files on disk here ({directory}): install onespec unpacked "
            "(pip install . or a wheel) to point an editor at them"
        )
    return directory


def file_path(name: str | None) -> Path:
    """The directory, or one file in it: a schema's file name or ``catalog.json``."""
    directory = schema_directory()
    if name is None:
        return directory
    known = [*resources.schema_names()]
    if name not in known:
        hint = did_you_mean(name, known)
        raise click.BadParameter(
            f"no schema file named {name!r}.{hint} Known: {', '.join(known)}",
            param_hint="'NAME'",
        )
    return directory / name


def language_server_schemas() -> dict[str, list[str]]:
    """``yaml.schemas``: each schema of the catalog, by its local path, to its file patterns."""
    directory = schema_directory()
    catalog = json.loads((directory / resources.CATALOG_FILE).read_text(encoding="utf-8"))
    mapping: dict[str, list[str]] = {}
    for entry in catalog["schemas"]:
        local = directory / entry["url"].rsplit("/", 1)[-1]
        mapping[str(local)] = list(entry["fileMatch"])
    return mapping


@click.group(cls=GrammarGroup, context_settings={"help_option_names": ["-h", "--help"]})
def schemas() -> None:
    """Where the JSON Schemas are, for editors that check YAML files offline."""


@schemas.command("path")
@click.argument("name", required=False)
@FORMAT_OPTION
def path_command(name: str | None, output_format: str) -> None:
    """Print the directory of the installed JSON Schemas and catalog.json, or the path of one
    file in it (NAME: a schema's file name, such as flavor-extra-specs.schema.json, or
    catalog.json).

    \b
    Example:
      onespec schemas path
      onespec schemas path flavor-extra-specs.schema.json
    """
    found = file_path(name)
    if output_format != "text":
        echo_report({"path": str(found)})
    else:
        click.echo(str(found))


@schemas.command("settings")
@format_option(choices=PROGRAM_FORMATS)  # a setting to paste into an editor's JSON
def settings_command(output_format: str) -> None:
    """Print the YAML language server's yaml.schemas setting, with local paths: every schema
    of the catalog mapped to the file names it checks. Paste it into VS Code's settings.json
    (or the settings of another editor's language server client).

    \b
    Example:
      onespec schemas settings
    """
    document: dict[str, Any] = {"yaml.schemas": language_server_schemas()}
    if output_format == "json":
        click.echo(json.dumps(document))
    else:
        click.echo(json.dumps(document, indent=4))
