"""The generated rules between keys, applied: which names a flavor and its image make present,
which rules they break and which keys each broken rule involves.

Apart from :mod:`onespec.validators_runtime.flavors`, which also checks each extra spec on its
own, so that the per-key runtime (:mod:`onespec.validators_runtime.extra_specs`) can apply the
rules that extra specs alone can break (:mod:`onespec.validators_runtime.spec_rules`) without
importing that package back.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any, cast

from onespec.validators_runtime._generated.extra_specs import EXACT as EXACT_KEYS
from onespec.validators_runtime._generated.flavor_rules import (
    FLAVOR_FIELDS,
    RULES,
    TRIGGERS,
    broken,
)
from onespec.validators_runtime._generated.image_properties import PROPERTY_KINDS
from onespec.validators_runtime.flavor_parts.facts import View, cpu_request_name, may_request_cpus
from onespec.validators_runtime.flavor_parts.findings import FlavorFinding
from onespec.validators_runtime.flavor_parts.image_props import typed_properties
from onespec.validators_runtime.flavor_parts.inputs import Flavor, Image
from onespec.validators_runtime.problems import Location, Severity


def involved(candidates: tuple[str, ...], view: View) -> tuple[str, ...]:
    """The keys, properties and fields a broken rule involves, as the input spells them:
    ``candidates`` are the names the rule reads (a fact stands for the keys it is read from),
    and each becomes the spellings present."""
    # A dict keeps the first-seen order and finds a name met before at once: a flavor of
    # thousands of resources groups involves thousands of keys in one rule.
    names: dict[str, None] = {}
    for name in candidates:
        names.update(dict.fromkeys(_spellings(name, view)))
    return tuple(names)


#: The flavor's own fields that are not sizes (``disabled``): a finding names them as they are.
_FLAGS = frozenset({"disabled"})


def _spellings(name: str, view: View) -> list[str]:
    if name in FLAVOR_FIELDS or name in _FLAGS or name.startswith("image."):
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


#: Every name some rule reads.
TRIGGER_NAMES: frozenset[str] = frozenset(TRIGGERS)

#: The image's own fields some rule reads (``image.min_ram``), each with its attribute: present
#: when set.
_IMAGE_FIELDS = tuple(
    (name.removeprefix("image."), name)
    for name in sorted(TRIGGER_NAMES)
    if name.startswith("image.")
)
_GROUPED = ("resources", "trait")


def _number(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` also takes other scripts' digits)."""
    return text.isascii() and text.isdigit()


def normalized_names(key: str) -> tuple[str, ...]:
    """A key as the rules name it: ``resources:PCPU`` for ``resources1:PCPU``,
    ``hw:numa_cpus.N`` and ``hw:numa_cpus`` for ``hw:numa_cpus.1``."""
    if key[:1] in ("r", "t"):
        if may_request_cpus(key):
            cpu_request = cpu_request_name(key)
            if cpu_request is not None:
                return (cpu_request,)
        head, colon, rest = key.partition(":")
        if colon and head[-1:].isdigit():
            for stem in _GROUPED:
                number = head[len(stem) :]
                if head.startswith(stem) and _number(number) and number[0] != "0":
                    key = f"{stem}:{rest}"
                    break
    if key[-1:].isdigit():
        stem, dot, number = key.rpartition(".")
        if dot and _number(number):
            return (stem, stem + ".N")
    return (key,)


def respelled_names(keys: Set[str]) -> set[str]:
    """The rules' names for extra-spec ``keys`` they spell otherwise (resources1:PCPU,
    hw:numa_cpus.0, resources:PCPUX): each such key holds one of these marks (the names it
    becomes do)."""
    names: set[str] = set()
    for key in keys:
        if isinstance(key, str) and (may_request_cpus(key) or "numa_" in key):
            names.update(TRIGGER_NAMES.intersection(normalized_names(key)))
    return names


def flavor_names(flavor: Flavor) -> set[str]:
    """The names a flavor makes present: its keys, and the rules' names for those the rules
    spell otherwise."""
    names = set(flavor.extra_specs)
    rest = names - _AS_SPELLED
    if rest:
        names |= respelled_names(rest)
    return names


def image_names(image: Image, props: Mapping[str, Any]) -> set[str]:
    """The names an image makes present: its typed properties (``props``, from
    :func:`typed_properties`, which the rules read), and its size fields when set. Typing has
    already given the rules' names to what Glance spells otherwise (``hw_numa_cpus.0`` is in
    the list ``hw_numa_cpus``, ``trait:X=required`` in ``traits_required``); a property Nova
    cannot read is absent for the rules, as here."""
    names = set(props)
    # An image's sizes are mostly unset, and its status, when known, mostly 'active'.
    known = image.min_ram or image.min_disk or image.size or image.status
    if known or image.cinder_encryption_key_id:
        names.update(name for field, name in _IMAGE_FIELDS if getattr(image, field))
    return names


#: Names the rules spell as they are: the trigger names, the extra-spec keys the catalogue
#: names exactly and the image properties Nova reads (less any that normalizing would change).
_AS_SPELLED = frozenset(
    name
    for name in (*TRIGGER_NAMES, *EXACT_KEYS, *PROPERTY_KINDS)
    if normalized_names(name) == (name,)
)


def present_names(
    flavor: Flavor, image: Image | None, props: Mapping[str, Any] | None = None
) -> Set[str]:
    """The names present, as the rules spell them: the flavor's keys and the image's typed
    properties (:func:`flavor_names`, :func:`image_names`), in one set. The generated rules
    look at a rule only when the names it needs are among them, so most rules cost one test.
    ``props`` are the image's typed properties, typed here when not given."""
    names = flavor_names(flavor)
    if image is not None:
        if props is None:
            props, _ = typed_properties(image.properties)
        names |= image_names(image, props)
    return names


def rule_findings(
    flavor: Flavor,
    image: Image | None,
    props: Mapping[str, Any],
    names: Set[str] | None = None,
) -> list[FlavorFinding]:
    """The broken rules between keys, in Nova's order within each phase. ``names`` are the
    names present (:func:`present_names`), when the caller already has them."""
    if names is None:
        names = present_names(flavor, image, props)
    view = View(flavor, image, props, names)
    return [
        rule_finding(index, what, view)
        for index, what in broken(view, flavor.extra_specs, props, names)
    ]


def rule_finding(index: int, what: str, view: View) -> FlavorFinding:
    """The finding of rule ``index`` broken as ``what`` says, for the pair ``view`` holds.

    Apart from :func:`rule_findings` so that a caller checking many pairs (a fleet) can take
    the rules' verdicts from :func:`broken` alone and build a finding, with its message and the
    keys it involves, only for the first pair that breaks a rule."""
    name, nova_exception, phase, severity, fix, asks_image, candidates = RULES[index]
    keys = involved(candidates, view)
    if view.image is None and asks_image:
        # What the flavor asks of its image: any image that meets it will do.
        severity = "warning"
    return FlavorFinding(
        code=name,
        message=f"{what}. {fix}",
        # The table holds the catalogue's severities, each "error" or "warning".
        severity=cast(Severity, severity),
        location=Location(path=keys[0] if keys else None),
        keys=keys,
        nova_exception=nova_exception,
        phase=phase,
    )
