"""Check a whole flavor, and a flavor with the image it boots: the rules between keys applied to
the flavor's extra specs, its fields and its image's properties. The package's own docstring
says how it is used; this module defines most of the names it offers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from operator import ge, itemgetter
from typing import Any

from onespec.validators_runtime._generated.flavor_rules import BY_POLICY, FLAVOR_FIELDS
from onespec.validators_runtime.applied_rules import (
    TRIGGER_NAMES,
    flavor_names,
    image_names,
    involved,
    normalized_names,
    present_names,
    respelled_names,
    rule_findings,
)
from onespec.validators_runtime.extra_specs import (
    ExtraSpecValidationError,
    default_registry,
    stored_text,
)
from onespec.validators_runtime.flavor_parts.amounts import negative_amounts
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
from onespec.validators_runtime.problems import Location

#: The rule server create checks before it reads the image: a disabled flavor.
DISABLED_RULE = "flavor-disabled"

#: Nova's exception for an extra spec refused on its own (microversion 2.86 and later).
PER_KEY_EXCEPTION = "ValidationError"


def per_key_findings(specs: Mapping[str, str], mode: str = "strict") -> list[FlavorFinding]:
    """The extra-spec runtime's findings, in the whole-flavor shape."""
    try:
        found = default_registry().validate(specs, mode=mode, between_keys=False)
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
    findings += negative_amounts(whole)
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


__all__ = [
    "DISABLED_RULE",
    "PER_KEY_EXCEPTION",
    "TRIGGER_NAMES",
    "as_text",
    "flavor_names",
    "image_names",
    "involved",
    "normalized_names",
    "per_key_findings",
    "present_names",
    "respelled_names",
    "rule_findings",
    "validate_flavor",
    "validate_image_properties",
]
