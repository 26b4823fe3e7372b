"""Checking a flavor imports no tooling: the rules are stdlib-only definitions."""

from __future__ import annotations

from tests.validators_runtime.test_isolation import FORBIDDEN_ROOTS, VOCABULARY, imported_after

#: The definitions the whole-flavor runtime reads, each standard library only: the rules and
#: image properties, and the vocabulary every runtime module may import.
RULE_MODULES = {
    "onespec.definitions.flavor_rules",
    "onespec.definitions.flavor_rule_catalogue",
    "onespec.definitions.image_properties",
    *VOCABULARY,
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
