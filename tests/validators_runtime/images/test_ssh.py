"""The same specs over SSH, against a real sshd on 127.0.0.1, give the same reports."""

from __future__ import annotations

import json
import shutil

import pytest

from onespec.validators_runtime.images import (
    ImageValidationError,
    LocalRemote,
    Outcome,
    RemoteCommandError,
    RemoteError,
    SaharaImageValidator,
    SSHRemote,
)
from tests.validators_runtime.images.helpers import comparable, onespec, write_spec
from tests.validators_runtime.images.test_local import IDEMPOTENT, NO_SUCH_PACKAGE, snapshot


def both(spec, sshd, reconcile, **kwargs):
    """Validate through LocalRemote, then SSH; return both reports (failed ones too)."""
    reports = []
    for make in (LocalRemote, sshd.remote):
        with make() as remote:
            try:
                reports.append(spec.validate(remote, reconcile=reconcile, **kwargs))
            except ImageValidationError as exc:
                reports.append(exc.report)
    return reports


def test_package_checks_give_the_same_reports(tmp_path, sshd):
    text = f"validators:\n  - package: coreutils\n  - package: [bash, {NO_SUCH_PACKAGE}]\n"
    spec = SaharaImageValidator.from_yaml(write_spec(tmp_path, text))
    local, remote = both(spec, sshd, False)
    assert local.outcome is Outcome.FAILED
    assert comparable(local) == comparable(remote)
    assert remote.target == f"{sshd.user}@127.0.0.1:{sshd.port}"


def test_reconciling_gives_the_same_reports(tmp_path, sshd):
    target = tmp_path / "target"
    target.mkdir()
    spec = SaharaImageValidator.from_yaml(write_spec(tmp_path, IDEMPOTENT))
    env = {"target": str(target)}
    reports = {}
    for name, make in (("local", LocalRemote), ("ssh", sshd.remote)):
        shutil.rmtree(target)
        target.mkdir()
        with make() as remote:
            first = spec.validate(remote, reconcile=True, env_map=env)
            state = snapshot(target)
            second = spec.validate(remote, reconcile=True, env_map=env)
            assert snapshot(target) == state
        reports[name] = (comparable(first), comparable(second))
    assert reports["local"] == reports["ssh"]
    assert reports["ssh"][0]["outcome"] == "reconciled"
    # Reconciling runs every script to fix again; they test before they act (same state).
    assert reports["ssh"][1]["outcome"] == "reconciled"


def test_the_remote_protocol_over_ssh(sshd, tmp_path):
    with sshd.remote() as remote:
        assert remote.execute_command("printf out; printf err >&2") == (0, "out", "err")
        code, _, _ = remote.execute_command("exit 3", raise_when_error=False)
        assert code == 3
        with pytest.raises(RemoteCommandError) as caught:
            remote.execute_command("echo nope >&2; exit 4")
        assert caught.value.code == 4 and "nope" in str(caught.value)
        with pytest.raises(RemoteCommandError, match="timed out"):
            remote.execute_command("sleep 5", timeout=0.5)
        big = "x" * 300_000
        code, stdout, stderr = remote.execute_command(
            "head -c 300000 /dev/zero | tr '\\0' x | tee /dev/stderr"
        )
        assert (code, stdout, stderr) == (0, big, big)
        path = tmp_path / "written"
        remote.write_file(str(path), "héllo", 0o600)
        assert path.read_text() == "héllo" and (path.stat().st_mode & 0o777) == 0o600


def test_an_unknown_host_is_refused_unless_accepted(sshd, tmp_path):
    empty = tmp_path / "known_hosts"
    empty.write_text("")
    with pytest.raises(RemoteError, match="cannot connect"):
        SSHRemote("127.0.0.1", sshd.user, sshd.port, identity=sshd.identity, known_hosts=empty)
    with SSHRemote(
        "127.0.0.1",
        sshd.user,
        sshd.port,
        identity=sshd.identity,
        known_hosts=empty,
        accept_unknown_host=True,
    ) as remote:
        assert remote.execute_command("echo ok")[1] == "ok\n"


def test_the_cli_validates_over_ssh(tmp_path, sshd):
    spec = write_spec(tmp_path, "validators:\n  - package: coreutils\n")
    done = onespec(
        "image",
        "validate",
        str(spec),
        "--remote",
        sshd.url,
        "--identity",
        str(sshd.identity),
        "--known-hosts",
        str(sshd.known_hosts),
        "--format",
        "json",
        "--progress",
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["outcome"] == "passed" and report["target"].endswith(f":{sshd.port}")
    assert "passed     validators[0].package package coreutils" in done.stderr


@pytest.mark.parametrize("greeting", [b"", b"HTTP/1.1 400 Bad Request\r\n\r\n"])
def test_a_peer_that_is_not_an_ssh_server_is_a_clean_error(tmp_path, greeting):
    """No paramiko traceback on stderr: one line saying what went wrong where, exit 2."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]

    def answer() -> None:
        for _ in range(2):
            try:
                connection, _ = server.accept()
            except OSError:
                return
            with connection:
                connection.sendall(greeting)

    threading.Thread(target=answer, daemon=True).start()
    spec = write_spec(tmp_path, "validators:\n  - package: coreutils\n")
    try:
        done = onespec(
            "image", "validate", str(spec), "--remote", f"ssh://someone@127.0.0.1:{port}"
        )
    finally:
        server.close()
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "paramiko" not in done.stderr.lower()
    assert f"127.0.0.1:{port}" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
