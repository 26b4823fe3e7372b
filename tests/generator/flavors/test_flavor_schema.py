"""The published whole-flavor JSON Schema refuses what the rules it carries refuse.

Each carried rule has a flavor it refuses and the same flavor fixed, written here by hand from
the rule's definition and Nova's code (never computed by the generator), checked with the
``jsonschema`` package against the committed files, and held to the runtime's verdict. Then
generated flavors hold the schema to the runtime: a flavor the schema refuses the runtime
refuses, and a flavor the schema accepts is refused by the runtime only for a rule the
schema's description says it does not carry.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referencing import Registry, Resource

from onespec.definitions.flavor_rule_catalogue import RULES
from onespec.definitions.flavor_rules import Present, Requires, Spec
from onespec.generator.flavors.flavor_schema import carried
from onespec.validators_runtime import resources
from onespec.validators_runtime.flavors import validate_flavor

SCHEMA = resources.schema("flavor.schema.json")
REGISTRY = Registry().with_resources(
    (document["$id"], Resource.from_contents(document))
    for document in (SCHEMA, resources.schema("flavor-extra-specs.schema.json"))
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA, registry=REGISTRY)


def flavor(vcpus: int = 4, **specs: str) -> dict[str, Any]:
    """A flavor in Nova's API shape; extra-spec keys are written with '__' for ':'."""
    return {
        "vcpus": vcpus,
        "ram": 4096,
        "disk": 10,
        "extra_specs": {key.replace("__", ":"): value for key, value in specs.items()},
    }


#: rule name -> (a flavor it refuses, the flavor fixed).
EXAMPLES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "cpu-resources-with-cpu-policy": (
        flavor(2, hw__cpu_policy="dedicated", resources__PCPU="2"),
        flavor(2, resources__PCPU="2"),
    ),
    "vcpu-and-pcpu-resources": (
        flavor(2, resources__VCPU="1", resources1__PCPU="1"),
        flavor(2, resources__VCPU="2"),
    ),
    "thread-policy-with-hyperthreading-trait": (
        flavor(
            hw__cpu_policy="dedicated",
            hw__cpu_thread_policy="isolate",
            trait__HW_CPU_HYPERTHREADING="forbidden",
        ),
        flavor(hw__cpu_policy="dedicated", trait__HW_CPU_HYPERTHREADING="forbidden"),
    ),
    "thread-policy-needs-pinning": (
        flavor(hw__cpu_thread_policy="prefer"),
        flavor(hw__cpu_policy="dedicated", hw__cpu_thread_policy="prefer"),
    ),
    "isolated-emulator-needs-pinning": (
        flavor(hw__emulator_threads_policy="isolate"),
        flavor(hw__cpu_policy="dedicated", hw__emulator_threads_policy="isolate"),
    ),
    "dedicated-mask-needs-mixed": (
        flavor(hw__cpu_policy="dedicated", hw__cpu_dedicated_mask="^0"),
        flavor(hw__cpu_policy="mixed", hw__cpu_dedicated_mask="^0"),
    ),
    "realtime-needs-pinning": (
        flavor(hw__cpu_realtime=" Yes ", hw__cpu_realtime_mask="^0"),
        flavor(hw__cpu_policy="dedicated", hw__cpu_realtime="yes", hw__cpu_realtime_mask="^0"),
    ),
    "mixed-with-two-masks": (
        flavor(
            hw__cpu_policy="mixed",
            hw__cpu_dedicated_mask="^0",
            hw__cpu_realtime="yes",
            hw__cpu_realtime_mask="^0",
        ),
        flavor(hw__cpu_policy="mixed", hw__cpu_realtime="yes", hw__cpu_realtime_mask="^0"),
    ),
    "mixed-needs-a-mask": (
        flavor(hw__cpu_policy="mixed"),
        flavor(hw__cpu_policy="mixed", hw__cpu_dedicated_mask="0"),
    ),
    "locked-memory-needs-page-size": (
        flavor(hw__locked_memory="true"),
        flavor(hw__locked_memory="true", hw__mem_page_size="large"),
    ),
    "tpm-crb-needs-version-2": (
        flavor(hw__tpm_version="1.2", hw__tpm_model="tpm-crb"),
        flavor(hw__tpm_version="2.0", hw__tpm_model="tpm-crb"),
    ),
}


def runtime_errors(document: dict[str, Any]) -> set[str]:
    return {f.code for f in validate_flavor(document) if f.severity == "error"}


