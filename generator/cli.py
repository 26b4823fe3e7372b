"""``onespec generate``: write the generated files, or check that they are up to date."""

from __future__ import annotations

import sys
import time

import click

from generator.manifest import OUTPUT_FACTORIES, all_outputs
from generator.outputs import Output, _display, diff, write_atomically


def _run(outputs: tuple[Output, ...], check: bool) -> None:
    """Render each output; write it, or (``check``) print a diff of any drift and fail."""
    drifted: list[str] = []
    for output in outputs:
        started = time.perf_counter()
        click.echo(f"{'checking' if check else 'generating'} {output.name} ...", err=True, nl=False)
        rendered = output.render()
        stale = output.stale(rendered)
        changed = 0
        if check:
            for path, text in [*rendered.items(), *((path, None) for path in stale)]:
                lines = list(diff(path, text))
                if lines:
                    drifted.append(_display(path))
                    sys.stdout.writelines(lines)
        else:
            for path, text in rendered.items():
                if write_atomically(path, text):
                    changed += 1
                    click.echo(f"\n  wrote {_display(path)}", err=True, nl=False)
            for path in stale:
                path.unlink()
                changed += 1
                click.echo(f"\n  removed stale {_display(path)}", err=True, nl=False)
        elapsed = time.perf_counter() - started
        summary = f"{len(rendered)} file{'s' if len(rendered) != 1 else ''}"
        if not check:
            summary += f", {changed} changed"
        click.echo(f"{chr(10) if changed else ' '}{summary} ({elapsed:.2f} s)", err=True)
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


@click.group()
def generate() -> None:
    """Generate files from the definitions (they are committed; see `make check`)."""


@generate.command("all")
@_CHECK
def generate_all(check: bool) -> None:
    """Generate every output: the runtime's tables, the Glance metadefs, the JSON Schemas."""
    _run(all_outputs(), check)


def _single(name: str, help_text: str) -> click.Command:
    @_CHECK
    def command(check: bool) -> None:
        _run((OUTPUT_FACTORIES[name](),), check)

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
