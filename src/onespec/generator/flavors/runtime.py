"""Write the rules between keys as plain code for the runtime: ``_generated/flavor_rules.py``.

Checking a flavor (and its image) runs on every extra-spec write and every fleet pair, so the
rules of :mod:`onespec.definitions.flavor_rule_catalogue` are not interpreted at run time. The
module holds one function, ``broken``, with one ``if`` a rule: a test that the names the rule
needs are present (``'hw_pmu' in n``; see :func:`rule_needs`), its condition and its test,
written out as Python expressions over the view (an extra spec is ``s.get(KEY)``, an image
property ``p.get(NAME)``, a fact ``v.NAME``); a kind with arithmetic calls its function in
:mod:`onespec.validators_runtime.flavor_parts.checks` with the values already read. So checking a
rule costs no call, no look-up of its kind and no walk over its condition, and a rule whose
keys are absent costs one test and computes no fact. Beside ``broken`` the module holds:

``RULES``
    per rule, in the catalogue's order (Nova's refusals in Nova's order within each phase,
    then the warnings): its name, Nova exception, phase, severity, what to change, whether it
    only asks something of the image, and the names whose spellings a finding lists;
``TRIGGERS``
    which rules a name (a key as the rules spell it) can break; the runtime reads the names
    present as these spell them;
``FLAVOR_FIELDS``
    the flavor's own fields (its sizes) and the least value Nova accepts for each;
``SIZE_RULES``
    the rules that compare an image's size field with a flavor's, which the fleet counts per
    flavor instead of per pair;
``BY_POLICY``
    the refusals that a Nova policy makes (a root disk of 0), each with the policy, which a
    check made as an admin leaves out.

A second module, ``_generated/image_properties.py``, holds ``PROPERTY_KINDS``: how Nova types
each image property (kind and allowed values), which the runtime reads to type an image.

Every name from the definitions reaches the source as :func:`literal`; a fact's name, which
becomes an attribute, must be an identifier.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from onespec.definitions.flavor_facts import FACTS_BY_NAME
from onespec.definitions.flavor_rule_catalogue import RULES, WARNINGS
from onespec.definitions.flavor_rule_queries import names_read, reads_a_size
from onespec.definitions.flavor_rules import (
    FLAVOR_FIELDS,
    AllOf,
    AnyOf,
    AtMost,
    Blank,
    ClashPolicy,
    Conflicts,
    Contains,
    CpuListsPartition,
    Divides,
    Fact,
    Field,
    In,
    MaskWithinVcpus,
    MatchesCount,
    Not,
    PerNodeComplete,
    Present,
    Prop,
    Readable,
    Requires,
    Spec,
    SumsTo,
    TopologyAdmits,
    Truthy,
    TwinClash,
    describe,
    sources_of,
    spoken,
)
from onespec.definitions.image_properties import BY_NAME as IMAGE_PROPERTIES_BY_NAME
from onespec.definitions.image_properties import (
    CANONICAL_SPELLINGS,
    GLANCE_IMAGE_FIELDS,
    GLANCE_RESERVED_PREFIX,
    IMAGE_PROPERTIES,
    LEGACY_NAMES,
)
from onespec.errors import OnespecError
from onespec.generator.literals import literal, module_header, module_text
from onespec.generator.outputs import Output, generated_module

#: Nova's refusals, then the warnings: the runtime checks both, in this order.
ALL_RULES = (*RULES, *WARNINGS)

#: Where the modules are written.
OUTPUT = generated_module("flavor_rules")
PROPERTIES_OUTPUT = generated_module("image_properties")

_HELPERS = (
    "SMALL_COUNTS",
    "SPELLINGS_OF",
    "at_most",
    "complete",
    "contains",
    "cpus_cover",
    "cpus_disjoint",
    "cpus_within",
    "divides",
    "mask_within",
    "matches",
    "on",
    "readable_numa_nodes",
    "readable_page_sizes",
    "sums_to",
    "topology",
    "twin_equal",
    "twin_flavor_limits",
    "twin_one_side",
)


#: Every generated function reads the view, its extra specs and its image's typed properties.
_PARAMETERS = "v: View, s: Mapping[str, str], p: Mapping[str, Any]"


class UnwritableRule(OnespecError, TypeError):
    """A rule or condition the generator has no code for: a bug of the definitions."""


# --- Reading sources and conditions ---------------------------------------------------------


def _fact(name: str) -> str:
    if name not in FACTS_BY_NAME or not name.isidentifier():
        raise UnwritableRule(f"{name!r} is not a fact the runtime computes")
    return f"v.{name}"


def read(source: Any) -> str:
    """The expression that reads ``source`` inside a rule function."""
    if isinstance(source, Spec):
        return f"s.get({literal(source.key)})"
    if isinstance(source, Prop):
        return f"p.get({literal(source.name)})"
    if isinstance(source, Fact):
        return _fact(source.name)
    if isinstance(source, Field):
        if source.name in FLAVOR_FIELDS:
            return f"v.flavor.{source.name}"
        return f"v.field({literal(source.name)})"
    raise UnwritableRule(f"not a source: {source!r}")


def expression(condition: Any) -> str:
    """``condition`` as a Python expression over ``v``, ``s`` and ``p``."""
    if isinstance(condition, AnyOf | AllOf):
        joiner = " or " if isinstance(condition, AnyOf) else " and "
        return "(" + joiner.join(expression(part) for part in condition.conditions) + ")"
    if isinstance(condition, Not):
        return negation(condition.condition)
    value = read(condition.source)
    if isinstance(condition, Present):
        return f"{value} not in (None, '')"
    if isinstance(condition, Truthy):
        # Anything but a boolean spec is tested for truth as it is (a set, a count, a flag).
        return f"on({value})" if isinstance(condition.source, Spec) else value
    if isinstance(condition, In):
        return f"{value} in {literal(condition.values)}"
    if isinstance(condition, Contains):
        return f"contains({value}, {literal(condition.text)})"
    raise UnwritableRule(f"not a condition: {condition!r}")


def negation(condition: Any) -> str:
    """The expression that holds when ``condition`` does not, spelt without a double negative
    where Python has the opposite operator."""
    if isinstance(condition, Not):
        return expression(condition.condition)
    if isinstance(condition, Present):
        return f"{read(condition.source)} in (None, '')"
    if isinstance(condition, In):
        return f"{read(condition.source)} not in {literal(condition.values)}"
    return f"not {expression(condition)}"


# --- What a rule needs present --------------------------------------------------------------
#
# Most rules can break only when some of their keys are there: a twin clash needs both twins, a
# requirement needs what makes it apply. ``needed`` finds those groups of names (at least one
# name of each group must be present) from the conditions, reading a fact as its ``blank`` value
# when none of its keys is there. The generated code tests the groups against the names present
# before anything else, so a rule whose keys are absent costs no fact and no call.

#: A group longer than this is tested as a set (one call) rather than name by name.
_LONGEST_GROUP = 3
_UNKNOWN = object()


def _absent(source: Any) -> tuple[frozenset[str] | None, Any]:
    """The names whose absence leaves ``source`` at a known value, and that value (or
    ``(None, _UNKNOWN)`` when no absence of keys settles it)."""
    if isinstance(source, Spec | Prop):
        return frozenset({str(source)}), None
    if isinstance(source, Field):
        if source.name.startswith("image."):
            return frozenset({source.name}), 0
        return None, _UNKNOWN
    if isinstance(source, Fact):
        fact = FACTS_BY_NAME[source.name]
        names = frozenset(name for name in fact.reads if name not in FLAVOR_FIELDS)
        if not names or isinstance(fact.blank, Blank):
            return None, _UNKNOWN
        return names, fact.blank
    return None, _UNKNOWN


def _holds_on(condition: Any, blank: Any) -> bool:
    """Whether a plain condition (not a combination) holds on a source's blank value."""
    if isinstance(condition, Present):
        return blank not in (None, "")
    if isinstance(condition, Truthy):
        return bool(blank)
    if isinstance(condition, In):
        return blank in condition.values
    if isinstance(condition, Contains):
        return isinstance(blank, str) and condition.text in blank
    return True  # unknown: assume it can hold


