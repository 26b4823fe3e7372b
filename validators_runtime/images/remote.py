"""Where validation commands run: the :class:`Remote` protocol and :class:`LocalRemote`.

A remote runs shell command strings and writes files. Validators build every command from
quoted values (:func:`shlex.quote`), and a remote runs it with ``bash -c`` wherever it is, so the
same command means the same thing locally and over SSH.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path
from types import TracebackType
from typing import Protocol, Self, runtime_checkable

from validators_runtime.images.errors import RemoteCommandError, RemoteError

CommandResult = tuple[int, str, str]


@runtime_checkable
class Remote(Protocol):
    """What a validator needs from an instance.

    ``execute_command`` runs a shell command and returns ``(exit code, stdout, stderr)``; with
    ``raise_when_error`` a non-zero exit raises
    :class:`~validators_runtime.images.errors.RemoteCommandError` instead. ``run_as_root`` asks
    for root (through ``sudo -n`` when the remote's user is not root). ``write_file`` writes
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

    ``env`` adds variables to every command's environment (the rest is inherited).
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
        try:
            done = subprocess.run(  # noqa: S603 - a fixed argv; the command is one argument
                ["bash", "-c", command],  # noqa: S607 - bash from PATH, as on any instance
                capture_output=True,
                timeout=timeout,
                env=self._env,
                check=False,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired as exc:
            raise RemoteCommandError(
                cmd, None, _text(exc.stdout or b""), _text(exc.stderr or b""), target=self.target
            ) from None
        except OSError as exc:
            raise RemoteError(f"cannot run bash on {self.target}: {exc}") from exc
        result = (done.returncode, _text(done.stdout), _text(done.stderr))
        if raise_when_error and done.returncode != 0:
            raise RemoteCommandError(cmd, *result, target=self.target)
        return result

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
