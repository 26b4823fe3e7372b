"""The image runtime imports no tooling, and paramiko only when SSH is used."""

from __future__ import annotations

from tests.validators_runtime.test_isolation import imported_after, offending


def test_importing_the_image_runtime_imports_no_tooling_and_no_paramiko():
    modules = imported_after("import onespec.validators_runtime.images")
    assert "onespec.validators_runtime._generated.image_validators" in modules
    assert offending(modules) == set()
    assert "paramiko" not in modules and "jsonschema" not in modules


def test_paramiko_is_imported_when_an_ssh_remote_is_made():
    modules = imported_after("from onespec.validators_runtime.images import SSHRemote")
    assert "onespec.validators_runtime.images.ssh" in modules
    assert "paramiko" not in modules
    modules = imported_after(
        "from onespec.validators_runtime.images import SSHRemote, RemoteError\n"
        "try:\n    SSHRemote('127.0.0.1', port=1, connect_timeout=1)\n"
        "except RemoteError:\n    pass\n"
    )
    assert "paramiko" in modules
    assert offending(modules) == set()