def needed(condition: Any) -> list[frozenset[str]]:
    """Groups of names, at least one of each present whenever ``condition`` holds."""
    if condition is None or isinstance(condition, Not):
        return []
    if isinstance(condition, AllOf):
        return [group for part in condition.conditions for group in needed(part)]
    if isinstance(condition, AnyOf):
        firsts = [needed(part)[:1] for part in condition.conditions]
        if not all(firsts):
            return []
        return [frozenset().union(*(first[0] for first in firsts))]
    names, blank = _absent(condition.source)
    if names is None or blank is _UNKNOWN or _holds_on(condition, blank):
        return []
    return [names]


def rule_needs(rule: Any) -> list[frozenset[str]]:
    """Groups of names, at least one of each present whenever ``rule`` can be broken."""
    groups = needed(rule.when)
    if isinstance(rule, Requires):
        pass  # broken when ``when`` holds and ``needs`` does not: absence can break it
    elif isinstance(rule, Conflicts):
        groups += needed(rule.first) + needed(rule.second)
    elif isinstance(rule, TwinClash):
        both = not (rule.policy is ClashPolicy.FLAVOR_LIMITS and rule.flavor_allows)
        groups += [frozenset({rule.prop})] + ([frozenset({rule.spec})] if both else [])
    elif isinstance(rule, MaskWithinVcpus):
        groups += needed(Present(rule.mask))
    elif isinstance(rule, AtMost):
        groups += needed(Truthy(rule.value))
    elif isinstance(rule, Readable):
        groups += [frozenset(str(value) for value in rule.values)]
    unique: list[frozenset[str]] = []
    for group in groups:
        if group not in unique and not any(kept <= group for kept in unique):
            unique.append(group)
    return unique


