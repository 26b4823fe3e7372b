"""The ``onespec`` command tree, walked: the tests that check every command find them here."""

from __future__ import annotations

from collections.abc import Iterator

import click

from onespec.validators_runtime.cli import cli


def walk(
    command: click.Command = cli, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """(names, command) of every command under ``command``, groups opened (lazy ones too)."""
    if isinstance(command, click.Group):
        context = click.Context(command)
        for name in command.list_commands(context):
            found = command.get_command(context, name)
            if found is not None:
                yield from walk(found, (*path, name))
    else:
        yield path, command
