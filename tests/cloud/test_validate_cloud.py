"""``onespec validate cloud`` against real nova-api and glance-api: a box of this module's own,
seeded with good and broken flavors and images, read through openstacksdk as an operator's
``clouds.yaml`` names it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from onespec.validators_runtime import cloud as cloud_module
from tests.cloud.box import Box
from tests.commands import onespec


@dataclass
class Seeded:
    """The box, the clouds.yaml that names it ``box``, and the ids of what was seeded."""

    box: Box
    folder: Path
    flavors: dict[str, str]
    images: dict[str, str]

    def run(self, *args: str, cloud: str | None = "box", **env: str | None) -> Any:
        variables = {"OS_CLIENT_CONFIG_FILE": str(self.folder / "clouds.yaml"), "OS_CLOUD": None}
        arguments = ["validate", "cloud", *(["--os-cloud", cloud] if cloud else []), *args]
        return onespec(*arguments, cwd=self.folder, env={**variables, **env})

    def report(self, *args: str, **env: str | None) -> tuple[int, dict[str, Any]]:
        done = self.run(*args, "-f", "json", **env)
        assert "Traceback" not in done.stderr, done.stderr
        return done.returncode, json.loads(done.stdout)


@pytest.fixture(scope="module")
def seeded(private_cloud: Box, tmp_path_factory: pytest.TempPathFactory) -> Seeded:
    box = private_cloud
    flavors = {
        "good": box.create_flavor(2, 2048, 20, name="good"),
        # Refused on its own, per key: a misspelt key, on a flavor only an admin sees.
        "typo": box.create_flavor(
            2, 2048, 20, {"hw:cpu_polcy": "dedicated"}, name="typo", is_public=False
        ),
        # Refused as a whole: 2 NUMA nodes cannot split 3 vCPUs.
        "odd-numa": box.create_flavor(3, 4096, 20, {"hw:numa_nodes": "2"}, name="odd-numa"),
        # Refused with the images that want a PMU.
        "no-pmu": box.create_flavor(2, 2048, 20, {"hw:pmu": "false"}, name="no-pmu"),
        # Too small a disk for any image: no image can boot it.
        "tiny": box.create_flavor(1, 512, 1, name="tiny"),
    }
    box.disable_flavor(flavors["tiny"]["id"])
    images = {
        "pmu": box.create_image({"hw_pmu": "true"}, min_disk=5, name="pmu"),
        # A property value Nova cannot read, on an image only its owner and admins see.
        "badbus": box.create_image(
            {"hw_disk_bus": "floppy"}, min_disk=5, name="badbus", visibility="private"
        ),
        # Listed only when every visibility is asked for.
        "plain": box.create_image(min_disk=5, name="plain", visibility="community"),
        # Never uploaded: checked on its own, not paired (Nova boots no queued image).
        "queued": box.create_image({"hw_pmu": "true"}, min_disk=50, name="queued", active=False),
    }
    folder = tmp_path_factory.mktemp("validate-cloud")
    (folder / "clouds.yaml").write_text(yaml.safe_dump(box.clouds_yaml("box")))
    return Seeded(
        box,
        folder,
        {name: flavor["id"] for name, flavor in flavors.items()},
        {name: image["id"] for name, image in images.items()},
    )


def test_the_seeded_problems_and_nothing_else(seeded: Seeded) -> None:
    code, report = seeded.report()
    assert code == 1
    assert report["cloud"] == "box" and report["valid"] is False
    assert {(f["flavor"], f["code"]) for f in report["flavor_findings"]} == {
        ("typo", "unknown-key"),
        ("odd-numa", "numa-nodes-split-unevenly"),
    }
    assert sorted(
        (f["flavor"], f["code"], f["pairs"], sorted(f["images"])) for f in report["pair_findings"]
    ) == [
        ("no-pmu", "pmu-flavor-image-differ", 1, ["pmu"]),
        ("tiny", "flavor-disk-below-image-min-disk", 3, ["badbus", "plain", "pmu"]),
    ]
    assert report["unbootable_flavors"] == ["tiny"]
    assert [(f["image"], f["code"], f["severity"]) for f in report["image_findings"]] == [
        ("badbus", "invalid-image-property", "error")
    ]
    assert report["images_not_active"] == ["queued"]
    assert (report["flavors"], report["images"], report["images_listed"]) == (5, 3, 4)


def test_private_and_disabled_flavors_and_every_visibility_are_listed_and_marked(
    seeded: Seeded,
) -> None:
    _, report = seeded.report()
    flavors = {f["name"]: f for f in report["listed"]["flavors"]}
    assert {name: (f["is_public"], f["disabled"]) for name, f in flavors.items()} == {
        "good": (True, False),
        "typo": (False, False),
        "odd-numa": (True, False),
        "no-pmu": (True, False),
        "tiny": (True, True),
    }
    assert {f["id"] for f in flavors.values()} == set(seeded.flavors.values())
    images = {i["name"]: (i["status"], i["visibility"]) for i in report["listed"]["images"]}
    assert images == {
        "pmu": ("active", "public"),
        "badbus": ("active", "private"),
        "plain": ("active", "community"),
        "queued": ("queued", "public"),
    }


def test_the_text_report_marks_flavors_and_sums_up(seeded: Seeded) -> None:
    done = seeded.run()
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert "image badbus: error: [invalid-image-property] " in lines[0]
    assert any(line.startswith("flavor typo (private): error: [unknown-key]") for line in lines)
    assert any(line.startswith("flavor tiny (disabled) with 3 images (") for line in lines), (
        done.stdout
    )
    assert "flavor tiny (disabled): no image can boot it (each is refused above)." in lines
    assert lines[-1] == (
        "cloud 'box': 5 flavors listed (1 private, 1 disabled), 4 images (1 not active, "
        "checked on their own only), 1 image problem."
    )


def test_flavor_and_image_narrow_by_name_or_id(seeded: Seeded) -> None:
    code, report = seeded.report("--flavor", "good", "--image", seeded.images["plain"])
    assert code == 0, report
    assert report["valid"] is True and (report["flavors"], report["images"]) == (1, 1)
    code, report = seeded.report(
        "--flavor", seeded.flavors["no-pmu"], "--image", "pmu", "--image", "plain"
    )
    assert code == 1
    assert [(f["flavor"], f["pairs"]) for f in report["pair_findings"]] == [("no-pmu", 1)]
    assert report["unbootable_flavors"] == [] and report["image_findings"] == []


def test_a_name_the_cloud_does_not_have_is_a_usage_error(seeded: Seeded) -> None:
    done = seeded.run("--image", "no-such-image")
    assert done.returncode == 2
    assert "Error: cloud 'box' has no image named or numbered 'no-such-image'" in done.stderr
    assert "Traceback" not in done.stderr


def test_os_cloud_names_the_cloud_as_for_the_openstack_client(seeded: Seeded) -> None:
    code, report = seeded.report("--flavor", "good", "--image", "plain", OS_CLOUD="box")
    assert code == 0 and report["cloud"] == "box"
    done = seeded.run("--flavor", "good", cloud=None, OS_CLOUD="elsewhere")
    assert done.returncode == 2
    assert "cloud 'elsewhere': cannot find the cloud: Cloud elsewhere was not found." in done.stderr


def test_verbose_says_how_long_listing_and_checking_took(seeded: Seeded) -> None:
    done = seeded.run("--verbose", "-f", "json")
    seconds = json.loads(done.stdout)["seconds"]
    assert seconds["listing"] > 0 and seconds["checking"] >= 0
    assert "listed 5 flavors and 4 images in " in done.stderr


def test_listings_are_read_page_by_page(seeded: Seeded, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cloud_module, "PAGE_SIZE", 2)
    code, report = seeded.report()
    assert code == 1
    assert (report["flavors"], report["images_listed"]) == (5, 4)
    assert len(report["listed"]["images"]) == len({i["id"] for i in report["listed"]["images"]})


@pytest.mark.parametrize(
    ("bound", "value", "said"),
    [
        ("MAX_FLAVORS", 4, "cloud 'box': lists more than 4 flavors, more than onespec reads"),
        ("MAX_IMAGES", 3, "cloud 'box': lists more than 3 images, more than onespec reads"),
        ("MAX_PAGE_BYTES", 100, "is larger than 100 bytes, more than onespec reads"),
        ("MAX_KEYS", 0, "'s extra specs: 1, more than the 0 onespec reads"),
    ],
)
def test_what_is_read_is_bounded(
    seeded: Seeded, monkeypatch: pytest.MonkeyPatch, bound: str, value: int, said: str
) -> None:
    monkeypatch.setattr(cloud_module, "PAGE_SIZE", 2)
    monkeypatch.setattr(cloud_module, bound, value)
    done = seeded.run("-f", "json")
    assert done.returncode == 2, done.stdout
    assert said in done.stderr
    assert "Traceback" not in done.stderr


def test_a_stopped_cloud_is_a_usage_error_in_plain_words(seeded: Seeded) -> None:
    """Last in the module: it stops the module's box."""
    seeded.box.stop()
    done = seeded.run("-f", "json")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "cloud 'box': cannot " in done.stderr
    assert "the service cannot be reached (is it running, and is its URL right?)" in done.stderr
    assert json.loads(done.stdout)["valid"] is False