def present_as(name: str) -> str:
    """The name a presence test looks for: an image's per-node property (``hw_numa_cpus.N``)
    is typed as one list under its own name (``hw_numa_cpus``), which the rules read."""
    return name[:-2] if name.endswith(".N") and ":" not in name else name


def presence_groups(rule: Any) -> list[frozenset[str]]:
    """What ``broken`` tests first for ``rule``: the groups it needs present, else (a rule
    that absence alone can break) any name it reads, else nothing (it is always evaluated)."""
    groups = rule_needs(rule)
    if not groups and names_read(rule):
        groups = [names_read(rule)]
    return [frozenset(map(present_as, group)) for group in groups]


def presence_test(rule: Any, constants: dict[frozenset[str], str]) -> str:
    """The test that every group of :func:`presence_groups` has a name present (in ``n``):
    ``'a' in n`` for one name, ``('a' in n or 'b' in n)`` for a few, and for more a flag
    ``has_names_N`` that ``broken`` sets once from a set named in ``constants`` (which this
    adds to)."""
    tests = []
    for group in presence_groups(rule):
        if len(group) == 1:
            tests.append(f"{literal(next(iter(group)))} in n")
        elif len(group) <= _LONGEST_GROUP:
            tests.append("(" + " or ".join(f"{literal(name)} in n" for name in sorted(group)) + ")")
        else:
            name = constants.setdefault(group, f"_NAMES_{len(constants)}")
            tests.append(f"has{name.lower()}")
    return " and ".join(tests)


# --- One test per rule kind ----------------------------------------------------------------
#
# A rule's test is an expression that holds when the rule is broken. A kind whose words are
# fixed (Requires, Conflicts) gives its message as a literal; the others call their kind's
# function in checks.py, which returns the words or None, bound to ``what``.


def _requires(rule: Requires) -> tuple[str, str]:
    message = f"Nova needs {describe(rule.needs, needed=True, facts=FACTS_BY_NAME)}"
    if rule.when is not None:
        message = f"When {describe(rule.when, facts=FACTS_BY_NAME)}, {message}"
    if rule.severity == "warning":
        message = (
            f"{describe(rule.when, facts=FACTS_BY_NAME)}, but what makes it count does not hold: "
            + describe(rule.needs, facts=FACTS_BY_NAME)
        )
    return negation(rule.needs), literal(message)


def _conflicts(rule: Conflicts) -> tuple[str, str]:
    first = describe(rule.first, facts=FACTS_BY_NAME)
    message = f"{first} while {describe(rule.second, facts=FACTS_BY_NAME)}"
    return f"{expression(rule.first)} and {expression(rule.second)}", literal(message)


def _found(call: str) -> tuple[str, str]:
    return f"(what := {call}) is not None", "what"


def _mask_within(rule: MaskWithinVcpus) -> tuple[str, str]:
    allowed = "False" if rule.all_allowed_when is None else expression(rule.all_allowed_when)
    name = literal(spoken(rule.mask, FACTS_BY_NAME))
    return _found(f"mask_within({name}, {read(rule.mask)}, v.vcpus, {allowed})")


