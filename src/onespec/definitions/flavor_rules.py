"""The rules between a flavor's keys, and between a flavor and the image it boots, as data.

Nova checks each extra spec on its own when it is written (microversion 2.86), but a flavor
whose keys are each valid can still be refused when a server is created (HTTP 400, the
``api`` phase), scheduled (the instance goes to ERROR, ``scheduler``) or spawned on a host
(reschedules, then ERROR, ``spawn``). Those refusals are pure functions of the flavor and the
image, written in ``nova/virt/hardware.py`` and ``nova/compute/api.py``; this module states each
as one typed, frozen rule that names the exception Nova raises and the phase in which it does.

The vocabulary is small:

* **sources** say where a value comes from: an extra spec (:class:`Spec`), an image property
  (:class:`Prop`), a flavor field (:class:`Field`: ``vcpus``, ``ram``, ``disk``...) or a
  :class:`Fact` -- a value Nova *derives* from several of them (the CPU policy in force once
  ``resources:PCPU`` and the image have had their say, the set of real-time vCPUs...). Facts are
  named and described here; the runtime computes them.
* **conditions** over sources: :class:`Present`, :class:`Truthy`, :class:`In`, :class:`Contains`,
  :class:`AnyOf`, :class:`AllOf`, :class:`Not`.
* **rule kinds**: :class:`Requires` (when one condition holds another must), :class:`Conflicts`
  (two conditions may not both hold), :class:`MaskWithinVcpus`, :class:`CpuListsPartition`,
  :class:`SumsTo`, :class:`Divides`, :class:`MatchesCount`, :class:`PerNodeComplete`,
  :class:`TopologyAdmits`, :class:`AtMost` (a value bounded by another) and :class:`TwinClash`
  (a flavor key and its image twin, settled by one of Nova's five :class:`ClashPolicy` kinds).
* **examples**: each rule carries an :class:`Example`, the smallest flavor (and image) that
  breaks it, which the reference shows and the tests hold onespec and Nova to.

Standard library only: the runtime imports this module (``validators_runtime/flavors/``) and
compiles nothing from it at import time.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

Phase = Literal["api", "scheduler", "spawn"]
PHASES: tuple[Phase, ...] = ("api", "scheduler", "spawn")


# --- Where a value comes from ---------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """A flavor extra spec, read as Nova reads it (a string)."""

    key: str

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True)
class Prop:
    """An image property, typed as Nova's ``ImageMetaProps`` types it."""

    name: str

    def __str__(self) -> str:
        return self.name


#: The flavor's own fields (its sizes), which every flavor has, each with the least value Nova's
#: API accepts when a flavor is created (a flavor needs a vCPU and some RAM; its disks may be 0).
FLAVOR_FIELDS: Mapping[str, int] = MappingProxyType(
    {"vcpus": 1, "ram": 1, "disk": 0, "swap": 0, "ephemeral": 0}
)

#: The flavor's own fields that are not sizes: ``disabled`` (Nova's API shows it as
#: ``OS-FLV-DISABLED:disabled``), which server create refuses to boot.
FLAVOR_FLAGS: tuple[str, ...] = ("disabled",)

#: The image's own fields the rules read beside its sizes: its Glance ``status`` and the
#: ``cinder_encryption_key_id`` property of an image uploaded from an encrypted volume.
IMAGE_FIELDS: tuple[str, ...] = (
    "image.min_ram",
    "image.min_disk",
    "image.size",
    "image.status",
    "image.cinder_encryption_key_id",
)


@dataclass(frozen=True)
class Field:
    """A flavor's own field (``vcpus``, ``ram``, ``disk``, ``swap``, ``ephemeral``) or an image's
    (:data:`IMAGE_FIELDS`: ``image.min_ram``, ``image.status``...)."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Fact:
    """A value Nova derives from several keys; :data:`FACTS` says what each one is and which keys
    it is read from, and the runtime computes it."""

    name: str

    def __str__(self) -> str:
        return self.name


Source = Spec | Prop | Field | Fact


class Blank(enum.Enum):
    """A fact's value without any of its keys, where it is not one plain value."""

    #: The value then still depends on the flavor's sizes (the PCPUs a flavor needs).
    FROM_SIZES = "from the flavor's sizes"


