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