def _partition(rule: CpuListsPartition) -> tuple[str, str]:
    return _found(f"cpus_{rule.aspect}({read(rule.lists)}, v.vcpus)")


def _sums_to(rule: SumsTo) -> tuple[str, str]:
    return _found(f"sums_to({read(rule.parts)}, {read(rule.total)})")


def _divides(rule: Divides) -> tuple[str, str]:
    totals = ", ".join(f"({literal(str(total))}, {read(total)})" for total in rule.totals)
    return _found(f"divides({read(rule.count)}, ({totals},))")


def _matches(rule: MatchesCount) -> tuple[str, str]:
    return _found(f"matches({read(rule.value)}, {read(rule.expected)})")


def _complete(rule: PerNodeComplete) -> tuple[str, str]:
    lists = ", ".join(read(found) for found in rule.lists)
    return _found(f"complete(({lists},), {read(rule.count)})")


def _topology(rule: TopologyAdmits) -> tuple[str, str]:
    return _found("topology(v.vcpus, v.max_sockets, v.max_cores, v.max_threads)")


def _at_most(rule: AtMost) -> tuple[str, str]:
    value = literal(spoken(rule.value, FACTS_BY_NAME))
    limit = literal(spoken(rule.limit, FACTS_BY_NAME))
    return _found(
        f"at_most({value}, {read(rule.value)}, {limit}, {read(rule.limit)}, {rule.scale})"
    )


def _readable(rule: Readable) -> tuple[str, str]:
    values = ", ".join(read(value) for value in rule.values)
    return _found(f"readable_{rule.reader.replace('-', '_')}({values})")


def _twin(rule: TwinClash) -> tuple[str, str] | None:
    """A twin is read into ``flavor_value`` and ``image_value`` behind a test that both (or,
    when the flavor lists what lets the image choose, the image) are set: without it no
    policy can find a clash, so most pairs never call the policy's function."""
    flavor, image = read(Spec(rule.spec)), read(Prop(rule.prop))
    names = f"{literal(rule.spec)}, {literal(rule.prop)}, {literal(rule.kind)}"
    sides = f"{names}, flavor_value, image_value"
    if rule.policy is ClashPolicy.EQUAL and rule.kind == "bool":
        both = f"(flavor_value := {flavor}) is not None and (image_value := {image}) is not None"
    else:
        both = f"(flavor_value := {flavor}) and (image_value := {image})"
    if rule.policy is ClashPolicy.EQUAL:
        # Sides spelt alike agree, without a call: the flavor's spelling of the image's
        # boolean (typed, so True or False), or the same text.
        if rule.kind == "bool":
            both += " and flavor_value not in SPELLINGS_OF.get(image_value, ())"
        elif rule.kind == "str":
            both += " and flavor_value != image_value"
        return f"{both} and (what := twin_equal({sides})) is not None", "what"
    if rule.policy is ClashPolicy.ONE_SIDE:
        return f"{both} and (what := twin_one_side({sides})) is not None", "what"
    if rule.policy is ClashPolicy.FLAVOR_LIMITS and rule.flavor_allows:
        allows = literal(rule.flavor_allows)
        image_set = f"(image_value := {image})"
        if rule.kind == "str":
            # A flavor value that lets the image choose settles it, without a call.
            image_set += f" and (flavor_value := {flavor}) not in {allows}"
            flavor = "flavor_value"
        choice = f"twin_flavor_limits({names}, {flavor}, image_value, {allows})"
        return f"{image_set} and (what := {choice}) is not None", "what"
    if rule.policy is ClashPolicy.FLAVOR_LIMITS:
        if rule.kind == "int":
            # An image count within the flavor's small count is settled without a call.
            small = "SMALL_COUNTS"
            both += f" and not (flavor_value in {small} and image_value <= {small}[flavor_value])"
        limit = f"twin_flavor_limits({sides}, ())"
        return f"{both} and (what := {limit}) is not None", "what"
    # The image or the flavor silently wins: Nova never refuses the pair.
    return None


_TESTS: dict[type, Callable[[Any], tuple[str, str] | None]] = {
    Requires: _requires,
    Conflicts: _conflicts,
    MaskWithinVcpus: _mask_within,
    CpuListsPartition: _partition,
    SumsTo: _sums_to,
    Divides: _divides,
    MatchesCount: _matches,
    PerNodeComplete: _complete,
    TopologyAdmits: _topology,
    AtMost: _at_most,
    TwinClash: _twin,
    Readable: _readable,
}


