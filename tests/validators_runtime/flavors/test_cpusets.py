"""CPU sets kept as ranges: the same answers as the sets of numbers they stand for, at the cost
of the text that writes them (2.4 KB of ``hw:numa_cpus.N`` once took 9.5 s and 1.1 GB)."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onespec.validators_runtime.flavor_parts.cpusets import (
    CpuSet,
    CpuSpecError,
    parse_cpu_spec,
    vcpu_mask,
)
from onespec.validators_runtime.flavors import validate_flavor

_PART = st.one_of(
    st.integers(0, 40).map(str),
    st.tuples(st.integers(0, 40), st.integers(0, 40)).map(lambda pair: f"{min(pair)}-{max(pair)}"),
)
SPECS = st.lists(st.tuples(st.booleans(), _PART), max_size=8).map(
    lambda parts: ",".join(("^" if excluded else "") + part for excluded, part in parts)
)


def expanded(spec: str) -> set[int]:
    """What a CPU set means, one number at a time (how it used to be computed)."""
    included: set[int] = set()
    excluded: set[int] = set()
    for part in spec.split(","):
        if not part.strip():
            continue
        target = excluded if part.startswith("^") else included
        first, _, last = part.lstrip("^").partition("-")
        target.update(range(int(first), int(last or first) + 1))
    return included - excluded


@given(SPECS, SPECS)
def test_ranges_answer_as_the_numbers_do(first, second):
    a, b = parse_cpu_spec(first), parse_cpu_spec(second)
    x, y = expanded(first), expanded(second)
    assert a == x and x == a and set(a) == x and len(a) == len(x) and bool(a) == bool(x)
    assert (a | b) == (x | y) and (a & b) == (x & y) and (a - b) == (x - y)
    assert CpuSet.union(a, b, y) == x | y
    assert all((cpu in a) == (cpu in x) for cpu in range(-1, 43))
    assert a.first(3) == sorted(x)[:3]


@given(SPECS, st.integers(0, 45))
def test_a_mask_over_the_vcpus_answers_as_the_numbers_do(mask, vcpus):
    if mask.strip().startswith("^"):
        if vcpus == 0:
            with pytest.raises(CpuSpecError):
                vcpu_mask(mask, vcpus)
            return
        assert vcpu_mask(mask, vcpus) == expanded(f"0-{vcpus - 1},{mask}")
    else:
        assert vcpu_mask(mask, vcpus) == expanded(mask)


def test_a_backwards_range_and_a_word_are_refused():
    with pytest.raises(CpuSpecError, match="runs backwards"):
        parse_cpu_spec("4-2")
    with pytest.raises(CpuSpecError, match="is not a CPU number"):
        parse_cpu_spec("0-x")


def test_huge_ranges_cost_what_their_text_costs():
    """64 KB of CPU lists, every range as wide as a per-key check lets through: the whole
    check stays within a few megabytes (it held a gigabyte when the ranges were expanded)."""
    wide = ",".join(["0-65535"] * 500)  # 4 KB a node, 16 nodes: 64 KB
    specs = {"hw:numa_nodes": "16"}
    for node in range(16):
        specs[f"hw:numa_cpus.{node}"] = wide
        specs[f"hw:numa_mem.{node}"] = "64"
    specs["hw:cpu_realtime"] = "yes"
    specs["hw:cpu_policy"] = "dedicated"
    specs["hw:cpu_realtime_mask"] = ",".join(["^0-65535"] * 4000)
    image = {"properties": {"hw_numa_nodes": "2", "hw_numa_cpus.0": wide, "hw_numa_cpus.1": wide}}
    tracemalloc.start()
    try:
        findings = validate_flavor({"vcpus": 1024, "ram": 1024, "disk": 1, "extra_specs": specs})
        validate_flavor({"vcpus": 4, "ram": 1024, "disk": 1, "extra_specs": {}}, image)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * 1024 * 1024
    assert {f.code for f in findings} >= {"numa-cpu-duplicated"}
