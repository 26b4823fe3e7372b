"""The reference of the whole-flavor area as reStructuredText lines: the rules between keys
(by phase, each with Nova's exception, an example that breaks it and what to change; then the
warnings), the facts they read, every image property with its flavor twin and clash policy,
and the deliberate differences from Nova."""

from __future__ import annotations

from collections.abc import Iterator

from onespec.definitions.flavor_differences import DIFFERENCES
from onespec.definitions.flavor_facts import FACTS, FACTS_BY_NAME
from onespec.definitions.flavor_rule_catalogue import RULES, WARNINGS
from onespec.definitions.flavor_rules import (
    PHASES,
    AtMost,
    ClashPolicy,
    Conflicts,
    CpuListsPartition,
    Divides,
    Example,
    MaskWithinVcpus,
    MatchesCount,
    PerNodeComplete,
    Readable,
    Requires,
    Rule,
    SumsTo,
    TopologyAdmits,
    TwinClash,
    describe,
)
from onespec.definitions.image_properties import IMAGE_PROPERTIES, twins
from onespec.generator.rst import literal

#: How Nova reads a property of each kind, in words (the kinds are the definitions' names).
KIND_WORDS = {
    "bool": "a boolean (true/false, yes/no, on/off, 1/0)",
    "cpu-lists": "one CPU set per NUMA node (``hw_numa_cpus.0=0-1``, ``.1=2,3``...)",
    "dict-list": "a list of mappings",
    "enum": "one of the values below",
    "int": "a whole number",
    "int-list": "one whole number per NUMA node (``.0``, ``.1``...)",
    "str": "text",
    "str-list": "a list of text values",
    "uuid": "a UUID",
    "version-predicate": "a version condition, e.g. ``>= 2.0``",
}

PHASE_MEANING = {
    "api": "Server create answers HTTP 400.",
    "scheduler": "The server is accepted, then goes to ERROR while it is scheduled.",
    "spawn": "The server is scheduled, then fails on the compute host (rescheduled, then ERROR).",
}

POLICY_MEANING = {
    ClashPolicy.EQUAL: "both may be set, only to the same value",
    ClashPolicy.FLAVOR_LIMITS: "the flavor sets a limit the image may only narrow",
    ClashPolicy.ONE_SIDE: "only one of the two may be set",
    ClashPolicy.IMAGE_WINS: "the image's value is used, silently",
    ClashPolicy.FLAVOR_WINS: "the flavor's value is used, silently",
}


_ASPECT = {
    "within": "every listed vCPU is below the flavor's vcpus",
    "disjoint": "no vCPU is listed on two nodes",
    "cover": "every vCPU is listed on a node",
}


#: What each reader of a :class:`Readable` rule takes, in words.
_READERS = {
    "numa-nodes": "a count of 1 or more, the flavor's written as the integer's own spelling",
    "page-sizes": "page sizes Nova reads (the image's where the flavor lets it choose)",
}


def _what(rule: object) -> str:
    """What a rule demands, in words."""
    if isinstance(rule, Requires):
        said = f"needs {describe(rule.needs, facts=FACTS_BY_NAME)}"
    elif isinstance(rule, TwinClash):
        said = f"{literal(rule.spec)} and {literal(rule.prop)}: {POLICY_MEANING[rule.policy]}"
    elif isinstance(rule, Conflicts):
        first = describe(rule.first, facts=FACTS_BY_NAME)
        said = f"{first} conflicts with {describe(rule.second, facts=FACTS_BY_NAME)}"
    elif isinstance(rule, MaskWithinVcpus):
        said = f"the {rule.mask} are not empty, are vCPUs of the flavor and leave one out"
    elif isinstance(rule, CpuListsPartition):
        said = f"in the {rule.lists}, {_ASPECT[rule.aspect]}"
    elif isinstance(rule, SumsTo):
        said = f"the {rule.parts} add up to the flavor's {rule.total}"
    elif isinstance(rule, Divides):
        said = f"the {rule.count} divides {' and '.join(str(t) for t in rule.totals)}"
    elif isinstance(rule, MatchesCount):
        said = f"{rule.value} equals {rule.expected}"
    elif isinstance(rule, PerNodeComplete):
        said = f"{' and '.join(str(f) for f in rule.lists)} are given together, one per node"
    elif isinstance(rule, TopologyAdmits):
        said = "sockets x cores x threads within the limits can equal the flavor's vcpus"
    elif isinstance(rule, AtMost):
        said = f"{rule.value} is at most {rule.limit}"
    elif isinstance(rule, Readable):
        said = f"{' and '.join(str(v) for v in rule.values)} are {_READERS[rule.reader]}"
    else:
        raise TypeError(f"no words for {type(rule).__name__}")
    if rule.when is None:
        return f"Demands that {said}."
    return f"When {describe(rule.when, facts=FACTS_BY_NAME)}, demands that {said}."


def _settings(pairs: tuple[tuple[str, object], ...]) -> str:
    """Names set to values, each as a literal ``name=value``."""
    return ", ".join(literal(f"{name}={value}") for name, value in pairs)


def _image_sizes(example: Example) -> tuple[tuple[str, int], ...]:
    """The image's size fields the example sets."""
    sizes = (("min_ram", example.min_ram), ("min_disk", example.min_disk), ("size", example.size))
    return tuple((name, value) for name, value in sizes if value)