def rule_lines(
    index: int, rule: Any, constants: dict[frozenset[str], str] | None = None
) -> Iterator[str]:
    """The lines of ``broken`` that check ``rule``: when the names it needs are present, its
    condition holds and its test finds it broken, it is added with what is wrong."""
    test = _TESTS.get(type(rule))
    if test is None:
        raise UnwritableRule(f"no code for the rule kind {type(rule).__name__}")
    written = test(rule)
    yield f"    # {index}: {rule.name}"
    if written is None:
        yield "    # (never refused)"
        return
    broken, what = written
    parts = [presence_test(rule, {} if constants is None else constants)]
    if rule.when is not None:
        parts.append(expression(rule.when))
    parts.append(broken)
    yield "    if " + " and ".join(part for part in parts if part) + ":"
    yield f"        found.append(({index}, {what}))"


def broken_function(constants: dict[frozenset[str], str]) -> Iterator[str]:
    """The one function that checks every rule whose names are present; ``constants`` receives
    the sets of names it tests against."""
    yield f"def broken({_PARAMETERS}, n: Set[str]) -> list[tuple[int, str]]:"
    yield '    """The rules the flavor and image break, as (rule number, what is wrong), in the'
    yield "    catalogue's order. ``n`` holds the names present, as the rules spell them: a rule"
    yield '    is looked at only when the names it needs are there."""'
    yield "    found: list[tuple[int, str]] = []"
    lines = [
        line for index, rule in enumerate(ALL_RULES) for line in rule_lines(index, rule, constants)
    ]
    if constants:
        yield "    # Whether a name of each longer group is present, tested once for every rule."
        for name in constants.values():
            yield f"    has{name.lower()} = not n.isdisjoint({name})"
    yield from lines
    yield "    return found"
    yield ""
    yield ""


# --- The tables -----------------------------------------------------------------------------


def candidates(rule: Any) -> tuple[str, ...]:
    """The names a finding of ``rule`` may list, in order, once each: a fact stands for the
    keys it is read from, and the flavor's sizes are listed only where the rule reads them
    itself (a rule that needs a real-time mask is not about the vCPU count)."""
    names: list[str] = []
    for source in rule.sources():
        if isinstance(source, Fact):
            reads = FACTS_BY_NAME[source.name].reads
            read_from = tuple(name for name in reads if name not in FLAVOR_FIELDS)
        else:
            read_from = (str(source),)
        for name in read_from:
            if name not in names:
                names.append(name)
    return tuple(names)


def _of_image(source: Any) -> bool:
    """A source read from the image alone: a property, or a fact read from properties only."""
    if isinstance(source, Fact):
        return all(name in IMAGE_PROPERTIES_BY_NAME for name in FACTS_BY_NAME[source.name].reads)
    return isinstance(source, Prop)


def demands_of_image(rule: Any) -> bool:
    """A rule that asks the image for something (``needs`` reads the image only: its
    properties, or facts read from them, such as stateless firmware)."""
    return isinstance(rule, Requires) and all(_of_image(s) for s in sources_of(rule.needs))


def triggers() -> dict[str, tuple[int, ...]]:
    """Which rules each name (a key as the rules spell it) can break."""
    by_name: dict[str, list[int]] = {}
    for index, rule in enumerate(ALL_RULES):
        for name in sorted(names_read(rule)):
            by_name.setdefault(name, []).append(index)
    return {name: tuple(found) for name, found in sorted(by_name.items())}


def _size_rules() -> Iterator[str]:
    """``SIZE_RULES``: (rule index, image field, flavor field, scale, condition or None)."""
    rows = []
    for index, rule in enumerate(ALL_RULES):
        if not (isinstance(rule, AtMost) and isinstance(rule.value, Field)):
            continue
        if not rule.value.name.startswith("image.") or not isinstance(rule.limit, Field):
            continue
        when = "None"
        if rule.when is not None:
            when = f"_when_{index}"
            # -> object: a condition returns the value whose truth it tests (a flavor's disk
            # size), as the rules' own conditions do; the callers test only that truth.
            yield f"def {when}({_PARAMETERS}) -> object:"
            yield f"    return {expression(rule.when)}"
            yield ""
            yield ""
        fields = f"{literal(rule.value.name.removeprefix('image.'))}, {literal(rule.limit.name)}"
        rows.append(f"    ({index}, {fields}, {rule.scale}, {when}),")
    yield "SIZE_RULES = ("
    yield from rows
    yield ")"
    yield ""


