"""onespec's server filter in a real nova-api 34.0.0: what Nova alone lets through to fail later
is refused at the API, naming the rule.

For every rule of the catalogue, the rule's own smallest breaking example is created in the box
(the flavor through Nova, the image through Glance) and booted twice: on ``nova_plain`` (Nova
alone, which refuses the ``api`` rules and accepts the others with 202, to fail the server later)
and on ``nova`` (the filter, which refuses every error rule with a 400 naming it). Resize,
rebuild, the ``warn`` pipeline and the requests the filter leaves to Nova follow; last, onespec's
extra-spec validators in ``nova`` answer extra-spec writes with the status Nova's own answer in
``nova_plain`` (the texts are onespec's own).
"""

from __future__ import annotations

from typing import Any

import pytest

from onespec.definitions.flavor_rule_catalogue import RULES, WARNINGS
from onespec.definitions.flavor_rules import Rule
from tests.cloud.box import Answer, Box

#: Rules whose example the box cannot build, and why: the box's images hold a few bytes, so no
#: image is as large as a flavor's root disk (2 GiB against 1 GiB).
UNBUILDABLE = {"flavor-disk-below-image-size": "the box's images hold a few bytes"}
#: The size of the box's images, in bytes (what ``Box.create_image`` uploads).
BOX_IMAGE_BYTES = 18

#: Rules whose refusal Nova alone answers with another status than 400: Nova's servers API lets
#: its Forbidden exceptions (ImagePCINUMAPolicyForbidden, BootFromVolumeRequiredForZeroDiskFlavor)
#: through as 403; the filter answers those with Nova's status too.
NOVA_STATUS = {"pci-numa-policy-flavor-image-differ": 403, "zero-disk-needs-volume": 403}

BUILDABLE = tuple(rule for rule in (*RULES, *WARNINGS) if rule.name not in UNBUILDABLE)


def test_only_the_rules_listed_cannot_be_built_in_the_box():
    examples = {rule.name: rule.example for rule in (*RULES, *WARNINGS)}
    too_large = {
        name for name, example in examples.items() if example and example.size > BOX_IMAGE_BYTES
    }
    assert too_large == set(UNBUILDABLE)


def build(box: Box, rule: Rule) -> tuple[dict[str, Any], dict[str, Any]]:
    """The rule's example as a flavor and an image of the box (an example without an image
    boots an image that sets nothing, as onespec judges it)."""
    example = rule.example
    assert example is not None
    flavor = box.create_flavor(example.vcpus, example.ram, example.disk, dict(example.specs))
    if example.disabled:
        box.disable_flavor(flavor["id"])
    properties = dict(example.properties)
    if example.encryption_key:
        properties["cinder_encryption_key_id"] = example.encryption_key
    image = box.create_image(
        properties,
        min_ram=example.min_ram,
        min_disk=example.min_disk,
        active=example.status in ("", "active"),
    )
    if example.status not in ("", "active", "queued"):
        raise AssertionError(f"{rule.name}: the box makes images active or queued only")
    return flavor, image


@pytest.fixture(scope="module")
def verdicts(cloud: Box) -> dict[str, tuple[Answer, Answer]]:
    """Each rule's example booted on Nova alone and through the filter."""
    found = {}
    for rule in BUILDABLE:
        flavor, image = build(cloud, rule)
        # A refusal Nova's default policy makes for other users than admins: booted as a member.
        admin = rule.by_policy is None
        found[rule.name] = (
            cloud.boot(flavor["id"], image["id"], cloud.nova_plain, admin=admin),
            cloud.boot(flavor["id"], image["id"], cloud.nova, admin=admin),
        )
    return found


def message(answer: Answer) -> str:
    """The message of a Nova fault (``badRequest``, ``forbidden``...), or "" for no fault."""
    body = answer.body
    if not isinstance(body, dict) or len(body) != 1:
        return ""
    (fault,) = body.values()
    return fault.get("message", "") if isinstance(fault, dict) else ""


@pytest.mark.parametrize("rule", BUILDABLE, ids=lambda rule: rule.name)
def test_nova_alone_refuses_only_the_api_rules(rule: Rule, verdicts) -> None:
    alone, _ = verdicts[rule.name]
    refused = rule.severity == "error" and rule.phase == "api"
    assert alone.status == (NOVA_STATUS.get(rule.name, 400) if refused else 202), alone


@pytest.mark.parametrize("rule", BUILDABLE, ids=lambda rule: rule.name)
def test_the_filter_refuses_every_error_rule_naming_it(rule: Rule, verdicts) -> None:
    _, filtered = verdicts[rule.name]
    if rule.severity == "warning":
        assert filtered.status == 202, filtered
        return
    alone, _ = verdicts[rule.name]
    # What Nova refuses at the API itself, the filter refuses with Nova's own status.
    assert filtered.status == (alone.status if rule.phase == "api" else 400), filtered
    assert filtered.headers["content-type"] == "application/json; charset=UTF-8"
    text = message(filtered)
    assert f"[{rule.name}]" in text, text
    assert f"Nova would raise {rule.nova_exception}" in text and f"phase {rule.phase}" in text


