"""The in-tree catalogue against Nova's own validators, as Nova's code loads them.

Nova runs in a virtual environment of its own (``make peers``); a small script there dumps every
validator Nova registers, and each of onespec's definitions is compared with it.
"""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import os_resource_classes
import os_traits
import pytest

from onespec.definitions import extra_specs as catalogue
from onespec.definitions import registry
from onespec.definitions.entry_points import ENTRY_POINT_GROUP
from onespec.definitions.model import ExtraSpec, Namespace, Value
from tests import peers

#: Nova's module for each namespace, where its file name is not the namespace.
NOVA_MODULE_NAMESPACES = {"null.py": "", "traits.py": "trait"}

#: Definitions Nova's code reads but its validators never registered (nova_differences.py).
ONLY_IN_ONESPEC = {"hw:maxphysaddr_mode", "hw:maxphysaddr_bits"}

#: Nova's value patterns that backtrack exponentially, and the catalogue's linear-time
#: rewrites of them; each pair is proven to accept the same strings in
#: ``test_linear_rewrites_accept_exactly_what_nova_accepts``.
LINEAR_REWRITES = {
    r"\^?\d+((-\d+)?(,\^?\d+(-\d+)?)?)*": r"\^?\d+(?:-\d+|,\^?\d+)*",
    r"(\^)?\d+((-\d+)?(,\^?\d+(-\d+)?)?)*": r"\^?\d+(?:-\d+|,\^?\d+)*",
    r"([a-zA-Z0-9_]+(,)?)+": r"[a-zA-Z0-9_]+(?:,[a-zA-Z0-9_]+)*,?",
    r"[^:]+:\d+(?:\s*,\s*[^:]+:\d+)*": r"[^:]+:\d+(?:\s*,[^:]+:\d+)*",
}


def normalise(name: str) -> str:
    """``hw:numa_cpus.{num}`` and ``hw:numa_cpus.{id}`` both become ``hw:numa_cpus.{}``."""
    return re.sub(r"\{[^{}]*\}", "{}", name)


SPECS = registry.in_tree()
BY_NAME = {spec.name: spec for spec in SPECS}
BY_NORMALISED = {normalise(spec.name): spec for spec in SPECS}


@pytest.fixture(scope="session")
def nova() -> dict[str, dict]:
    """Every validator Nova 34.0.0 registers, by normalised name."""
    dump = peers.run_script("nova", "nova_extra_specs.py", "dump")
    return {normalise(entry["name"]): entry for entry in dump["validators"]}


def test_nova_registers_the_expected_number_of_validators(nova):
    assert len(nova) == 525
    assert {entry["type"] for entry in nova.values()} == {"int", "str", "bool"}


def test_every_nova_validator_has_a_definition(nova):
    assert sorted(set(nova) - set(BY_NORMALISED)) == []


def test_only_the_keys_nova_forgot_are_not_in_nova(nova):
    assert {spec.name for spec in SPECS if normalise(spec.name) not in nova} == ONLY_IN_ONESPEC


# --- Every definition, as Nova defines it ------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS, ids=[spec.name for spec in SPECS])
def test_catalogue_matches_nova(spec, nova):
    entry = nova.get(normalise(spec.name))
    if entry is None:
        assert spec.name in ONLY_IN_ONESPEC
        return
    assert spec.value.type.__name__ == entry["type"]

    assert spec.value.min == entry["min"]
    assert spec.value.max == entry["max"]

    expected_enum = entry["enum"] or []
    assert sorted(spec.value.enum_values) == sorted(expected_enum)

    expected_pattern = entry["pattern"]
    assert spec.value.pattern == LINEAR_REWRITES.get(expected_pattern, expected_pattern)
    assert spec.deprecated == entry["deprecated"]

    assert len(spec.parameters) == len(entry["parameters"])
    module = entry["module"]
    assert spec.namespace == NOVA_MODULE_NAMESPACES.get(module, module.removesuffix(".py"))


def test_normalised_catalogue_names_are_unique():
    assert len(BY_NORMALISED) == len(SPECS)


