"""The rules skipped before they are evaluated: a rule a needed name of which is absent (the
generated presence tests) is never broken. Checked by evaluating every rule with every name
taken as present, on the generated pairs of the differential test and on keys the rules spell
otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from onespec.generator.flavors.runtime import ALL_RULES, rule_needs
from onespec.validators_runtime._generated.flavor_rules import RULES, broken
from onespec.validators_runtime.flavor_parts.facts import View
from onespec.validators_runtime.flavor_parts.image_props import typed_properties
from onespec.validators_runtime.flavor_parts.inputs import read_flavor, read_image
from onespec.validators_runtime.flavors.whole_flavor import present_names
from tests.validators_runtime.flavors.test_against_nova import generated_cases


class Everything:
    """Every name, present."""

    def __contains__(self, name: object) -> bool:
        return True

    def isdisjoint(self, names: object) -> bool:
        return False


def _broken(case: dict[str, Any], *, skipping: bool) -> list[tuple[int, str]]:
    flavor, image = read_flavor(case["flavor"]), read_image(case["image"])
    props, _ = typed_properties(image.properties)
    view = View(flavor, image, props)
    if skipping:
        return broken(view, flavor.extra_specs, props, present_names(flavor, image, props))
    return broken(view, flavor.extra_specs, props, Everything())


@pytest.fixture(scope="module")
def cases() -> list[dict[str, Any]]:
    return generated_cases(3000)


@pytest.mark.slow  # three thousand generated pairs, each evaluated twice: seconds of its own
def test_skipping_rules_never_hides_a_broken_one(cases):
    differ = [
        case for case in cases if _broken(case, skipping=True) != _broken(case, skipping=False)
    ]
    assert differ == []
    # The cases reach most rules: the check is not vacuous.
    reached = {index for case in cases for index, _ in _broken(case, skipping=False)}
    assert len(reached) >= len(RULES) // 2


@pytest.mark.parametrize(
    ("flavor", "image"),
    [
        ({"hw:cpu_policy": "mixed", "resources1:PCPU": "2"}, {}),
        ({"hw:numa_nodes": "2", "hw:numa_cpus.0": "0", "hw:numa_mem.0": "512"}, {}),
        ({}, {"hw_numa_nodes": "2", "hw_numa_cpus.0": "0-1", "hw_numa_mem.0": "1024"}),
        ({"trait2:HW_CPU_HYPERTHREADING": "forbidden", "hw:cpu_thread_policy": "prefer"}, {}),
        ({"hw:cpu_thread_policy": "isolate"}, {"trait:HW_CPU_HYPERTHREADING": "required"}),
        ({"hw:mem_encryption": "true"}, {"hw_machine_type": "pc", "hw_firmware_type": "bios"}),
        ({}, {"hw_mem_encryption": "true", "hw_mem_encryption_model": "intel-tdx"}),
        ({"resources:PCPUX": "2", "hw:cpu_policy": "dedicated"}, {}),
        ({"hw:tpm_model": "tpm-crb"}, {"hw_tpm_version": "1.2"}),
    ],
)
def test_names_spelled_otherwise_still_wake_their_rules(flavor, image):
    """Numbered groups, per-node keys, traits in the image and near-miss CPU keys are present
    under the names the rules give them."""
    case = {"flavor": {"vcpus": 4, "ram": 2048, "extra_specs": flavor}, "image": image}
    full = _broken(case, skipping=False)
    assert full
    assert _broken(case, skipping=True) == full


def test_every_twin_clash_and_requirement_on_a_key_needs_something_present():
    """The analysis finds a needed name for the rules it should: those are what make skipping
    pay (a rule with none is evaluated whenever its bit is set)."""
    without = [rule.name for rule in ALL_RULES if not rule_needs(rule)]
    # The rules on the flavor's and the image's own fields (a disabled flavor, a root disk of
    # 0, the image's status and encryption key) read no key: each costs one test of a field.
    assert without == [
        "flavor-disabled",
        "image-from-encrypted-volume",
        "image-not-active",
        "zero-disk-needs-volume",
        "topology-limits-exclude-vcpus",
    ]


#: Keys written every way the rules read otherwise: numbered groups, near misses of the CPU
#: request, per-node lists, and keys that only look like them.
RESPELLED = [
    *(
        f"{stem}{number}:{rest}"
        for stem in ("resources", "trait", "resource", "traits")
        for number in ("", "1", "12", "0", "01", "_a")
        for rest in (
            "PCPU",
            "VCPU",
            "PCPUX",
            "VCPU_1",
            "HW_CPU_HYPERTHREADING",
            "HW_CPU_HYPERTHREADINGX",
            "CUSTOM_A",
            "HW_CPU_X86_AVX2",
        )
    ),
    *(
        f"{stem}{dot}{node}"
        for stem in ("hw:numa_cpus", "hw:numa_mem", "hw_numa_cpus", "hw_numa_mem", "hw:numa_nodes")
        for dot in (".", "")
        for node in ("0", "3", "12", "N", "", "x")
    ),
]


def test_every_key_spelled_otherwise_is_found():
    """A key whose name for the rules differs from itself is never skipped as plain."""
    from onespec.validators_runtime.flavors.whole_flavor import TRIGGER_NAMES, normalized_names

    checked = 0
    for key in RESPELLED:
        spelled = set(normalized_names(key)) & TRIGGER_NAMES
        if spelled - {key}:
            checked += 1
            flavor = read_flavor({"vcpus": 1, "ram": 1, "extra_specs": {key: "1"}})
            assert spelled <= present_names(flavor, None), key
            image = read_image({key: "1"})
            assert spelled <= present_names(flavor, image), key
    assert checked >= 20
