"""``onespec generate``: write the generated files, or check that they are up to date."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from onespec.generator.manifest import OUTPUT_FACTORIES, all_outputs, deployment_output
from onespec.generator.outputs import ROOT, Output, _display, diff, is_checkout, write_atomically
from onespec.validators_runtime.cli_grammar import (
    FORMAT_OPTION,
    GrammarGroup,
    echo_report,
    listing,
)


def _require_checkout(check: bool) -> None:
    """Refuse to compare with, or write into, an installed package as if it were a checkout.

    Without this, ``--check`` on an installed onespec compares against whatever sits next to
    the installed packages and reports every file as drifted, and a write lands inside
    ``site-packages``.
    """
    if is_checkout():
        return
    what = "compare against" if check else "write into"
    raise click.UsageError(
        f"onespec is installed ({ROOT}), not run from a source checkout: there are no committed "
        f"generated files to {what}. Use `onespec generate metadefs --output-dir DIR` or "
        "`onespec generate schemas --output-dir DIR` to write (or, with '--check', to compare) "
        "the files of this installation in a directory of your choice."
    )


def _run(
    outputs: tuple[Output, ...],
    check: bool,
    output_format: str = "text",
    *,
    in_checkout: bool = True,
) -> None:
    """Render each output; write it, or (``check``) print a diff of any drift and fail.

    Each output group says what was written (or checked) in one line on standard error --
    with each file written or removed below it -- so that ``make metadefs`` is not silent;
    the report (the diffs, or with ``-f json`` one JSON document) goes to standard output.
    ``in_checkout``: the outputs are the committed files of the checkout, which must exist.
    """
    if in_checkout:
        _require_checkout(check)
    drifted: list[str] = []
    report: list[dict[str, object]] = []
    for output in outputs:
        started = time.perf_counter()
        rendered = output.render()
        stale = output.stale(rendered)
        changed: list[str] = []
        differ: list[str] = []
        if check:
            for path, text in [*rendered.items(), *((path, None) for path in stale)]:
                lines = list(diff(path, text))
                if lines:
                    differ.append(_display(path))
                    if output_format == "text":
                        sys.stdout.writelines(lines)
        else:
            for path, text in rendered.items():
                if write_atomically(path, text):
                    changed.append(_display(path))
            for path in stale:
                path.unlink()
                changed.append(_display(path))
        drifted.extend(differ)
        elapsed = time.perf_counter() - started
        files = f"{len(rendered)} file{'s' if len(rendered) != 1 else ''}"
        if check:
            summary = f"{files} checked, {len(differ)} differ"
        elif changed:
            summary = f"wrote {len(changed)} of {files}"
        else:
            summary = f"{files} up to date"
        click.echo(f"{output.name}: {summary} ({elapsed:.2f} s)", err=True)
        removed = {_display(path) for path in stale}
        for name in changed:
            click.echo(f"  {'removed' if name in removed else 'wrote'} {name}", err=True)
        report.append(
            {
                "output": output.name,
                "files": sorted(_display(path) for path in rendered),
                "changed" if not check else "differ": changed if not check else differ,
            }
        )
    if output_format != "text":
        rows = listing("outputs", columns=("output", "differ" if check else "changed"))
        echo_report({"check": check, "outputs": report, "differ": drifted}, rows)
    if drifted:
        raise click.ClickException(
            f"{len(drifted)} generated file{'s' if len(drifted) != 1 else ''} differ from the "
            f"definitions ({', '.join(drifted)}); "
            + (
                "run `onespec generate all` (or `make all`) and commit the result."
                if in_checkout
                else "run the same command without '--check' to rewrite them."
            )
        )


_CHECK = click.option(
    "--check",
    is_flag=True,
    help="Regenerate in memory and fail with a unified diff if any file differs.",
)


@click.group(cls=GrammarGroup)
def generate() -> None:
    """Generate files from the definitions (they are committed; see `make check`)."""


@generate.command("all", short_help="Generate every output: tables, metadefs, JSON Schemas")
@_CHECK
@FORMAT_OPTION
def generate_all(check: bool, output_format: str) -> None:
    """Generate every output: the runtime's tables, the Glance metadefs, the JSON Schemas."""
    _run(all_outputs(), check, output_format)


def _single(name: str, help_text: str) -> click.Command:
    @_CHECK
    @FORMAT_OPTION
    def command(check: bool, output_format: str) -> None:
        _run((OUTPUT_FACTORIES[name](),), check, output_format)

    command.__doc__ = help_text
    return generate.command(name, short_help=_short(help_text))(command)


def _short(help_text: str) -> str:
    """The listing's line: the file named, without the long path that click would cut to a
    bare "Generate..." (``src/onespec/validators_runtime/_generated/x.py`` -> ``x.py``)."""
    words = [
        word.rsplit("/", 1)[-1] if "/_generated/" in word else word for word in help_text.split()
    ]
    return " ".join(words).split(":")[0].rstrip(".")


_single(
    "runtime",
    "Generate src/onespec/validators_runtime/_generated/extra_specs.py from the catalogue.",
)
_single(
    "plugin-labels",
    "Generate src/onespec/validators_runtime/_generated/plugin_labels.py"
    " from the label definitions.",
)
_single(
    "api",
    "Generate src/onespec/validators_runtime/_generated/api.py"
    ": the HTTP API's limits and JSON Schemas.",
)
_single(
    "components",
    "Generate src/onespec/validators_runtime/_generated/components.py"
    " from the component vocabulary.",
)
_single(
    "template-capabilities",
    "Generate src/onespec/validators_runtime/_generated/template_capabilities.py"
    " from the template capabilities vocabulary.",
)
_OUTPUT_DIR = click.option(
    "--output-dir",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help=(
        "Write into DIR instead of the checkout's outputs/, including the definitions that "
        "installed packages add through the onespec.extra_specs entry point (the committed "
        "files hold the in-tree catalogue only). With --check, compare against DIR."
    ),
)


def _deployable(name: str, help_text: str) -> click.Command:
    """A command for files a deployer places: into the checkout, or into ``--output-dir``."""

    @_CHECK
    @_OUTPUT_DIR
    @FORMAT_OPTION
    def command(check: bool, output_dir: Path | None, output_format: str) -> None:
        if output_dir is None:
            _run((OUTPUT_FACTORIES[name](),), check, output_format)
        else:
            output = deployment_output(name, output_dir.resolve())
            _run((output,), check, output_format, in_checkout=False)

    command.__doc__ = help_text
    return generate.command(name, short_help=_short(help_text))(command)


_deployable(
    "metadefs",
    "Generate the Glance metadata definition files (outputs/glance-metadefs/, or --output-dir).",
)
_deployable("schemas", "Generate the JSON Schemas (outputs/schemas/, or --output-dir).")
_single(
    "images",
    "Generate src/onespec/validators_runtime/_generated/image_validators.py from the grammar.",
)
_single(
    "flavor-rules",
    "Generate src/onespec/validators_runtime/_generated/flavor_rules.py"
    ": the rules between keys, as code.",
)