@dataclass(frozen=True)
class FactDefinition:
    """What a derived value means and which keys and properties it is read from.

    ``blank`` is the value when the flavor and image set none of the keys and properties it
    reads (the flavor's sizes aside): a condition on the fact that does not hold on its blank
    value needs one of them present, so the runtime can skip a rule whose keys are all absent
    without computing the fact. A test computes every fact on flavors without keys and holds
    this value to it.
    """

    name: str
    description: str
    reads: tuple[str, ...]
    blank: object = None
    #: How messages name the fact, with the keys a user sets: ``the CPU policy (hw:cpu_policy
    #: or hw_cpu_policy)``. A user never sees the fact's own name, which is Nova's variable.
    spoken: str = ""
    #: The fact being on, as a clause (``memory encryption is asked for``), where "SPOKEN is
    #: on" would not read; ``fails`` the fact being off.
    holds: str = ""
    fails: str = ""


# --- Conditions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Present:
    """The source has a value (an empty string counts as absent, as in Nova's ``if value``)."""

    source: Source


@dataclass(frozen=True)
class Truthy:
    """The source is true: a boolean spec read as Nova's ``bool_from_string`` reads it, a
    non-empty set, a non-zero number."""

    source: Source


@dataclass(frozen=True)
class In:
    """The source's value is one of ``values``."""

    source: Source
    values: tuple[str, ...]


@dataclass(frozen=True)
class Contains:
    """The source is a string that contains ``text`` (``q35`` in a machine type)."""

    source: Source
    text: str


@dataclass(frozen=True)
class AnyOf:
    conditions: tuple[Condition, ...]


@dataclass(frozen=True)
class AllOf:
    conditions: tuple[Condition, ...]


@dataclass(frozen=True)
class Not:
    condition: Condition


Condition = Present | Truthy | In | Contains | AnyOf | AllOf | Not


def sources_of(condition: Condition | None) -> tuple[Source, ...]:
    """Every source a condition reads, in order, once each."""
    if condition is None:
        return ()
    if isinstance(condition, AnyOf | AllOf):
        found: list[Source] = []
        for part in condition.conditions:
            found += [s for s in sources_of(part) if s not in found]
        return tuple(found)
    if isinstance(condition, Not):
        return sources_of(condition.condition)
    return (condition.source,)


def spoken(source: Source, facts: Mapping[str, FactDefinition] | None = None) -> str:
    """How messages name a source: a key or field by its name, a fact as its definition says
    (with the keys that set it), when ``facts`` gives the definitions."""
    if isinstance(source, Fact) and facts and facts.get(source.name) is not None:
        return facts[source.name].spoken or source.name
    if isinstance(source, Field):
        side, _, name = source.name.rpartition(".")
        return f"the image's {name}" if side == "image" else f"the flavor's {source.name}"
    return str(source)


def describe(
    condition: Condition | None,
    *,
    needed: bool = False,
    facts: Mapping[str, FactDefinition] | None = None,
) -> str:
    """A condition in words, for messages: ``hw:cpu_policy is 'dedicated'``, or with
    ``needed`` what must hold, for "Nova needs ..." (``... to be 'dedicated'``). Facts are named
    as ``facts`` (the definitions, by name) says, else by their own name."""
    be, contain = ("to be", "to contain") if needed else ("is", "contains")

    def said(source: Source) -> str:
        return spoken(source, facts)

    def clause(source: Source, on: bool) -> str | None:
        if not (isinstance(source, Fact) and facts and source.name in facts) or needed:
            return None
        definition = facts[source.name]
        return (definition.holds if on else definition.fails) or None

    if isinstance(condition, Not) and isinstance(condition.condition, Present | Truthy):
        source = condition.condition.source
        if isinstance(condition.condition, Truthy) and (text := clause(source, False)):
            return text
        unset = "unset" if isinstance(condition.condition, Present) else "off"
        return f"{said(source)} {be} {unset}"
    if isinstance(condition, Truthy) and isinstance(condition.source, Field):
        return f"{said(condition.source)} {be} more than 0"
    if isinstance(condition, Present):
        return f"{said(condition.source)} {be} set"
    if isinstance(condition, Truthy):
        return clause(condition.source, True) or f"{said(condition.source)} {be} on"
    if isinstance(condition, In):
        values = " or ".join(repr(v) for v in condition.values)
        return f"{said(condition.source)} {be} {values}"
    if isinstance(condition, Contains):
        return f"{said(condition.source)} {contain} {condition.text!r}"
    if isinstance(condition, AnyOf):
        parts = condition.conditions
        return " or ".join(describe(part, needed=needed, facts=facts) for part in parts)
    if isinstance(condition, AllOf):
        parts = condition.conditions
        return " and ".join(describe(part, needed=needed, facts=facts) for part in parts)
    if isinstance(condition, Not):
        return f"not ({describe(condition.condition, facts=facts)})"
    return str(condition)


