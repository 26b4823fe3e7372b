"""The JSON Schema of a whole flavor: its fields, its extra specs, and the rules between keys
that JSON Schema can state.

A flavor on its own (no image) is what an editor, a CI job or an API gateway holds, so the
schema states the rules of :mod:`onespec.definitions.flavor_rule_catalogue` as they apply to a
flavor alone: image properties are absent. Each rule is either *carried* (an ``if``/``then``, a
``not`` or a ``dependentRequired`` in ``$defs/rules``, titled with the rule's name and described
with Nova's exception, its phase and the fix) or listed in the schema's description with the
reason it is not:

* the rule compares numbers or sets computed from values (a CPU mask within ``range(vcpus)``,
  per-node lists that partition the vCPUs, memory that sums to the RAM, a count that divides
  the vCPUs, topology limits): JSON Schema cannot compute;
* the rule needs an image (a flavor key and its image twin, the image's sizes): it never
  applies to a flavor alone;
* the rule asks something of the image (UEFI firmware for memory encryption): for a flavor
  alone the runtime warns, and a schema has no warnings.

The derived values (:data:`~onespec.definitions.flavor_facts.FACTS`) that a flavor
alone decides from its own keys are stated here as conditions on those keys
(:data:`FLAVOR_ALONE`); a rule that reads any other derived value is not carried. Two are read
more simply than Nova reads them, which :data:`READINGS` says and the description repeats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

from onespec.definitions.flavor_facts import FACTS_BY_NAME
from onespec.definitions.flavor_rule_catalogue import RULES
from onespec.definitions.flavor_rules import (
    AllOf,
    AnyOf,
    AtMost,
    Conflicts,
    Contains,
    Fact,
    Field,
    In,
    Not,
    Present,
    Prop,
    Requires,
    Spec,
    Truthy,
    TwinClash,
)
from onespec.definitions.image_properties import BY_NAME as IMAGE_PROPERTIES
from onespec.errors import OnespecError
from onespec.generator.extra_specs.schema import FLAVOR_EXTRA_SPECS, flavor_extra_specs_schema
from onespec.generator.flavors.runtime import demands_of_image
from onespec.generator.schema import DIALECT, schema_id
from onespec.generator.schema.patterns import END, integer_pattern, true_pattern

FLAVOR_SCHEMA = "flavor.schema.json"

#: A JSON Schema, or the constants a condition folds to when a flavor alone decides it.
Js = dict[str, Any] | bool


class NotCarried(OnespecError):
    """A rule the schema cannot state; the message says why, for the description."""


@dataclass(frozen=True)
class FlavorAlone:
    """A derived value that a flavor alone takes from one extra spec: the spec's value, else
    ``default`` (None: unset). ``boolean``: the value is the spec read as Nova's booleans."""

    spec: str
    default: str | None = None
    boolean: bool = False


#: Derived values a flavor alone takes from one of its own keys.
FLAVOR_ALONE: dict[str, FlavorAlone] = {
    "requested_cpu_policy": FlavorAlone("hw:cpu_policy"),
    "requested_cpu_thread_policy": FlavorAlone("hw:cpu_thread_policy"),
    "locked_memory": FlavorAlone("hw:locked_memory", boolean=True),
    "mem_encryption": FlavorAlone("hw:mem_encryption", boolean=True),
    "mem_encryption_model": FlavorAlone("hw:mem_encryption_model", "amd-sev"),
    "tpm_version": FlavorAlone("hw:tpm_version"),
    "tpm_model": FlavorAlone("hw:tpm_model", "tpm-tis"),
    "ephemeral_encryption": FlavorAlone("hw:ephemeral_encryption", boolean=True),
    "numa_nodes": FlavorAlone("hw:numa_nodes"),
}

#: Where the schema reads a derived value more simply than Nova: what it reads, and why the
#: verdict on the whole flavor stays the runtime's.
READINGS: dict[str, str] = {
    "realtime_cpus": (
        "'Real-time vCPUs are asked for' is read as hw:cpu_realtime being on; Nova also needs "
        "the mask to leave some vCPU real-time, and a mask that leaves none is refused on its "
        "own (RealtimeMaskNotFoundOrInvalid)."
    ),
    "dedicated_cpus": (
        "'Dedicated vCPUs are asked for' is read as hw:cpu_dedicated_mask being set; a mask that "
        "selects no vCPU is refused on its own (InvalidMixedInstanceDedicatedMask)."
    ),
    "hyperthreading_trait": (
        "The hyperthreading trait is read from any trait[N]:HW_CPU_HYPERTHREADING; Nova reads "
        "the first, and the catalogue allows only 'required' or 'forbidden' as its value."
    ),
}