def test_a_valid_pair_is_accepted_both_ways(cloud: Box) -> None:
    flavor = cloud.create_flavor(2, 2048, 1, {"hw:cpu_policy": "dedicated", "hw:numa_nodes": "2"})
    image = cloud.create_image({"hw_tpm_version": "2.0", "hw_tpm_model": "tpm-crb"}, min_ram=512)
    assert cloud.boot(flavor["id"], image["id"], cloud.nova_plain).status == 202
    answer = cloud.boot(flavor["id"], image["id"], cloud.nova)
    assert answer.status == 202 and "warning" not in answer.headers, answer


def test_the_warn_pipeline_lets_the_pair_through_with_a_warning(cloud: Box) -> None:
    flavor = cloud.create_flavor(1, 1024, 1, {"hw:tpm_version": "2.0"})
    image = cloud.create_image({"hw_tpm_version": "1.2"})
    answer = cloud.boot(flavor["id"], image["id"], cloud.nova_warn)
    assert answer.status == 202, answer
    assert answer.headers["warning"].startswith('299 onespec "tpm-version-flavor-image-differ')
    assert "tpm-version-flavor-image-differ" in cloud.log_text("nova")


def test_boot_from_volume_without_an_image_is_judged_on_the_flavor_alone(cloud: Box) -> None:
    flavor = cloud.create_flavor(3, 2048, 1, {"hw:numa_nodes": "2"})
    server = {"name": "bfv", "flavorRef": flavor["id"], "networks": "none"}
    answer = cloud.call("POST", f"{cloud.nova}/servers", {"server": server}, microversion="2.74")
    assert answer.status == 400 and "[numa-nodes-split-unevenly]" in message(answer)


def booted(cloud: Box, flavor: dict[str, Any], image: dict[str, Any]) -> str:
    answer = cloud.boot(flavor["id"], image["id"], cloud.nova_plain)
    assert answer.status == 202, answer
    return answer.body["server"]["id"]


def test_a_resize_to_a_flavor_that_clashes_with_the_servers_image_is_refused(cloud: Box) -> None:
    image = cloud.create_image({"hw_tpm_version": "1.2"})
    server = booted(cloud, cloud.create_flavor(1, 1024, 1), image)
    clashing = cloud.create_flavor(1, 1024, 1, {"hw:tpm_version": "2.0"})
    fitting = cloud.create_flavor(2, 2048, 1)
    path = f"/servers/{server}/action"
    resize = {"resize": {"flavorRef": clashing["id"]}}
    refused = cloud.call("POST", cloud.nova + path, resize)
    assert refused.status == 400 and "[tpm-version-flavor-image-differ]" in message(refused)
    # Nova alone takes it further: in the box, as far as asking Neutron, which the box lacks.
    alone = cloud.call("POST", cloud.nova_plain + path, resize)
    assert alone.status != 400 and "tpm" not in message(alone)
    fitting = {"resize": {"flavorRef": fitting["id"]}}
    passed = [cloud.call("POST", url + path, fitting) for url in (cloud.nova_plain, cloud.nova)]
    assert passed[0].status == passed[1].status != 400, passed


def test_a_rebuild_with_an_image_that_clashes_with_the_servers_flavor_is_refused(
    cloud: Box,
) -> None:
    flavor = cloud.create_flavor(1, 1024, 1, {"hw:usb_model": "none"})
    server = booted(cloud, flavor, cloud.create_image())
    clashing = cloud.create_image({"hw_usb_model": "qemu-xhci"})
    path = f"/servers/{server}/action"
    rebuild = {"rebuild": {"imageRef": clashing["id"]}}
    refused = cloud.call("POST", cloud.nova + path, rebuild)
    assert refused.status == 400 and "[usb-model-flavor-image-differ]" in message(refused)
    assert "phase spawn" in message(refused)
    assert cloud.call("POST", cloud.nova_plain + path, rebuild).status != 400
    fitting = {"rebuild": {"imageRef": cloud.create_image()["id"]}}
    passed = [cloud.call("POST", url + path, fitting) for url in (cloud.nova_plain, cloud.nova)]
    assert passed[0].status == passed[1].status != 400, passed


