"""Pairs Nova's server create refuses for the flavor's and the image's own state, for values
its boot-time code reads more strictly than its API takes them, and for its order: each with
the exception Nova's documentation and code name for it, judged by Nova 34.0.0's own functions
(``tests/peers/nova_flavor_checks.py``, in ``API._create_instance``'s order) and by onespec,
whose first finding of the phase must be that exception."""

from __future__ import annotations

from typing import Any

import pytest

from onespec.validators_runtime.flavors import validate_flavor
from tests import peers
from tests.validators_runtime.flavors.test_against_nova import assert_agree

KEY = "0b3fe6a4-8c29-4a6e-9f06-2f3c0c6e7d11"


def pair(
    specs: dict[str, str] | None = None,
    properties: dict[str, str] | None = None,
    *,
    vcpus: int = 2,
    ram: int = 1024,
    disk: int = 1,
    disabled: bool = False,
    status: str = "active",
    min_ram: int = 0,
    as_admin: bool = False,
) -> dict[str, Any]:
    return {
        "flavor": {
            "vcpus": vcpus,
            "ram": ram,
            "disk": disk,
            "extra_specs": specs or {},
            "OS-FLV-DISABLED:disabled": disabled,
        },
        "image": {"status": status, "properties": properties or {}, "min_ram": min_ram},
        "as_admin": as_admin,
    }


#: (what, pair, phase, the exception Nova raises there, or None where it accepts).
CASES: list[tuple[str, dict[str, Any], str, str | None]] = [
    *(
        (f"status {status}", pair(status=status), "api", "ImageNotActive")
        for status in (
            "queued",
            "saving",
            "deactivated",
            "importing",
            "uploading",
            "killed",
            "pending_delete",
        )
    ),
    ("active image", pair(), "api", None),
    (
        "from an encrypted volume",
        pair(properties={"cinder_encryption_key_id": KEY}),
        "api",
        "ImageUnacceptable",
    ),
    ("disabled flavor", pair(disabled=True), "api", "FlavorNotFound"),
    (
        "disabled flavor, unreadable image",
        pair(properties={"architecture": "x86-64"}, disabled=True),
        "api",
        "FlavorNotFound",
    ),
    *(
        (f"{name}={value}", pair(properties={name: value}), "api", "InvalidRequest")
        for name, value in (
            ("architecture", "x86-64"),
            ("architecture", "arm64"),
            ("hypervisor_type", "foo"),
            ("vm_mode", "foo"),
        )
    ),
    *(
        (f"{name}={value}", pair(properties={name: value}), "api", None)
        for name, value in (
            ("architecture", "AMD64"),
            ("vm_mode", "PV"),
            ("hw_architecture", "i386"),
            ("hw_vif_model", "VirtIO"),
            ("os_type", "Windows"),
        )
    ),
    *(
        (f"hw:numa_nodes={value!r}", pair({"hw:numa_nodes": value}), "api", expected)
        for value, expected in (
            ("02", "InvalidNUMANodesNumber"),
            (" 2", "InvalidNUMANodesNumber"),
            ("\u0663", "InvalidNUMANodesNumber"),
            ("\uff12", "InvalidNUMANodesNumber"),
            ("2", None),
        )
    ),
    *(
        (f"hw_numa_nodes={value}", pair(properties={"hw_numa_nodes": value}), "api", expected)
        for value, expected in (("0", "InvalidNUMANodesNumber"), ("-1", "InvalidNUMANodesNumber"))
    ),
    ("hw:mem_page_size=1G", pair({"hw:mem_page_size": "1G"}), "api", "MemoryPageSizeInvalid"),
    ("hw:mem_page_size=1GB", pair({"hw:mem_page_size": "1GB"}), "api", None),
    (
        "any with the image's foo",
        pair({"hw:mem_page_size": "any"}, {"hw_mem_page_size": "foo"}),
        "api",
        "MemoryPageSizeInvalid",
    ),
    (
        "video RAM without a limit",
        pair(properties={"hw_video_ram": "64"}),
        "spawn",
        "RequestedVRamTooHigh",
    ),
    (
        "video RAM above the limit",
        pair({"hw_video:ram_max_mb": "32"}, {"hw_video_ram": "64"}),
        "spawn",
        "RequestedVRamTooHigh",
    ),
    (
        "video RAM within the limit",
        pair({"hw_video:ram_max_mb": "64"}, {"hw_video_ram": "64"}),
        "spawn",
        None,
    ),
    (
        "video RAM before the USB model (the driver's guest config order)",
        pair(
            {"hw:usb_model": "none", "hw_video:ram_max_mb": "8"},
            {"hw_usb_model": "qemu-xhci", "hw_video_ram": "16"},
        ),
        "spawn",
        "RequestedVRamTooHigh",
    ),
    (
        "video RAM before redirected USB ports",
        pair(
            {"hw:redirected_usb_ports": "2"}, {"hw_redirected_usb_ports": "2", "hw_video_ram": "1"}
        ),
        "spawn",
        "RequestedVRamTooHigh",
    ),
    (
        "the CPU topology before video RAM",
        pair(
            {"hw:cpu_max_sockets": "1", "hw:cpu_max_cores": "1", "hw:cpu_max_threads": "1"},
            {"hw_video_ram": "16"},
        ),
        "spawn",
        "ImageVCPULimitsRangeImpossible",
    ),
    (
        "NUMA constraints before the image's min_ram",
        pair(
            {"hw:numa_nodes": "2", "hw:cpu_thread_policy": "isolate"},
            vcpus=3,
            ram=1024,
            min_ram=2048,
        ),
        "api",
        "CPUThreadPolicyConfigurationInvalid",
    ),
    ("root disk 0, a member", pair(disk=0), "api", "BootFromVolumeRequiredForZeroDiskFlavor"),
    ("root disk 0, an admin", pair(disk=0, as_admin=True), "api", None),
]


