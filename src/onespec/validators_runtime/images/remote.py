"""Where validation commands run: the :class:`Remote` protocol and :class:`LocalRemote`.

A remote runs shell command strings and writes files. Validators build every command from
quoted values (:func:`shlex.quote`), and a remote runs it with ``bash -c`` wherever it is, so the
same command means the same thing locally and over SSH.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Protocol, Self, runtime_checkable

from onespec.validators_runtime.images.errors import RemoteCommandError, RemoteError

CommandResult = tuple[int, str, str]


@runtime_checkable
class Remote(Protocol):
    """What a validator needs from an instance.

    ``execute_command`` runs a shell command and returns ``(exit code, stdout, stderr)``; with
    ``raise_when_error`` a non-zero exit raises
    :class:`~onespec.validators_runtime.images.errors.RemoteCommandError` instead. ``run_as_root``
    asks for root (through ``sudo -n`` when the remote's user is not root). ``write_file`` writes
    bytes or text with the given mode. A remote is a context manager that closes itself.
    """

    def execute_command(
        self,
        cmd: str,
        run_as_root: bool = False,
        raise_when_error: bool = True,
        timeout: float | None = None,
    ) -> CommandResult: ...

    def write_file(self, path: str, data: bytes | str, mode: int = 0o644) -> None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None: ...


def as_root(cmd: str, *, is_root: bool) -> str:
    """``cmd`` wrapped to run as root: unchanged for root, through ``sudo -n`` otherwise.

    ``-n`` makes sudo fail at once instead of waiting for a password nobody will type.
    """
    if is_root:
        return cmd
    return f"sudo -n -- bash -c {shlex.quote(cmd)}"


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


#: Seconds a timed-out command's process group gets between SIGTERM and SIGKILL.
KILL_GRACE = 1.0


def _kill_group(process: subprocess.Popen[bytes], grace: float = KILL_GRACE) -> None:
    """SIGTERM the command's process group, wait up to ``grace`` seconds, then SIGKILL it.

    The group, not the process: a script's children (a download, a package manager) would
    otherwise run on after its timeout, changing the image while nobody is watching.
    """
    group = process.pid  # a session leader's group id is its pid
    for signal_number, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 0.0)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal_number)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.02)
    process.wait()


class RemoteBase:
    """Context-manager plumbing shared by the remotes."""

    #: How the remote is named in messages and reports.
    target = "remote"

    def close(self) -> None:
        """Release the connection; a closed remote may not be used again."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class LocalRemote(RemoteBase):
    """Runs commands on this machine with ``bash -c``: on the instance itself, or in an image build.

    ``env`` adds variables to every command's environment (the rest is inherited). Each
    command runs in a process group of its own, its output going to files rather than pipes:
    a timeout kills the whole group, and a background process a command leaves behind does not
    hold the command open by keeping its output pipe.
    """

    target = "local"

    def __init__(self, *, env: dict[str, str] | None = None) -> None:
        self._env = {**os.environ, **(env or {})}
        self._is_root = os.geteuid() == 0

    def execute_command(
        self,
        cmd: str,
        run_as_root: bool = False,
        raise_when_error: bool = True,
        timeout: float | None = None,
    ) -> CommandResult:
        """Run ``cmd``; see :class:`Remote`."""
        command = as_root(cmd, is_root=self._is_root) if run_as_root else cmd
        if "\0" in command:
            raise RemoteError(f"cannot run a command containing a NUL character: {cmd!r}")
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            try:
                process = subprocess.Popen(  # noqa: S603 - a fixed argv; the command is one argument
                    ["bash", "-c", command],  # noqa: S607 - bash from PATH, as on any instance
                    stdout=out,
                    stderr=err,
                    env=self._env,
                    stdin=subprocess.DEVNULL,
                    start_new_session=True,
                )
            except OSError as exc:
                raise RemoteError(f"cannot run bash on {self.target}: {exc}") from exc
            try:
                code: int | None = process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill_group(process)
                code = None
            out.seek(0)
            err.seek(0)
            stdout, stderr = _text(out.read()), _text(err.read())
        if code is None:
            raise RemoteCommandError(cmd, None, stdout, stderr, target=self.target)
        if raise_when_error and code != 0:
            raise RemoteCommandError(cmd, code, stdout, stderr, target=self.target)
        return code, stdout, stderr

    def write_file(self, path: str, data: bytes | str, mode: int = 0o644) -> None:
        """Write ``data`` to ``path`` (replacing it), then set ``mode``.

        A symbolic link at ``path`` is refused rather than followed: in a shared directory
        such as /tmp, someone else may have planted it.
        """
        payload = data.encode("utf-8") if isinstance(data, str) else data
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
        try:
            handle = os.open(path, flags, mode)
            with os.fdopen(handle, "wb") as stream:
                stream.write(payload)
            Path(path).chmod(mode)
        except OSError as exc:
            raise RemoteError(f"cannot write {path} on {self.target}: {exc.strerror}") from exc

    def __repr__(self) -> str:
        return "LocalRemote()"
