"""An operator reads "image" as a Glance image: ``onespec image check`` given one says what the
file is and which command checks it (it said "'validators' is a required property")."""

from __future__ import annotations

import json

from click.testing import CliRunner

from onespec.validators_runtime.cli import cli

GLANCE_IMAGE = {
    "id": "0d5f3c5e-8f59-4c8e-9a1e-2b3c4d5e6f70",
    "name": "cirros",
    "disk_format": "qcow2",
    "container_format": "bare",
    "min_ram": 0,
    "min_disk": 1,
    "status": "active",
    "visibility": "public",
    "properties": {"hw_cpu_policy": "dedicated", "os_hash_algo": "sha512"},
}


def test_a_glance_image_is_named_with_the_command_that_checks_it(tmp_path):
    path = tmp_path / "cirros.json"
    path.write_text(json.dumps(GLANCE_IMAGE), encoding="utf-8")
    result = CliRunner().invoke(cli, ["image", "check", str(path), "-f", "json"])
    assert result.exit_code == 1, result.output
    (error,) = json.loads(result.stdout)["errors"]
    assert error["code"] == "not-an-image-spec"
    assert "this is a Glance image (it has disk_format, container_format" in error["message"]
    assert f"onespec validate image-properties {path}" in error["message"]
    assert "required property" not in result.stdout


def test_a_spec_with_validators_is_never_taken_for_an_image(tmp_path):
    """A spec that happens to have such a field is still judged as a spec."""
    path = tmp_path / "spec.yaml"
    path.write_text("validators: []\nstatus: x\nproperties: y\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["image", "check", str(path), "-f", "json"])
    codes = {error["code"] for error in json.loads(result.stdout)["errors"]}
    assert "not-an-image-spec" not in codes