#: Keys under every group number, anchored at the very end as in both Python and ECMA-262.
_VCPU_KEYS = rf"^resources([1-9][0-9]*)?:VCPU{END}"
_PCPU_KEYS = rf"^resources([1-9][0-9]*)?:PCPU{END}"
_HYPERTHREADING_KEYS = rf"^trait([1-9][0-9]*)?:HW_CPU_HYPERTHREADING{END}"
_NONZERO = {
    "type": "string",
    "pattern": integer_pattern(None, None),
    "not": {"pattern": integer_pattern(0, 0)},
}


def _some_key(pattern: str, value: dict[str, Any]) -> dict[str, Any]:
    """Some key matching ``pattern`` has a value that ``value`` accepts (not every matching
    key's value fails it)."""
    return {"not": {"patternProperties": {pattern: {"not": value}}}}


def _all(*parts: Js) -> Js:
    return _joined(parts, "allOf", absorbing=False)


def _any(*parts: Js) -> Js:
    return _joined(parts, "anyOf", absorbing=True)


def _joined(parts: tuple[Js, ...], keyword: str, *, absorbing: bool) -> Js:
    """``parts`` under ``keyword``, folding constants: the ``absorbing`` one decides the
    whole (False for allOf, True for anyOf), the other one drops out."""
    if any(part is absorbing for part in parts):
        return absorbing
    kept = [part for part in parts if not isinstance(part, bool)]
    if not kept:
        return not absorbing
    return kept[0] if len(kept) == 1 else {keyword: kept}


def _not(part: Js) -> Js:
    if isinstance(part, bool):
        return not part
    if set(part) == {"not"}:
        return part["not"]
    return {"not": part}


def _spec_present(key: str) -> dict[str, Any]:
    return {"required": [key], "properties": {key: {"minLength": 1}}}


def _spec_in(key: str, values: tuple[str, ...]) -> dict[str, Any]:
    return {"required": [key], "properties": {key: {"enum": list(values)}}}


def _spec_on(key: str) -> dict[str, Any]:
    return {"required": [key], "properties": {key: {"pattern": true_pattern()}}}


def _literal_key(key: str) -> str:
    if ".N" in key or key.startswith(("resources:", "trait:")):
        raise NotCarried(f"it reads {key} under every group or node number")
    return key


def _alone_in(alone: FlavorAlone, values: tuple[str, ...]) -> Js:
    chosen = _spec_in(alone.spec, values)
    if alone.default is not None and alone.default in values:
        return _any(chosen, _not(_spec_present(alone.spec)))
    return chosen


def _cpu_policy_in(values: tuple[str, ...]) -> Js:
    """Nova's CPU policy in force: 'shared' with resources:VCPU, 'dedicated' with
    resources:PCPU, else the flavor's hw:cpu_policy."""
    vcpu = _some_key(_VCPU_KEYS, _NONZERO)
    pcpu = _some_key(_PCPU_KEYS, _NONZERO)
    return _any(
        _all(vcpu, "shared" in values),
        _all(_not(vcpu), pcpu, "dedicated" in values),
        _all(_not(vcpu), _not(pcpu), _spec_in("hw:cpu_policy", values)),
    )


def _hyperthreading_in(values: tuple[str, ...] | None) -> dict[str, Any]:
    value: dict[str, Any] = {"minLength": 1} if values is None else {"enum": list(values)}
    return _some_key(_HYPERTHREADING_KEYS, {"type": "string", **value})


def _fact(condition: Present | Truthy | In, name: str) -> Js:
    """A condition on a derived value, for a flavor alone."""
    definition = FACTS_BY_NAME[name]
    if all(read in IMAGE_PROPERTIES for read in definition.reads):
        return False  # read from the image only: unset for a flavor alone
    alone = FLAVOR_ALONE.get(name)
    if alone is not None:
        if isinstance(condition, In):
            return _alone_in(alone, condition.values)
        if isinstance(condition, Truthy) and alone.boolean:
            return _spec_on(alone.spec)
        return _any(_spec_present(alone.spec), alone.default is not None)
    if name in ("requested_vcpu", "requested_pcpu") and isinstance(condition, Truthy):
        return _some_key(_VCPU_KEYS if name == "requested_vcpu" else _PCPU_KEYS, _NONZERO)
    if name == "cpu_policy" and isinstance(condition, In):
        return _cpu_policy_in(condition.values)
    if name == "hyperthreading_trait" and isinstance(condition, Present):
        return _hyperthreading_in(None)
    if name == "cpu_thread_policy" and isinstance(condition, Present):
        return _any(
            _hyperthreading_in(("forbidden", "required")),
            _spec_present("hw:cpu_thread_policy"),
        )
    if name == "realtime_cpus" and isinstance(condition, Truthy):
        return _spec_on("hw:cpu_realtime")
    if name == "dedicated_cpus" and isinstance(condition, Truthy):
        return _spec_present("hw:cpu_dedicated_mask")
    raise NotCarried(
        f"it reads {name} ({definition.description[0].lower()}"
        f"{definition.description[1:].rstrip('.')})"
    )