def test_every_carried_rule_has_an_example():
    assert {rule["title"] for rule in carried().rules} == set(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_schema_refuses_what_the_rule_refuses_and_accepts_the_fix(name):
    refused, fixed = EXAMPLES[name]
    assert name in runtime_errors(refused)
    assert runtime_errors(fixed) == set()
    failed = [error for error in VALIDATOR.iter_errors(refused)]
    assert failed, f"the schema accepts {refused}"
    assert VALIDATOR.is_valid(fixed)
    # The openstack client's shape is held to the same rules.
    client = {
        "vcpus": refused["vcpus"],
        "ram": refused["ram"],
        "properties": refused["extra_specs"],
    }
    assert not VALIDATOR.is_valid(client)


def test_each_refusal_names_its_rule_and_nova_exception():
    for name, (refused, _) in EXAMPLES.items():
        failing = [
            rule
            for rule in SCHEMA["$defs"]["rules"]["allOf"]
            if not jsonschema.Draft202012Validator(rule).is_valid(refused["extra_specs"])
        ]
        assert [rule["title"] for rule in failing] == [name]
    rule = next(r for r in SCHEMA["$defs"]["rules"]["allOf"] if r["title"] == "mixed-needs-a-mask")
    assert rule["description"].endswith("(Nova: RequiredMixedOrRealtimeCPUMask, api phase)")


@pytest.mark.parametrize(
    "document",
    [
        flavor(hw__cpu_policy="dedicatd"),  # one key, refused on its own
        {"vcpus": 0, "ram": 1024},
        {"ram": 1024},
        {"vcpus": 2, "ram": 1024, "extra_specs": {"hw:cpu_pollicy": "dedicated"}},
    ],
)
def test_per_key_and_field_refusals(document):
    assert not VALIDATOR.is_valid(document)


def test_what_is_not_carried_is_said_and_accepted():
    # hw:numa_nodes=2 cannot split 3 vCPUs: Nova (and the runtime) refuse it; the schema
    # cannot divide, says so, and accepts it.
    document = flavor(3, hw__numa_nodes="2")
    assert "numa-nodes-split-unevenly" in runtime_errors(document)
    assert VALIDATOR.is_valid(document)
    assert (
        "numa-nodes-split-unevenly (a count must divide the vCPUs and the RAM)"
        in (SCHEMA["description"])
    )
    assert VALIDATOR.is_valid({"vcpus": 2, "ram": 2048, "swap": "", "extra_specs": {}})


def test_a_key_requiring_a_key_is_dependent_required():
    rule = Requires(
        "a-needs-b",
        "Invalid",
        "api",
        "Set hw:cpu_policy.",
        when=Present(Spec("hw:cpu_thread_policy")),
        needs=Present(Spec("hw:cpu_policy")),
    )
    found = carried((rule,))
    assert found.dependent_required == {"hw:cpu_thread_policy": ["hw:cpu_policy"]}
    assert found.rules == ()


def test_every_rule_is_sorted_once():
    found = carried()
    names = [r["title"] for r in found.rules] + list(found.not_carried) + list(found.need_an_image)
    assert sorted(names) == sorted(rule.name for rule in RULES)


_VALUES = {
    "hw:cpu_policy": ["dedicated", "shared", "mixed"],
    "hw:cpu_thread_policy": ["prefer", "isolate", "require"],
    "hw:emulator_threads_policy": ["isolate", "share"],
    "hw:cpu_realtime": ["yes", "no", "True"],
    "hw:cpu_realtime_mask": ["^0", "0-1", "^0-7"],
    "hw:cpu_dedicated_mask": ["^0", "0", "1-2"],
    "resources:PCPU": ["0", "2", "4"],
    "resources1:VCPU": ["0", "1"],
    "trait:HW_CPU_HYPERTHREADING": ["required", "forbidden"],
    "hw:locked_memory": ["true", "false"],
    "hw:mem_page_size": ["large", "2048"],
    "hw:tpm_version": ["1.2", "2.0"],
    "hw:tpm_model": ["tpm-tis", "tpm-crb"],
    "hw:mem_encryption": ["true", "no"],
    "hw:mem_encryption_model": ["amd-sev", "amd-sev-snp"],
}

NOT_CARRIED = set(carried().not_carried)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    vcpus=st.integers(1, 4),
    specs=st.dictionaries(
        st.sampled_from(sorted(_VALUES)), st.integers(0, 2), min_size=1, max_size=6
    ),
)
def test_generated_flavors_schema_and_runtime_agree(vcpus, specs):
    extra = {key: _VALUES[key][pick % len(_VALUES[key])] for key, pick in specs.items()}
    document = {"vcpus": vcpus, "ram": 4096, "extra_specs": extra}
    errors = runtime_errors(document)
    if VALIDATOR.is_valid(document):
        assert errors <= NOT_CARRIED, (extra, errors - NOT_CARRIED)
    else:
        assert errors, f"the schema refuses {document}, which the runtime accepts"


def _patterns(node):
    """Every regular expression of a schema: pattern values and patternProperties keys."""
    if isinstance(node, dict):
        found = [node["pattern"]] if isinstance(node.get("pattern"), str) else []
        found += list(node.get("patternProperties", {}))
        return found + [p for child in node.values() for p in _patterns(child)]
    if isinstance(node, list):
        return [p for child in node for p in _patterns(child)]
    return []


def test_every_pattern_means_the_same_in_ecma_262():
    import re

    from tests.generator.extra_specs.test_schema import ecma_results

    strings = [
        *{value for specs in _VALUES.values() for value in specs},
        *{key for key in _VALUES},
        "resources12:PCPU",
        "resources0:PCPU",
        "resources:PCPU\n",
        "trait3:HW_CPU_HYPERTHREADING",
        " YES ",
        "yes\n",
        "0_0",
        "-0",
        "+1",
        "1\u2028",
    ]
    pairs = [(pattern, strings) for pattern in sorted(set(_patterns(SCHEMA)))]
    assert len(pairs) >= 6
    for (pattern, tried), ecma in zip(pairs, ecma_results(pairs)["u"], strict=True):
        python = [re.search(pattern, s) is not None for s in tried]
        assert python == ecma, pattern


def test_what_a_flavor_asks_of_its_image_is_not_refused_by_the_schema():
    """A rule whose need only the image can meet is a warning for a flavor alone, so the
    whole-flavor schema does not refuse it (it names it among the rules it leaves out)."""
    titles = {rule["title"] for rule in carried().rules}
    assert "mem-encryption-needs-stateless-firmware" not in titles
    assert "mem-encryption-needs-uefi" not in titles
