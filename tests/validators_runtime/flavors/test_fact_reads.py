"""Each fact lists the flavor sizes it depends on (``FactDefinition.reads``): what the service
leaves to a check that knows the sizes, and what findings name, follow from those lists.

A fact's value is computed on flavors that differ in one size only; where the value differs,
the size must be among the fact's reads."""

from __future__ import annotations

import pytest

from onespec.definitions.flavor_facts import FACTS
from onespec.definitions.flavor_rules import FLAVOR_FIELDS
from onespec.validators_runtime.flavor_parts.facts import View
from onespec.validators_runtime.flavor_parts.inputs import read_flavor

#: Extra specs under which facts read from masks, counts and per-node lists take values that
#: can depend on the sizes.
SPECS = (
    {},
    {"hw:cpu_realtime": "yes"},
    {"hw:cpu_realtime": "yes", "hw:cpu_realtime_mask": "^0"},
    {"hw:cpu_realtime": "yes", "hw:cpu_realtime_mask": "0-1"},
    {"hw:cpu_policy": "mixed", "hw:cpu_dedicated_mask": "^0"},
    {"hw:cpu_dedicated_mask": "^0-1"},
    {"hw:emulator_threads_policy": "isolate", "resources:PCPU": "4"},
    {"hw:numa_nodes": "2", "hw:numa_cpus.0": "0", "hw:numa_mem.0": "512"},
    {"hw:cpu_max_sockets": "2", "hw:mem_page_size": "large"},
)

#: Two values of each size, the first the base flavor's.
SIZES = {
    "vcpus": (2, 4),
    "ram": (1024, 2048),
    "disk": (1, 10),
    "swap": (0, 512),
    "ephemeral": (0, 5),
}


def _value(fact: str, specs: dict[str, str], **sizes: int) -> object:
    flavor = read_flavor({**{k: v[0] for k, v in SIZES.items()}, **sizes, "extra_specs": specs})
    return getattr(View(flavor, None, {}), fact)


def test_every_flavor_size_is_varied():
    assert set(SIZES) == set(FLAVOR_FIELDS)


@pytest.mark.parametrize("fact", FACTS, ids=lambda fact: fact.name)
def test_a_fact_that_changes_with_a_size_reads_it(fact):
    depends = {
        size
        for size, (_, other) in SIZES.items()
        for specs in SPECS
        if _value(fact.name, specs) != _value(fact.name, specs, **{size: other})
    }
    assert depends <= set(fact.reads), f"{fact.name} depends on {sorted(depends)}"


def test_the_masks_read_the_vcpus():
    """A mask written ``^N`` excludes from every vCPU, so its vCPUs follow the flavor's."""
    by_name = {fact.name: fact for fact in FACTS}
    assert "vcpus" in by_name["realtime_cpus"].reads
    assert "vcpus" in by_name["dedicated_cpus"].reads


@pytest.mark.parametrize("fact", FACTS, ids=lambda fact: fact.name)
def test_a_facts_blank_value_is_its_value_without_its_keys(fact):
    """The generated rules skip a rule whose condition on a fact cannot hold on the fact's
    ``blank`` value unless one of its keys is present: that value must be the real one."""
    from onespec.definitions.flavor_rules import Blank
    from onespec.validators_runtime.flavor_parts.inputs import read_image

    values = [
        getattr(View(read_flavor({"vcpus": vcpus, "ram": ram}), image, {}), fact.name)
        for vcpus in (1, 2, 4, 7)
        for ram in (512, 4096)
        for image in (None, read_image({}))
    ]
    if fact.blank is Blank.FROM_SIZES:
        assert len({repr(value) for value in values}) > 1
    else:
        assert values == [fact.blank] * len(values)