def _image_state(example: Example) -> tuple[tuple[str, str], ...]:
    """The image's status and encryption key, where the example sets them."""
    state = (("status", example.status), ("cinder_encryption_key_id", example.encryption_key))
    return tuple((name, value) for name, value in state if value)


def _listed(parts: list[str]) -> str:
    """Parts in a sentence: ``a, b and c``."""
    return " and ".join((", ".join(parts[:-1]), parts[-1])) if len(parts) > 1 else parts[0]


def _example(example: Example) -> str:
    """A rule's example in one sentence: the flavor's sizes and extra specs, then the image."""
    flavor = [
        "1 vCPU" if example.vcpus == 1 else f"{example.vcpus} vCPUs",
        f"{example.ram} MiB of RAM",
        f"a {example.disk} GiB disk",
    ]
    if example.disabled:
        flavor.append(literal("OS-FLV-DISABLED:disabled=true"))
    if example.specs:
        noun = "extra spec" if len(example.specs) == 1 else "extra specs"
        flavor.append(f"{noun} {_settings(example.specs)}")
    said = f"Example: a flavor with {_listed(flavor)}"
    if example.has_image:
        image = (*example.properties, *_image_sizes(example), *_image_state(example))
        said += f"; an image with {_settings(image)}"
    return f"{said}."


def _example_lines(rule: Rule) -> Iterator[str]:
    """The rule's example as an indented paragraph, when it has one."""
    if rule.example is not None:
        yield f"   {_example(rule.example)}"
        yield ""


def _rule_head(rule: Rule, phase: str) -> Iterator[str]:
    """A rule as an ``onespec:flavor-rule`` object, named by the code findings carry, so that
    ``:onespec:flavor-rule:`CODE``` links to it (here and through intersphinx)."""
    yield f".. onespec:flavor-rule:: {rule.name}"
    yield f"   :phase: {phase}"
    yield "   :no-contents-entry:"
    yield ""


def rules_lines() -> Iterator[str]:
    """Every rule, grouped by phase, in Nova's order."""
    yield (
        f"{len(RULES)} rules, each a refusal of Nova 34.0.0 read from its code, and "
        f"{len(WARNINGS)} warnings."
    )
    yield ""
    for phase in PHASES:
        title = f"Phase ``{phase}``"
        yield title
        yield "-" * len(title)
        yield ""
        yield PHASE_MEANING[phase]
        yield ""
        for rule in (r for r in RULES if r.phase == phase):
            yield from _rule_head(rule, phase)
            yield f"   Nova raises ``{rule.nova_exception}``. {_what(rule)}"
            yield ""
            if rule.by_policy:
                yield (
                    f"   Depends on policy: ``{rule.by_policy}``, whose default refuses "
                    "non-admin users. ``--as-admin`` (``as_admin=True``) leaves it out."
                )
                yield ""
            yield from _example_lines(rule)
            yield f"   To fix: {rule.fix}"
            yield ""
    yield "Warnings"
    yield "--------"
    yield ""
    yield (
        "Keys that take effect only with another, or that the hypervisor does not take "
        "together: Nova accepts the flavor, so these are warnings, with no exception or phase."
    )
    yield ""
    for rule in WARNINGS:
        yield from _rule_head(rule, "warning")
        yield f"   {_what(rule)}"
        yield ""
        yield from _example_lines(rule)
        yield f"   To fix: {rule.fix}"
        yield ""
    yield "Facts"
    yield "-----"
    yield ""
    yield "Values Nova derives from several keys, which the rules name:"
    yield ""
    for fact in FACTS:
        reads = ", ".join(literal(name) for name in fact.reads)
        yield f"``{fact.name}``"
        yield f"   {fact.description} Reads {reads}."
        yield ""


def image_properties_lines() -> Iterator[str]:
    """Every ImageMetaProps field: kind, values, meaning, twin and clash policy."""
    twin_of = {twin.prop: twin for twin in twins()}
    yield f"{len(IMAGE_PROPERTIES)} properties, every field of Nova 34.0.0's ``ImageMetaProps``."
    yield ""
    for prop in IMAGE_PROPERTIES:
        yield f".. onespec:image-property:: {prop.name}"
        yield f"   :prefix: {prop.name.partition('_')[0]}"
        yield "   :no-contents-entry:"
        yield ""
        yield f"   {prop.description} Nova reads it as {KIND_WORDS[prop.kind]}."
        if prop.enum:
            yield f"   Values: {', '.join(literal(v) for v in prop.enum)}."
        twin = twin_of.get(prop.name)
        if twin is not None:
            rule = f" (rule :onespec:flavor-rule:`{twin.rule}`)" if twin.rule else ""
            yield (
                f"   Flavor twin: :onespec:extra-spec:`{twin.spec}`; "
                f"{POLICY_MEANING[twin.policy]}{rule}."
            )
        yield ""


def differences_lines() -> Iterator[str]:
    """The deliberate differences from Nova's own verdict."""
    if not DIFFERENCES:
        yield "None: every input of the differential test agrees with Nova."
        yield ""
    for difference in DIFFERENCES:
        seen = ", ".join(difference.seen_in)
        yield f"``{difference.name}`` (seen in: {seen})"
        yield f"   {difference.why}"
        yield ""
