"""``onespec validate cloud`` where no cloud is needed: finding the cloud (and failing to),
the options, the report built from listed flavors and images, and the flavors no image boots.
The same command against real services is ``tests/cloud/test_validate_cloud.py``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml
from keystoneauth1 import exceptions as ks

from onespec.validators_runtime.cloud import (
    CloudFlavor,
    CloudImage,
    check_cloud,
    labels,
    plain_words,
)
from onespec.validators_runtime.flavors import read_flavor, read_image
from onespec.validators_runtime.flavors.fleet import check_fleet
from tests.commands import onespec


@pytest.fixture(autouse=True)
def search_path_of_a_new_process(tmp_path, monkeypatch):
    """openstacksdk fixes its clouds.yaml search path, the working folder first, when its
    loader is imported: in this process, the folder of whichever test imported it first. A
    command started in ``tmp_path`` would search there."""
    from openstack.config import loader

    folders = [str(tmp_path), *loader.CONFIG_SEARCH_PATH[1:]]
    monkeypatch.setattr(loader, "CONFIG_SEARCH_PATH", folders)
    monkeypatch.setattr(
        loader,
        "CONFIG_FILES",
        [
            os.path.join(folder, "clouds" + suffix)
            for folder in folders
            for suffix in (*loader.YAML_SUFFIXES, *loader.JSON_SUFFIXES)
        ],
    )


def clouds_file(tmp_path: Path) -> Path:
    """Where the test's clouds.yaml goes: not in the working folder, which openstacksdk
    searches as it was when the loader was first imported (another test's, in this process)."""
    (tmp_path / "etc").mkdir(exist_ok=True)
    return tmp_path / "etc" / "clouds.yaml"


def run(tmp_path: Path, *args: str, **env: str | None):
    """The command in ``tmp_path`` with no cloud of the machine's in sight."""
    variables = {
        "OS_CLIENT_CONFIG_FILE": str(clouds_file(tmp_path)),
        "OS_CLOUD": None,
        "OS_AUTH_URL": None,
        "OS_TOKEN": None,
        **env,
    }
    return onespec("validate", "cloud", *args, cwd=tmp_path, env=variables)


def test_without_openstacksdk_the_message_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "openstack", None)  # import openstack raises ImportError
    done = run(tmp_path, "--os-cloud", "prod")
    assert done.returncode == 2
    assert "reading a cloud needs openstacksdk, which is not installed" in done.stderr
    assert "pip install 'onespec[cloud]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_cloud_names_where_clouds_yaml_was_looked_for(tmp_path):
    clouds = {"clouds": {"prod": {"auth_type": "none", "compute_endpoint_override": "x"}}}
    clouds_file(tmp_path).write_text(yaml.safe_dump(clouds))
    done = run(tmp_path, "--os-cloud", "prdo", "-f", "json")
    assert done.returncode == 2
    assert "Error: cloud 'prdo': cannot find the cloud: Cloud prdo was not found." in done.stderr
    assert f"OS_CLIENT_CONFIG_FILE={clouds_file(tmp_path)}, then " in done.stderr
    assert "Traceback" not in done.stderr


def test_no_cloud_at_all_says_how_to_name_one(tmp_path):
    done = run(tmp_path)
    assert done.returncode == 2
    assert "Error: no cloud is configured (" in done.stderr
    assert "--os-cloud NAME or OS_CLOUD, or set the OS_* variables" in done.stderr


def test_a_clouds_yaml_that_is_not_yaml_is_skipped_as_openstacksdk_says(tmp_path):
    clouds_file(tmp_path).write_text("clouds: [unclosed\n")
    done = run(tmp_path, "--os-cloud", "prod")
    assert done.returncode == 2
    assert f"Skipping config file {clouds_file(tmp_path)}: while parsing" in done.stderr
    assert "Error: cloud 'prod': cannot find the cloud: Cloud prod was not found." in done.stderr
    assert "Traceback" not in done.stderr


def test_names_to_narrow_to_are_bounded(tmp_path):
    done = run(tmp_path, *["--image", "x"] * 257)
    assert done.returncode == 2
    assert "--image is given 257 times; at most 256" in done.stderr


