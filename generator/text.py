"""reStructuredText as plain text: the one conversion every generated description goes through."""

from __future__ import annotations

import re

_ROLE = re.compile(r":[\w:.+-]+:`([^`<]*?)\s*(?:<[^>]*>)?`")
_LINK = re.compile(r"`([^`<]*?)\s*(?:<[^>]*>)?`__?")
_INLINE_LITERAL = re.compile(r"``(.+?)``")
_EMPHASIS = re.compile(r"\*{1,2}([^*\s][^*]*?)\*{1,2}")
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)[.!?](?=\s+[A-Z(\"'])")


def plain_text(text: str) -> str:
    """reStructuredText markup stripped to what a tooltip can show, on one line."""
    for pattern in (_ROLE, _LINK, _INLINE_LITERAL, _EMPHASIS):
        text = pattern.sub(r"\1", text)
    return " ".join(text.split())


def first_sentence(text: str) -> str:
    """The first sentence of plain text (all of it when there is only one)."""
    match = _SENTENCE_END.search(text)
    return text[: match.end()] if match else text
