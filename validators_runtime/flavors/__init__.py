"""Check a whole flavor, and a flavor with the image it boots, as Nova would before and at boot.

::

    from onespec.validators_runtime.flavors import validate_flavor

    findings = validate_flavor(
        {"vcpus": 3, "ram": 4096, "extra_specs": {"hw:numa_nodes": "2"}},
        image={"properties": {"hw_cpu_policy": "dedicated"}},
    )
    for finding in findings:
        print(finding.nova_exception, finding.phase, finding.message)

Every finding is returned at once (Nova stops at the first). Each carries the keys involved,
the exception class Nova raises (``nova_exception``) and the phase in which it does
(``api``, ``scheduler``, ``spawn``), and its message ends with what to change. Per-key
problems come from the extra-spec runtime (:func:`onespec.validators_runtime.extra_specs.validate`);
the rules between keys are the definitions of
:mod:`onespec.definitions.flavor_rule_catalogue`.

Without an image, the flavor is checked as Nova checks it with an image that sets nothing,
except that what the flavor demands *of* the image (UEFI firmware for memory encryption, for
example) is a warning, not an error: any image that meets it will do.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from onespec.definitions.flavor_rule_catalogue import FACTS_BY_NAME, RULES
from onespec.definitions.flavor_rules import Fact, Field, Prop, Requires, sources_of
from onespec.validators_runtime.flavors.checks import CHECKS, compiled, involved
from onespec.validators_runtime.flavors.facts import View
from onespec.validators_runtime.flavors.findings import FlavorFinding
from onespec.validators_runtime.flavors.image_props import typed_properties, unknown_properties
from onespec.validators_runtime.flavors.inputs import (
    Flavor,
    Image,
    InputError,
    read_flavor,
    read_image,
)
from onespec.validators_runtime.problems import Location

#: Nova's exception for an extra spec refused on its own (microversion 2.86 and later).
PER_KEY_EXCEPTION = "ValidationError"


def _demands_of_image(rule: Any) -> bool:
    """A rule that asks the image for something (``needs`` reads image properties only)."""
    return isinstance(rule, Requires) and all(
        isinstance(source, Prop) for source in sources_of(rule.needs)
    )


def _as_flavor(flavor: Flavor | Mapping[str, Any]) -> Flavor:
    return flavor if isinstance(flavor, Flavor) else read_flavor(flavor)


def _as_image(image: Image | Mapping[str, Any] | None) -> Image | None:
    if image is None or isinstance(image, Image):
        return image
    return read_image(image)


def per_key_findings(specs: Mapping[str, str], mode: str = "strict") -> list[FlavorFinding]:
    """The extra-spec runtime's findings, in the whole-flavor shape."""
    from onespec.validators_runtime.extra_specs import ExtraSpecValidationError, validate

    try:
        found = validate(specs, mode=mode)  # type: ignore[arg-type]
    except ExtraSpecValidationError as error:
        found = list(error.findings)
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


def _field_findings(flavor: Flavor) -> list[FlavorFinding]:
    findings = []
    for name, least in (("vcpus", 1), ("ram", 1), ("disk", 0), ("swap", 0), ("ephemeral", 0)):
        value = getattr(flavor, name)
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


_GROUP_NUMBER = re.compile(r"^(resources|trait)[1-9][0-9]*:")
_NODE_NUMBER = re.compile(r"\.[0-9]+$")


def _names(source: Any) -> tuple[str, ...]:
    """The input names whose presence can make a condition on ``source`` hold."""
    if isinstance(source, Fact):
        return FACTS_BY_NAME[source.name].reads
    if isinstance(source, Field):
        return (source.name,) if source.name.startswith("image.") else ()
    return (str(source),)


#: Each rule with the names of which at least one must be present for it to break (a rule
#: that reads none but the flavor's vcpus and RAM always runs): most flavors set a handful of
#: keys, so most rules are skipped without evaluating a condition. Then its condition and its
#: check, each chosen once.
_TRIGGERED: tuple[tuple[Any, frozenset[str]], ...] = tuple(
    (rule, frozenset(name for source in rule.sources() for name in _names(source)))
    for rule in RULES
)
_COMPILED = tuple(
    (rule, names, None if rule.when is None else compiled(rule.when), CHECKS[type(rule)])
    for rule, names in _TRIGGERED
)


