"""What a user of the ``openstack`` client sees when onespec's filters refuse (the cloud guide's
examples), with python-openstackclient 10.5 from the Heat peer's environment against the box."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.cloud.box import Box
from tests.peers import PROGRAMS, require


@pytest.fixture
def openstack(cloud: Box, tmp_path: Path):
    """Run ``openstack ARGS`` against the box as its admin; (exit status, what it printed)."""
    require("heat")
    clouds = tmp_path / "clouds.yaml"
    clouds.write_text(yaml.safe_dump(cloud.clouds_yaml("box")))
    env = {
        **os.environ,
        "OS_CLIENT_CONFIG_FILE": str(clouds),
        "OS_CLOUD": "box",
        "PYTHONWARNINGS": "ignore",
    }
    client = PROGRAMS["heat"].location / "bin" / "openstack"

    def run(*args: str) -> tuple[int, str]:
        done = subprocess.run(
            [str(client), *args],
            env=env,
            stdin=subprocess.DEVNULL,  # image create reads image data from a stdin not a tty
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
        # Plugins of the client's environment that fail to load say so on every command.
        lines = [line for line in done.stderr.splitlines() if not line.startswith("Could not load")]
        return done.returncode, "\n".join([*done.stdout.splitlines(), *lines])

    return run


def test_server_create_shows_the_refusal_naming_rule_keys_and_exception(
    cloud: Box, openstack
) -> None:
    flavor = cloud.create_flavor(2, 2048, 10, {"hw:tpm_version": "2.0", "hw:tpm_model": "tpm-tis"})
    image = cloud.create_image({"hw_tpm_version": "1.2", "hw_tpm_model": "tpm-tis"})
    status, said = openstack(
        "server", "create", "--flavor", flavor["name"], "--image", image["name"], "--nic", "none",
        "demo",
    )  # fmt: skip
    assert status == 1, said
    assert re.search(
        r"BadRequestException: 400: Client Error for url: http://127\.0\.0\.1:\d+/v2\.1/servers, "
        rf"onespec: Nova would refuse flavor '{flavor['name']}' with image '{image['name']}': "
        r"\[tpm-version-flavor-image-differ\] \(hw:tpm_version, hw_tpm_version\) ",
        said,
    ), said
    assert "Nova would raise FlavorImageConflict when the server is scheduled" in said


def test_image_create_and_set_show_the_refusal_and_store_nothing(cloud: Box, openstack) -> None:
    """The refusal's message is shown from a JSON answer only: ``create`` sends ``Accept:
    */*``, ``set`` no Accept at all, and Glance's own 400s reach them as HTML or plain text,
    printed as HTML entities or a bare "Bad Request"; onespec answers them JSON."""
    name = f"box-cli-{os.getpid()}"
    status, said = openstack("image", "create", "--property", "hw_numa_nodes=zero", name)
    assert status == 1, said
    assert "BadRequestException: 400" in said
    assert "Image property 'hw_numa_nodes'" in said and "'zero'" in said
    listed = cloud.call("GET", f"{cloud.glance_plain}/v2/images?name={name}").body
    assert listed["images"] == []
    image = cloud.create_image({"hw_cpu_policy": "dedicated"})
    status, said = openstack("image", "set", "--property", "hw_cpu_policy=dedicatd", image["id"])
    assert status == 1, said
    assert "Image property 'hw_cpu_policy' must be one of dedicated, shared, mixed" in said
    assert "not 'dedicatd'. Did you mean 'dedicated'?" in said
    stored = cloud.call("GET", f"{cloud.glance_plain}/v2/images/{image['id']}").body
    assert stored["hw_cpu_policy"] == "dedicated"
