"""Write the resize and rebuild rules as code: ``_generated/flavor_change_rules.py``.

The rules of :mod:`onespec.definitions.flavor_change_rules` become two functions,
``broken_resize`` and ``broken_rebuild``, each one ``if`` a rule over the two sides (``o``, the
old one, and ``n``, the new one: objects with ``specs``, ``props``, ``field(name)`` and one
attribute per change fact) and the server (``c``: ``volume_backed``, ``image_changes``), and
``RULES``, one row a rule: its name, operation, Nova exception, stage, severity, what is wrong
in words, what to change and the names it reads on each side (for the finding's keys).

The generated module imports nothing of onespec: the runtime hands it the sides, so either may
be imported first.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from onespec.definitions.flavor_change_rules import CHANGE_RULES
from onespec.definitions.flavor_change_vocabulary import (
    CHANGE_FACTS,
    OPERATIONS,
    AllOf,
    AnyOf,
    Below,
    ChangeFact,
    ChangeRule,
    Equal,
    In,
    New,
    Not,
    Old,
    Outside,
    Overlaps,
    Present,
    Server,
    Truthy,
    describe,
)
from onespec.definitions.flavor_rule_catalogue import RULES as CREATE_RULES
from onespec.definitions.flavor_rules import Field, Prop, Spec
from onespec.errors import OnespecError
from onespec.generator.literals import literal, module_header, module_text
from onespec.generator.outputs import Output, generated_module

OUTPUT = generated_module("flavor_change_rules")


class UnwritableChangeRule(OnespecError, TypeError):
    """A change rule or condition the generator has no code for: a bug of the definitions."""


def read(source: Any) -> str:
    """The expression that reads ``source``, a side's value or the server's."""
    if isinstance(source, Server):
        return f"c.{source.name}"
    if isinstance(source, str | int) and not isinstance(source, bool):
        return literal(source)
    if not isinstance(source, Old | New):
        raise UnwritableChangeRule(f"not a source: {source!r}")
    side = "o" if isinstance(source, Old) else "n"
    inner = source.source
    if isinstance(inner, Spec):
        return f"{side}.specs.get({literal(inner.key)})"
    if isinstance(inner, Prop):
        return f"{side}.props.get({literal(inner.name)})"
    if isinstance(inner, Field):
        return f"{side}.field({literal(inner.name)})"
    if isinstance(inner, ChangeFact) and inner.name in CHANGE_FACTS and inner.name.isidentifier():
        return f"{side}.{inner.name}"
    raise UnwritableChangeRule(f"not a side's value: {inner!r}")


def expression(condition: Any) -> str:
    """``condition`` as a Python expression over ``o``, ``n`` and ``c``."""
    if isinstance(condition, AllOf | AnyOf):
        joiner = " and " if isinstance(condition, AllOf) else " or "
        return "(" + joiner.join(expression(part) for part in condition.conditions) + ")"
    if isinstance(condition, Not):
        inner = condition.condition
        if isinstance(inner, Equal):
            return f"{read(inner.left)} != {read(inner.right)}"
        return f"not {expression(inner)}"
    if isinstance(condition, Present):
        return f"{read(condition.source)} not in (None, '')"
    if isinstance(condition, Truthy):
        return f"bool({read(condition.source)})"
    if isinstance(condition, Equal):
        return f"({read(condition.left)} == {read(condition.right)})"
    if isinstance(condition, Below):
        return f"({read(condition.left)} < {read(condition.right)})"
    if isinstance(condition, In):
        return f"{read(condition.source)} in {literal(condition.values)}"
    if isinstance(condition, Overlaps):
        return f"not {read(condition.left)}.isdisjoint({read(condition.right)})"
    if isinstance(condition, Outside):
        others = " - ".join(read(other) for other in condition.others)
        return f"bool({read(condition.members)} - {others})"
    raise UnwritableChangeRule(f"not a condition: {condition!r}")


def names_read(rule: ChangeRule) -> tuple[tuple[str, str], ...]:
    """(side, name) of every key, property and field the rule reads, a fact standing for what
    it reads: the names a finding lists, as the sides spell them."""
    found: list[tuple[str, str]] = []
    for source in rule.sources():
        if isinstance(source, Server):
            continue
        side = "old" if isinstance(source, Old) else "new"
        inner = source.source
        names = CHANGE_FACTS[inner.name].reads if isinstance(inner, ChangeFact) else (str(inner),)
        found += [(side, name) for name in names if (side, name) not in found]
    return tuple(found)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def function_lines(operation: str) -> Iterator[str]:
    """``broken_<operation>``: the numbers of the rules of ``operation`` the change breaks."""
    yield f"def broken_{operation}(o: Any, n: Any, c: Any) -> list[int]:"
    yield f'    """The {operation} rules the change breaks, as numbers into RULES, in order."""'
    yield "    found: list[int] = []"
    for index, rule in enumerate(CHANGE_RULES):
        if rule.operation != operation:
            continue
        yield f"    # {index}: {rule.name}"
        yield f"    if {expression(rule.refused_when)}:"
        yield f"        found.append({index})"
    yield "    return found"
    yield ""
    yield ""


def render_lines() -> Iterator[str]:
    """Yield the lines of the generated module."""
    yield from module_header(
        "flavor-change-rules",
        "src/onespec/definitions/flavor_change_rules.py",
        "The rules Nova applies when a server is resized or rebuilt, as code (one `if` a rule), "
        "with a row per rule.",
    )
    yield "from typing import Any"
    yield ""
    yield ""
    for operation in OPERATIONS:
        yield from function_lines(operation)
    yield "#: name, operation, Nova exception, stage, severity, what is wrong, fix, names read."
    yield "RULES = ("
    for rule in CHANGE_RULES:
        row = (
            rule.name,
            rule.operation,
            rule.nova_exception,
            rule.stage,
            rule.severity,
            _sentence(describe(rule.refused_when)),
            rule.fix,
            names_read(rule),
        )
        yield f"    {literal(row)},"
    yield ")"
    yield ""
    yield "#: The create-time rules that read the flavor's root disk, which a volume-backed server"
    yield "#: does not use: Nova leaves them out when it resizes such a server."
    yield f"ROOT_DISK_RULES = frozenset({literal(root_disk_rules())})"
    yield ""


def root_disk_rules() -> tuple[str, ...]:
    """The names of the create-time rules that read the flavor's root disk."""
    return tuple(rule.name for rule in CREATE_RULES if Field("disk") in rule.sources())


def render() -> dict[Path, str]:
    return {OUTPUT: module_text(render_lines())}


def output() -> Output:
    """The ``flavor-change-rules`` output: ``_generated/flavor_change_rules.py``."""
    return Output("flavor-change-rules", render)
