"""Write the rules between keys as plain code for the runtime: ``_generated/flavor_rules.py``.

Checking a flavor (and its image) runs on every extra-spec write and every fleet pair, so the
rules of :mod:`onespec.definitions.flavor_rule_catalogue` are not interpreted at run time. The
module holds one function, ``broken``, with one ``if`` a rule: the rule's bit among those to
check, its condition and its test, written out as Python expressions over the view (an extra
spec is ``s.get(KEY)``, an image property ``p.get(NAME)``, a fact ``v.NAME``); a kind with
arithmetic calls its function in :mod:`onespec.validators_runtime.flavors.checks` with the
values already read. So checking a rule costs no call, no look-up of its kind and no walk over
its condition. Beside ``broken`` the module holds:

``RULES``
    per rule, in the catalogue's order (Nova's refusals in Nova's order within each phase,
    then the warnings): its name, Nova exception, phase, severity, what to change, whether it
    only asks something of the image, and the names whose spellings a finding lists;
``TRIGGERS`` and ``ALWAYS``
    which rules a name (a key as the rules spell it) can break, and the rules that read
    nothing but the flavor's vCPUs and RAM, so the runtime evaluates only the rules whose keys
    are present;
``FLAVOR_FIELDS``
    the flavor's own fields (its sizes) and the least value Nova accepts for each;
``SIZE_RULES``
    the rules that compare an image's size field with a flavor's, which the fleet counts per
    flavor instead of per pair.

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
from onespec.definitions.flavor_rule_catalogue import (
    RULES,
    WARNINGS,
    names_read,
    reads_a_size,
)
from onespec.definitions.flavor_rules import (
    FLAVOR_FIELDS,
    AllOf,
    AnyOf,
    AtMost,
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
    Requires,
    Spec,
    SumsTo,
    TopologyAdmits,
    Truthy,
    TwinClash,
    describe,
    sources_of,
)
from onespec.definitions.image_properties import IMAGE_PROPERTIES
from onespec.generator.literals import literal, module_header, module_text
from onespec.generator.outputs import Output, generated_module

#: Nova's refusals, then the warnings: the runtime checks both, in this order.
ALL_RULES = (*RULES, *WARNINGS)

#: Where the modules are written.
OUTPUT = generated_module("flavor_rules")
PROPERTIES_OUTPUT = generated_module("image_properties")

_HELPERS = (
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
    "sums_to",
    "topology",
    "twin_equal",
    "twin_flavor_limits",
    "twin_one_side",
)


#: Every generated function reads the view, its extra specs and its image's typed properties.
_PARAMETERS = "v: View, s: Mapping[str, str], p: Mapping[str, Any]"


class UnwritableRule(TypeError):
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


# --- One test per rule kind ----------------------------------------------------------------
#
# A rule's test is an expression that holds when the rule is broken. A kind whose words are
# fixed (Requires, Conflicts) gives its message as a literal; the others call their kind's
# function in checks.py, which returns the words or None, bound to ``what``.


def _requires(rule: Requires) -> tuple[str, str]:
    message = f"When {describe(rule.when)}, Nova needs {describe(rule.needs, needed=True)}"
    if rule.severity == "warning":
        message = f"{describe(rule.when)}, but what makes it count does not hold: " + describe(
            rule.needs
        )
    return negation(rule.needs), literal(message)


def _conflicts(rule: Conflicts) -> tuple[str, str]:
    message = f"{describe(rule.first)} while {describe(rule.second)}"
    return f"{expression(rule.first)} and {expression(rule.second)}", literal(message)


def _found(call: str) -> tuple[str, str]:
    return f"(what := {call}) is not None", "what"


def _mask_within(rule: MaskWithinVcpus) -> tuple[str, str]:
    allowed = "False" if rule.all_allowed_when is None else expression(rule.all_allowed_when)
    name = literal(rule.mask.name)
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
    value, limit = literal(str(rule.value)), literal(str(rule.limit))
    return _found(
        f"at_most({value}, {read(rule.value)}, {limit}, {read(rule.limit)}, {rule.scale})"
    )


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
        return f"{both} and (what := twin_equal({sides})) is not None", "what"
    if rule.policy is ClashPolicy.ONE_SIDE:
        return f"{both} and (what := twin_one_side({sides})) is not None", "what"
    if rule.policy is ClashPolicy.FLAVOR_LIMITS and rule.flavor_allows:
        allows = literal(rule.flavor_allows)
        choice = f"twin_flavor_limits({names}, {flavor}, image_value, {allows})"
        return f"(image_value := {image}) and (what := {choice}) is not None", "what"
    if rule.policy is ClashPolicy.FLAVOR_LIMITS:
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
}


def rule_lines(index: int, rule: Any) -> Iterator[str]:
    """The lines of ``broken`` that check ``rule``: when its bit is among the rules to check,
    its condition holds and its test finds it broken, it is added with what is wrong."""
    test = _TESTS.get(type(rule))
    if test is None:
        raise UnwritableRule(f"no code for the rule kind {type(rule).__name__}")
    written = test(rule)
    yield f"    # {index}: {rule.name}"
    if written is None:
        yield "    # (never refused)"
        return
    broken, what = written
    when = "" if rule.when is None else f" and {expression(rule.when)}"
    yield f"    if rules & {1 << index}{when} and {broken}:"
    yield f"        found.append(({index}, {what}))"


def broken_function() -> Iterator[str]:
    """The one function that checks every rule whose bit is set in ``rules``."""
    yield f"def broken({_PARAMETERS}, rules: int) -> list[tuple[int, str]]:"
    yield '    """The rules among ``rules`` (bit N: rule N) that the flavor and image break, as'
    yield "    (rule number, what is wrong), in the catalogue's order."
    yield '    """'
    yield "    found: list[tuple[int, str]] = []"
    for index, rule in enumerate(ALL_RULES):
        yield from rule_lines(index, rule)
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