def test_catalogue_defines_the_keys_nova_forgot():
    mode = BY_NAME["hw:maxphysaddr_mode"]
    bits = BY_NAME["hw:maxphysaddr_bits"]
    assert mode.namespace == bits.namespace == "hw"
    assert mode.value.type is str
    assert set(mode.value.enum_values) == {"passthrough", "emulate"}
    assert bits.value.type is int
    assert bits.value.min == 1
    assert not mode.deprecated
    assert not bits.deprecated


# --- Placement: traits and resource classes follow their libraries -----------------------------


def _in_namespace(namespace: str) -> list[str]:
    return [spec.name for spec in SPECS if spec.namespace == namespace]


def test_trait_namespace_has_one_spec_per_standard_trait_plus_custom():
    names = _in_namespace("trait")
    expected = {f"trait{{group}}:{trait}" for trait in os_traits.get_traits()}
    expected.add("trait{group}:CUSTOM_{trait}")
    assert len(names) == len(set(names))
    assert set(names) == expected


def test_resources_namespace_has_one_spec_per_standard_class_plus_custom():
    names = _in_namespace("resources")
    expected = {f"resources{{group}}:{rc}" for rc in os_resource_classes.STANDARDS}
    expected.add("resources{group}:CUSTOM_{resource}")
    assert len(names) == len(set(names))
    assert set(names) == expected


# --- Internal consistency ----------------------------------------------------------------------


def test_names_are_unique():
    names = [spec.name for spec in catalogue.extra_specs()]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    assert duplicates == []


def test_registry_in_tree_is_the_catalogue():
    assert registry.in_tree() == catalogue.extra_specs()
    assert all(isinstance(spec, ExtraSpec) for spec in SPECS)


@pytest.mark.parametrize("module", catalogue.modules(), ids=catalogue.MODULES)
def test_every_module_documents_its_namespace(module):
    namespace = module.NAMESPACE
    assert isinstance(namespace, Namespace)
    assert namespace.title.strip()
    assert namespace.description.strip()
    assert isinstance(module.EXTRA_SPECS, tuple)
    assert any(spec.namespace == namespace.name for spec in module.EXTRA_SPECS)


def test_every_catalogue_module_is_listed():
    package = Path(catalogue.__file__).parent
    files = {path.stem for path in package.glob("*.py") if not path.stem.startswith("_")}
    assert files == set(catalogue.MODULES)


def test_namespace_names_are_unique_and_cover_every_spec():
    names = [namespace.name for namespace in catalogue.namespaces()]
    assert len(names) == len(set(names))
    assert {spec.namespace for spec in SPECS} <= set(names)


@pytest.mark.parametrize("spec", SPECS, ids=[spec.name for spec in SPECS])
def test_every_spec_is_described(spec):
    assert spec.description.strip()


HAND_WRITTEN = [spec for spec in SPECS if spec.namespace not in {"trait", "resources"}]


@pytest.mark.parametrize(
    "spec",
    [spec for spec in HAND_WRITTEN if spec.value.enum],
    ids=[spec.name for spec in HAND_WRITTEN if spec.value.enum],
)
def test_every_enum_member_is_described(spec):
    undescribed = [member.value for member in spec.value.enum if not member.description.strip()]
    assert undescribed == []


def test_every_extra_spec_a_rule_between_keys_reads_is_defined():
    """The rules between keys (refusals and warnings) are the one home of "a key requires or
    conflicts with another"; each extra spec they name exists."""
    from onespec.definitions.flavor_rule_catalogue import RULES, WARNINGS
    from onespec.definitions.flavor_rule_queries import names_read

    defined = {name.replace(".{id}", ".N") for name in BY_NAME}
    named = {name for rule in (*RULES, *WARNINGS) for name in names_read(rule) if ":" in name}
    # resources:PCPU and trait:... stand for numbered groups of patterned definitions.
    grouped = {name for name in named if name.startswith(("resources:", "trait:"))}
    assert named - grouped - defined == set()
    assert grouped


def test_extra_specs_carry_no_relations_of_their_own():
    with pytest.raises(TypeError):
        ExtraSpec(name="hw:x", description="x", value=Value(str), requires=("hw:y",))  # type: ignore[call-arg]


