"""A :class:`~onespec.validators_runtime.images.remote.Remote` over SSH, with paramiko.

Host keys are checked against a known_hosts file (the user's, or one given); an unknown host is
refused unless the caller explicitly accepts it, because validating a machine you cannot
identify tells you nothing about your machine. paramiko is imported when an SSHRemote is made,
so the rest of the runtime works without the ``ssh`` extra.
"""

from __future__ import annotations

import shlex
import threading
import time
from pathlib import Path
from typing import Any

from onespec.validators_runtime.images.errors import RemoteCommandError, RemoteError
from onespec.validators_runtime.images.remote import CommandResult, RemoteBase, as_root

_CHUNK = 32768


def parse_ssh_url(url: str) -> tuple[str | None, str, int]:
    """``ssh://user@host[:port]`` -> (user, host, port). IPv6 hosts go in brackets."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme != "ssh" or not parts.hostname:
        raise ValueError(f"{url!r} is not ssh://[user@]host[:port]")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.password:
        raise ValueError(f"{url!r} may hold a user, a host and a port only")
    try:
        port = parts.port or 22
    except ValueError:
        raise ValueError(f"{url!r} has an invalid port") from None
    return parts.username, parts.hostname, port


class SSHRemote(RemoteBase):
    """Runs commands on a host over SSH, each with ``bash -c``, like
    :class:`~onespec.validators_runtime.images.remote.LocalRemote`.

    ``known_hosts`` is the file host keys are checked against (default: the user's
    ``~/.ssh/known_hosts``); ``accept_unknown_host=True`` accepts a host missing from it (its key
    is then trusted for this connection only). ``identity`` is a private key file; without it
    the SSH agent and the user's default keys are tried.
    """

    def __init__(
        self,
        host: str,
        user: str | None = None,
        port: int = 22,
        *,
        identity: str | Path | None = None,
        known_hosts: str | Path | None = None,
        accept_unknown_host: bool = False,
        connect_timeout: float = 30.0,
    ) -> None:
        try:
            import paramiko
        except ImportError as exc:  # pragma: no cover - the ssh extra is installed in CI
            raise RemoteError(
                "SSHRemote needs paramiko: install onespec with its 'ssh' extra "
                "(`pip install '.[ssh]'` in a clone of onespec)"
            ) from exc
        self.host = host
        self.port = port
        self.user = user
        self.target = f"{user + '@' if user else ''}{host}:{port}"
        client = paramiko.SSHClient()
        try:
            if known_hosts is not None:
                client.load_host_keys(str(known_hosts))
            else:
                client.load_system_host_keys()
        except OSError as exc:
            raise RemoteError(f"cannot read known hosts {known_hosts}: {exc.strerror}") from exc
        policy = paramiko.AutoAddPolicy() if accept_unknown_host else paramiko.RejectPolicy()
        client.set_missing_host_key_policy(policy)
        try:
            client.connect(
                host,
                port=port,
                username=user,
                key_filename=str(identity) if identity is not None else None,
                look_for_keys=identity is None,
                allow_agent=identity is None,
                timeout=connect_timeout,
                banner_timeout=connect_timeout,
                auth_timeout=connect_timeout,
            )
        except paramiko.SSHException as exc:
            client.close()
            raise RemoteError(f"cannot connect to {self.target}: {exc}") from exc
        except OSError as exc:
            client.close()
            raise RemoteError(f"cannot connect to {self.target}: {exc}") from exc
        self._client = client
        self._sftp: Any = None
        self._is_root: bool | None = None

    def _root(self) -> bool:
        if self._is_root is None:
            code, stdout, _ = self._run("id -u", None)
            self._is_root = code == 0 and stdout.strip() == "0"
        return self._is_root

    def _run(self, command: str, timeout: float | None) -> CommandResult:
        """Run ``bash -c COMMAND``; read stdout and stderr together so neither can stall."""
        transport = self._client.get_transport()
        if transport is None or not transport.is_active():
            raise RemoteError(f"the connection to {self.target} is closed")
        channel = transport.open_session()
        try:
            channel.exec_command(f"bash -c {shlex.quote(command)}")
            channel.shutdown_write()
            errors: list[bytes] = []

            def drain_stderr() -> None:
                while chunk := channel.recv_stderr(_CHUNK):
                    errors.append(chunk)

            reader = threading.Thread(target=drain_stderr, daemon=True)
            reader.start()
            deadline = None if timeout is None else time.monotonic() + timeout
            output: list[bytes] = []
            channel.settimeout(1.0)
            while True:
                try:
                    chunk = channel.recv(_CHUNK)
                except TimeoutError:
                    if deadline is not None and time.monotonic() > deadline:
                        raise RemoteCommandError(command, None, target=self.target) from None
                    continue
                if not chunk:
                    break
                output.append(chunk)
            reader.join(timeout=None if deadline is None else max(deadline - time.monotonic(), 1))
            code = channel.recv_exit_status()
        finally:
            channel.close()
        decode = lambda parts: b"".join(parts).decode("utf-8", errors="replace")  # noqa: E731
        return code, decode(output), decode(errors)

    def execute_command(
        self,
        cmd: str,
        run_as_root: bool = False,
        raise_when_error: bool = True,
        timeout: float | None = None,
    ) -> CommandResult:
        """Run ``cmd`` on the host; see
        :class:`~onespec.validators_runtime.images.remote.Remote`."""
        command = as_root(cmd, is_root=self._root()) if run_as_root else cmd
        result = self._run(command, timeout)
        if raise_when_error and result[0] != 0:
            raise RemoteCommandError(cmd, *result, target=self.target)
        return result

    def write_file(self, path: str, data: bytes | str, mode: int = 0o644) -> None:
        """Write ``data`` to ``path`` on the host over SFTP, then set ``mode``."""
        import io

        payload = data.encode("utf-8") if isinstance(data, str) else data
        try:
            if self._sftp is None:
                self._sftp = self._client.open_sftp()
            self._sftp.putfo(io.BytesIO(payload), path, confirm=False)
            self._sftp.chmod(path, mode)
        except OSError as exc:
            raise RemoteError(f"cannot write {path} on {self.target}: {exc}") from exc

    def close(self) -> None:
        """Close the SFTP session and the connection."""
        if self._sftp is not None:
            self._sftp.close()
            self._sftp = None
        self._client.close()

    def __repr__(self) -> str:
        return f"SSHRemote({self.target!r})"