@pytest.mark.parametrize(
    ("exc", "said"),
    [
        (ks.ConnectFailure("refused"), "the service cannot be reached (is it running"),
        (ks.ConnectTimeout("slow"), "the service did not answer in time (slow)"),
        (ks.SSLError("bad certificate"), "the TLS connection failed (bad certificate)"),
        (ks.EndpointNotFound("no image"), "the service catalogue has no such endpoint"),
        (ks.Unauthorized("expired"), "the credentials were refused (expired"),
        (RuntimeError("odd\nsecond line"), "cannot list: odd"),
    ],
)
def test_library_errors_are_said_in_plain_words(exc, said):
    message = plain_words(exc, "cloud 'prod'", "list")
    assert message.startswith("cloud 'prod': cannot list: ")
    assert said in message and "second line" not in message


def _flavor(name: str, flavor_id: str, specs=None, **fields) -> CloudFlavor:
    document = {"name": name, "vcpus": 2, "ram": 2048, "disk": 20, "extra_specs": specs or {}}
    return CloudFlavor(
        flavor_id,
        name,
        fields.get("is_public", True),
        fields.get("disabled", False),
        read_flavor({**document, **fields.get("sizes", {})}),
    )


def _image(name: str, image_id: str, status: str = "active", **properties) -> CloudImage:
    document = {"id": image_id, "name": name, "status": status, **properties}
    return CloudImage(image_id, name, status, "public", read_image(document))


def test_labels_are_names_unless_two_share_one():
    flavors = [_flavor("m1", "1"), _flavor("m1", "2"), _flavor("m2", "3")]
    nameless = CloudImage("abc", None, "active", "public", read_image({"id": "abc"}))
    assert labels(flavors) == ["m1 (1)", "m1 (2)", "m2"]
    assert labels([nameless]) == ["abc"]


def test_an_image_that_is_not_active_is_checked_alone_but_not_paired():
    flavors = [_flavor("no-pmu", "1", {"hw:pmu": "false"}, is_public=False)]
    images = [
        _image("pmu", "a", hw_pmu="true"),
        _image("uploading", "b", "queued", hw_pmu="true", hw_disk_bus="floppy"),
    ]
    report = check_cloud("prod", flavors, images)
    assert [(c.flavor, c.pairs, c.images) for c in report.fleet.causes] == [("no-pmu", 1, ["pmu"])]
    assert [(name, f.code) for name, f in report.image_findings] == [
        ("uploading", "invalid-image-property")
    ]
    document = report.to_dict()
    assert document["valid"] is False and document["cloud"] == "prod"
    assert document["images_not_active"] == ["uploading"]
    assert document["listed"]["flavors"] == [
        {"id": "1", "name": "no-pmu", "label": "no-pmu", "is_public": False, "disabled": False}
    ]
    assert flavors[0].marks == "private"


def test_only_warnings_about_images_leave_the_cloud_valid():
    report = check_cloud("prod", [_flavor("m1", "1")], [_image("i", "a", hw_cpu_polcy="x")])
    assert [f.severity for _, f in report.image_findings] == ["warning"]
    assert report.valid


def test_a_flavor_no_image_boots_is_named_once_whatever_refuses_each_image():
    """Half the images are refused for their PMU, the other half for their size: no single
    cause covers every image, yet none boots."""
    flavor = read_flavor(
        {"name": "f", "vcpus": 2, "ram": 1024, "disk": 10, "extra_specs": {"hw:pmu": "false"}}
    )
    roomy = read_flavor({"name": "roomy", "vcpus": 2, "ram": 4096, "disk": 40})
    images = [read_image({"name": f"p{i}", "hw_pmu": "true"}) for i in range(3)]
    images += [read_image({"name": f"s{i}", "min_disk": 20}) for i in range(3)]
    report = check_fleet([flavor, roomy], images)
    assert sorted((c.flavor, c.pairs) for c in report.causes) == [("f", 3), ("f", 3)]
    assert report.unbootable == ["f"]
    assert report.to_dict()["unbootable_flavors"] == ["f"]


def test_a_flavor_refused_on_its_own_is_not_also_called_unbootable():
    odd = read_flavor(
        {"name": "odd", "vcpus": 3, "ram": 4096, "disk": 10, "extra_specs": {"hw:numa_nodes": "2"}}
    )
    report = check_fleet([odd], [read_image({"name": "big", "min_disk": 20})])
    assert [name for name, _ in report.alone] == ["odd"]
    assert report.unbootable == []
    assert check_fleet([odd], []).unbootable == []
