"""The rules between keys, written as code: every fact they read exists, every rule has its
bit, and text from the definitions reaches the source only as literals."""

from __future__ import annotations

import pytest

from onespec.definitions.flavor_facts import FACTS
from onespec.definitions.flavor_rule_catalogue import RULES, WARNINGS
from onespec.definitions.flavor_rule_queries import names_read
from onespec.definitions.flavor_rules import Fact, In, Present, Requires, Spec
from onespec.generator.flavors import runtime
from onespec.validators_runtime._generated import flavor_rules as generated
from onespec.validators_runtime.flavor_parts.facts import View, fact, grouped


def test_every_fact_the_rules_name_is_computed_by_the_view():
    computed = {name for name, value in vars(View).items() if isinstance(value, fact | grouped)}
    assert {f.name for f in FACTS} <= computed


def test_every_rule_and_warning_is_in_the_table_in_the_catalogues_order():
    assert [row[0] for row in generated.RULES] == [r.name for r in (*RULES, *WARNINGS)]
    assert [row[3] for row in generated.RULES] == [r.severity for r in (*RULES, *WARNINGS)]


def test_each_name_triggers_exactly_the_rules_that_read_it():
    for index, rule in enumerate((*RULES, *WARNINGS)):
        triggered_by = {name for name, found in generated.TRIGGERS.items() if index in found}
        assert triggered_by == names_read(rule), rule.name


def test_text_from_the_definitions_reaches_the_source_only_as_literals():
    hostile = "x'\"\\\n); import os #"
    rule = Requires(
        "hostile",
        "Nova'Exception",
        "api",
        hostile,
        when=Present(Spec(hostile)),
        needs=In(Spec("hw:cpu_policy"), (hostile,)),
    )
    source = "\n".join(runtime.rule_lines(0, rule))
    assert "\n    import" not in source
    namespace: dict = {}
    function = "def f(v, s, p, n):\n    found = []\n" + source + "\n    return found"
    exec(compile(function, "<rule>", "exec"), namespace)  # noqa: S102 - the code under test
    assert namespace["f"](None, {hostile: "1"}, {}, {hostile}) == [
        (0, f"When {hostile} is set, Nova needs hw:cpu_policy to be {hostile!r}")
    ]


def test_a_fact_the_view_does_not_compute_is_refused():
    with pytest.raises(runtime.UnwritableRule):
        runtime.read(Fact("no_such_fact"))


def test_presence_tests_look_for_an_image_list_under_its_typed_name():
    """The names present hold the image's typed properties, where per-node lists are one
    entry each (``hw_numa_cpus``): a test for ``hw_numa_cpus.N`` would never hold."""
    groups = [group for rule in runtime.ALL_RULES for group in runtime.presence_groups(rule)]
    names = set().union(*groups)
    assert {"hw_numa_cpus", "hw_numa_mem", "hw:numa_cpus.N"} <= names
    assert not {name for name in names if name.endswith(".N") and ":" not in name}