#: Every name some rule reads.
TRIGGER_NAMES: frozenset[str] = frozenset().union(*(names for _, names in _TRIGGERED))


def _present(flavor: Flavor, image: Image | None) -> set[str]:
    """The names set in the input, spelled as rules spell them (``resources:PCPU`` for
    ``resources1:PCPU``, ``hw:numa_cpus.N`` and ``hw:numa_cpus`` for ``hw:numa_cpus.1``)."""
    present: set[str] = set()
    keys = list(flavor.extra_specs)
    if image is not None:
        keys += image.properties
        present.update(
            f"image.{name}" for name in ("min_ram", "min_disk", "size") if getattr(image, name)
        )
    for key in keys:
        present |= normalized_names(key)
    return present


def normalized_names(key: str) -> set[str]:
    """A key as the rules name it: ``resources:PCPU`` for ``resources1:PCPU``,
    ``hw:numa_cpus.N`` and ``hw:numa_cpus`` for ``hw:numa_cpus.1``."""
    if key[:1] in ("r", "t"):
        key = _GROUP_NUMBER.sub(r"\1:", key)
    if key[-1:].isdigit() and _NODE_NUMBER.search(key):
        stem = _NODE_NUMBER.sub("", key)
        return {stem, stem + ".N"}
    return {key}


def rule_findings(
    flavor: Flavor, image: Image | None, props: Mapping[str, Any]
) -> list[FlavorFinding]:
    """The broken rules between keys, in Nova's order within each phase."""
    view = View(flavor, image, props)
    present = _present(flavor, image)
    findings = []
    for rule, triggers, when, check in _COMPILED:
        if triggers and triggers.isdisjoint(present):
            continue
        if when is not None and not when(view):
            continue
        what = check(rule, view)
        if what is None:
            continue
        keys = involved(rule, view)
        warning = image is None and _demands_of_image(rule)
        findings.append(
            FlavorFinding(
                code=rule.name,
                message=f"{what}. {rule.fix}",
                severity="warning" if warning else "error",
                location=Location(path=keys[0] if keys else None),
                keys=keys,
                nova_exception=rule.nova_exception,
                phase=rule.phase,
            )
        )
    return findings


def validate_flavor(
    flavor: Flavor | Mapping[str, Any],
    image: Image | Mapping[str, Any] | None = None,
    *,
    mode: str = "strict",
) -> list[FlavorFinding]:
    """Every finding about ``flavor`` (and ``image``, when given): errors Nova would refuse the
    pair for, and warnings. ``mode`` is the extra-spec runtime's (``strict``, ``permissive``,
    ``off``). Raises :class:`InputError` when the flavor or image cannot be read at all."""
    flavor = _as_flavor(flavor)
    image = _as_image(image)
    findings = _field_findings(flavor)
    findings += per_key_findings(flavor.extra_specs, mode)
    props: Mapping[str, Any] = {}
    if image is not None:
        props, unreadable = typed_properties(image.properties)
        findings += unreadable
    if not any(f.code == "invalid-flavor-field" for f in findings):
        findings += rule_findings(flavor, image, props)
    return findings


def validate_image_properties(image: Image | Mapping[str, Any]) -> list[FlavorFinding]:
    """The image's properties on their own: values Nova cannot read (errors) and names that
    look like Nova's but are not (warnings)."""
    image = image if isinstance(image, Image) else read_image(image)
    _, unreadable = typed_properties(image.properties)
    return unreadable + unknown_properties(image.properties)


__all__ = [
    "TRIGGER_NAMES",
    "Flavor",
    "FlavorFinding",
    "Image",
    "InputError",
    "normalized_names",
    "read_flavor",
    "read_image",
    "rule_findings",
    "validate_flavor",
    "validate_image_properties",
]
