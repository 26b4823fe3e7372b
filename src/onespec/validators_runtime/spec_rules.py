"""The rules between keys that a flavor's extra specs alone can break.

Nova applies its rules between keys when a server is created, scheduled or spawned. Most of them
need more than the extra specs: the flavor's vCPUs, RAM or disks (NUMA nodes that divide the
vCPUs, a CPU mask within them) or the image the server boots. The others give the same verdict
whatever the sizes and whatever the image: a real-time flavor whose CPUs are not pinned, a
thread policy without a CPU policy that pins, a NUMA node count Nova cannot read. Those are
broken by the extra specs alone, so they can be refused where only the extra specs are known.

Every check of extra specs without their flavor applies exactly these, through this module:
``onespec.validate`` (``Registry.validate``), ``onespec validate extra-specs`` and the
reference service's check of an extra-spec write. ``onespec validate flavor`` applies the rest.

What the extra specs ask of an image (UEFI firmware for memory encryption) is a warning here:
any image that meets it will do. The rules that only warn (a key that counts only when another
is set) are not applied: they say nothing Nova refuses, and ``validate flavor`` reports them.

This module does not import the per-key runtime, which imports it (on first use) in turn.
"""

from __future__ import annotations

from collections.abc import Mapping

from onespec.validators_runtime._generated.flavor_rules import RULES, SIZED_RULES, TRIGGERS
from onespec.validators_runtime.applied_rules import normalized_names, rule_findings
from onespec.validators_runtime.flavor_parts.findings import FlavorFinding
from onespec.validators_runtime.flavor_parts.inputs import Flavor

#: The command that applies the rules this module leaves out, as reports name it.
WHOLE_FLAVOR_COMMAND = "onespec validate flavor"

#: The names of the rules applied here: those Nova refuses a flavor for (errors in the
#: catalogue) whose verdict reads none of the flavor's sizes. A rule that reads only the image
#: is among them and never breaks: there is no image.
SPEC_RULES: frozenset[str] = frozenset(
    name for name, _, _, severity, *_ in RULES if severity == "error" and name not in SIZED_RULES
)

#: The names (as the rules spell them: ``resources:PCPU``, ``hw:numa_cpus.N``) that can make one
#: of those rules apply; extra specs that make none of them present break none of them.
SPEC_RULE_NAMES: frozenset[str] = frozenset(
    name
    for name, rules in TRIGGERS.items()
    if any(RULES[index][0] in SPEC_RULES for index in rules)
)

#: The flavor the extra specs are checked on. The rules kept read no size, so the sizes matter
#: only where a mask written ``^N`` excludes from every vCPU: with 256, such a mask selects some
#: vCPU whenever it would on a flavor of up to 256 vCPUs (more vCPUs would cost time on every
#: check for masks no real flavor has).
_STAND_IN_VCPUS = 256
_STAND_IN_RAM = 256 * 1024


def reads_a_rule(key: str) -> bool:
    """Whether extra spec ``key`` can make one of the rules applied here apply
    (``resources1:PCPU`` can, as ``resources:PCPU``); a flavor none of whose keys can is
    spared the rules."""
    return not SPEC_RULE_NAMES.isdisjoint(normalized_names(key))


def spec_rule_findings(specs: Mapping[str, str]) -> list[FlavorFinding]:
    """What ``specs`` (string keys and values, as Nova stores them) break together, whatever
    the flavor's sizes and image: errors, and warnings for what they ask of an image. Each
    extra spec on its own is not checked here."""
    if not any(map(reads_a_rule, specs)):
        return []
    flavor = Flavor(_STAND_IN_VCPUS, _STAND_IN_RAM, extra_specs=specs)
    return [f for f in rule_findings(flavor, None, {}) if f.code in SPEC_RULES]


__all__ = [
    "SPEC_RULES",
    "SPEC_RULE_NAMES",
    "WHOLE_FLAVOR_COMMAND",
    "reads_a_rule",
    "spec_rule_findings",
]