def test_every_string_pattern_has_a_hint():
    unhinted = [
        spec.name
        for spec in SPECS
        if spec.value.pattern is not None and not (spec.value.pattern_hint or "").strip()
    ]
    assert unhinted == []
    assert any(spec.value.pattern for spec in SPECS)


def test_hide_hypervisor_id_is_deprecated_in_favour_of_the_namespaced_key():
    old = BY_NAME["hide_hypervisor_id"]
    assert old.deprecated
    assert old.status.replacement == "hw:hide_hypervisor_id"
    new = BY_NAME[old.status.replacement]
    assert not new.deprecated
    assert new.value.type is old.value.type is bool


def test_only_hide_hypervisor_id_is_deprecated():
    assert [spec.name for spec in SPECS if spec.deprecated] == ["hide_hypervisor_id"]


def test_every_deprecated_replacement_exists():
    missing = [
        (spec.name, spec.status.replacement)
        for spec in SPECS
        if spec.status.replacement and spec.status.replacement not in BY_NAME
    ]
    assert missing == []


# --- The registry without plugins --------------------------------------------------------------


def test_build_without_plugins_returns_the_in_tree_catalogue():
    assert list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)) == [], (
        "this test expects no out-of-tree plugins to be installed"
    )
    built = registry.build()
    assert built.definitions == registry.in_tree()
    assert built.in_tree == registry.in_tree()
    assert registry.IN_TREE == "the in-tree catalogue"
    assert built.sources == {spec.name: "the in-tree catalogue" for spec in SPECS}
    assert built.problems == ()
    assert built.plugins == ()
    assert built.namespaces == catalogue.namespaces()
    assert built.by_namespace("hw") == tuple(s for s in SPECS if s.namespace == "hw")


def test_build_of_an_empty_group_matches_the_default():
    built = registry.build("onespec.tests.no-such-group")
    assert built.definitions == registry.build().definitions
    assert built.problems == ()


# Alphabets that exercise every construct of each rewritten pattern.
_REWRITE_ALPHABETS = {
    r"\^?\d+(?:-\d+|,\^?\d+)*": "01-,^",
    r"[a-zA-Z0-9_]+(?:,[a-zA-Z0-9_]+)*,?": "a_1,-",
    r"[^:]+:\d+(?:\s*,[^:]+:\d+)*": "a1:, ",
}


@pytest.mark.parametrize("nova, ours", sorted(LINEAR_REWRITES.items()))
def test_linear_rewrites_accept_exactly_what_nova_accepts(nova, ours):
    import itertools

    alphabet = _REWRITE_ALPHABETS[ours]
    theirs, mine = re.compile(nova), re.compile(ours)
    for length in range(8):
        for letters in itertools.product(alphabet, repeat=length):
            text = "".join(letters)
            assert bool(theirs.fullmatch(text)) == bool(mine.fullmatch(text)), repr(text)


@pytest.mark.parametrize(
    "key, unit, tail",
    [
        ("hw:cpu_realtime_mask", "0-0,", "x"),
        ("hw:cpu_dedicated_mask", "0-0,", "x"),
        ("hw:numa_cpus.0", "1-1,", "x"),
        ("hw:pmem", "a", "!"),
        ("pci_passthrough:alias", "a:1 , ", ""),
    ],
)
def test_adversarial_values_are_rejected_promptly(key, unit, tail):
    """Each of these takes hours, or forever, with Nova's patterns; here, milliseconds.

    The bound is on the work done -- the CPU time this process spends -- not on the wall
    clock, so a loaded machine does not fail it; the timing targets are in ``make bench``.
    """
    import time

    from onespec.validators_runtime.extra_specs import ExtraSpecValidationError, compile_registry

    registry = compile_registry(SPECS)
    spec = next(s for s in SPECS if s.name == registry.lookup(key))
    started = time.process_time()
    short = unit * ((250 - len(tail)) // len(unit)) + tail
    with pytest.raises(ExtraSpecValidationError):
        registry.validate({key: short})
    assert re.fullmatch(spec.value.pattern, unit * 5000 + tail) is None
    assert time.process_time() - started < 2.0
