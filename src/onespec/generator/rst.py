"""reStructuredText helpers every area's reference shares: literals, indentation, joining lines.

Every area's rST module yields lines, so that the output can be tested as a plain string and
shared by the Sphinx directives (which parse it); this module imports no area.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def literal(text: str) -> str:
    """``text`` as an inline literal, safe for any content (backslashes and backquotes too)."""
    if not text:
        return "(empty)"
    if "``" in text or "`" in text[-1:] or text != text.strip():
        # An interpreted role with escaped content keeps backquotes, backslashes and
        # surrounding spaces exactly; the escaped spaces let the role start and end.
        escaped = text.replace("\\", "\\\\").replace("`", "\\`")
        return f":code:`\\ {escaped}\\ `" if text != text.strip() else f":code:`{escaped}`"
    return f"``{text}``"


def indent(lines: Iterable[str], prefix: str = "   ") -> Iterator[str]:
    for line in lines:
        yield f"{prefix}{line}" if line else ""


def paragraph(text: str) -> Iterator[str]:
    yield from text.strip().splitlines()


def yes_no(value: bool) -> str:
    return literal("true" if value else "false")


def render(lines: Iterable[str]) -> str:
    """Join rendered lines into text ending with one newline."""
    return "\n".join(lines).rstrip("\n") + "\n"
