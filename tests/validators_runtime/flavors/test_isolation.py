"""Checking a flavor imports no tooling and none of the definitions but the vocabulary every
runtime module may read: the rules between keys and the image properties reach the runtime as
generated code and tables (``_generated/flavor_rules.py``, ``_generated/image_properties.py``)."""

from __future__ import annotations

from tests.validators_runtime.test_isolation import FORBIDDEN_ROOTS, VOCABULARY, imported_after


def test_validating_a_flavor_imports_only_the_vocabulary_and_the_runtime():
    modules = imported_after(
        "from onespec.validators_runtime.flavors import validate_flavor\n"
        "validate_flavor({'vcpus': 2, 'ram': 2048, 'extra_specs': {'hw:numa_nodes': '2'}},"
        " {'hw_pmu': 'true'})\n"
    )
    definitions = {m for m in modules if m.startswith("onespec.definitions.")}
    assert definitions <= VOCABULARY
    assert "onespec.validators_runtime._generated.flavor_rules" in modules
    assert not {m for m in modules if any(m == r or m.startswith(f"{r}.") for r in FORBIDDEN_ROOTS)}
