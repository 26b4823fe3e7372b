"""The whole-flavor check of an extra-spec write: what the flavor's extra specs, together, break.

Nova checks each extra spec on its own when it is written (microversion 2.86) and finds what is
wrong *between* keys only when a server is created, scheduled or spawned. The service can check
the flavor's extra specs as they will be after the write, with
:func:`onespec.validators_runtime.flavors.validate_flavor`, in one of three modes (the
``FLAVOR_CHECK`` setting, ``onespec serve --flavor-check``):

``refuse`` (the default)
    a write that breaks a rule between keys is refused with a 400 whose ``findings`` name the
    rule (``code``), the keys involved, Nova's exception and the phase in which Nova would
    refuse the flavor. Only what the write *breaks* is refused: a rule the flavor already broke
    before it is reported as a warning, so that a flavor can be mended one write at a time.
``warn``
    the write is stored; what it breaks is reported as warnings.
``per-key``
    each extra spec on its own only, as Nova does.

Warnings travel in ``Warning`` response headers (``299 onespec "..."``, one per finding), so the
bodies stay Nova's. The check runs only where extra specs are validated at all (microversion
2.86 and later, ``validation`` other than ``off``).

The service keeps extra specs, not flavors: it does not know a flavor's vCPUs, RAM or disks.
So the rules whose verdict depends on them (a CPU mask within ``range(vcpus)``, per-node lists
that lie within and cover the vCPUs, memory that sums to the RAM, NUMA nodes that divide the vCPUs,
``resources:PCPU`` equal to the vCPUs, topology limits) are not applied here; ``onespec
validate flavor`` and the Nova drop-in's ``validate_whole_flavor`` apply them. The rules that
compare a flavor with an image do not apply either: there is no image.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from onespec.definitions.flavor_rule_catalogue import FACTS_BY_NAME, RULES
from onespec.definitions.flavor_rules import FLAVOR_FIELDS, Fact, Field, MaskWithinVcpus, Rule
from onespec.validators_runtime.flavors import FlavorFinding, validate_flavor

Mode = Literal["refuse", "warn", "per-key"]
MODES: tuple[Mode, ...] = ("refuse", "warn", "per-key")
DEFAULT_MODE: Mode = "refuse"

#: The flavor's own fields, which the service does not know.
_SIZES = frozenset(FLAVOR_FIELDS)

#: The CPU masks (the facts a mask rule checks). They read the vCPUs only to resolve a mask
#: written ``^N``, which the stand-in's vCPUs settle (see ``_STAND_IN``); whether a mask fits
#: the real vCPUs is the verdict of its mask rule, which reads the vCPUs itself.
_MASKS = frozenset(rule.mask.name for rule in RULES if isinstance(rule, MaskWithinVcpus))


def _reads_a_size(rule: Rule) -> bool:
    """Whether the verdict of ``rule`` depends on the flavor's sizes: it reads one itself, or
    through a fact other than a CPU mask."""
    for source in rule.sources():
        if isinstance(source, Field) and source.name in _SIZES:
            return True
        through_fact = isinstance(source, Fact) and source.name not in _MASKS
        if through_fact and _SIZES & set(FACTS_BY_NAME[source.name].reads):
            return True
    return False


#: The rules that need the flavor's vCPUs, RAM or disks: not applied by the service.
SIZED_RULES: frozenset[str] = frozenset(rule.name for rule in RULES if _reads_a_size(rule))

#: The rules' names: the codes of the findings this check reports.
_RULE_NAMES = frozenset(rule.name for rule in RULES)

#: The flavor the extra specs are checked on. Only rules that do not read the sizes are kept,
#: so the sizes matter only where a mask written ``^N`` excludes from every vCPU: with 256, such
#: a mask selects some vCPU whenever it would on a flavor of up to 256 vCPUs (more vCPUs would
#: cost time on every write for masks no real flavor has).
_STAND_IN = {"vcpus": 256, "ram": 256 * 1024}


def findings(specs: Mapping[str, str]) -> list[FlavorFinding]:
    """What ``specs`` together break, and what they ask of an image (warnings), leaving out
    the rules that need the flavor's sizes. Each extra spec on its own is not checked here."""
    found = validate_flavor({**_STAND_IN, "extra_specs": dict(specs)}, mode="off")
    return [f for f in found if f.code in _RULE_NAMES and f.code not in SIZED_RULES]


def _identity(finding: FlavorFinding) -> tuple[str, tuple[str, ...]]:
    return finding.code, finding.keys


def judge(
    before: Mapping[str, str], after: Mapping[str, str]
) -> tuple[list[FlavorFinding], list[FlavorFinding]]:
    """``(broken, warnings)`` of a write that turns ``before`` into ``after``: ``broken`` are
    the errors the write introduces; ``warnings`` the rest (errors the flavor already had, and
    what it asks of an image)."""
    now = findings(after)
    if not any(f.severity == "error" for f in now):
        return [], now
    earlier = {_identity(f) for f in findings(before) if f.severity == "error"}
    broken = [f for f in now if f.severity == "error" and _identity(f) not in earlier]
    return broken, [f for f in now if f not in broken]


def warning_headers(warnings: Iterable[FlavorFinding]) -> list[tuple[str, str]]:
    """``Warning`` headers (RFC 9110's warn-code 299, agent ``onespec``), one per finding;
    the text is ASCII, quoted as a header's quoted-string needs."""
    headers = []
    for warning in warnings:
        what = f"{warning.code}: {warning.message}"
        if warning.nova_exception:
            what += f" ({warning.nova_exception}, {warning.phase})"
        text = what.encode("ascii", "backslashreplace").decode("ascii")
        text = "".join(c if c.isprintable() else " " for c in text)
        quoted = text.replace("\\", "\\\\").replace('"', '\\"')
        headers.append(("Warning", f'299 onespec "{quoted}"'))
    return headers