def condition_schema(condition: Any) -> Js:
    """A condition as a schema over the extra specs, ``True``/``False`` where a flavor alone
    decides it; :class:`NotCarried` where JSON Schema cannot state it."""
    if isinstance(condition, AllOf):
        return _all(*(condition_schema(part) for part in condition.conditions))
    if isinstance(condition, AnyOf):
        return _any(*(condition_schema(part) for part in condition.conditions))
    if isinstance(condition, Not):
        return _not(condition_schema(condition.condition))
    source = condition.source
    if isinstance(source, Prop):
        return False  # no image: every image property is absent
    if isinstance(source, Fact):
        if isinstance(condition, Contains):
            raise NotCarried(f"it looks for text inside {source}")
        return _fact(condition, source.name)
    if not isinstance(source, Spec):
        raise NotCarried(f"it compares the flavor's {source}")
    key = _literal_key(source.key)
    if isinstance(condition, Present):
        return _spec_present(key)
    if isinstance(condition, In):
        return _spec_in(key, condition.values)
    if isinstance(condition, Truthy):
        return _spec_on(key)
    raise NotCarried(f"it looks for text inside {key}")


def _rule_schema(rule: Any) -> Js:
    """The schema a rule puts on the extra specs (True: it never refuses a flavor alone)."""
    if isinstance(rule, Requires):
        when = True if rule.when is None else condition_schema(rule.when)
        if when is False:
            return True
        needs = condition_schema(rule.needs)
        if needs is False and demands_of_image(rule):
            raise NotCarried("it asks the image for something: a warning for a flavor alone")
        if when is True:
            return needs
        if needs is True:
            return True
        return {"if": when, "then": needs}
    if isinstance(rule, Conflicts):
        parts = (rule.first, rule.second) + (() if rule.when is None else (rule.when,))
        return _not(_all(*_each_or_false(parts)))
    if isinstance(rule, TwinClash) or _reads_the_image(rule):
        return True
    raise NotCarried(_KIND_REASONS.get(type(rule).__name__, "JSON Schema cannot compute it"))


def _each_or_false(conditions: tuple[Any, ...]) -> list[Js]:
    """Each condition's schema; if one is False (it reads the absent image), the others need
    not be stated at all, so what could not be stated of them does not matter."""
    found: list[Js] = []
    reasons: list[NotCarried] = []
    for condition in conditions:
        try:
            found.append(condition_schema(condition))
        except NotCarried as reason:
            reasons.append(reason)
    if False in found or not reasons:
        return found
    raise reasons[0]


def _reads_the_image(rule: Any) -> bool:
    """A rule that compares a value with one of the image's (its sizes, its properties)."""
    return isinstance(rule, AtMost) and any(
        isinstance(source, Prop) or (isinstance(source, Field) and source.name.startswith("image."))
        for source in (rule.value, rule.limit)
    )


_KIND_REASONS = {
    "MaskWithinVcpus": "a CPU mask's vCPUs are compared with range(vcpus)",
    "CpuListsPartition": "per-node CPU lists are compared with range(vcpus) and each other",
    "SumsTo": "per-node memory is added up",
    "Divides": "a count must divide the vCPUs and the RAM",
    "MatchesCount": "a sum of resources must equal the vCPUs",
    "PerNodeComplete": "per-node lists are counted against the node count",
    "TopologyAdmits": "sockets x cores x threads must be able to make the vCPUs",
    "AtMost": "values are compared as numbers",
}


def _dependent_required(when: Js, needs: Js) -> dict[str, list[str]] | None:
    """``key present -> other key present`` as ``dependentRequired``, where a rule says just
    that."""
    if _is_present(when) and _is_present(needs):
        return {when["required"][0]: [needs["required"][0]]}
    return None


def _is_present(part: Js) -> TypeGuard[dict[str, Any]]:
    return (
        isinstance(part, dict)
        and set(part) == {"required", "properties"}
        and all(value == {"minLength": 1} for value in part["properties"].values())
    )


@dataclass(frozen=True)
class Carried:
    """What the schema states of the rules, and what it leaves to the runtime."""

    rules: tuple[dict[str, Any], ...]
    dependent_required: dict[str, list[str]]
    not_carried: dict[str, str]
    need_an_image: tuple[str, ...]


