"""reStructuredText for the reference of template capabilities, from the definitions.

Each section (``capabilities``, ``requires``) and each well-known key becomes an
``.. onespec:capability::`` object, so Sphinx indexes them and ``:onespec:capability:`` links to
them. The lines are shared by the ``onespec:auto-capabilities`` directive and anything else that
wants rST.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Literal

from onespec.definitions import template_capabilities as grammar
from onespec.generator.rst import literal

#: The index group of every capability object.
TOPIC = "template capabilities"

Part = Literal["all", "sections", "keys", "rules", "heat"]
PARTS: tuple[str, ...] = ("all", "sections", "keys", "rules", "heat")

_FILE_KINDS = {"template": "a HOT template", "environment": "an environment"}
_KEY_KINDS = {
    "type": "type-based: selects templates by the resource types they implement",
    "label": "label-based: matched against the environment's ``requires``",
}


def capability_ref(name: str) -> str:
    """A cross-reference to the capability object ``name``."""
    return f":onespec:capability:`{name}`"


def _indent(lines: Iterable[str], prefix: str = "   ") -> Iterator[str]:
    for line in lines:
        yield f"{prefix}{line}" if line else ""


def _paragraph(text: str) -> Iterator[str]:
    yield from text.strip().splitlines()


def section_lines(section: grammar.Section) -> Iterator[str]:
    """One section as an ``onespec:capability`` object."""
    yield f".. onespec:capability:: {section.name}"
    yield f"   :topic: {TOPIC}"
    yield ""
    body = [
        *_paragraph(section.summary),
        "",
        *_paragraph(section.description),
        "",
        f":In: {_FILE_KINDS[section.file_kind]}, at the top level",
        ":Value: a mapping of names to a string or a list of strings",
    ]
    keys = [capability_ref(k.name) for k in grammar.KEYS if section.name in k.sections]
    if keys:
        body.append(f":Well-known keys: {', '.join(keys)}")
    forbidden = grammar.forbidden_in(section.name)
    if forbidden:
        body.append(f":Not allowed: {', '.join(literal(name) for name in forbidden)}")
    body += ["", ".. code-block:: yaml", "", *_indent(section.example.rstrip("\n").splitlines())]
    yield from _indent(body)
    yield ""


def key_lines(key: grammar.CapabilityKey) -> Iterator[str]:
    """One well-known key as an ``onespec:capability`` object."""
    yield f".. onespec:capability:: {key.name}"
    yield f"   :topic: {TOPIC}"
    yield ""
    body = [
        *_paragraph(key.summary),
        "",
        *_paragraph(key.description),
        "",
        f":Kind: {_KEY_KINDS[key.kind]}",
        f":Allowed in: {', '.join(capability_ref(name) for name in key.sections)}",
    ]
    if key.examples:
        body.append(f":Examples: {', '.join(literal(example) for example in key.examples)}")
    yield from _indent(body)
    yield ""


def rules_lines() -> Iterator[str]:
    """The rules of the grammar and of resolution, as a bullet list."""
    for rule in grammar.RULES:
        text = " ".join(rule.text.split())
        yield f"* {text}"
    yield ""


def heat_lines() -> Iterator[str]:
    """The facts of Heat that resolution respects."""
    sections = ", ".join(literal(name) for name in grammar.ENVIRONMENT_SECTIONS)
    hot = ", ".join(
        literal(name) + (f" (since {since})" if since else "")
        for name, since in grammar.HOT_SECTIONS.items()
    )
    versions = ", ".join(literal(key) for key in grammar.TEMPLATE_VERSION_KEYS)
    yield f"* A file is a template when it has one of {versions}."
    yield f"* A template is at most {grammar.MAX_TEMPLATE_SIZE:,} characters long."
    yield f"* An environment has only the sections {sections}, none of them empty."
    yield f"* A HOT template has only the sections {hot}."
    yield (
        "* A registry value is a template path, a resource type, ``null`` or a mapping; lists "
        f"only as {', '.join(literal(k) for k in grammar.REGISTRY_LIST_KEYS)}."
    )
    yield ""


def lines(part: Part = "all") -> Iterator[str]:
    """The reference of template capabilities, whole or one part of it."""
    if part in ("all", "sections"):
        for section in grammar.SECTIONS:
            yield from section_lines(section)
    if part in ("all", "keys"):
        for key in grammar.KEYS:
            yield from key_lines(key)
    if part == "all":
        yield ".. rubric:: Rules"
        yield ""
    if part in ("all", "rules"):
        yield from rules_lines()
    if part == "all":
        yield ".. rubric:: What Heat accepts"
        yield ""
    if part in ("all", "heat"):
        yield from heat_lines()
