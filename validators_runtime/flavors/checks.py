"""Each rule kind of :mod:`onespec.definitions.flavor_rules`, checked against a :class:`View`.

One function per kind says whether the rule is broken and, if so, what is wrong in words; the
rule itself supplies the exception, the phase and what to change. Conditions are evaluated the
way Nova reads values: a boolean spec as ``bool_from_string``, an empty string as unset.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from onespec.definitions.flavor_rule_catalogue import FACTS_BY_NAME
from onespec.definitions.flavor_rules import (
    AllOf,
    AnyOf,
    AtMost,
    ClashPolicy,
    Conflicts,
    Contains,
    CpuListsPartition,
    Divides,
    Fact,
    In,
    MaskWithinVcpus,
    MatchesCount,
    Not,
    PerNodeComplete,
    Present,
    Prop,
    Requires,
    Spec,
    SumsTo,
    TopologyAdmits,
    Truthy,
    TwinClash,
    describe,
)
from onespec.validators_runtime.flavors.facts import View
from onespec.validators_runtime.flavors.image_props import flexible_bool
from onespec.validators_runtime.problems import shown

Reader = Callable[[View], Any]
Test = Callable[[View], bool]


def reader(source: Any) -> Reader:
    """A function that reads ``source`` from a view, chosen once per source."""
    if isinstance(source, Spec):
        key = source.key
        return lambda view: view.specs.get(key)
    if isinstance(source, Prop):
        name = source.name
        return lambda view: view.props.get(name)
    if isinstance(source, Fact):
        name = source.name
        return lambda view: view.fact(name)
    name = source.name
    return lambda view: view.field(name)


@functools.cache
def compiled(condition: Any) -> Test:
    """``condition`` as a function of a view, built once per condition (conditions are frozen
    values, so the cache is keyed by what they say)."""
    if isinstance(condition, AnyOf | AllOf):
        parts = tuple(compiled(part) for part in condition.conditions)
        if isinstance(condition, AnyOf):
            return lambda view: any(part(view) for part in parts)
        return lambda view: all(part(view) for part in parts)
    if isinstance(condition, Not):
        inner = compiled(condition.condition)
        return lambda view: not inner(view)
    read = reader(condition.source)
    if isinstance(condition, Present):
        return lambda view: (value := read(view)) is not None and value != ""
    if isinstance(condition, Truthy):
        if isinstance(condition.source, Spec):
            return lambda view: (value := read(view)) is not None and flexible_bool(value)
        return lambda view: bool(read(view))
    if isinstance(condition, In):
        values = condition.values
        return lambda view: read(view) in values
    if isinstance(condition, Contains):
        text = condition.text
        return lambda view: isinstance(value := read(view), str) and text in value
    raise TypeError(f"not a condition: {condition!r}")


#: Compiled conditions by identity: the rules' conditions live as long as the rules, and looking
#: one up by ``id`` spares hashing a nested frozen dataclass on every check.
_BY_ID: dict[int, tuple[Any, Test]] = {}


def holds(condition: Any, view: View) -> bool:
    """Whether ``condition`` holds for ``view``."""
    entry = _BY_ID.get(id(condition))
    if entry is None or entry[0] is not condition:
        entry = _BY_ID[id(condition)] = (condition, compiled(condition))
    return entry[1](view)


def _shown_set(cpus: set[int]) -> str:
    return (
        "{"
        + ", ".join(str(c) for c in sorted(cpus)[:16])
        + (", ..." if len(cpus) > 16 else "")
        + "}"
    )


def _requires(rule: Requires, view: View) -> str | None:
    if holds(rule.needs, view):
        return None
    return f"When {describe(rule.when)}, Nova needs {describe(rule.needs)}"


def _conflicts(rule: Conflicts, view: View) -> str | None:
    if holds(rule.first, view) and holds(rule.second, view):
        return f"{describe(rule.first)} while {describe(rule.second)}"
    return None


def _mask_within(rule: MaskWithinVcpus, view: View) -> str | None:
    mask = view.value(rule.mask)
    if mask is None:
        return None
    vcpus = view.flavor.vcpus
    every = set(range(vcpus))
    if not mask:
        return f"The {rule.mask} mask selects no vCPU"
    outside = mask - every
    if outside:
        return (
            f"The {rule.mask} mask lists vCPUs {_shown_set(outside)}, beyond the flavor's {vcpus}"
        )
    allowed = rule.all_allowed_when is not None and holds(rule.all_allowed_when, view)
    if mask == every and not allowed:
        return f"The {rule.mask} mask covers all {vcpus} vCPUs"
    return None


def _partition(rule: CpuListsPartition, view: View) -> str | None:
    lists = view.value(rule.lists) or []
    vcpus = view.flavor.vcpus
    if rule.aspect == "within":
        outside = set().union(*lists) - set(range(vcpus)) if lists else set()
        return f"vCPUs {_shown_set(outside)} are beyond the flavor's {vcpus}" if outside else None
    if rule.aspect == "disjoint":
        seen: set[int] = set()
        twice: set[int] = set()
        for cpus in lists:
            twice |= seen & cpus
            seen |= cpus
        return f"vCPUs {_shown_set(twice)} are listed on more than one node" if twice else None
    missing = set(range(vcpus)) - (set().union(*lists) if lists else set())
    return f"vCPUs {_shown_set(missing)} are on no node" if missing else None


def _sums_to(rule: SumsTo, view: View) -> str | None:
    parts = view.value(rule.parts) or []
    total = view.value(rule.total)
    if sum(parts) != total:
        return f"The per-node memory adds up to {sum(parts)} MiB, not the flavor's {total} MiB"
    return None


def _divides(rule: Divides, view: View) -> str | None:
    count = view.value(rule.count)
    uneven = [f"{t} ({view.value(t)})" for t in rule.totals if view.value(t) % count]
    if uneven:
        return f"{count} NUMA nodes do not divide {' and '.join(uneven)} evenly"
    return None


def _matches(rule: MatchesCount, view: View) -> str | None:
    value, expected = view.value(rule.value), view.value(rule.expected)
    if value != expected:
        return f"{value} PCPUs are requested where the flavor needs exactly {expected}"
    return None


def _complete(rule: PerNodeComplete, view: View) -> str | None:
    lists = [view.value(fact) for fact in rule.lists]
    count = view.value(rule.count)
    if all(found is None for found in lists):
        return None
    if any(found is None for found in lists):
        return "Per-node CPUs and memory must be given together"
    if any(len(found) != count for found in lists):
        return f"Per-node lists must cover each of the {count} NUMA nodes, from 0 up"
    return None


def topology_admits(vcpus: int, sockets: int, cores: int, threads: int) -> bool:
    """Whether sockets x cores x threads, each within its limit, can equal ``vcpus``."""
    sockets, cores, threads = min(vcpus, sockets), min(vcpus, cores), min(vcpus, threads)
    for s in range(1, sockets + 1):
        if vcpus % s:
            continue
        rest = vcpus // s
        for c in range(1, cores + 1):
            if rest % c == 0 and rest // c <= threads:
                return True
    return False


def _topology(rule: TopologyAdmits, view: View) -> str | None:
    limits = [view.fact(f"max_{part}") for part in ("sockets", "cores", "threads")]
    if topology_admits(view.flavor.vcpus, *limits):
        return None
    shown_limits = " x ".join(str(min(limit, view.flavor.vcpus)) for limit in limits)
    vcpus = view.flavor.vcpus
    return f"No topology within {shown_limits} (sockets x cores x threads) has {vcpus} vCPUs"


def _at_most(rule: AtMost, view: View) -> str | None:
    value, limit = view.value(rule.value), view.value(rule.limit)
    if not value or limit is None:
        return None
    if value > limit * rule.scale:
        return f"{rule.value} ({value}) exceeds {rule.limit} ({limit})"
    return None


def _side(value: Any, kind: str) -> Any:
    if value is None:
        return None
    if kind == "bool":
        return flexible_bool(value)
    if kind == "int":
        try:
            return int(value)
        except (TypeError, ValueError):
            return None
    return value


def _twin(rule: TwinClash, view: View) -> str | None:
    flavor_raw, image_raw = view.specs.get(rule.spec), view.props.get(rule.prop)
    if flavor_raw is None and image_raw is None:
        return None
    flavor, image = _side(flavor_raw, rule.kind), _side(image_raw, rule.kind)
    both = f"the flavor's {rule.spec}={{}} and the image's {rule.prop}={{}}"
    if rule.policy is ClashPolicy.EQUAL:
        if rule.kind == "bool":
            clash = flavor is not None and image is not None and flavor != image
        else:
            # Set means a non-empty string in the flavor (even '0') and a non-zero image value.
            clash = bool(flavor_raw) and bool(image_raw) and flavor != image
        return f"T{both[1:]} differ".format(shown(flavor), shown(image)) if clash else None
    if rule.policy is ClashPolicy.ONE_SIDE:
        clash = bool(flavor_raw) and bool(image_raw)
        return f"Both {both} are set".format(shown(flavor), shown(image)) if clash else None
    if rule.policy is ClashPolicy.FLAVOR_LIMITS:
        if rule.flavor_allows:
            if image and flavor not in rule.flavor_allows:
                return (
                    f"The image's {rule.prop}={shown(image)} is not allowed by the flavor's "
                    f"{rule.spec}={shown(flavor)}"
                )
            return None
        if flavor and image and image > flavor:
            return f"The image's {rule.prop}={image} exceeds the flavor's {rule.spec}={flavor}"
    return None


CHECKS: dict[type, Callable[[Any, View], str | None]] = {
    Requires: _requires,
    Conflicts: _conflicts,
    MaskWithinVcpus: _mask_within,
    CpuListsPartition: _partition,
    SumsTo: _sums_to,
    Divides: _divides,
    MatchesCount: _matches,
    PerNodeComplete: _complete,
    TopologyAdmits: _topology,
    AtMost: _at_most,
    TwinClash: _twin,
}


def involved(rule: Any, view: View) -> tuple[str, ...]:
    """The keys, properties and fields a broken rule involves, as the input spells them: a
    fact stands for the keys it is read from that are present."""
    names: list[str] = []
    for source in rule.sources():
        if isinstance(source, Fact):
            candidates = FACTS_BY_NAME[source.name].reads
        else:
            candidates = (str(source),)
        for name in candidates:
            for spelled in _spellings(name, view):
                if spelled not in names:
                    names.append(spelled)
    return tuple(names)


def _spellings(name: str, view: View) -> list[str]:
    if name in ("vcpus", "ram", "disk", "swap", "ephemeral") or name.startswith("image."):
        return [name]
    if name.endswith(".N"):
        stem = name[:-2] + "."
        pool = view.specs if ":" in name else (view.image.properties if view.image else {})
        return [key for key in pool if key.startswith(stem)]
    if name in view.specs:
        return [name]
    if ":" in name:
        # resources:PCPU stands for resources1:PCPU too, trait:X for traitN:X.
        namespace, _, rest = name.partition(":")
        return [k for k in view.specs if k.endswith(f":{rest}") and k.startswith(namespace)]
    if view.image is not None and name in view.image.properties:
        return [name]
    return []
