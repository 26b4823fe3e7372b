"""The words of the rules Nova applies when a server's flavor or image changes, as data.

A resize moves a server from an *old* flavor to a *new* one, keeping its image; a rebuild
keeps the flavor and replaces the *old* image with a *new* one. Either way Nova sees two sides,
each a flavor with an image, and refuses some changes for what differs between them (a smaller
root disk, a NUMA topology the new image would change) or for what one side holds (a vTPM on
the server being rebuilt). This module gives the words to state those refusals: where a value
is read (:class:`Old`, :class:`New`, :class:`Server`), what is read on a side (the
create-time vocabulary's :class:`~onespec.definitions.flavor_rules.Spec`, ``Prop`` and
``Field``, and the facts of :data:`CHANGE_FACTS`), the conditions over them, one kind of rule
(:class:`ChangeRule`, refused when its condition holds) and the example that breaks it.

What both sides must pass on their own (the new pair is checked as a create checks it) is the
create-time catalogue's business, not this module's.

Standard library only: the generator reads it, and nothing here is compiled at import time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from onespec.definitions.flavor_rules import Field, Prop, Spec

Operation = Literal["resize", "rebuild"]
OPERATIONS: tuple[Operation, ...] = ("resize", "rebuild")

#: Where, during the operation, Nova refuses: its API (the request answers 409 or 400), the
#: conductor (the action fails after the API accepted it) or the compute host (the action
#: fails and is rolled back there).
Stage = Literal["api", "conductor", "compute"]
STAGES: tuple[Stage, ...] = ("api", "conductor", "compute")


# --- Where a value is read --------------------------------------------------------------------


@dataclass(frozen=True)
class ChangeFact:
    """A value read from one side (a flavor with its image) that no single key holds."""

    name: str

    def __str__(self) -> str:
        return self.name


SideSource = Spec | Prop | Field | ChangeFact


@dataclass(frozen=True)
class Old:
    """A value read from the side before the change: the old flavor (resize) or the old image
    (rebuild), with what the other side keeps."""

    source: SideSource

    def __str__(self) -> str:
        return f"the old {_noun(self.source)}"


@dataclass(frozen=True)
class New:
    """A value read from the side after the change."""

    source: SideSource

    def __str__(self) -> str:
        return f"the new {_noun(self.source)}"


@dataclass(frozen=True)
class Server:
    """What the operation knows of the server beyond its flavor and image:
    ``volume_backed`` (its root disk is a volume) or ``image_changes`` (a rebuild names an
    image other than the one the server runs)."""

    name: Literal["volume_backed", "image_changes"]

    def __str__(self) -> str:
        return {
            "volume_backed": "the server is volume-backed",
            "image_changes": "the image changes",
        }[self.name]


Source = Old | New | Server
#: A value compared with a source: a source, or a constant.
Operand = Source | int | str


def _noun(source: SideSource) -> str:
    if isinstance(source, Spec):
        return f"flavor's {source.key}"
    if isinstance(source, Prop):
        return f"image's {source.name}"
    if isinstance(source, Field):
        return f"{'image' if source.name.startswith('image.') else 'flavor'}'s {source.name}"
    return CHANGE_FACTS[source.name].noun


@dataclass(frozen=True)
class ChangeFactDefinition:
    """A fact of one side: its name, a noun for messages, what it means and what it reads."""

    name: str
    noun: str
    description: str
    reads: tuple[str, ...]


#: The facts a side is read into, computed by the runtime (``flavors/change_side.py``).
CHANGE_FACTS: Mapping[str, ChangeFactDefinition] = {
    fact.name: fact
    for fact in (
        ChangeFactDefinition(
            "numa_constraints",
            "guest NUMA constraints",
            "What Nova's numa_get_constraints builds from the flavor and the image: no NUMA "
            "topology, or its node count, per-node CPUs and memory, page size, CPU and thread "
            "policy and dedicated CPUs.",
            (
                "hw:numa_nodes",
                "hw:numa_cpus.N",
                "hw:numa_mem.N",
                "hw:mem_page_size",
                "hw:cpu_policy",
                "hw:cpu_thread_policy",
                "hw:cpu_realtime_mask",
                "hw:cpu_dedicated_mask",
                "hw_numa_nodes",
                "hw_numa_cpus.N",
                "hw_numa_mem.N",
                "hw_mem_page_size",
                "hw_cpu_policy",
                "hw_cpu_thread_policy",
                "hw_cpu_realtime_mask",
                "traits_required",
            ),
        ),
        ChangeFactDefinition(
            "vtpm",
            "vTPM",
            "Whether the server has a virtual TPM: hw:tpm_version or the image's hw_tpm_version.",
            ("hw:tpm_version", "hw_tpm_version"),
        ),
        ChangeFactDefinition(
            "tpm_secret_security",
            "TPM secret security",
            "Who owns the vTPM's secret: hw:tpm_secret_security, 'user' when unset.",
            ("hw:tpm_secret_security",),
        ),
        ChangeFactDefinition(
            "forbidden_traits",
            "flavor's forbidden traits",
            "The traits the flavor forbids, read as the conductor reads them on rebuild: every "
            "key starting 'trait' whose value is 'forbidden'.",
            ("trait:*",),
        ),
        ChangeFactDefinition(
            "required_traits",
            "image's required traits",
            "The traits the image requires (trait:NAME=required properties).",
            ("traits_required",),
        ),
        ChangeFactDefinition(
            "flavor_required_traits",
            "flavor's required traits",
            "The traits the flavor requires: every key starting 'trait' whose value is 'required'.",
            ("trait:*",),
        ),
        ChangeFactDefinition(
            "unknown_architecture",
            "image's unknown hw_architecture",
            "The image's hw_architecture when Nova's Architecture.canonicalize refuses it.",
            ("hw_architecture",),
        ),
    )
}


# --- Conditions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Present:
    """The source is set (an empty string counts as unset)."""

    source: Source


@dataclass(frozen=True)
class Truthy:
    """The source is true: set to a true boolean, a non-empty set, a non-zero number."""

    source: Source


@dataclass(frozen=True)
class Equal:
    left: Source
    right: Operand


@dataclass(frozen=True)
class Below:
    """``left`` is a number smaller than ``right``."""

    left: Source
    right: Operand


@dataclass(frozen=True)
class In:
    source: Source
    values: tuple[str, ...]


@dataclass(frozen=True)
class Overlaps:
    """Two sets share a member."""

    left: Source
    right: Source


@dataclass(frozen=True)
class Outside:
    """A set holds a member that neither of ``others`` holds."""

    members: Source
    others: tuple[Source, ...]


@dataclass(frozen=True)
class AllOf:
    conditions: tuple[Condition, ...]


@dataclass(frozen=True)
class AnyOf:
    conditions: tuple[Condition, ...]


@dataclass(frozen=True)
class Not:
    condition: Condition


Condition = Present | Truthy | Equal | Below | In | Overlaps | Outside | AllOf | AnyOf | Not


def sources_of(condition: Condition) -> tuple[Source, ...]:
    """Every source a condition reads, in order, once each."""
    found: list[Source] = []

    def add(*items: Any) -> None:
        for item in items:
            if isinstance(item, Old | New | Server) and item not in found:
                found.append(item)

    if isinstance(condition, AllOf | AnyOf):
        for part in condition.conditions:
            add(*sources_of(part))
    elif isinstance(condition, Not):
        add(*sources_of(condition.condition))
    elif isinstance(condition, Present | Truthy | In):
        add(condition.source)
    elif isinstance(condition, Equal | Below | Overlaps):
        add(condition.left, condition.right)
    elif isinstance(condition, Outside):
        add(condition.members, *condition.others)
    return tuple(found)


def describe(condition: Condition) -> str:
    """A condition in words, for the reference and for messages."""
    if isinstance(condition, Present):
        return f"{condition.source} is set"
    if isinstance(condition, Truthy):
        if isinstance(condition.source, Server):
            return str(condition.source)
        return f"{condition.source} is on"
    if isinstance(condition, Equal):
        return f"{condition.left} is {_operand(condition.right)}"
    if isinstance(condition, Below):
        return f"{condition.left} is smaller than {_operand(condition.right)}"
    if isinstance(condition, In):
        return f"{condition.source} is {' or '.join(repr(v) for v in condition.values)}"
    if isinstance(condition, Overlaps):
        return f"{condition.left} include some of {condition.right}"
    if isinstance(condition, Outside):
        return f"{condition.members} include one in none of {_listed(condition.others)}"
    if isinstance(condition, AllOf):
        return " and ".join(describe(part) for part in condition.conditions)
    if isinstance(condition, AnyOf):
        return "either " + " or ".join(describe(part) for part in condition.conditions)
    if isinstance(condition.condition, Truthy) and isinstance(condition.condition.source, Server):
        return (
            str(condition.condition.source)
            .replace(" is ", " is not ")
            .replace(" changes", " does not change")
        )
    if isinstance(condition.condition, Equal):
        inner = condition.condition
        return f"{inner.left} differs from {_operand(inner.right)}"
    return f"not ({describe(condition.condition)})"


def _operand(operand: Operand) -> str:
    return repr(operand) if isinstance(operand, str | int) else str(operand)


def _listed(sources: tuple[Source, ...]) -> str:
    words = [str(source) for source in sources]
    return " and ".join(words) if len(words) <= 2 else ", ".join(words[:-1]) + " or " + words[-1]


# --- Examples and rules -------------------------------------------------------------------------


@dataclass(frozen=True)
class SideExample:
    """One side of an example: a flavor (its sizes, id, whether it is disabled and its extra
    specs) and an image (its id and properties), as (name, value) pairs so it stays hashable."""

    specs: tuple[tuple[str, str], ...] = ()
    properties: tuple[tuple[str, str], ...] = ()
    vcpus: int = 1
    ram: int = 1024
    disk: int = 1
    ephemeral: int = 0
    flavor_id: str = "f-old"
    disabled: bool = False
    image_id: str = "i-old"

    def flavor_document(self) -> dict[str, Any]:
        """The flavor as Nova's API shows it (``OS-FLV-DISABLED:disabled`` included)."""
        return {
            "id": self.flavor_id,
            "name": self.flavor_id,
            "vcpus": self.vcpus,
            "ram": self.ram,
            "disk": self.disk,
            "OS-FLV-EXT-DATA:ephemeral": self.ephemeral,
            "OS-FLV-DISABLED:disabled": self.disabled,
            "extra_specs": dict(self.specs),
        }

    def image_document(self) -> dict[str, Any]:
        """The image as Glance shows it, its properties nested."""
        return {"id": self.image_id, "name": self.image_id, "properties": dict(self.properties)}


