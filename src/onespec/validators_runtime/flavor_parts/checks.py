"""What each rule kind of :mod:`onespec.definitions.flavor_rules` finds, on plain values.

The generated module ``_generated/flavor_rules.py`` holds one function per rule: its condition
written out as Python, then a call to the function of its kind here with the values already
read (a mask, per-node lists, the two sides of a twin). So nothing here knows about rules or
sources; each function says whether the values break the rule and, if so, what is wrong in
words. The rule supplies the exception, the phase and what to change. Conditions read values
the way Nova does: a boolean spec as ``bool_from_string``, an empty string as unset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# The generated rules read the usual counts from here too, beside the boolean spellings: an
# image's typed count within the flavor's small count is within its limit.
from onespec.validators_runtime.extra_spec_values import SMALL_COUNTS as SMALL_COUNTS
from onespec.validators_runtime.flavor_parts.cpusets import PAGE_KEYWORDS, CpuSet, page_size
from onespec.validators_runtime.flavor_parts.image_props import (
    FALSE_STRINGS,
    TRUE_STRINGS,
    flexible_bool,
)
from onespec.validators_runtime.problems import shown

#: The spellings of each boolean: a flavor's twin spelt as its image's typed boolean agrees.
SPELLINGS_OF = {True: TRUE_STRINGS, False: FALSE_STRINGS}


def on(value: Any) -> bool:
    """A boolean extra spec that is set and true as Nova reads it."""
    return value is not None and flexible_bool(value)


def contains(value: Any, text: str) -> bool:
    """``value`` is a string that contains ``text``."""
    return isinstance(value, str) and text in value


def _shown_set(cpus: CpuSet) -> str:
    first = cpus.first(17)
    return "{" + ", ".join(str(c) for c in first[:16]) + (", ..." if len(first) > 16 else "") + "}"


def _opening(name: str) -> str:
    """``name`` opening a sentence: ``the ...`` capitalised, a key (``hw_video_ram``) as spelt."""
    return "The" + name[3:] if name.startswith("the ") else name


def mask_within(name: str, mask: CpuSet | None, vcpus: int, all_allowed: bool) -> str | None:
    """A vCPU mask is not empty, lies within the vCPUs and, unless ``all_allowed``, leaves
    one out."""
    if mask is None:
        return None
    named = _opening(name)
    if not mask:
        return f"{named}: the mask selects no vCPU"
    mask = CpuSet.of(mask)
    every = CpuSet.below(vcpus)
    outside = mask - every
    if outside:
        return f"{named}: the mask lists vCPUs {_shown_set(outside)}, beyond the flavor's {vcpus}"
    if mask == every and not all_allowed:
        return f"{named}: the mask covers all {vcpus} vCPUs"
    return None


def _duplicate_first(lists: Sequence[CpuSet], vcpus: int) -> bool:
    """Whether Nova's walk of the per-node lists (node by node, each CPU upwards) meets a CPU
    listed on an earlier node before one beyond the vCPUs: it raises for the first it meets."""
    every, seen = CpuSet.below(vcpus), CpuSet()
    for cpus in lists:
        cpus = CpuSet.of(cpus)
        beyond, again = (cpus - every).first(1), (cpus & seen).first(1)
        if beyond or again:
            return bool(again) and (not beyond or again[0] < beyond[0])
        seen |= cpus
    return False


def cpus_within(lists: Sequence[CpuSet] | None, vcpus: int) -> str | None:
    """Every CPU of the per-node lists is one of the flavor's vCPUs (told where Nova meets it
    before any CPU listed twice, which it refuses first)."""
    outside = CpuSet.union(*lists) - CpuSet.below(vcpus) if lists else CpuSet()
    if not outside or _duplicate_first(lists or (), vcpus):
        return None
    return f"vCPUs {_shown_set(outside)} are beyond the flavor's {vcpus}"


def cpus_disjoint(lists: Sequence[CpuSet] | None, vcpus: int) -> str | None:
    """No CPU is on two nodes."""
    seen = twice = CpuSet()
    for cpus in lists or ():
        twice |= seen & cpus
        seen |= cpus
    return f"vCPUs {_shown_set(twice)} are listed on more than one node" if twice else None


def cpus_cover(lists: Sequence[CpuSet] | None, vcpus: int) -> str | None:
    """Every vCPU is on some node."""
    missing = CpuSet.below(vcpus) - (CpuSet.union(*lists) if lists else CpuSet())
    return f"vCPUs {_shown_set(missing)} are on no node" if missing else None


def sums_to(parts: Sequence[int] | None, total: int) -> str | None:
    """The per-node memory adds up to the flavor's RAM."""
    added = sum(parts or ())
    if added != total:
        return f"The per-node memory adds up to {added} MiB, not the flavor's {total} MiB"
    return None


def divides(count: int, totals: Sequence[tuple[str, int]]) -> str | None:
    """``count`` divides every total (each given with its name)."""
    for _, value in totals:
        if value % count:
            break
    else:
        return None  # the usual case, without building the message's parts
    uneven = [f"{name} ({value})" for name, value in totals if value % count]
    return f"{count} NUMA nodes do not divide {' and '.join(uneven)} evenly"


def matches(value: int, expected: int) -> str | None:
    """The PCPUs requested are exactly the PCPUs the flavor needs."""
    if value != expected:
        return f"{value} PCPUs are requested where the flavor needs exactly {expected}"
    return None