def carried(rules: tuple[Any, ...] = RULES) -> Carried:
    """Every rule (of the catalogue), sorted into carried, not carried and image-only."""
    schemas: list[dict[str, Any]] = []
    dependent: dict[str, list[str]] = {}
    not_carried: dict[str, str] = {}
    image_only: list[str] = []
    for rule in rules:
        try:
            schema = _rule_schema(rule)
        except NotCarried as reason:
            not_carried[rule.name] = str(reason)
            continue
        if schema is True:
            image_only.append(rule.name)
            continue
        pair = schema if isinstance(schema, dict) else {}
        single = _dependent_required(pair.get("if", False), pair.get("then", False))
        if single is not None:
            for key, needed in single.items():
                dependent.setdefault(key, []).extend(
                    n for n in needed if n not in dependent.get(key, [])
                )
            continue
        described = {
            "title": rule.name,
            "description": f"{rule.fix} (Nova: {rule.nova_exception}, {rule.phase} phase)",
        }
        schemas.append(
            {**described, **schema} if isinstance(schema, dict) else {**described, "not": {}}
        )
    return Carried(tuple(schemas), dependent, not_carried, tuple(image_only))


def _description(found: Carried) -> str:
    skipped = "; ".join(f"{name} ({why})" for name, why in found.not_carried.items())
    readings = " ".join(READINGS.values())
    return (
        "A Nova flavor on its own, as Nova's API returns it (vcpus, ram, disk, swap, "
        "OS-FLV-EXT-DATA:ephemeral, extra_specs) or as `openstack flavor show -f json` prints it "
        "(extra specs under properties). Each extra spec is checked against "
        f"the schema of {FLAVOR_EXTRA_SPECS} (embedded, so that this file stands alone), "
        "and the extra specs together against the rules between keys "
        "that JSON Schema can state: "
        f"{len(found.rules) + sum(len(v) for v in found.dependent_required.values())} of the "
        f"{len(RULES)} rules of onespec's whole-flavor check, each titled with its name and "
        "described with Nova's exception and phase. "
        f"{len(found.need_an_image)} rules compare a flavor with its image and never apply to a "
        "flavor alone. Not carried, so a flavor this schema accepts may still be refused by "
        f"`onespec validate flavor` (or Nova): {skipped}. {readings} "
        "Generated by `onespec generate schemas`; do not edit."
    )


def _embedded(document: dict[str, Any], at: str) -> Any:
    """``document`` as a subschema at ``#/$defs/<at>``: its own ``$id`` and ``$schema`` dropped
    and its references into itself rewritten, so the whole-flavor schema is one file. An
    editor given the local file (``onespec schemas settings``) then never has to fetch the
    extra-spec schema by its ``$id``, which is an identifier, not an address anything serves."""

    def rewrite(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                key: (
                    f"#/$defs/{at}/" + value[2:]
                    if key == "$ref" and isinstance(value, str) and value.startswith("#/")
                    else rewrite(value)
                )
                for key, value in node.items()
                if key not in ("$id", "$schema")
            }
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        return node

    return rewrite(document)


def flavor_schema() -> dict[str, Any]:
    """The whole-flavor schema document."""
    found = carried()
    count = {"type": "integer", "minimum": 0}
    rules: dict[str, Any] = {"allOf": list(found.rules)}
    if found.dependent_required:
        rules["dependentRequired"] = found.dependent_required
    return {
        "$schema": DIALECT,
        "$id": schema_id(FLAVOR_SCHEMA),
        "title": "A whole flavor",
        "description": _description(found),
        "type": "object",
        "properties": {
            "vcpus": {"description": "The flavor's vCPUs.", "type": "integer", "minimum": 1},
            "ram": {"description": "The flavor's RAM in MiB.", "type": "integer", "minimum": 1},
            "disk": {"description": "The root disk in GiB (0: the image's size).", **count},
            "swap": {
                "description": "Swap in MiB; Nova's API shows no swap as an empty string.",
                "anyOf": [count, {"const": ""}],
            },
            "OS-FLV-EXT-DATA:ephemeral": {"description": "Ephemeral disk in GiB.", **count},
            "extra_specs": {"$ref": "#/$defs/extra-specs"},
            "properties": {"$ref": "#/$defs/extra-specs"},
        },
        "required": ["vcpus", "ram"],
        "$defs": {
            "extra-specs": {
                "description": "Every extra spec valid on its own, and the rules between them.",
                "allOf": [{"$ref": "#/$defs/each-extra-spec"}, {"$ref": "#/$defs/rules"}],
            },
            "each-extra-spec": _embedded(flavor_extra_specs_schema(), "each-extra-spec"),
            "rules": rules,
        },
    }
