"""validate_flavor on the refusals the issue names, each with Nova's exception and phase."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from onespec.validators_runtime.cli import cli
from onespec.validators_runtime.flavors import InputError, validate_flavor


def refusals(specs, props=None, vcpus=4, ram=4096):
    flavor = {"vcpus": vcpus, "ram": ram, "disk": 10, "extra_specs": specs}
    image = None if props is None else {"properties": props}
    return {
        (f.nova_exception, f.phase) for f in validate_flavor(flavor, image) if f.severity == "error"
    }


@pytest.mark.parametrize(
    ("specs", "props", "vcpus", "expected"),
    [
        (
            {"hw:cpu_realtime": "yes", "hw:cpu_realtime_mask": "^0"},
            None,
            4,
            "RealtimeConfigurationInvalid",
        ),
        ({"hw:cpu_thread_policy": "isolate"}, None, 4, "CPUThreadPolicyConfigurationInvalid"),
        ({"hw:cpu_policy": "mixed"}, None, 4, "RequiredMixedOrRealtimeCPUMask"),
        (
            {"hw:cpu_policy": "mixed", "hw:cpu_dedicated_mask": "0-3"},
            None,
            4,
            "InvalidMixedInstanceDedicatedMask",
        ),
        ({"hw:numa_nodes": "2"}, None, 3, "ImageNUMATopologyAsymmetric"),
        (
            {"hw:numa_nodes": "2", "hw:numa_cpus.0": "0-1", "hw:numa_cpus.1": "2-3"},
            None,
            4,
            "ImageNUMATopologyIncomplete",
        ),
        ({"resources:PCPU": "4", "hw:cpu_policy": "dedicated"}, None, 4, "InvalidRequest"),
        # Nova's boot-time code finds these keys by prefix, numbered groups only.
        ({"resources2:PCPU": "4", "hw:cpu_policy": "dedicated"}, None, 4, "InvalidRequest"),
        (
            {"trait:HW_CPU_HYPERTHREADINGX": "required"},
            None,
            2,
            "CPUThreadPolicyConfigurationInvalid",
        ),
        (
            {"trait3:HW_CPU_HYPERTHREADING": "forbidden"},
            None,
            2,
            "CPUThreadPolicyConfigurationInvalid",
        ),
        ({"hw:locked_memory": "true"}, None, 4, "LockMemoryForbidden"),
        ({}, {"hw_mem_page_size": "large"}, 4, "MemoryPageSizeForbidden"),
        ({"hw:pmu": "true"}, {"hw_pmu": "false"}, 4, "FlavorImageConflict"),
        (
            {"hw:cpu_max_sockets": "1", "hw:cpu_max_cores": "1", "hw:cpu_max_threads": "2"},
            None,
            4,
            "ImageVCPULimitsRangeImpossible",
        ),
    ],
)
def test_each_refusal_names_nova_exception(specs, props, vcpus, expected):
    assert expected in {exception for exception, _ in refusals(specs, props, vcpus)}


def test_a_well_formed_pinned_flavor_is_accepted():
    specs = {"hw:cpu_policy": "dedicated", "hw:numa_nodes": "2", "hw:mem_page_size": "large"}
    assert refusals(specs, {"hw_mem_page_size": "2048"}) == set()


def test_every_finding_is_reported_at_once():
    found = refusals({"hw:cpu_thread_policy": "isolate", "hw:numa_nodes": "2"}, None, vcpus=3)
    assert {e for e, _ in found} >= {
        "CPUThreadPolicyConfigurationInvalid",
        "ImageNUMATopologyAsymmetric",
    }


def test_memory_encryption_without_image_is_a_warning_not_a_refusal():
    findings = validate_flavor(
        {"vcpus": 2, "ram": 2048, "extra_specs": {"hw:mem_encryption": "true"}}
    )
    assert [f.severity for f in findings if f.code == "mem-encryption-needs-uefi"] == ["warning"]


def test_what_only_the_image_can_give_is_a_warning_without_one_and_an_error_with_one():
    """UEFI firmware and stateless firmware are both asked of the image: alike, a warning for
    a flavor alone (any image that has them will do) and an error for an image without them."""
    flavor = {
        "vcpus": 2,
        "ram": 2048,
        "extra_specs": {"hw:mem_encryption": "true", "hw:mem_encryption_model": "amd-sev-snp"},
    }
    asked = ("mem-encryption-needs-uefi", "mem-encryption-needs-stateless-firmware")
    alone = {f.code: f.severity for f in validate_flavor(flavor) if f.code in asked}
    assert alone == dict.fromkeys(asked, "warning")
    paired = {f.code: f.severity for f in validate_flavor(flavor, {}) if f.code in asked}
    assert paired == dict.fromkeys(asked, "error")
    image = {"hw_firmware_type": "uefi", "hw_firmware_stateless": "true"}
    assert not [f for f in validate_flavor(flavor, image) if f.code in asked]


def test_a_flavor_without_vcpus_is_an_input_error():
    with pytest.raises(InputError, match="vcpus"):
        validate_flavor({"ram": 1024})


def test_the_command_line_reports_exception_and_phase(tmp_path):
    flavor = tmp_path / "flavor.json"
    flavor.write_text(
        json.dumps(
            {
                "flavor": {
                    "vcpus": 3,
                    "ram": 4096,
                    "disk": 1,
                    "extra_specs": {"hw:numa_nodes": "2"},
                }
            }
        )
    )
    result = CliRunner().invoke(cli, ["validate", "flavor", str(flavor), "--format", "json"])
    assert result.exit_code == 1
    findings = json.loads(result.stdout)["findings"]
    assert [(f["nova_exception"], f["phase"]) for f in findings] == [
        ("ImageNUMATopologyAsymmetric", "api")
    ]
    flavor.write_text(
        json.dumps(
            {"vcpus": 4, "ram": 4096, "disk": 10, "properties": {"hw:cpu_policy": "dedicated"}}
        )
    )
    assert CliRunner().invoke(cli, ["validate", "flavor", str(flavor)]).exit_code == 0


def warnings_of(specs, props=None):
    flavor = {"vcpus": 4, "ram": 4096, "disk": 10, "extra_specs": specs}
    image = None if props is None else {"properties": props}
    return [f for f in validate_flavor(flavor, image) if f.severity == "warning"]


@pytest.mark.parametrize(
    ("specs", "props", "code"),
    [
        ({"hw:cpu_realtime_mask": "^0"}, None, "realtime-mask-without-realtime"),
        ({"hw:tpm_model": "tpm-crb"}, None, "tpm-model-without-version"),
        ({"quota:cpu_quota": "10000"}, None, "cpu-quota-without-period"),
        (
            {"quota:disk_write_iops_sec": "100", "quota:disk_total_iops_sec": "200"},
            None,
            "disk-write-iops-with-total",
        ),
        (
            {"hw:ephemeral_encryption_format": "luks"},
            {},
            "ephemeral-encryption-format-without-encryption",
        ),
    ],
)
def test_a_key_that_counts_only_with_another_is_a_warning_nova_does_not_raise(specs, props, code):
    (finding,) = warnings_of(specs, props)
    assert finding.code == code
    assert (finding.nova_exception, finding.phase) == (None, None)
    assert set(finding.keys) <= set(specs)


@pytest.mark.parametrize(
    ("specs", "props"),
    [
        (
            {"hw:cpu_realtime_mask": "^0", "hw:cpu_realtime": "yes", "hw:cpu_policy": "dedicated"},
            None,
        ),
        ({"hw:tpm_model": "tpm-crb"}, {"hw_tpm_version": "2.0"}),
        ({"quota:cpu_quota": "10000", "quota:cpu_period": "20000"}, None),
        ({"hw:ephemeral_encryption_format": "luks"}, {"hw_ephemeral_encryption": "true"}),
    ],
)
def test_the_key_it_counts_with_silences_the_warning(specs, props):
    assert warnings_of(specs, props) == []


def test_every_flavor_size_is_read_and_checked_against_its_least_value():
    from onespec.definitions.flavor_rules import FLAVOR_FIELDS
    from onespec.validators_runtime.flavor_parts import inputs

    assert set(inputs._FLAVOR_FIELDS) == set(FLAVOR_FIELDS)
    assert {name for name, least in FLAVOR_FIELDS.items() if least > 0} == inputs._REQUIRED
    for name, least in FLAVOR_FIELDS.items():
        flavor = {"vcpus": 2, "ram": 2048, name: least - 1}
        found = [f for f in validate_flavor(flavor) if f.code == "invalid-flavor-field"]
        assert [f.keys for f in found] == [(name,)], name
        # As an admin: a root disk of 0 is otherwise refused by Nova's default policy.
        assert validate_flavor({"vcpus": 2, "ram": 2048, name: least}, as_admin=True) == []


def test_flavors_and_images_read_are_immutable_values():
    import dataclasses

    from onespec.validators_runtime.flavors import Flavor, Image, read_flavor, read_image

    flavor = read_flavor({"vcpus": 2, "ram": 512, "extra_specs": {"hw:pmu": "true"}})
    assert flavor == Flavor(2, 512, extra_specs={"hw:pmu": "true"})
    assert dataclasses.replace(flavor, vcpus=4).vcpus == 4
    assert Flavor(1, 1).extra_specs == {} and Image().properties == {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        flavor.vcpus = 3  # type: ignore[misc]
    image = read_image({"min_ram": "512", "properties": {"hw_pmu": "true"}, "os_distro": "x"})
    assert image == Image({"os_distro": "x", "hw_pmu": "true"}, min_ram=512)
    with pytest.raises(InputError, match=r"image\.size must be a whole number"):
        read_image({"size": "lots"})
    with pytest.raises(InputError, match=r"flavor\.ram is missing"):
        read_flavor({"vcpus": 1, "ram": ""})


def test_topology_limits_admit_exactly_the_counts_some_topology_has():
    from itertools import product

    from onespec.validators_runtime.flavor_parts.checks import topology, topology_admits

    def by_search(vcpus: int, limits: tuple[int, int, int]) -> bool:
        return any(
            s * c * t == vcpus
            for s, c, t in product(*(range(1, min(limit, vcpus) + 1) for limit in limits))
        )

    for vcpus in range(0, 13):
        for limits in product((-1, 0, 1, 2, 3, 4, 6, 12, 65536), repeat=3):
            admitted = by_search(vcpus, limits)
            assert topology_admits(vcpus, *limits) == admitted, (vcpus, limits)
            assert (topology(vcpus, *limits) is None) == admitted, (vcpus, limits)


def test_a_flavor_built_by_hand_with_a_key_that_is_not_text_is_reported_not_raised():
    from onespec.validators_runtime.flavors import Flavor

    found = validate_flavor(Flavor(2, 1024, 1, extra_specs={1: "x", "hw:cpu_policy": "mixed"}))
    assert {f.code for f in found} == {"invalid-key", "mixed-needs-a-mask"}
    # A number is read as its text, as Nova's API reads it; anything else only per key.
    found = validate_flavor(
        Flavor(4, 1024, 1, extra_specs={"hw:numa_nodes": 3, "hw:cpu_policy": ["dedicated"]})
    )
    assert {f.code for f in found} == {"invalid-value", "numa-nodes-split-unevenly"}
    # An integer too long to be a value is refused on its own, never turned into text.
    found = validate_flavor(Flavor(2, 1024, 1, extra_specs={"hw:numa_nodes": 10**5000}))
    assert [f.code for f in found] == ["invalid-value"]
