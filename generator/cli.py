"""``onespec generate``: write the generated files, or check that they are up to date."""

from __future__ import annotations

import json
import sys
import time

import click

from generator.manifest import OUTPUT_FACTORIES, all_outputs
from generator.outputs import Output, _display, diff, write_atomically
from validators_runtime.cli_grammar import FORMAT_OPTION, SuggestingGroup, progress


def _run(outputs: tuple[Output, ...], check: bool, output_format: str = "text") -> None:
    """Render each output; write it, or (``check``) print a diff of any drift and fail.

    Progress goes to standard error when it is a terminal; the report (the diffs, or with
    ``--format json`` one JSON document) to standard output.
    """
    drifted: list[str] = []
    report: list[dict[str, object]] = []
    for output in outputs:
        started = time.perf_counter()
        progress(f"{'checking' if check else 'generating'} {output.name} ...", nl=False)
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
                    progress(f"\n  wrote {_display(path)}", nl=False)
            for path in stale:
                path.unlink()
                changed.append(_display(path))
                progress(f"\n  removed stale {_display(path)}", nl=False)
        drifted.extend(differ)
        elapsed = time.perf_counter() - started
        summary = f"{len(rendered)} file{'s' if len(rendered) != 1 else ''}"
        if not check:
            summary += f", {len(changed)} changed"
        progress(f"{chr(10) if changed else ' '}{summary} ({elapsed:.2f} s)")
        report.append(
            {
                "output": output.name,
                "files": sorted(_display(path) for path in rendered),
                "changed" if not check else "differ": changed if not check else differ,
            }
        )
    if output_format == "json":
        click.echo(json.dumps({"check": check, "outputs": report, "differ": drifted}, indent=2))
    if drifted:
        raise click.ClickException(
            f"{len(drifted)} generated file{'s' if len(drifted) != 1 else ''} differ from the "
            f"definitions ({', '.join(drifted)}); run `onespec generate all` (or `make all`) and "
            "commit the result."
        )


_CHECK = click.option(
    "--check",
    is_flag=True,
    help="Regenerate in memory and fail with a unified diff if any file differs.",
)


@click.group(cls=SuggestingGroup)
def generate() -> None:
    """Generate files from the definitions (they are committed; see `make check`)."""


@generate.command("all")
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
    return generate.command(name)(command)


_single("runtime", "Generate validators_runtime/_generated/extra_specs.py from the catalogue.")
_single(
    "plugin-labels",
    "Generate validators_runtime/_generated/plugin_labels.py from the label definitions.",
)
_single(
    "api",
    "Generate validators_runtime/_generated/api.py: the HTTP API's limits and JSON Schemas.",
)
_single(
    "components",
    "Generate validators_runtime/_generated/components.py from the component vocabulary.",
)
_single(
    "capabilities",
    "Generate validators_runtime/_generated/template_capabilities.py from the template "
    "capabilities vocabulary.",
)
_single("metadefs", "Generate the Glance metadata definition files in outputs/glance-metadefs/.")
_single("schemas", "Generate the JSON Schemas in outputs/schemas/.")
_single("images", "Generate validators_runtime/_generated/image_validators.py from the grammar.")