def _rule_table() -> Iterator[str]:
    yield "RULES = ("
    for rule in ALL_RULES:
        row = (
            rule.name,
            rule.nova_exception,
            rule.phase,
            rule.severity,
            rule.fix,
            demands_of_image(rule),
            candidates(rule),
        )
        yield f"    {literal(row)},"
    yield ")"
    yield ""


def _mapping(name: str, mapping: dict[str, Any]) -> Iterator[str]:
    """``name = {...}``, one entry a line, every key and value spelt by :func:`literal`."""
    yield f"{name} = {{"
    for key, value in mapping.items():
        yield f"    {literal(key)}: {literal(value)},"
    yield "}"
    yield ""


def _property_kinds() -> dict[str, tuple[str, tuple[str, ...]]]:
    return {prop.name: (prop.kind, prop.enum) for prop in IMAGE_PROPERTIES}


def render_lines() -> Iterator[str]:
    """Yield the lines of the generated module."""
    yield from module_header(
        "flavor-rules",
        "src/onespec/definitions/flavor_rule_catalogue.py",
        "The rules between a flavor's keys and its image's properties, as code (one function "
        "per rule), with the index of the rules each key can break.",
    )
    yield "from collections.abc import Mapping, Set"
    yield "from typing import Any"
    yield ""
    yield "from onespec.validators_runtime.flavor_parts.checks import ("
    for helper in _HELPERS:
        yield f"    {helper},"
    yield ")"
    yield "from onespec.validators_runtime.flavor_parts.facts import View"
    yield ""
    constants: dict[frozenset[str], str] = {}
    function = list(broken_function(constants))
    if constants:
        yield "#: The longer groups of names a rule needs one of (tested with one call)."
        for group, name in constants.items():
            yield f"{name} = frozenset({literal(tuple(sorted(group)))})"
    yield ""
    yield ""
    yield from function
    yield from _rule_table()
    yield from _mapping("TRIGGERS", triggers())
    yield "#: The flavor's own fields (its sizes), each with the least value Nova accepts."
    yield from _mapping("FLAVOR_FIELDS", dict(FLAVOR_FIELDS))
    yield "#: The refusals a Nova policy makes, each with the policy: an admin is not refused."
    yield from _mapping("BY_POLICY", {r.name: r.by_policy for r in ALL_RULES if r.by_policy})
    yield "#: The rules whose verdict depends on the flavor's sizes (vcpus, ram, disk...)."
    yield f"SIZED_RULES = frozenset({literal(tuple(r.name for r in ALL_RULES if reads_a_size(r)))})"
    yield ""
    yield ""
    yield from _size_rules()


def property_lines() -> Iterator[str]:
    """Yield the lines of the image-property module."""
    yield from module_header(
        "flavor-rules",
        "src/onespec/definitions/image_properties.py",
        "How Nova types each image property: its kind and, for an enumeration, its values.",
    )
    yield from _mapping("PROPERTY_KINDS", _property_kinds())
    yield "#: The older property names Nova still reads, each with the property it sets."
    yield from _mapping("LEGACY_NAMES", LEGACY_NAMES)
    yield "#: The enumerations Nova lower-cases before checking, with the older spellings of each."
    yield "CANONICAL_SPELLINGS = {"
    for name, spellings in CANONICAL_SPELLINGS.items():
        yield f"    {literal(name)}: {{"
        yield from (f"        {literal(old)}: {literal(new)}," for old, new in spellings.items())
        yield "    },"
    yield "}"
    yield ""
    yield "#: Glance's own fields, which the client prints among an image's properties."
    yield f"GLANCE_IMAGE_FIELDS = frozenset({literal(GLANCE_IMAGE_FIELDS)})"
    yield "#: The prefix of the properties Glance reserves for itself."
    yield f"GLANCE_RESERVED_PREFIX = {literal(GLANCE_RESERVED_PREFIX)}"


def render() -> dict[Path, str]:
    return {
        OUTPUT: module_text(render_lines()),
        PROPERTIES_OUTPUT: module_text(property_lines()),
    }


def output() -> Output:
    """The ``flavor-rules`` output: ``_generated/flavor_rules.py`` and
    ``_generated/image_properties.py``."""
    return Output("flavor-rules", render)
