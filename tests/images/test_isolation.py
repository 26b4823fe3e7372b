"""The image runtime imports no tooling, and paramiko only when SSH is used."""

from __future__ import annotations

from tests.validators_runtime.test_isolation import imported_after, offending


def test_importing_the_image_runtime_imports_no_tooling_and_no_paramiko():
    modules = imported_after("import validators_runtime.images")
    assert "validators_runtime._generated.image_validators" in modules
    assert offending(modules) == set()
    assert "paramiko" not in modules and "jsonschema" not in modules


def test_ssh_remote_is_loaded_on_first_use():
    modules = imported_after("from validators_runtime.images import SSHRemote")
    assert "paramiko" in modules
    assert offending(modules) == set()
