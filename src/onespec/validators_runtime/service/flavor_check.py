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
So it applies the rules extra specs alone can break, the ones ``onespec.validate`` applies too
(:mod:`onespec.validators_runtime.spec_rules`). The rules whose verdict depends on the sizes (a
CPU mask within ``range(vcpus)``, per-node lists that lie within and cover the vCPUs, memory
that sums to the RAM, NUMA nodes that divide the vCPUs, ``resources:PCPU`` equal to the vCPUs,
topology limits) are not applied here; ``onespec validate flavor`` and the Nova drop-in's
``validate_whole_flavor`` apply them. The rules that compare a flavor with an image do not apply
either: there is no image.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

# SIZED_RULES: the rules whose verdict depends on the flavor's vCPUs, RAM or disks, derived
# from what each rule reads (``flavor_rule_queries.reads_a_size``); left out without sizes.
from onespec.validators_runtime._generated.flavor_rules import RULES
from onespec.validators_runtime._generated.flavor_rules import SIZED_RULES as SIZED_RULES
from onespec.validators_runtime.flavors import FlavorFinding, validate_flavor
from onespec.validators_runtime.middleware.common import warning_value
from onespec.validators_runtime.spec_rules import spec_rule_findings

Mode = Literal["refuse", "warn", "per-key"]
MODES: tuple[Mode, ...] = ("refuse", "warn", "per-key")
DEFAULT_MODE: Mode = "refuse"

#: The names of the rules Nova refuses a flavor for: the codes of the findings this check
#: reports when the flavor's sizes are known (the rules that only warn, and per-key findings,
#: are left out).
_RULE_NAMES = frozenset(name for name, _, _, severity, *_ in RULES if severity == "error")


def findings(
    specs: Mapping[str, str], sizes: Mapping[str, Any] | None = None
) -> list[FlavorFinding]:
    """What ``specs`` together break, and what they ask of an image (warnings). Each extra spec
    on its own is not checked here. Without the flavor's ``sizes`` (its fields as Nova's API
    names them: ``vcpus``, ``ram``, ``disk``...) only the rules extra specs alone can break
    apply (:func:`onespec.validators_runtime.spec_rules.spec_rule_findings`, as for
    ``onespec.validate``); a caller that knows the flavor (the Nova filter) passes them and gets
    every rule."""
    if sizes is None:
        return spec_rule_findings(specs)
    found = validate_flavor({**sizes, "extra_specs": dict(specs)}, mode="off")
    return [f for f in found if f.code in _RULE_NAMES]


def _identity(finding: FlavorFinding) -> tuple[str, tuple[str, ...]]:
    return finding.code, finding.keys


def judge(
    before: Mapping[str, str],
    after: Mapping[str, str],
    sizes: Mapping[str, Any] | None = None,
) -> tuple[list[FlavorFinding], list[FlavorFinding]]:
    """``(broken, warnings)`` of a write that turns ``before`` into ``after``: ``broken`` are
    the errors the write introduces; ``warnings`` the rest (errors the flavor already had, and
    what it asks of an image). ``sizes``: as for :func:`findings`."""
    now = findings(after, sizes)
    if not any(f.severity == "error" for f in now):
        return [], now
    earlier = {_identity(f) for f in findings(before, sizes) if f.severity == "error"}
    broken = [f for f in now if f.severity == "error" and _identity(f) not in earlier]
    return broken, [f for f in now if f not in broken]


def warning_headers(warnings: Iterable[FlavorFinding]) -> list[tuple[str, str]]:
    """``Warning`` headers, one per finding, formatted as the API filters format theirs
    (:func:`~onespec.validators_runtime.middleware.common.warning_value`)."""
    headers = []
    for warning in warnings:
        what = f"{warning.code}: {warning.message}"
        if warning.nova_exception:
            what += f" ({warning.nova_exception}, {warning.phase})"
        headers.append(("Warning", warning_value(what)))
    return headers
