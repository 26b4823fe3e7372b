"""The Nova drop-in's opt-in whole-flavor check, with and without Nova."""

from __future__ import annotations

import pytest

from onespec.validators_runtime import nova_validators
from onespec.validators_runtime.extra_specs import ExtraSpecValidationError

FLAVOR = {"vcpus": 3, "memory_mb": 4096, "root_gb": 10, "extra_specs": {"hw:numa_nodes": "2"}}


def test_a_refused_flavor_raises_naming_nova_exception_and_phase():
    with pytest.raises(ExtraSpecValidationError) as raised:
        nova_validators.validate_whole_flavor(FLAVOR)
    assert "ImageNUMATopologyAsymmetric, api" in str(raised.value)
    assert [f.nova_exception for f in raised.value.findings] == ["ImageNUMATopologyAsymmetric"]


def test_an_accepted_pair_returns_its_warnings():
    flavor = {**FLAVOR, "vcpus": 4, "extra_specs": {"hw:numa_nodes": "2"}}
    assert nova_validators.validate_whole_flavor(flavor, {"properties": {"hw_pmu": "true"}}) == []


# --- In Nova: Nova's Flavor objects, Nova's ValidationError -------------------------------------

#: Written from Nova's code: what server create, the scheduler or the host refuse, and a pair
#: that boots. Each runs through Nova's own checks beside the drop-in.
IN_NOVA = [
    {"flavor": {"vcpus": 3, "ram": 4096, "disk": 10, "extra_specs": {"hw:numa_nodes": "2"}}},
    {
        "flavor": {"vcpus": 4, "ram": 4096, "disk": 10, "extra_specs": {"hw:pmu": "true"}},
        "image": {"properties": {"hw_pmu": "false"}},
    },
    {
        "flavor": {"vcpus": 4, "ram": 4096, "disk": 10, "extra_specs": {"hw:tpm_version": "2.0"}},
        "image": {"properties": {"hw_tpm_version": "1.2"}},
    },
    {
        "flavor": {
            "vcpus": 4,
            "ram": 4096,
            "disk": 10,
            "extra_specs": {"hw:cpu_realtime": "yes", "hw:cpu_realtime_mask": "^0"},
        },
    },
    {
        "flavor": {"vcpus": 4, "ram": 4096, "disk": 10, "extra_specs": {"hw:cpu_policy": "mixed"}},
        "fields_set": ["vcpus", "memory_mb", "extra_specs"],
    },
    {
        "flavor": {
            "vcpus": 4,
            "ram": 4096,
            "disk": 10,
            "extra_specs": {"hw:cpu_policy": "dedicated", "hw:mem_page_size": "large"},
        },
        "image": {"properties": {"hw_pmu": "true", "hw_mem_page_size": "2048"}},
    },
]


def _first_refusals(nova_verdict):
    return {phase: name for phase, name in nova_verdict.items() if name is not None}


@pytest.mark.peers
def test_in_nova_the_drop_in_takes_novas_objects_and_raises_novas_error():
    from tests import peers

    results = peers.run_script(
        "nova",
        "nova_whole_flavor.py",
        str(peers.ROOT),
        stdin=[dict(c, image=c.get("image")) for c in IN_NOVA],
    )
    refused = 0
    for case, result in zip(IN_NOVA, results, strict=True):
        nova = _first_refusals(result["nova"])
        errors = {
            (f["phase"], f["nova_exception"])
            for f in result["findings"]
            if f["severity"] == "error"
        }
        if "fields_set" in case:  # Nova's own check needs every field; the drop-in reads the set
            assert result["raised"] == "nova.exception.ValidationError", result
            assert ("api", "RequiredMixedOrRealtimeCPUMask") in errors
            continue
        if not nova:
            assert result["raised"] is None, result
            assert errors == set()
            continue
        refused += 1
        assert result["raised"] == "nova.exception.ValidationError", result
        assert result["message"].startswith("Validation failed; ")
        assert set(nova.items()) <= errors, (case, nova, errors)
    assert refused == 4