def side(
    specs: Mapping[str, str] | None = None,
    properties: Mapping[str, str] | None = None,
    **fields: Any,
) -> SideExample:
    """A side written with mappings, as flavors and images are written elsewhere."""
    return SideExample(tuple((specs or {}).items()), tuple((properties or {}).items()), **fields)


@dataclass(frozen=True)
class ChangeExample:
    """The smallest change that breaks a rule: the two sides, and whether the server's root
    disk is a volume. A resize keeps the image (both sides' properties and image id agree); a
    rebuild keeps the flavor."""

    old: SideExample
    new: SideExample
    volume_backed: bool = False

    def keeps_image(self) -> bool:
        return (self.old.properties, self.old.image_id) == (self.new.properties, self.new.image_id)

    def keeps_flavor(self) -> bool:
        flavor = ("specs", "vcpus", "ram", "disk", "ephemeral", "flavor_id", "disabled")
        return all(getattr(self.old, name) == getattr(self.new, name) for name in flavor)


Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class ChangeRule:
    """One refusal Nova makes when a server's flavor (``resize``) or image (``rebuild``)
    changes: refused when ``refused_when`` holds. ``nova_exception`` is the class Nova raises,
    ``stage`` where in the operation, ``nova_code`` the function that raises it; ``fix`` says
    what to change. A warning (``severity="warning"``) is a change Nova may refuse for what only
    the host knows; it names no exception."""

    name: str
    operation: Operation
    nova_exception: str | None
    stage: Stage
    nova_code: str
    fix: str
    refused_when: Condition = field(kw_only=True)
    example: ChangeExample = field(kw_only=True)
    severity: Severity = field(default="error", kw_only=True)

    def __post_init__(self) -> None:
        if (self.severity == "error") != (self.nova_exception is not None):
            raise ValueError(
                f"rule {self.name!r}: an error, and only an error, names Nova's exception"
            )
        kept = (
            self.example.keeps_image()
            if self.operation == "resize"
            else self.example.keeps_flavor()
        )
        if not kept:
            what = "image" if self.operation == "resize" else "flavor"
            raise ValueError(f"rule {self.name!r}: a {self.operation} example keeps the {what}")

    def sources(self) -> tuple[Source, ...]:
        return sources_of(self.refused_when)
