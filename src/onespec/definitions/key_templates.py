"""How a key template (``hw:numa_cpus.{id}``) becomes a regular expression, and how a pattern
is anchored to the whole text: written once, for the definitions, the generator and the runtime.

A template is a sequence of parts: literal text (a ``str``) and parameters. Each caller keeps
its own form of a parameter (a :class:`~onespec.definitions.model.Parameter`, a plain record of
the generated tables) and hands over ``(group name, regex)`` pairs, so the rule itself -- literal
text escaped, each parameter a named group -- lives here alone. Standard library only and no
import of the project: the runtime imports this at startup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: A template part as this module reads it: literal text, or ``(group name, regex)``.
Part = str | tuple[str, str]

#: The pattern of an int parameter that names none: digits, so never a negative number.
DIGITS_PATTERN = "[0-9]+"

#: The very end of the text. Python's ``$`` also matches before a final newline and ECMA-262's
#: does not; refusing a following newline makes both mean the end.
END = r"$(?!\n)"


def template_regex(parts: Iterable[Part]) -> str:
    """The regular expression of a key template, to be used with ``fullmatch``.

    Literal text is escaped (the dot of ``hw:numa_cpus.{id}`` is a dot, so ``hw:numa_cpus_0``
    does not match); each parameter is the named group ``(?P<name>regex)``, which keeps its
    value addressable even when its own regex has capturing groups.
    """
    return "".join(
        re.escape(part) if isinstance(part, str) else f"(?P<{part[0]}>{part[1]})" for part in parts
    )


def template_text(parts: Iterable[str | tuple[str, *tuple[object, ...]]]) -> str:
    """A template written back as text: literal parts as they are, parameters as ``{name}``.

    A parameter is any tuple that starts with its name (a pair, a generated table's record).
    """
    return "".join(part if isinstance(part, str) else f"{{{part[0]}}}" for part in parts)


def anchored(pattern: str) -> str:
    """A pattern that must match the whole text, for readers that search (JSON Schema's
    ``pattern``, OpenAPI), read alike by Python's ``re`` and ECMA-262."""
    return f"^(?:{pattern}){END}"


__all__ = ["DIGITS_PATTERN", "END", "Part", "anchored", "template_regex", "template_text"]