# --- Examples ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    """The smallest flavor (and image) that breaks a rule, so that the reference can show the
    rule at work and a test can hold both onespec's runtime and Nova's own code to it.

    ``specs`` are the flavor's extra specs and ``properties`` the image's, as (name, value)
    pairs, so that the rule stays hashable. The sizes default to a flavor of one vCPU, 1 GiB of
    RAM and a 1 GiB root disk (a root disk of 0 is refused to non-admin users by a policy of
    Nova's API, a rule of its own), and to an active image that sets no size. ``disabled`` marks
    the flavor disabled; ``status`` and ``encryption_key`` set the image's Glance status and
    its ``cinder_encryption_key_id``. An example without properties, sizes or those has no
    image at all.
    """

    specs: tuple[tuple[str, str], ...] = ()
    properties: tuple[tuple[str, str], ...] = ()
    vcpus: int = 1
    ram: int = 1024
    disk: int = 1
    min_ram: int = 0
    min_disk: int = 0
    size: int = 0
    disabled: bool = False
    status: str = ""
    encryption_key: str = ""

    @classmethod
    def of(
        cls,
        specs: Mapping[str, str] | None = None,
        properties: Mapping[str, str] | None = None,
        **fields: Any,
    ) -> Example:
        """An example written with mappings, as flavors and images are written elsewhere."""
        return cls(tuple((specs or {}).items()), tuple((properties or {}).items()), **fields)

    @property
    def has_image(self) -> bool:
        """Whether the rule needs an image to break: the example sets a property, a size, a
        status or an encryption key."""
        return bool(
            self.properties
            or self.min_ram
            or self.min_disk
            or self.size
            or self.status
            or self.encryption_key
        )

    def flavor_document(self) -> dict[str, Any]:
        """The flavor as Nova's API shows it, the shape ``validate_flavor`` reads."""
        document: dict[str, Any] = {
            "vcpus": self.vcpus,
            "ram": self.ram,
            "disk": self.disk,
            "extra_specs": dict(self.specs),
        }
        if self.disabled:
            document["OS-FLV-DISABLED:disabled"] = True
        return document

    def image_document(self) -> dict[str, Any] | None:
        """The image as Glance shows it (properties nested), or None without an image."""
        if not self.has_image:
            return None
        properties = dict(self.properties)
        if self.encryption_key:
            properties["cinder_encryption_key_id"] = self.encryption_key
        return {
            "status": self.status or "active",
            "properties": properties,
            "min_ram": self.min_ram,
            "min_disk": self.min_disk,
            "size": self.size,
        }


# --- Rules -------------------------------------------------------------------------------------


Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Rule:
    """What every rule has: a stable ``name`` (its finding's code), the exception class Nova
    raises (``nova_exception``), the ``phase`` in which it does, ``fix``, the sentence that
    says what to change, and ``example``, the smallest flavor (and image) that breaks it.

    A rule of ``severity="warning"`` is one Nova does not refuse: a key that takes effect only
    with another (Nova, or its driver, ignores it alone) or two keys the hypervisor will not
    take together. It names no exception and no phase (both None)."""

    name: str
    nova_exception: str | None
    phase: Phase | None
    fix: str
    #: The rule applies only when this holds (None: always).
    when: Condition | None = field(default=None, kw_only=True)
    severity: Severity = field(default="error", kw_only=True)
    #: The smallest flavor (and image) that breaks the rule.
    example: Example | None = field(default=None, kw_only=True)
    #: The Nova policy that makes this refusal, where one does: the default policy refuses
    #: the users it names, and an admin (or a cloud whose policy allows it) is not refused.
    by_policy: str | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        refused = self.nova_exception is not None and self.phase in PHASES
        if self.severity == "error" and not refused:
            raise ValueError(f"rule {self.name!r}: an error names Nova's exception and a phase")
        if self.severity == "warning" and (self.nova_exception or self.phase):
            raise ValueError(f"rule {self.name!r}: a warning is no refusal of Nova's")

    def sources(self) -> tuple[Source, ...]:
        return sources_of(self.when)


@dataclass(frozen=True)
class Requires(Rule):
    """When ``when`` holds, ``needs`` must hold too."""

    needs: Condition = field(kw_only=True)

    def sources(self) -> tuple[Source, ...]:
        return _merged(sources_of(self.when), sources_of(self.needs))


@dataclass(frozen=True)
class Conflicts(Rule):
    """``first`` and ``second`` may not both hold."""

    first: Condition = field(kw_only=True)
    second: Condition = field(kw_only=True)

    def sources(self) -> tuple[Source, ...]:
        return _merged(sources_of(self.first), sources_of(self.second), sources_of(self.when))


@dataclass(frozen=True)
class MaskWithinVcpus(Rule):
    """A set of vCPUs (a mask, a :class:`Fact`) is not empty, lies within ``range(vcpus)`` and,
    unless ``all_allowed_when`` holds, leaves at least one vCPU out of it."""

    mask: Fact = field(kw_only=True)
    written_as: tuple[Source, ...] = field(kw_only=True)
    all_allowed_when: Condition | None = field(default=None, kw_only=True)

    def sources(self) -> tuple[Source, ...]:
        return _merged(
            sources_of(self.when),
            self.written_as,
            sources_of(self.all_allowed_when),
            (Field("vcpus"),),
        )


PartitionAspect = Literal["within", "disjoint", "cover"]


@dataclass(frozen=True)
class CpuListsPartition(Rule):
    """Per-node CPU lists partition ``range(vcpus)``; ``aspect`` is the part of that this rule
    checks (every CPU ``within`` range, lists ``disjoint``, together they ``cover`` every
    vCPU), because Nova raises a different exception for each."""

    lists: Fact = field(kw_only=True)
    aspect: PartitionAspect = field(kw_only=True)
    written_as: tuple[Source, ...] = field(kw_only=True)

    def sources(self) -> tuple[Source, ...]:
        return _merged(self.written_as, sources_of(self.when))


@dataclass(frozen=True)
class SumsTo(Rule):
    """The numbers of ``parts`` (per-node memory) add up to ``total`` (the flavor's RAM)."""

    parts: Fact = field(kw_only=True)
    total: Field = field(kw_only=True)
    written_as: tuple[Source, ...] = field(kw_only=True)

    def sources(self) -> tuple[Source, ...]:
        return _merged(self.written_as, (self.total,), sources_of(self.when))


@dataclass(frozen=True)
class Divides(Rule):
    """``count`` divides each of ``totals`` (NUMA nodes divide vCPUs and RAM)."""

    count: Fact = field(kw_only=True)
    totals: tuple[Field, ...] = field(kw_only=True)
    written_as: tuple[Source, ...] = field(kw_only=True)

    def sources(self) -> tuple[Source, ...]:
        return _merged(self.written_as, self.totals, sources_of(self.when))


@dataclass(frozen=True)
class MatchesCount(Rule):
    """``value`` equals ``expected`` (``resources:PCPU`` equals the vCPUs, plus one for an
    isolated emulator thread)."""

    value: Fact = field(kw_only=True)
    expected: Fact = field(kw_only=True)
    written_as: tuple[Source, ...] = field(kw_only=True)

    def sources(self) -> tuple[Source, ...]:
        return _merged(self.written_as, sources_of(self.when))


@dataclass(frozen=True)
class PerNodeComplete(Rule):
    """Per-node lists are given together and for every node: both or neither, each as long as
    the node count."""

    lists: tuple[Fact, ...] = field(kw_only=True)
    count: Fact = field(kw_only=True)
    written_as: tuple[Source, ...] = field(kw_only=True)

    def sources(self) -> tuple[Source, ...]:
        return _merged(self.written_as, sources_of(self.when))


@dataclass(frozen=True)
class TopologyAdmits(Rule):
    """Some sockets x cores x threads within the maximum topology multiplies to the vCPUs."""

    written_as: tuple[Source, ...] = field(kw_only=True)

    def sources(self) -> tuple[Source, ...]:
        return _merged((Field("vcpus"),), self.written_as)


@dataclass(frozen=True)
class AtMost(Rule):
    """``value`` is no greater than ``limit`` (each compared where both are set and non-zero,
    unless ``limit_may_be_zero``), times ``scale``."""

    value: Source = field(kw_only=True)
    limit: Source = field(kw_only=True)
    scale: int = field(default=1, kw_only=True)

    def sources(self) -> tuple[Source, ...]:
        return _merged((self.value, self.limit), sources_of(self.when))


#: How Nova reads a value it can refuse as unreadable: ``numa-nodes`` is
#: ``_get_numa_node_count_constraint`` (the flavor's text must be the integer's own spelling,
#: as oslo's ``is_int_like`` says, and at least 1), ``page-sizes`` is
#: ``_get_numa_pagesize_constraint`` (a keyword, digits, or a size with a unit ending in B,
#: b or bit; the image's is read only where the flavor lets it choose).
Reader = Literal["numa-nodes", "page-sizes"]


@dataclass(frozen=True)
class Readable(Rule):
    """Nova reads ``values`` (a flavor's spec and its image twin, in that order) with
    ``reader`` and refuses what it cannot read."""

    values: tuple[Source, ...] = field(kw_only=True)
    reader: Reader = field(kw_only=True)

    def sources(self) -> tuple[Source, ...]:
        return _merged(self.values, sources_of(self.when))


class ClashPolicy(enum.Enum):
    """How Nova settles a flavor key and the image property of the same meaning, when both are
    set: the five kinds its code uses."""

    #: Both may be set, only to the same value.
    EQUAL = "equal"
    #: The flavor sets a limit the image may only narrow.
    FLAVOR_LIMITS = "flavor-limits"
    #: Only one of the two may be set.
    ONE_SIDE = "one-side"
    #: The image's value is used; no error.
    IMAGE_WINS = "image-wins"
    #: The flavor's value is used; no error.
    FLAVOR_WINS = "flavor-wins"


ValueKind = Literal["str", "bool", "int"]


@dataclass(frozen=True)
class TwinClash(Rule):
    """A flavor extra spec and its image twin. ``kind`` says how both sides are read and
    compared (booleans as Nova's ``bool_from_string``). For ``FLAVOR_LIMITS``, ``flavor_allows``
    lists the flavor values that let the image choose (page sizes ``any`` and ``large``); empty
    means a numeric limit the image may not exceed."""

    spec: str = field(kw_only=True)
    prop: str = field(kw_only=True)
    policy: ClashPolicy = field(kw_only=True)
    kind: ValueKind = field(default="str", kw_only=True)
    flavor_allows: tuple[str, ...] = field(default=(), kw_only=True)

    def sources(self) -> tuple[Source, ...]:
        return _merged((Spec(self.spec), Prop(self.prop)), sources_of(self.when))


def _merged(*groups: tuple[Source, ...]) -> tuple[Source, ...]:
    found: list[Source] = []
    for group in groups:
        found += [s for s in group if s not in found]
    return tuple(found)


AnyRule = (
    Requires
    | Conflicts
    | MaskWithinVcpus
    | CpuListsPartition
    | SumsTo
    | Divides
    | MatchesCount
    | PerNodeComplete
    | TopologyAdmits
    | AtMost
    | TwinClash
    | Readable
)
