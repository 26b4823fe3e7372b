"""Glance's own fields are not a user's properties: the client prints ``os_hash_algo``,
``os_hash_value`` and ``os_hidden`` among every image's properties, and each was warned about
as "not one Nova reads"."""

from __future__ import annotations

import json
import subprocess

import pytest

from onespec.definitions.image_properties import GLANCE_IMAGE_FIELDS
from onespec.validators_runtime.flavors import validate_image_properties
from tests import peers

#: As `openstack image show -f json` prints an image: Glance's fields among the properties.
CLIENT_IMAGE = {
    "name": "cirros",
    "disk_format": "qcow2",
    "properties": {
        "os_hash_algo": "sha512",
        "os_hash_value": "5f2e",
        "os_hidden": False,
        "stores": "file",
        "os_glance_importing_to_stores": "",
        "os_glance_failed_import": "",
        "hw_cpu_policy": "dedicated",
    },
}


def test_glances_own_fields_are_never_warned_about():
    assert validate_image_properties(CLIENT_IMAGE) == []


def test_a_misspelt_property_among_them_is_still_warned_about():
    image = {**CLIENT_IMAGE, "properties": {**CLIENT_IMAGE["properties"], "hw_cpu_polcy": "x"}}
    assert [f.keys for f in validate_image_properties(image)] == [("hw_cpu_polcy",)]


@pytest.mark.peers
def test_the_fields_are_glance_33s_own_image_schema():
    glance = peers.require("glance")
    listed = subprocess.run(
        [
            str(glance / "bin" / "python"),
            "-c",
            "import json\nfrom glance.api.v2.images import get_base_properties\n"
            "print(json.dumps(sorted(get_base_properties())))",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert set(GLANCE_IMAGE_FIELDS) == set(json.loads(listed.stdout))
