"""Every whole-flavor rule's example breaks that rule, for onespec and for Nova 34.0.0.

Each rule of :mod:`onespec.definitions.flavor_rule_catalogue` carries an example: the smallest
flavor (and image) that breaks it, which the reference shows. Here each example is judged by
:func:`validate_flavor`, which must report the rule as the rule says (its code, severity, Nova
exception and phase), and by Nova's own functions (``tests/peers/nova_flavor_checks.py``, one
process for every example), which must refuse each error's example in the rule's phase with the
rule's exception, and accept each warning's example: a warning is no refusal of Nova's.
"""

from __future__ import annotations

from typing import Any

import pytest

from onespec.definitions.flavor_differences import DIFFERENCES
from onespec.definitions.flavor_rule_catalogue import RULES, WARNINGS
from onespec.definitions.flavor_rules import Example, Rule
from onespec.generator.flavors.rst import rules_lines
from onespec.validators_runtime.flavors import FlavorFinding, validate_flavor
from onespec.validators_runtime.flavors.whole_flavor import PER_KEY_EXCEPTION
from tests import peers
from tests.validators_runtime.flavors.differences import COVERS, covers

EVERY_RULE: tuple[Rule, ...] = (*RULES, *WARNINGS)


def example_of(rule: Rule) -> Example:
    assert rule.example is not None, f"{rule.name} has no example"
    return rule.example


def case_of(rule: Rule) -> dict[str, Any]:
    """The rule's example as one input of Nova's checks."""
    example = example_of(rule)
    return {"flavor": example.flavor_document(), "image": example.image_document()}


def findings_of(rule: Rule) -> list[FlavorFinding]:
    example = example_of(rule)
    return validate_flavor(example.flavor_document(), example.image_document())


def test_every_rule_has_an_example():
    assert len(EVERY_RULE) == 87
    assert [rule.name for rule in EVERY_RULE if rule.example is None] == []


def test_the_reference_shows_every_example():
    shown = [line for line in rules_lines() if line.lstrip().startswith("Example: a flavor")]
    assert len(shown) == len(EVERY_RULE)


@pytest.mark.parametrize("rule", EVERY_RULE, ids=lambda rule: rule.name)
def test_the_example_breaks_its_rule_as_the_rule_says(rule: Rule):
    findings = findings_of(rule)
    own = [finding for finding in findings if finding.code == rule.name]
    assert own, f"the example of {rule.name} breaks only {[f.code for f in findings]}"
    reported = {(f.severity, f.nova_exception, f.phase) for f in own}
    assert reported == {(rule.severity, rule.nova_exception, rule.phase)}


@pytest.mark.parametrize("rule", EVERY_RULE, ids=lambda rule: rule.name)
def test_each_key_of_an_example_is_valid_on_its_own(rule: Rule):
    """An example breaks a rule between keys, not a key's own type or values."""
    codes = [f.code for f in findings_of(rule) if f.nova_exception == PER_KEY_EXCEPTION]
    assert codes == []


RULE_NAMES = frozenset(rule.name for rule in RULES)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.name)
def test_the_rule_is_the_first_broken_in_its_phase(rule: Rule):
    """Nova stops at its first refusal in a phase: an example that broke an earlier rule of the
    same phase would show that rule's exception, not this one's. (A property Nova cannot read
    at all is reported apart from the rules.)"""
    broken = [f.code for f in findings_of(rule) if f.code in RULE_NAMES and f.phase == rule.phase]
    assert broken[0] == rule.name


def test_every_deliberate_difference_can_be_told_from_a_pair():
    assert set(COVERS) == {difference.name for difference in DIFFERENCES}


def test_no_example_is_among_the_deliberate_differences_from_nova():
    """So Nova's verdict on every example must be the rule's own, with no exception."""
    cases = [case_of(rule) for rule in EVERY_RULE]
    listed = {d.name: [c for c in cases if covers(d, c)] for d in DIFFERENCES}
    assert {name: found for name, found in listed.items() if found} == {}


def test_nova_refuses_each_error_example_and_accepts_each_warning_example():
    verdicts = peers.run_script(
        "nova", "nova_flavor_checks.py", stdin=[case_of(rule) for rule in EVERY_RULE]
    )
    expected, seen = {}, {}
    for rule, verdict in zip(EVERY_RULE, verdicts, strict=True):
        if rule.severity == "error":
            expected[rule.name] = (rule.phase, rule.nova_exception)
            seen[rule.name] = (rule.phase, verdict[rule.phase])
        else:
            expected[rule.name] = None
            seen[rule.name] = next(
                ((phase, raised) for phase, raised in verdict.items() if raised), None
            )
    wrong = {name: seen[name] for name in expected if seen[name] != expected[name]}
    assert wrong == {}, f"Nova's verdicts that differ from the rules': {wrong}"