def first_of_phase(case: dict[str, Any], phase: str) -> str | None:
    found = validate_flavor(case["flavor"], case["image"], as_admin=case["as_admin"])
    errors = [f.nova_exception for f in found if f.severity == "error" and f.phase == phase]
    return errors[0] if errors else None


@pytest.fixture(scope="module")
def nova_verdicts() -> list[dict[str, str | None]]:
    return peers.run_script("nova", "nova_flavor_checks.py", stdin=[c for _, c, _, _ in CASES])


@pytest.mark.parametrize("index", range(len(CASES)), ids=[what for what, *_ in CASES])
def test_nova_and_onespec_refuse_it_first_with_the_same_exception(index, nova_verdicts):
    _, case, phase, expected = CASES[index]
    assert nova_verdicts[index][phase] == expected
    assert first_of_phase(case, phase) == expected


def test_a_page_size_int_cannot_read_crashes_nova_and_is_refused_here():
    """``²`` passes Nova's ``isdigit()`` and fails its ``int()``: a ValueError (HTTP 500)."""
    case = pair({"hw:mem_page_size": "any"}, {"hw_mem_page_size": "\u00b2"})
    (verdict,) = peers.run_script("nova", "nova_flavor_checks.py", stdin=[case])
    assert verdict["api"] == "ValueError"
    assert first_of_phase(case, "api") == "MemoryPageSizeInvalid"
    # The differential test's own judgement lists it as a deliberate difference.
    assert_agree([case], "create-order", [verdict])


def test_a_key_spelt_for_the_other_side_is_a_warning_naming_the_right_one():
    found = validate_flavor(
        {"vcpus": 1, "ram": 512, "disk": 1, "extra_specs": {"hw_cpu_policy": "dedicated"}},
        {"properties": {"hw:cpu_policy": "dedicated"}},
    )
    shown = {(f.code, f.severity, f.suggestion) for f in found}
    assert shown == {
        ("image-property-as-extra-spec", "warning", "hw:cpu_policy"),
        ("extra-spec-as-image-property", "warning", "hw_cpu_policy"),
    }


def test_the_flavor_and_image_state_are_read_from_the_clients_json():
    """``openstack flavor show -f json`` and ``openstack image show -f json`` spell them so."""
    flavor = {"name": "m1", "vcpus": 1, "ram": 512, "disk": 1, "OS-FLV-DISABLED:disabled": True}
    image = {"name": "i", "status": "deactivated", "properties": {"cinder_encryption_key_id": KEY}}
    codes = [f.code for f in validate_flavor(flavor, image)]
    assert codes == ["flavor-disabled", "image-from-encrypted-volume", "image-not-active"]