def demands_of_image(rule: Any) -> bool:
    """A rule that asks the image for something (``needs`` reads image properties only)."""
    return isinstance(rule, Requires) and all(
        isinstance(source, Prop) for source in sources_of(rule.needs)
    )


def triggers() -> tuple[dict[str, tuple[int, ...]], tuple[int, ...]]:
    """Which rules each name can break, and the rules every flavor runs."""
    by_name: dict[str, list[int]] = {}
    always = []
    for index, rule in enumerate(ALL_RULES):
        names = names_read(rule)
        if not names:
            always.append(index)
        for name in sorted(names):
            by_name.setdefault(name, []).append(index)
    return {name: tuple(found) for name, found in sorted(by_name.items())}, tuple(always)


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
            yield f"def {when}({_PARAMETERS}) -> bool:"
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
        "definitions/flavor_rule_catalogue.py",
        "The rules between a flavor's keys and its image's properties, as code (one function "
        "per rule), with the index of the rules each key can break.",
    )
    yield "from collections.abc import Mapping"
    yield "from typing import Any"
    yield ""
    yield "from onespec.validators_runtime.flavors.checks import ("
    for helper in _HELPERS:
        yield f"    {helper},"
    yield ")"
    yield "from onespec.validators_runtime.flavors.facts import View"
    yield ""
    yield ""
    yield from broken_function()
    yield from _rule_table()
    by_name, always = triggers()
    yield from _mapping("TRIGGERS", by_name)
    yield f"ALWAYS = {literal(always)}"
    yield ""
    yield "#: The flavor's own fields (its sizes), each with the least value Nova accepts."
    yield from _mapping("FLAVOR_FIELDS", dict(FLAVOR_FIELDS))
    yield "#: The rules whose verdict depends on the flavor's sizes (vcpus, ram, disk...)."
    yield f"SIZED_RULES = frozenset({literal(tuple(r.name for r in ALL_RULES if reads_a_size(r)))})"
    yield ""
    yield ""
    yield from _size_rules()


def property_lines() -> Iterator[str]:
    """Yield the lines of the image-property module."""
    yield from module_header(
        "flavor-rules",
        "definitions/image_properties.py",
        "How Nova types each image property: its kind and, for an enumeration, its values.",
    )
    yield from _mapping("PROPERTY_KINDS", _property_kinds())


def render() -> dict[Path, str]:
    return {
        OUTPUT: module_text(render_lines()),
        PROPERTIES_OUTPUT: module_text(property_lines()),
    }


def output() -> Output:
    """The ``flavor-rules`` output: ``_generated/flavor_rules.py`` and
    ``_generated/image_properties.py``."""
    return Output("flavor-rules", render)
