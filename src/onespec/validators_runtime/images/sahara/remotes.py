"""Adapters between Sahara's remotes and onespec's, in both directions.

A Sahara remote (``execute_command`` returning ``(code, stdout)``, ``write_file_to``,
``get_os_distrib``) becomes onespec's :class:`~onespec.validators_runtime.images.remote.Remote`
through :class:`SaharaRemote`; a onespec remote is handed to Sahara code as
:class:`SaharaFacingRemote`.
"""

from __future__ import annotations

import shlex
from typing import Any

from onespec.validators_runtime.images.distro import Distro, detect
from onespec.validators_runtime.images.errors import RemoteCommandError
from onespec.validators_runtime.images.remote import CommandResult, Remote, RemoteBase


class SaharaRemote(RemoteBase):
    """A Sahara remote as onespec's :class:`~onespec.validators_runtime.images.remote.Remote`.

    Sahara's ``execute_command`` returns ``(code, stdout)`` and raises on failure unless told
    ``raise_when_error=False``; its ``write_file_to`` writes a file. onespec's validators want
    ``(code, stdout, stderr)`` and decide about failures themselves, so every command runs with
    ``raise_when_error=False`` and the failure is raised here when the caller asked for it.
    """

    def __init__(self, remote: Any, *, target: str = "sahara") -> None:
        self.remote = remote
        self.target = target

    def execute_command(
        self,
        cmd: str,
        run_as_root: bool = False,
        raise_when_error: bool = True,
        timeout: float | None = None,
    ) -> CommandResult:
        """Run ``cmd`` through the Sahara remote; stderr is not returned by Sahara remotes."""
        options: dict[str, Any] = {"run_as_root": run_as_root, "raise_when_error": False}
        if timeout is not None:
            options["timeout"] = timeout
        result = self.remote.execute_command(cmd, **options)
        code, stdout = result[0], result[1]
        stderr = result[2] if len(result) > 2 else ""
        if raise_when_error and code != 0:
            raise RemoteCommandError(cmd, code, stdout, stderr, target=self.target)
        return code, stdout, stderr

    def write_file(self, path: str, data: bytes | str, mode: int = 0o644) -> None:
        """Write through ``write_file_to`` as root, then set ``mode``."""
        self.remote.write_file_to(path, data, run_as_root=True)
        self.execute_command(f"chmod {mode:o} -- {shlex.quote(path)}", run_as_root=True)

    def distro(self) -> str | None:
        """What the Sahara remote says the distribution is (``get_os_distrib``), if it can."""
        getter = getattr(self.remote, "get_os_distrib", None)
        return str(getter()) if callable(getter) else None


class SaharaFacingRemote:
    """A onespec :class:`~onespec.validators_runtime.images.remote.Remote` as Sahara code expects
    one.

    ``execute_command(cmd, run_as_root=False, get_stderr=False, raise_when_error=True,
    timeout=None)`` returns ``(code, stdout)`` (``(code, stdout, stderr)`` with
    ``get_stderr``) and raises on failure unless told not to; ``write_file_to`` writes a file;
    ``get_os_distrib`` reads os-release once. Handed back to this module's validators, it is
    unwrapped: the validation runs on the onespec remote itself.
    """

    def __init__(self, remote: Remote, *, timeout: float | None = None) -> None:
        self.remote = remote
        self.timeout = timeout
        self._distro: Distro | None = None

    def execute_command(
        self,
        cmd: str,
        run_as_root: bool = False,
        get_stderr: bool = False,
        raise_when_error: bool = True,
        timeout: float | None = None,
    ) -> tuple[int, str] | CommandResult:
        """Run ``cmd``; ``(code, stdout)`` as Sahara's remotes return it."""
        code, stdout, stderr = self.remote.execute_command(
            cmd,
            run_as_root=run_as_root,
            raise_when_error=False,
            timeout=timeout if timeout is not None else self.timeout,
        )
        if raise_when_error and code != 0:
            target = getattr(self.remote, "target", "remote")
            raise RemoteCommandError(cmd, code, stdout, stderr, target=str(target))
        return (code, stdout, stderr) if get_stderr else (code, stdout)

    def write_file_to(self, remote_file: str, data: bytes | str, run_as_root: bool = False) -> None:
        """Write ``data`` to ``remote_file`` (the onespec remote writes as it can: as root)."""
        self.remote.write_file(remote_file, data)

    def get_os_distrib(self) -> str:
        """The distribution's name, as Sahara's remotes gave it (``ubuntu``, ``centos``)."""
        if self._distro is None:
            self._distro = detect(self.remote, timeout=self.timeout)
        return self._distro.name

    def __enter__(self) -> SaharaFacingRemote:
        return self

    def __exit__(self, *exc_info: object) -> None:
        """The onespec remote is its owner's to close."""


def as_remote(remote: Any) -> Any:
    """``remote`` as onespec's Remote: a Sahara remote (with ``write_file_to``) is wrapped.

    A :class:`SaharaFacingRemote` is unwrapped to the onespec remote it stands for.
    """
    if isinstance(remote, SaharaFacingRemote):
        return remote.remote
    if isinstance(remote, SaharaRemote):
        return remote
    if hasattr(remote, "write_file_to"):  # Sahara's name, looked for first in Sahara's module
        return SaharaRemote(remote)
    if hasattr(remote, "write_file"):
        return remote
    raise TypeError(f"{type(remote).__name__} is neither a onespec nor a Sahara remote")


def distro_of(remote: Any) -> str | None:
    """The distribution a Sahara-shaped remote names (``get_os_distrib``), if it names one."""
    if isinstance(remote, SaharaFacingRemote):
        return remote.get_os_distrib()
    wrapped = as_remote(remote)
    return wrapped.distro() if isinstance(wrapped, SaharaRemote) else None
