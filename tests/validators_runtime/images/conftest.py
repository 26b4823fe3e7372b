"""Fixtures of the image-validation tests: the real plugin specs and a loopback sshd.

The real specs are those the Sahara plugins ship, with the scripts they name, read from the
plugins' source distributions (``make peers``).

The SSH server is a real OpenSSH ``sshd`` started for the session on 127.0.0.1 at a free port,
with a host key and a user key made for it in a temporary directory; nothing of the machine's
own SSH configuration is used or changed.
"""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import peers

SSHD = Path("/usr/sbin/sshd")

#: The plugin source distributions that ship image specs (tests/peers/sources.txt).
PLUGINS = ("ambari", "cdh", "mapr", "spark")


def _spec_paths() -> dict[str, Path]:
    """Each real spec by a stable name (``sahara-plugin-cdh__cdh_v5_13_0__image.yaml``)."""
    specs = {}
    for plugin in PLUGINS:
        source = peers.peer(f"sahara-plugin-{plugin}")
        if not peers.is_provided(source):
            continue
        package = source.location / f"sahara_plugin_{plugin}" / "plugins"
        for path in sorted(package.glob("*/**/resources/images/image.yaml")):
            version = path.relative_to(package).parts[1]
            version = "all-versions" if version == "resources" else version
            specs[f"{source.name}__{plugin}_{version}__image.yaml"] = path
    return specs


SPEC_PATHS = _spec_paths()


def real_specs() -> list[str]:
    """The names of the real plugin specs; one placeholder that skips when none is provided."""
    return sorted(SPEC_PATHS) or ["sahara-plugin-specs-not-provided"]


def spec_path(name: str) -> Path:
    """The file of the real spec *name*, as the plugin ships it (skips when not provided)."""
    if name not in SPEC_PATHS:
        for plugin in PLUGINS:
            peers.require(f"sahara-plugin-{plugin}")
    return SPEC_PATHS[name]


def resource_root(name: str) -> Path:
    """The folder the plugin resolves the spec's scripts in: the spec's own folder."""
    return spec_path(name).parent


@dataclass(frozen=True)
class SshServer:
    host: str
    port: int
    user: str
    identity: Path
    known_hosts: Path

    @property
    def url(self) -> str:
        return f"ssh://{self.user}@{self.host}:{self.port}"

    def remote(self):
        from onespec.validators_runtime.images import SSHRemote

        return SSHRemote(
            self.host,
            self.user,
            self.port,
            identity=self.identity,
            known_hosts=self.known_hosts,
        )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _keygen(path: Path) -> None:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "onespec-test", "-f", str(path)],
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="session")
def sshd(tmp_path_factory) -> SshServer:
    assert SSHD.exists(), "the SSH tests need OpenSSH's sshd (apt-get install openssh-server)"
    assert shutil.which("ssh-keygen"), "the SSH tests need ssh-keygen"
    base = tmp_path_factory.mktemp("sshd")
    host_key, user_key = base / "host_key", base / "user_key"
    _keygen(host_key)
    _keygen(user_key)
    (base / "authorized_keys").write_text(Path(f"{user_key}.pub").read_text())
    port = _free_port()
    config = base / "sshd_config"
    config.write_text(
        "\n".join(
            [
                f"Port {port}",
                "ListenAddress 127.0.0.1",
                f"HostKey {host_key}",
                f"PidFile {base / 'sshd.pid'}",
                f"AuthorizedKeysFile {base / 'authorized_keys'}",
                "StrictModes no",
                "UsePAM no",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "PubkeyAuthentication yes",
                "PermitRootLogin prohibit-password",
                "Subsystem sftp internal-sftp",
                "LogLevel ERROR",
                "",
            ]
        )
    )
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege-separation dir
    process = subprocess.Popen(
        [str(SSHD), "-D", "-e", "-f", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 15
    while True:
        if process.poll() is not None:
            pytest.fail(f"sshd exited at once: {process.stderr.read()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                pytest.fail("sshd did not listen within 15 s")
            time.sleep(0.05)
    public = Path(f"{host_key}.pub").read_text().split()
    known_hosts = base / "known_hosts"
    known_hosts.write_text(f"[127.0.0.1]:{port} {public[0]} {public[1]}\n")
    try:
        yield SshServer("127.0.0.1", port, getpass.getuser(), user_key, known_hosts)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
