"""Check a whole flavor, and a flavor with the image it boots: the rules between keys applied to
the flavor's extra specs, its fields and its image's properties. The package's own docstring
says how it is used; this module defines most of the names it offers.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import replace
from operator import ge, itemgetter
from typing import Any, cast

from onespec.validators_runtime._generated.extra_specs import EXACT as EXACT_KEYS
from onespec.validators_runtime._generated.flavor_rules import (
    BY_POLICY,
    FLAVOR_FIELDS,
    RULES,
    TRIGGERS,
    broken,
)
from onespec.validators_runtime._generated.image_properties import PROPERTY_KINDS
from onespec.validators_runtime.extra_specs import (
    ExtraSpecValidationError,
    default_registry,
    stored_text,
)
from onespec.validators_runtime.flavor_parts.facts import View, cpu_request_name, may_request_cpus
from onespec.validators_runtime.flavor_parts.findings import FlavorFinding
from onespec.validators_runtime.flavor_parts.image_props import typed_properties, unknown_properties
from onespec.validators_runtime.flavor_parts.inputs import (
    Flavor,
    Image,
    all_text_items,
    read_flavor,
    read_image,
)
from onespec.validators_runtime.flavor_parts.spellings import other_side_spellings
from onespec.validators_runtime.problems import Location, Severity

#: The rule server create checks before it reads the image: a disabled flavor.
DISABLED_RULE = "flavor-disabled"

#: Nova's exception for an extra spec refused on its own (microversion 2.86 and later).
PER_KEY_EXCEPTION = "ValidationError"


def per_key_findings(specs: Mapping[str, str], mode: str = "strict") -> list[FlavorFinding]:
    """The extra-spec runtime's findings, in the whole-flavor shape."""
    try:
        found = default_registry().validate(specs, mode=mode)
    except ExtraSpecValidationError as error:
        found = list(error.findings)
    if not found:
        return []
    return [
        FlavorFinding(
            code=finding.code,
            message=finding.message,
            severity=finding.severity,
            location=Location(path=finding.key if isinstance(finding.key, str) else None),
            value=finding.value,
            suggestion=finding.suggestion,
            keys=(finding.key,) if isinstance(finding.key, str) else (),
            nova_exception=PER_KEY_EXCEPTION if finding.severity == "error" else None,
            phase="api" if finding.severity == "error" else None,
        )
        for finding in found
    ]


#: Reads a flavor's sizes, in FLAVOR_FIELDS' order, and the least value of each.
_SIZES = itemgetter(*FLAVOR_FIELDS)
_LEAST = tuple(FLAVOR_FIELDS.values())


def _field_findings(flavor: Flavor) -> list[FlavorFinding]:
    """A finding for each size below the least Nova accepts."""
    sizes = flavor.__dict__
    if all(map(ge, _SIZES(sizes), _LEAST)):
        return []  # the usual flavor, in one pass
    findings = []
    for name, least in FLAVOR_FIELDS.items():
        value = sizes[name]
        if value < least:
            findings.append(
                FlavorFinding(
                    code="invalid-flavor-field",
                    message=f"The flavor's {name} is {value}; Nova needs at least {least}.",
                    location=Location(path=name),
                    value=value,
                    keys=(name,),
                    nova_exception="InvalidInput",
                    phase="api",
                )
            )
    return findings


def involved(candidates: tuple[str, ...], view: View) -> tuple[str, ...]:
    """The keys, properties and fields a broken rule involves, as the input spells them:
    ``candidates`` are the names the rule reads (a fact stands for the keys it is read from),
    and each becomes the spellings present."""
    names: list[str] = []
    for name in candidates:
        for spelled in _spellings(name, view):
            if spelled not in names:
                names.append(spelled)
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
    findings = []
    for index, what in broken(view, flavor.extra_specs, props, names):
        name, nova_exception, phase, severity, fix, asks_image, candidates = RULES[index]
        keys = involved(candidates, view)
        if image is None and asks_image:
            # What the flavor asks of its image: any image that meets it will do.
            severity = "warning"
        findings.append(
            FlavorFinding(
                code=name,
                message=f"{what}. {fix}",
                # The table holds the catalogue's severities, each "error" or "warning".
                severity=cast(Severity, severity),
                location=Location(path=keys[0] if keys else None),
                keys=keys,
                nova_exception=nova_exception,
                phase=phase,
            )
        )
    return findings


def validate_flavor(
    flavor: Flavor | Mapping[str, Any],
    image: Image | Mapping[str, Any] | None = None,
    *,
    mode: str = "strict",
    as_admin: bool = False,
) -> list[FlavorFinding]:
    """Every finding about ``flavor`` (and ``image``, when given): errors Nova would refuse the
    pair for, and warnings. ``mode`` is the extra-spec runtime's (``strict``, ``permissive``,
    ``off``). Some refusals are made by a policy of Nova's API whose default refuses
    non-admin users (a root disk of 0): ``as_admin`` checks as an admin, who is not refused,
    and leaves them out. Raises :exc:`~onespec.validators_runtime.inputs.InputError` when the
    flavor or image cannot be read at all."""
    read = not isinstance(flavor, Flavor)
    whole = flavor if isinstance(flavor, Flavor) else read_flavor(flavor)
    if image is not None and not isinstance(image, Image):
        image = read_image(image)
    findings = _field_findings(whole)
    sized = not findings  # the rules read the sizes: only sizes Nova accepts
    findings += per_key_findings(whole.extra_specs, mode)
    props: Mapping[str, Any] = {}
    unreadable: list[FlavorFinding] = []
    if image is not None:
        props, unreadable = typed_properties(image.properties)
    found: list[FlavorFinding] = []
    if sized:
        # read_flavor makes keys and values strings; a flavor built by hand may hold others.
        found = rule_findings(whole if read else as_text(whole), image, props)
        if as_admin:
            found = [f for f in found if f.code not in BY_POLICY]
    # Server create refuses a disabled flavor before it reads the image's properties.
    first = 1 if found and found[0].code == DISABLED_RULE else 0
    findings += found[:first] + unreadable + found[first:]
    findings += other_side_spellings(whole.extra_specs, image.properties if image else {})
    return findings


def as_text(flavor: Flavor) -> Flavor:
    """The flavor as the rules read it: string keys, and values as text (a number as Nova's
    API reads it). A flavor built by hand may hold other keys and values, which the per-key
    check reports; the rules leave them out (read_flavor never makes such a flavor)."""
    specs = flavor.extra_specs
    if all_text_items(specs):
        return flavor
    text = {}
    for key, value in specs.items():
        stored = stored_text(value) if isinstance(key, str) else None
        if stored is not None:
            text[key] = stored
    return replace(flavor, extra_specs=text)


def validate_image_properties(image: Image | Mapping[str, Any]) -> list[FlavorFinding]:
    """The image's properties on their own: values Nova cannot read (errors) and names that
    look like Nova's but are not (warnings)."""
    image = image if isinstance(image, Image) else read_image(image)
    _, unreadable = typed_properties(image.properties)
    return unreadable + unknown_properties(image.properties)