def complete(lists: Sequence[list | None], count: int) -> str | None:
    """Per-node lists are given together, each for every node."""
    if all(found is None for found in lists):
        return None
    if any(found is None for found in lists):
        return "Per-node CPUs and memory must be given together"
    if any(len(found) != count for found in lists if found is not None):
        return f"Per-node lists must cover each of the {count} NUMA nodes, from 0 up"
    return None


def topology_admits(vcpus: int, sockets: int, cores: int, threads: int) -> bool:
    """Whether sockets x cores x threads, each within its limit, can equal ``vcpus``."""
    if min(sockets, cores, threads) >= 1 and max(sockets, cores, threads) >= vcpus:
        return vcpus >= 1  # every vCPU on one socket, core or thread, the others 1
    sockets, cores, threads = min(vcpus, sockets), min(vcpus, cores), min(vcpus, threads)
    for s in range(1, sockets + 1):
        if vcpus % s:
            continue
        rest = vcpus // s
        for c in range(1, cores + 1):
            if rest % c == 0 and rest // c <= threads:
                return True
    return False


def topology(vcpus: int, sockets: int, cores: int, threads: int) -> str | None:
    """Some topology within the limits has exactly the flavor's vCPUs."""
    if (
        vcpus >= 1
        and (sockets >= vcpus or cores >= vcpus or threads >= vcpus)
        and sockets >= 1
        and cores >= 1
        and threads >= 1
    ):
        return None  # the usual limits, answered as topology_admits would at once
    if topology_admits(vcpus, sockets, cores, threads):
        return None
    shown_limits = " x ".join(str(min(limit, vcpus)) for limit in (sockets, cores, threads))
    return f"No topology within {shown_limits} (sockets x cores x threads) has {vcpus} vCPUs"


def at_most(name: str, value: Any, limit_name: str, limit: Any, scale: int) -> str | None:
    """``value`` (when set) is no more than ``limit`` times ``scale``."""
    if not value or limit is None:
        return None
    if value > limit * scale:
        return f"{_opening(name)} ({value}) exceeds {limit_name} ({limit})"
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


def _both(spec: str, prop: str, flavor: Any, image: Any) -> str:
    return f"the flavor's {spec}={shown(flavor)} and the image's {prop}={shown(image)}"


def twin_equal(spec: str, prop: str, kind: str, flavor_raw: Any, image_raw: Any) -> str | None:
    """Twins that may both be set only to the same value."""
    if flavor_raw is None and image_raw is None:
        return None
    flavor, image = _side(flavor_raw, kind), _side(image_raw, kind)
    if kind == "bool":
        clash = flavor is not None and image is not None and flavor != image
    else:
        # Set means a non-empty string in the flavor (even '0') and a non-zero image value.
        clash = bool(flavor_raw) and bool(image_raw) and flavor != image
    if not clash:
        return None
    both = _both(spec, prop, flavor, image)
    return f"T{both[1:]} differ"


def twin_one_side(spec: str, prop: str, kind: str, flavor_raw: Any, image_raw: Any) -> str | None:
    """Twins of which only one may be set."""
    if flavor_raw and image_raw:
        return f"Both {_both(spec, prop, _side(flavor_raw, kind), _side(image_raw, kind))} are set"
    return None


def twin_flavor_limits(
    spec: str,
    prop: str,
    kind: str,
    flavor_raw: Any,
    image_raw: Any,
    flavor_allows: tuple[str, ...],
) -> str | None:
    """Twins where the flavor sets a limit the image may only narrow: a numeric limit, or
    (``flavor_allows``) the flavor values that let the image choose."""
    if flavor_raw is None and image_raw is None:
        return None
    flavor, image = _side(flavor_raw, kind), _side(image_raw, kind)
    if flavor_allows:
        if image and flavor not in flavor_allows:
            return (
                f"The image's {prop}={shown(image)} is not allowed by the flavor's "
                f"{spec}={shown(flavor)}"
            )
        return None
    if flavor and image and image > flavor:
        return f"The image's {prop}={image} exceeds the flavor's {spec}={flavor}"
    return None


def _int_like(value: Any) -> bool:
    """oslo's ``is_int_like``, as Nova reads a NUMA node count: ``int()`` reads the value and
    gives back its very spelling (so not ``02``, `` 2``, ``+2`` or ``٣``)."""
    try:
        return str(int(value)) == str(value)
    except (TypeError, ValueError):
        return False


def readable_numa_nodes(flavor_raw: Any, image_value: Any) -> str | None:
    """The NUMA node count Nova reads (the flavor's, else the image's) is an integer spelt as
    one, and at least 1."""
    nodes = flavor_raw or image_value
    if nodes is None:
        return None
    if _int_like(nodes) and int(nodes) >= 1:
        return None
    side = "flavor's hw:numa_nodes" if flavor_raw else "image's hw_numa_nodes"
    return f"The {side} is {shown(nodes)}, which Nova does not read as a count of 1 or more"


def readable_page_sizes(flavor_raw: Any, image_raw: Any) -> str | None:
    """The flavor's page size, and the image's where the flavor lets it choose, are sizes
    Nova reads. (A number ``str.isdigit`` takes but ``int()`` refuses, such as ``²``, makes
    Nova itself fail with a ValueError, an HTTP 500: refused here all the same.)"""
    if not flavor_raw:
        return None
    flavor = page_size(flavor_raw)
    if flavor is None:
        return f"The flavor's hw:mem_page_size={shown(flavor_raw)} is not a page size Nova reads"
    choosing = flavor in (PAGE_KEYWORDS["any"], PAGE_KEYWORDS["large"])
    if image_raw and choosing and page_size(str(image_raw)) is None:
        return f"The image's hw_mem_page_size={shown(image_raw)} is not a page size Nova reads"
    return None
