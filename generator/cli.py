"""``onespec generate``: write the generated files, or check that they are up to date."""

from __future__ import annotations

import sys

import click

from generator.outputs import Output, all_outputs, diff, runtime_output, write_atomically


def _run(outputs: tuple[Output, ...], check: bool) -> None:
    drifted = 0
    for output in outputs:
        click.echo(
            f"{'checking' if check else 'generating'} {output.name}: {output.path}", err=True
        )
        text = output.render()
        if check:
            lines = list(diff(output, text))
            if lines:
                drifted += 1
                sys.stdout.writelines(lines)
        elif write_atomically(output.path, text):
            click.echo(f"  wrote {output.path}", err=True)
        else:
            click.echo("  unchanged", err=True)
    if drifted:
        raise click.ClickException(
            f"{drifted} generated file{'s' if drifted != 1 else ''} differ from the definitions; "
            "run `onespec generate all` (or `make all`) and commit the result."
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
    """Generate every output: the runtime tables (more outputs join as they are added)."""
    _run(all_outputs(), check)


@generate.command("runtime")
@_CHECK
def generate_runtime(check: bool) -> None:
    """Generate validators_runtime/_generated/extra_specs.py from the in-tree catalogue."""
    _run((runtime_output(),), check)
