"""How fast the extra-spec runtime is, and that its cost does not grow with the catalogue.

Each figure is the median over several repetitions of a timed loop, divided by the loop's length;
ratios compare two registries measured in the same run, so they hold on any machine.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from onespec.definitions.nova_shape import ExtraSpecValidator
from onespec.definitions.registry import in_tree
from onespec.validators_runtime.extra_specs import (
    ExtraSpecValidationError,
    Registry,
    compile_registry,
)

ROOT = Path(__file__).resolve().parents[1]

#: Valid keys of every kind the lookup distinguishes.
VALID = {
    "exact": ("hw:cpu_policy", "dedicated"),
    "exact int": ("quota:cpu_shares", "2048"),
    "exact bool": ("hw:boot_menu", "true"),
    "patterned": ("hw:numa_cpus.1", "0-3,^2"),
    "capabilities filter": ("capabilities:cpu_info:arch", "x86_64"),
    "aggregate": ("aggregate_instance_extra_specs:ssd", "true"),
    "trait": ("trait:HW_CPU_X86_AVX2", "required"),
    "trait, group": ("trait1:COMPUTE_VOLUME_MULTI_ATTACH", "forbidden"),
    "resources": ("resources:VCPU", "4"),
    "resources, group": ("resources_GPU:VGPU", "1"),
    "custom trait": ("trait:CUSTOM_RACK_7", "required"),
    "custom resource": ("resources2:CUSTOM_BAREMETAL_GOLD", "1"),
    "unknown namespace": ("foo:bar", "anything"),
    "no namespace": ("foo", "anything"),
}

#: Rejected keys and values: each error includes building its message and suggestion.
REJECTED = {
    "key typo": ("hw:cpu_pollicy", "dedicated"),
    "trait typo": ("trait:HW_CPU_X86_AVX2S", "required"),
    "custom trait typo": ("trait:CUSTM_RACK", "required"),
    "enum typo": ("hw:cpu_policy", "dedicatd"),
    "int out of range": ("hw:numa_nodes", "0"),
    "pattern mismatch": ("hw:numa_cpus.0", "zero"),
}

#: Flavors checked with and without the rules between keys that extra specs alone can break:
#: those no rule reads (which must cost what they cost without the rules) and those some rule
#: reads (which pay for the rules).
NO_RULE_READS = {
    "trait": {"trait:HW_CPU_X86_AVX2": "required"},
    "int": {"quota:cpu_shares": "2048"},
    "foreign": {"foo:bar": "anything"},
    "usual six keys": {
        "hw:watchdog_action": "reset",
        "quota:cpu_shares": "2048",
        "trait:HW_CPU_X86_AVX2": "required",
        "hw_rng:allowed": "true",
        "aggregate_instance_extra_specs:ssd": "true",
        "hw:boot_menu": "true",
    },
}
RULES_READ = {
    "hw:cpu_policy": {"hw:cpu_policy": "dedicated"},
    "pinned real-time": {"hw:cpu_policy": "dedicated", "hw:cpu_realtime": "yes"},
    "pinned NUMA, six keys": {
        "hw:cpu_policy": "dedicated",
        "hw:numa_nodes": "2",
        "hw:mem_page_size": "large",
        "trait:HW_CPU_X86_AVX2": "required",
        "quota:cpu_shares": "2048",
        "hw:watchdog_action": "reset",
    },
}
#: What the rules may add to a flavor no rule reads: nothing but the ratio's noise, which
#: reaches 10% (either way) on a busy two-core machine.
NO_RULE_RATIO_TARGET = 1.15

VALID_TARGET_US = 5.0
REJECTED_TARGET_US = 1000.0
RATIO_TARGET = 1.5
IMPORT_TARGET_MS = 50.0


def _median_per_call(call: Callable[[], object], loops: int, repeats: int) -> float:
    """Median seconds per call over ``repeats`` timed loops of ``loops`` calls."""
    call()  # warm: compile lazily built patterns, fill caches of the first use
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(loops):
            call()
        samples.append((time.perf_counter() - start) / loops)
    return statistics.median(samples)


def _valid_call(registry: Registry, key: str, value: str) -> Callable[[], object]:
    specs = {key: value}
    validate = registry.validate
    assert validate(specs) == [], key  # a benchmark of the wrong verdict is worthless
    return lambda: validate(specs)


def valid_median_us(registry: Registry, key: str, value: str) -> float:
    return _median_per_call(_valid_call(registry, key, value), loops=20_000, repeats=15) * 1e6


def paired_medians_us(
    first: Registry, second: Registry, key: str, value: str
) -> tuple[float, float]:
    """Medians for two registries, their loops interleaved so that machine noise hits both."""
    calls = (_valid_call(first, key, value), _valid_call(second, key, value))
    samples: tuple[list[float], list[float]] = ([], [])
    for call in calls:
        call()
    for _ in range(21):
        for call, into in zip(calls, samples, strict=True):
            start = time.perf_counter()
            for _ in range(10_000):
                call()
            into.append((time.perf_counter() - start) / 10_000 * 1e6)
    return statistics.median(samples[0]), statistics.median(samples[1])


def rules_medians_us(registry: Registry, specs: dict[str, str]) -> tuple[float, float]:
    """Medians of one flavor's check without and with the rules between keys, their loops
    interleaved so that machine noise hits both."""
    assert registry.validate(specs) == [], specs
    calls = (
        lambda: registry.validate(specs, between_keys=False),
        lambda: registry.validate(specs),
    )
    samples: tuple[list[float], list[float]] = ([], [])
    for _ in range(21):
        for call, into in zip(calls, samples, strict=True):
            start = time.perf_counter()
            for _ in range(10_000):
                call()
            into.append((time.perf_counter() - start) / 10_000 * 1e6)
    return statistics.median(samples[0]), statistics.median(samples[1])


def rejected_median_us(registry: Registry, key: str, value: str) -> float:
    specs = {key: value}

    def call() -> None:
        try:
            registry.validate(specs)
        except ExtraSpecValidationError:
            return
        raise AssertionError(f"{key}={value} was accepted")

    return _median_per_call(call, loops=300, repeats=15) * 1e6


def synthetic_definitions(count: int) -> list:
    """``count`` patterned definitions spread over the ways a plugin can add patterns: in an
    in-tree namespace, in an in-tree patterned namespace, in a new patterned namespace, and as
    many new patterned namespaces."""
    quarter = count // 4
    made = []
    for n in range(quarter):
        made.append(
            ExtraSpecValidator(
                name=f"hw:synthetic_{n:05d}.{{id}}",
                parameters=[{"name": "id", "type": int}],
                value={"type": int, "min": 0},
            )
        )
        made.append(
            ExtraSpecValidator(
                name=f"trait{{group}}:SYNTH_{n:05d}_{{x}}",
                parameters=[
                    {"name": "group", "pattern": "[a-zA-Z0-9_-]*", "max_length": 64},
                    {"name": "x", "pattern": "[A-Z0-9_]+"},
                ],
                value={"type": str, "enum": ["required", "forbidden"]},
            )
        )
        made.append(
            ExtraSpecValidator(
                name=f"synth{{group}}:KEY_{n:05d}_{{x}}",
                parameters=[{"name": "group", "pattern": "[0-9]*"}, {"name": "x", "type": int}],
                value={"type": str, "pattern": "[a-z]+"},
            )
        )
        made.append(
            ExtraSpecValidator(
                name=f"s{n:05d}{{group}}:value",
                parameters=[{"name": "group", "pattern": "[0-9]*"}],
                value={"type": bool},
            )
        )
    return made


def import_cost_ms() -> float:
    """What ``import onespec.validators_runtime.extra_specs`` adds to a bare interpreter, in ms.

    Measured with ``python -X importtime`` (the cumulative time of the import, which counts only
    modules a bare interpreter has not already loaded), with the bytecode cache an installed
    package has: the packages are byte-compiled first, since this machine may disable writing it.
    """
    code = "import onespec.validators_runtime.extra_specs"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "validators_runtime", "definitions"],
        cwd=ROOT,
        env=env,
        check=True,
    )

    def measure() -> float:
        samples = []
        for _ in range(9):
            result = subprocess.run(
                [sys.executable, "-X", "importtime", "-c", code],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            line = next(
                line
                for line in result.stderr.splitlines()
                if re.search(r"\|\s*onespec\.validators_runtime\.extra_specs$", line)
            )
            samples.append(int(line.split("|")[1]) / 1000)
        return statistics.median(samples)

    return measure()


def _line(label: str, figure: str, ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"{label:<58} {figure}{mark}")


def run() -> int:
    missed = 0
    catalogue = in_tree()
    base = compile_registry(catalogue)
    extra = synthetic_definitions(10_000)
    grown = compile_registry((*catalogue, *extra))

    print(f"Extra-spec validation, in-tree catalogue ({len(base)} definitions)")
    print("median per key/value, valid keys (target <= 5 us):")
    for label, (key, value) in VALID.items():
        median = valid_median_us(base, key, value)
        ok = median <= VALID_TARGET_US
        missed += not ok
        _line(f"  valid {label} ({key})", f"{median:7.2f} us", ok)

    print("median per key/value, rejected, message and suggestion included (target <= 1 ms):")
    for label, (key, value) in REJECTED.items():
        median = rejected_median_us(base, key, value)
        ok = median <= REJECTED_TARGET_US
        missed += not ok
        _line(f"  rejected {label} ({key}={value})", f"{median:7.1f} us", ok)

    print(
        "Rules between keys extra specs alone can break: per key only -> with the rules, "
        f"per flavor (target ratio <= {NO_RULE_RATIO_TARGET} where no rule reads a key)"
    )
    for label, specs in NO_RULE_READS.items():
        alone, with_rules = rules_medians_us(base, specs)
        ok = with_rules / alone <= NO_RULE_RATIO_TARGET
        missed += not ok
        _line(
            f"  no rule reads a key: {label}",
            f"{alone:5.2f} -> {with_rules:5.2f} us  ratio {with_rules / alone:5.2f}",
            ok,
        )
    for label, specs in RULES_READ.items():
        alone, with_rules = rules_medians_us(base, specs)
        _line(
            f"  a rule reads a key: {label}",
            f"{alone:5.2f} -> {with_rules:5.2f} us  ratio {with_rules / alone:5.2f}",
        )

    print(
        f"Flat lookup: +{len(extra):,} patterned definitions ({len(grown):,} in all) "
        f"vs in-tree alone (target ratio <= {RATIO_TARGET})"
    )
    ratios = []
    for label, (key, value) in VALID.items():
        alone, with_extra = paired_medians_us(base, grown, key, value)
        ratio = with_extra / alone
        ratios.append(ratio)
        _line(f"  valid {label}", f"{alone:5.2f} -> {with_extra:5.2f} us  ratio {ratio:5.2f}")
    last = f"hw:synthetic_{len(extra) // 4 - 1:05d}.3"
    synthetic = valid_median_us(grown, last, "7")
    _line(f"  valid synthetic key ({last})", f"{synthetic:7.2f} us")
    worst = max(ratios)
    median_ratio = statistics.median(ratios)
    ok = median_ratio <= RATIO_TARGET and worst <= RATIO_TARGET
    missed += not ok
    _line("  median ratio", f"{median_ratio:5.2f}")
    _line("  worst ratio", f"{worst:5.2f}", ok)

    cost = import_cost_ms()
    ok = cost <= IMPORT_TARGET_MS
    missed += not ok
    _line(
        "import onespec.validators_runtime.extra_specs, over a bare interpreter",
        f"{cost:7.1f} ms",
        ok,
    )
    return missed