@pytest.mark.parametrize(
    ("server", "expected"),
    [
        ({"flavorRef": "no-such-flavor", "imageRef": "IMAGE"}, 400),
        ({"flavorRef": "FLAVOR", "imageRef": "8a0c3c5e-0000-4000-8000-000000000000"}, 400),
        ({"flavorRef": "FLAVOR", "imageRef": "not-a-uuid"}, 400),
        ({"flavorRef": {"id": "x"}, "imageRef": "IMAGE"}, 400),
    ],
    ids=["no-flavor", "no-image", "bad-image-ref", "bad-flavor-ref"],
)
def test_what_the_filter_cannot_judge_gets_novas_own_answer_never_a_500(
    cloud: Box, server: dict[str, Any], expected: int
) -> None:
    flavor = cloud.create_flavor(1, 1024, 1, {"hw:tpm_version": "2.0"})
    image = cloud.create_image({"hw_tpm_version": "1.2"})
    body = {"name": "odd", "networks": "none"}
    seeded = {"FLAVOR": flavor["id"], "IMAGE": image["id"]}
    for key, value in server.items():
        body[key] = seeded.get(value, value) if isinstance(value, str) else value
    answers = [
        cloud.call("POST", f"{url}/servers", {"server": body}, microversion="2.74")
        for url in (cloud.nova_plain, cloud.nova)
    ]
    assert [a.status for a in answers] == [expected, expected], answers
    assert message(answers[0]) == message(answers[1])


@pytest.mark.parametrize(
    "body", [b"{not json", b"[" * 5000 + b"]" * 5000], ids=["not-json", "deep"]
)
def test_a_body_that_is_no_json_gets_novas_own_answer(cloud: Box, body: bytes) -> None:
    """Nova's own answer, whatever it is: Nova 34 answers a body nested too deep for its JSON
    parser with a 500 of its own, filter or not."""
    answers = [cloud.call("POST", f"{url}/servers", body) for url in (cloud.nova_plain, cloud.nova)]
    assert answers[0].status == answers[1].status, answers
    assert answers[0].body == answers[1].body


def test_no_request_of_this_module_made_onespec_fail(cloud: Box) -> None:
    """Every failure inside onespec is logged with this line; none happened above."""
    assert "goes on to Nova unchecked" not in cloud.log_text("nova")


# --- onespec's extra-spec validators in Nova's place ---------------------------------------

#: Single extra specs, valid and not, that break no rule between keys on a 1-vCPU flavor.
WRITES = [
    ("hw:cpu_policy", "dedicated"),
    ("hw:cpu_policy", "dedicatd"),
    ("hw:cpu_pollicy", "dedicated"),
    ("hw:mem_page_size", "large"),
    ("hw:mem_page_size", "2MB"),
    ("hw:mem_page_size", "huge"),
    ("hw:watchdog_action", "reset"),
    ("hw:watchdog_action", "explode"),
    ("hw:numa_nodes", "0"),
    ("hw:numa_nodes", "1"),
    ("hw:cpu_realtime", "yes"),
    ("hw:boot_menu", "maybe"),
    ("quota:cpu_shares", "100"),
    ("quota:cpu_shares", "abc"),
    ("quota:disk_read_bytes_sec", "-1"),
    ("trait:HW_CPU_X86_AVX2", "required"),
    ("trait:HW_CPU_X86_AVX2", "requird"),
    ("resources:VGPU", "1"),
    ("resources:VGPU", "one"),
    ("hw_rng:allowed", "true"),
    ("hw_rng:allowed", "sometimes"),
    ("os:secure_boot", "disabled"),
    ("accel:device_profile", "gpu-profile"),
    ("foo:bar", "anything"),
    ("hw:video_ram", "0"),
]


@pytest.mark.parametrize("microversion", ["2.85", "2.86"])
@pytest.mark.parametrize(("key", "value"), WRITES, ids=[f"{k}={v}" for k, v in WRITES])
def test_onespecs_validators_answer_extra_spec_writes_as_novas_own(
    cloud: Box, microversion: str, key: str, value: str
) -> None:
    flavor = cloud.create_flavor(1, 1024, 1)
    path = f"/flavors/{flavor['id']}/os-extra_specs/{key}"
    answers = [
        cloud.call("PUT", url + path, {key: value}, microversion=microversion)
        for url in (cloud.nova_plain, cloud.nova)
    ]
    assert answers[0].status == answers[1].status, answers
    if microversion == "2.85":
        assert answers[0].status == 200
    elif answers[0].status == 400:
        # The texts are each validator's own: onespec's names the key and what was meant.
        for answer in answers:
            assert message(answer).startswith("Validation failed; ")
        assert key in message(answers[1])


def _image_reads(cloud: Box, image_id: str) -> int:
    """How many times Glance was asked for the image (its access log, one line a request)."""
    return cloud.log_text("glance").count(f"GET /plain/v2/images/{image_id} ")


def test_nova_reads_the_image_once_with_the_filter_as_without(cloud: Box) -> None:
    """The filter reads the image of a create first and Nova's own read takes it
    (share_image_reads): Glance is asked as often as without the filter."""
    flavor = cloud.create_flavor(1, 512, 1)
    alone, filtered = cloud.create_image(), cloud.create_image()
    assert cloud.boot(flavor["id"], alone["id"], cloud.nova_plain).status == 202
    assert cloud.boot(flavor["id"], filtered["id"], cloud.nova).status == 202
    assert _image_reads(cloud, alone["id"]) >= 1
    assert _image_reads(cloud, filtered["id"]) == _image_reads(cloud, alone["id"])
