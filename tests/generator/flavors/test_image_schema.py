"""The image-properties JSON Schema gives the verdicts of validate_image_properties."""

from __future__ import annotations

import jsonschema
import pytest

from onespec.generator.flavors.schema import image_properties_schema
from onespec.validators_runtime.flavors import validate_image_properties

CASES = [
    {"hw_cpu_policy": "dedicated", "hw_pmu": "yes", "hw_numa_nodes": "2", "hw_numa_cpus.0": "0-1"},
    {"hw_cpu_policy": "dedicatd"},
    {"hw_numa_nodes": "two"},
    {"hw_tpm_version": "2.0", "os_secure_boot": "required", "anything_else": "kept"},
    {"hw_ephemeral_encryption_secret_uuid": "not-a-uuid"},
]


@pytest.mark.parametrize("properties", CASES)
def test_schema_and_runtime_agree(properties):
    validator = jsonschema.Draft202012Validator(image_properties_schema())
    schema_ok = validator.is_valid(properties)
    runtime_ok = not [f for f in validate_image_properties(properties) if f.severity == "error"]
    assert schema_ok == runtime_ok
