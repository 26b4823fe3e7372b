"""onespec's image filter in glance-api 33 itself: what it refuses, what it lets through untouched.

``cloud.glance`` has the filter in ``refuse`` mode, ``cloud.glance_warn`` in ``warn`` mode and
``cloud.glance_plain`` none; all three serve one database, so what one writes the others read.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.cloud.box import Box

V21 = "application/openstack-images-v2.1-json-patch"
V20 = "application/openstack-images-v2.0-json-patch"
#: What Glance keeps changing on its own: the rest of an image must read back the same.
VOLATILE = ("updated_at",)


def unique(stem: str) -> str:
    return f"{stem}-{uuid.uuid4().hex[:10]}"


def show(cloud: Box, image_id: str) -> dict[str, Any]:
    answer = cloud.call("GET", f"{cloud.glance_plain}/v2/images/{image_id}")
    assert answer.status == 200, answer
    return answer.body


def named(cloud: Box, name: str) -> list[dict[str, Any]]:
    answer = cloud.call("GET", f"{cloud.glance_plain}/v2/images?name={name}")
    assert answer.status == 200, answer
    return answer.body["images"]


def test_a_create_with_a_misspelt_value_is_refused_naming_it(cloud: Box) -> None:
    name = unique("refused")
    body = {"name": name, "hw_cpu_policy": "dedicatd"}
    answer = cloud.call("POST", f"{cloud.glance}/v2/images", body)
    assert answer.status == 400, answer
    assert answer.headers["content-type"] == "application/json"
    message = answer.body["message"]
    assert "'hw_cpu_policy'" in message and "'dedicatd'" in message
    assert "dedicated, shared, mixed" in message
    assert named(cloud, name) == []


def test_a_patch_with_a_misspelt_value_is_refused_and_the_image_is_unchanged(cloud: Box) -> None:
    image = cloud.create_image({"hw_disk_bus": "virtio"}, active=False)
    before = show(cloud, image["id"])
    for media_type, operation in (
        (V21, {"op": "add", "path": "/hw_cpu_policy", "value": "dedicatd"}),
        (V20, {"add": "/hw_cpu_policy", "value": "dedicatd"}),
        (V21, {"op": "replace", "path": "/hw_disk_bus", "value": "virtio-scsi"}),
    ):
        url = f"{cloud.glance}/v2/images/{image['id']}"
        answer = cloud.call("PATCH", url, [operation], content_type=media_type)
        assert answer.status == 400, (media_type, answer)
        assert "Did you mean" in answer.body["message"]
    assert show(cloud, image["id"]) == before


def test_a_valid_property_is_stored_and_reads_back_exactly(cloud: Box) -> None:
    properties = {
        "hw_cpu_policy": "dedicated",
        "hw_numa_nodes": "2",
        "hw_numa_cpus.0": "0,1",
        "hw_numa_cpus.1": "2,3",
        "hw_numa_mem.0": "1024",
        "hw_numa_mem.1": "1024",
        "hw_disk_bus": "scsi",
        "hw_scsi_model": "virtio-scsi",
    }
    name = unique("valid")
    created = cloud.call("POST", f"{cloud.glance}/v2/images", {"name": name, **properties})
    assert created.status == 201, created
    assert "warning" not in created.headers
    stored = show(cloud, created.body["id"])
    assert {key: stored[key] for key in properties} == properties
    patched = cloud.call(
        "PATCH",
        f"{cloud.glance}/v2/images/{stored['id']}",
        [
            {"op": "replace", "path": "/hw_cpu_policy", "value": "mixed"},
            {"op": "add", "path": "/hw_cpu_realtime_mask", "value": "^0-1"},
        ],
        content_type=V21,
    )
    assert patched.status == 200, patched
    again = show(cloud, stored["id"])
    assert again["hw_cpu_policy"] == "mixed" and again["hw_cpu_realtime_mask"] == "^0-1"


def test_warn_mode_stores_the_value_with_a_warning_header(cloud: Box) -> None:
    name = unique("warned")
    answer = cloud.call(
        "POST", f"{cloud.glance_warn}/v2/images", {"name": name, "hw_numa_nodes": "zero"}
    )
    assert answer.status == 201, answer
    assert answer.headers["warning"].startswith('299 onespec "')
    assert "'hw_numa_nodes'" in answer.headers["warning"]
    assert show(cloud, answer.body["id"])["hw_numa_nodes"] == "zero"
    assert "would refuse POST /v2/images" in cloud.log_text("glance")


def test_a_finding_stored_before_does_not_stop_an_unrelated_write(cloud: Box) -> None:
    image = cloud.create_image({"hw_cpu_policy": "dedicatd"}, active=False)
    answer = cloud.call(
        "PATCH",
        f"{cloud.glance}/v2/images/{image['id']}",
        [{"op": "add", "path": "/hw_disk_bus", "value": "virtio"}],
        content_type=V21,
    )
    assert answer.status == 200, answer
    assert "'dedicatd'" in answer.headers["warning"]
    assert show(cloud, image["id"])["hw_disk_bus"] == "virtio"


def test_properties_outside_novas_namespaces_are_untouched(cloud: Box) -> None:
    properties = {
        "architecture": "x86_64",
        "description": "hw_cpu_policy=dedicatd, said in prose",
        "owner_specified.openstack.sha256": "0" * 64,
        "company:tier": "gold",
        "hwcpu_policy": "anything",
        # What Cinder writes when it uploads an encrypted volume as an image.
        "cinder_encryption_key_id": str(uuid.uuid4()),
        "cinder_encryption_key_deletion_policy": "on_image_deletion",
    }
    answer = cloud.call(
        "POST", f"{cloud.glance}/v2/images", {"name": unique("other"), **properties}
    )
    assert answer.status == 201, answer
    assert "warning" not in answer.headers
    stored = show(cloud, answer.body["id"])
    assert {key: stored[key] for key in properties} == properties


def test_glances_own_operations_still_work_through_the_filter(cloud: Box) -> None:
    name = unique("lifecycle")
    created = cloud.call(
        "POST",
        f"{cloud.glance}/v2/images",
        {"name": name, "disk_format": "raw", "container_format": "bare", "tags": ["a"]},
    )
    assert created.status == 201, created
    image_url = f"{cloud.glance}/v2/images/{created.body['id']}"
    upload = cloud.call(
        "PUT", f"{image_url}/file", b"0123456789", content_type="application/octet-stream"
    )
    assert upload.status == 204, upload
    shown = cloud.call("GET", image_url)
    assert shown.status == 200 and shown.body["status"] == "active" and shown.body["size"] == 10
    listed = cloud.call("GET", f"{cloud.glance}/v2/images?name={name}")
    assert [image["id"] for image in listed.body["images"]] == [created.body["id"]]
    renamed = cloud.call(
        "PATCH",
        image_url,
        [{"op": "replace", "path": "/name", "value": f"{name}-2"}],
        content_type=V21,
    )
    assert renamed.status == 200 and renamed.body["name"] == f"{name}-2"
    assert cloud.call("GET", f"{image_url}/file").body == "0123456789"
    assert cloud.call("DELETE", image_url).status == 204
    assert cloud.call("GET", image_url).status == 404


def test_glances_own_refusals_are_still_glances(cloud: Box) -> None:
    image = cloud.create_image(active=False)
    url = f"{cloud.glance}/v2/images/{image['id']}"
    missing = cloud.call(
        "PATCH",
        url,
        [{"op": "replace", "path": "/hw_cpu_policy", "value": "dedicatd"}],
        content_type=V21,
    )
    assert missing.status == 409, missing  # replacing a property the image does not have
    not_string = cloud.call("POST", f"{cloud.glance}/v2/images", {"hw_numa_nodes": 2})
    assert not_string.status == 400 and "hw_numa_nodes" in not_string.body["message"]
    nowhere = cloud.call(
        "PATCH",
        f"{cloud.glance}/v2/images/{uuid.uuid4()}",
        [{"op": "add", "path": "/hw_cpu_policy", "value": "dedicatd"}],
        content_type=V21,
    )
    assert nowhere.status == 404, nowhere


@pytest.mark.parametrize("accept", ["application/json", "*/*", "text/html", ""])
def test_a_refusal_takes_the_shape_of_glances_own_400(cloud: Box, accept: str) -> None:
    """Glance's answer to a patch that is not JSON, beside onespec's refusal, per Accept."""
    image = cloud.create_image(active=False)
    headers = {"Accept": accept}
    own = cloud.call(
        "PATCH",
        f"{cloud.glance_plain}/v2/images/{image['id']}",
        b'[{"op": ',
        content_type=V21,
        headers=headers,
    )
    ours = cloud.call(
        "PATCH",
        f"{cloud.glance}/v2/images/{image['id']}",
        [{"op": "add", "path": "/hw_cpu_policy", "value": "dedicatd"}],
        content_type=V21,
        headers=headers,
    )
    assert (own.status, ours.status) == (400, 400)
    if accept in ("*/*", ""):
        # Glance answers HTML or plain text; a refusal answers Glance's JSON, whose message
        # the openstack client shows.
        json_own = cloud.call(
            "PATCH",
            f"{cloud.glance_plain}/v2/images/{image['id']}",
            b'[{"op": ',
            content_type=V21,
            headers={"Accept": "application/json"},
        )
        own = json_own
    assert ours.headers["content-type"] == own.headers["content-type"]
    glance_says = "Malformed JSON in request body."
    if isinstance(own.body, dict):
        assert set(ours.body) == set(own.body)
        assert {k: v for k, v in ours.body.items() if k != "message"} == {
            k: v for k, v in own.body.items() if k != "message"
        }
        own_text, our_text = own.body["message"], ours.body["message"]
    else:
        own_text, our_text = own.body, ours.body
    prefix, _, suffix = own_text.partition(glance_says)
    if isinstance(own.body, dict):  # the message alone, without WebOb's HTML line breaks
        assert glance_says + "<br /><br />" in own_text and "<br" not in our_text
    else:
        assert our_text.startswith(prefix) and our_text.endswith(suffix)
    assert "hw_cpu_policy" in our_text


def test_a_body_larger_than_onespec_reads_is_refused_in_glances_shape(cloud: Box) -> None:
    name = unique("large")
    body = {"name": name, "description": "x" * 300_000}
    answer = cloud.call("POST", f"{cloud.glance}/v2/images", body)
    assert answer.status == 413, answer
    assert answer.body["title"] == "Request Entity Too Large"
    assert "max_body_bytes" in answer.body["message"]
    assert named(cloud, name) == []
