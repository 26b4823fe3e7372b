"""The ``onespec`` command line for the tests: its command tree walked, and the command run.

:func:`onespec` runs a command in this process, through :func:`onespec.validators_runtime.cli.main`
under click's :class:`~click.testing.CliRunner`: the command's own logic, logging set up as the
console script sets it up, without a Python start-up per call (a third of a second each, hundreds
of calls). What only a process shows -- the installed console script itself, its exit status as
the shell sees it, signals, a terminal, ``python -m onespec`` -- is :func:`onespec_process`'s, and
the tests that use it carry the ``process`` mark.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from unittest import mock

import click
from click.testing import CliRunner

from onespec.validators_runtime import cli as cli_module
from onespec.validators_runtime.cli import cli
from tests.conftest import ROOT

#: The installed console script, beside the interpreter running the tests.
ONESPEC = Path(sys.executable).parent / "onespec"


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


@contextlib.contextmanager
def _as_a_new_process(args: tuple[str, ...], cwd: Path) -> Iterator[None]:
    """The state a process starts from, and the test's own put back afterwards: the arguments,
    the working directory, and the logging that ``main`` configures (root handlers, levels)."""
    root = logging.getLogger()
    loggers = [root, *(logging.getLogger(name) for name in _QUIETED)]
    saved = (sys.argv, Path.cwd(), root.handlers[:], [logger.level for logger in loggers])
    sys.argv = ["onespec", *args]
    root.handlers = []  # pytest's capture handlers would make main's basicConfig a no-op
    os.chdir(cwd)
    try:
        yield
    finally:
        for handler in root.handlers:
            handler.close()
        sys.argv, previous, root.handlers, levels = saved
        os.chdir(previous)
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


#: The loggers ``main`` sets a level on.
_QUIETED = ("onespec.validators_runtime.extra_specs",)


def _exit_status(code: object) -> tuple[int, str]:
    """The exit status, and what Python prints on standard error, of ``sys.exit(code)``."""
    if code is None:
        return 0, ""
    if isinstance(code, int):
        return code, ""
    return 1, f"{code}\n"


def _run(args: tuple[str, ...]) -> None:
    """What ``main`` calls, once it has set up logging: the command tree, named as the console
    script names it (under pytest, click would name the program after pytest's ``__main__``).
    What other threads log -- a server the test runs in this process -- is theirs, not the
    command's: a process of its own would not show it."""
    caller = threading.get_ident()
    for handler in logging.getLogger().handlers:
        handler.addFilter(lambda record: record.thread == caller)
    cli.main(args=list(args), prog_name="onespec")


def onespec(
    *args: str,
    stdin: str | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str | None] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``onespec ARGS`` in this process (in ``cwd``, the repository by default, with ``env``
    over this process's environment); the result has a process's ``returncode``, ``stdout`` and
    ``stderr``. An exception the command does not turn into an exit status is raised here, with
    its traceback, where a process would print it and exit 1."""
    runner = CliRunner()
    with runner.isolation(input=stdin, env=env) as (out, err, _):
        with _as_a_new_process(args, cwd or ROOT):
            try:
                with mock.patch.object(cli_module, "cli", functools.partial(_run, args)):
                    cli_module.main()
                status, message = 0, ""
            except SystemExit as exit_:
                status, message = _exit_status(exit_.code)
        sys.stdout.flush()
        sys.stderr.flush()
        stdout, stderr = out.getvalue().decode(), err.getvalue().decode() + message
    return subprocess.CompletedProcess(["onespec", *args], status, stdout, stderr)


def onespec_process(
    *args: str,
    stdin: str | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
    module: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run the installed console script (``python -m onespec`` with ``module``) in a process of
    its own, in ``cwd`` (the repository by default), with ``env`` over this process's
    environment; the completed process, text mode."""
    program = [sys.executable, "-m", "onespec"] if module else [str(ONESPEC)]
    return subprocess.run(
        [*program, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env={**os.environ, **(env or {})},
        timeout=timeout,
        check=False,
    )
