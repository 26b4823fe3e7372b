"""The cloud in a box itself: real services that answer, seed, authenticate and stop cleanly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.cloud.box import FILTERS, SERVICES, Box, _alive, start
from tests.peers import PROGRAMS, ROOT, require


def test_every_onespec_filter_is_in_the_pipelines(cloud: Box) -> None:
    assert cloud.filters == sorted(FILTERS)
    assert set(cloud.pids) == set(SERVICES)


def test_a_request_without_a_box_token_is_unauthorized(cloud: Box) -> None:
    urls = (f"{cloud.nova}/flavors", f"{cloud.nova_plain}/flavors", f"{cloud.glance}/v2/images")
    for url in urls:
        answer = cloud.call("GET", url, headers={"X-Auth-Token": "not-a-box-token"})
        assert answer.status == 401, (url, answer)


def test_only_an_admin_creates_flavors(cloud: Box) -> None:
    flavor = {"flavor": {"name": "box-member-flavor", "vcpus": 1, "ram": 64, "disk": 0}}
    answer = cloud.call("POST", f"{cloud.nova_plain}/flavors", flavor, admin=False)
    assert answer.status == 403, answer


def test_a_flavor_and_an_image_are_seen_by_every_service(cloud: Box) -> None:
    flavor = cloud.create_flavor(2, 1024, 1, {"hw:cpu_policy": "dedicated"})
    image = cloud.create_image({"hw_cpu_policy": "dedicated"}, min_ram=512)
    assert image["status"] == "active" and image["hw_cpu_policy"] == "dedicated"
    for base in (cloud.nova, cloud.nova_plain, cloud.nova_warn):
        shown = cloud.call("GET", f"{base}/flavors/{flavor['id']}", microversion="2.75")
        assert shown.status == 200 and shown.body["flavor"]["extra_specs"] == {
            "hw:cpu_policy": "dedicated"
        }
    for base in (cloud.glance, cloud.glance_warn, cloud.glance_plain):
        shown = cloud.call("GET", f"{base}/v2/images/{image['id']}")
        assert shown.status == 200 and shown.body["min_ram"] == 512


def test_stock_nova_checks_the_pair_at_create(cloud: Box) -> None:
    """What Nova alone does with ``"networks": "none"``: the create-time checks run at once."""
    image = cloud.create_image(min_ram=4096)
    small = cloud.create_flavor(1, 1024, 1)
    refused = cloud.boot(small["id"], image["id"], cloud.nova_plain)
    assert refused.status == 400, refused
    assert "memory is too small" in refused.body["badRequest"]["message"]
    large = cloud.create_flavor(1, 4096, 1)
    accepted = cloud.boot(large["id"], image["id"], cloud.nova_plain)
    assert accepted.status == 202, accepted
    cloud.disable_flavor(large["id"])
    gone = cloud.boot(large["id"], image["id"], cloud.nova_plain)
    assert gone.status == 400 and "could not be found" in gone.body["badRequest"]["message"]


def test_a_queued_image_is_not_bootable(cloud: Box) -> None:
    image = cloud.create_image(active=False)
    assert image["status"] == "queued"
    flavor = cloud.create_flavor(1, 512, 1)
    answer = cloud.boot(flavor["id"], image["id"], cloud.nova_plain)
    assert answer.status == 400 and "is not active" in answer.body["badRequest"]["message"]


def test_openstacksdk_works_against_the_box(cloud: Box, tmp_path: Path) -> None:
    """The clouds.yaml the box prints, read by openstacksdk (Nova's peer environment has it)."""
    flavor = cloud.create_flavor(1, 256, 1, {"hw:mem_page_size": "large"})
    image = cloud.create_image({"hw_disk_bus": "scsi"})
    clouds = tmp_path / "clouds.yaml"
    clouds.write_text(yaml.safe_dump(cloud.clouds_yaml("box")))
    script = (
        "import json, openstack\n"
        "conn = openstack.connect(cloud='box')\n"
        "flavors = {f.id: dict(f.extra_specs or {}) for f in conn.compute.flavors()}\n"
        "images = {i.id: i.hw_disk_bus for i in conn.image.images()}\n"
        "print(json.dumps({'flavors': flavors, 'images': images}))\n"
    )
    result = subprocess.run(
        [str(PROGRAMS["nova"].python), "-c", script],
        env={**os.environ, "OS_CLIENT_CONFIG_FILE": str(clouds), "PYTHONWARNINGS": "ignore"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["flavors"][flavor["id"]] == {"hw:mem_page_size": "large"}
    assert seen["images"][image["id"]] == "scsi"


@pytest.mark.slow
def test_services_stop_when_their_owner_is_gone(tmp_path: Path) -> None:
    """A test run that is killed leaves no service behind: each watches the box's owner."""
    require("nova")
    require("glance")
    owner = subprocess.Popen(["sleep", "600"])
    box = start(tmp_path / "box", owner.pid)
    try:
        assert box.alive()
        owner.kill()
        owner.wait()
        deadline = time.monotonic() + 30
        while any(_alive(pid) for pid in box.pids.values()) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(pid) for pid in box.pids.values())
    finally:
        box.stop()


@pytest.mark.slow
def test_make_cloud_prints_how_to_use_it_and_stops_on_ctrl_c() -> None:
    require("nova")
    require("glance")
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.cloud"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if line.startswith("Ctrl-C"):
                break
        text = "".join(lines)
        assert "export OS_CLIENT_CONFIG_FILE=" in text and "OS_CLOUD=box" in text, text
        clouds = yaml.safe_load((ROOT / "build" / "cloud" / "clouds.yaml").read_text())
        box = clouds["clouds"]["box"]
        state = Box(folder=ROOT / "build" / "cloud" / "box", ports={})
        answer = state.call(
            "GET",
            f"{box['compute_endpoint_override']}/flavors",
            headers={"X-Auth-Token": box["auth"]["token"]},
        )
        assert answer.status == 200, answer
        pids = [int(path.read_text()) for path in state.folder.glob("*.ready")]
        assert len(pids) == len(SERVICES)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0
        assert not any(_alive(pid) for pid in pids)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
