"""Checking a flavor imports no tooling: the rules are stdlib-only definitions."""

from __future__ import annotations

from tests.validators_runtime.test_isolation import FORBIDDEN_ROOTS, imported_after

#: The definitions the whole-flavor runtime reads, each standard library only.
RULE_MODULES = {
    "onespec.definitions.flavor_rules",
    "onespec.definitions.flavor_rule_catalogue",
    "onespec.definitions.image_properties",
    "onespec.definitions.model",
    "onespec.definitions.nova_shape",
    "onespec.definitions.entry_points",
}


def test_validating_a_flavor_imports_only_the_rules_and_the_runtime():
    modules = imported_after(
        "from onespec.validators_runtime.flavors import validate_flavor\n"
        "validate_flavor({'vcpus': 2, 'ram': 2048, 'extra_specs': {'hw:numa_nodes': '2'}},"
        " {'hw_pmu': 'true'})\n"
    )
    definitions = {m for m in modules if m.startswith("onespec.definitions.")}
    assert definitions <= RULE_MODULES
    assert not {m for m in modules if any(m == r or m.startswith(f"{r}.") for r in FORBIDDEN_ROOTS)}
