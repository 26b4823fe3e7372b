"""reStructuredText as plain text: the one conversion every generated description goes through."""

from __future__ import annotations

import re

_ROLE = re.compile(r":[\w:.+-]+:`([^`<]*?)\s*(?:<[^>]*>)?`")
_LINK = re.compile(r"`([^`<]*?)\s*(?:<[^>]*>)?`__?")
_INLINE_LITERAL = re.compile(r"``(.+?)``")
_QUOTED_LITERAL = re.compile(r"``(.+?)``", re.DOTALL)
_EMPHASIS = re.compile(r"\*{1,2}([^*\s][^*]*?)\*{1,2}")
#: The end of a sentence: the next one starts with a capital, a digit, a quote, a parenthesis or
#: reStructuredText markup (a literal, a role); abbreviations end none.
_SENTENCE_END = re.compile(
    r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bcf)[.!?](?=\s+[A-Z0-9(\"'`:*])"
)


def plain_text(text: str, *, paragraphs: bool = False) -> str:
    """reStructuredText as plain text, for readers that show text raw.

    Roles, links and emphasis keep only their text. By default the result is one line with
    literals unmarked (schema descriptions, tooltips). With ``paragraphs``, as Horizon shows a
    metadef's description: literals become "quoted", wrapped lines are joined, and paragraphs
    and bullet items keep their line breaks.
    """
    if paragraphs:
        text = _QUOTED_LITERAL.sub(lambda match: f'"{match.group(1)}"', text)
    for pattern in (_ROLE, _LINK, _INLINE_LITERAL, _EMPHASIS):
        text = pattern.sub(r"\1", text)
    if not paragraphs:
        return " ".join(text.split())
    kept = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        lines: list[str] = []
        for line in paragraph.splitlines():
            line = line.strip()
            if lines and not line.startswith("* "):
                lines[-1] += " " + line
            else:
                lines.append(line)
        kept.append("\n".join(lines))
    return "\n\n".join(p for p in kept if p)


def first_sentence(text: str) -> str:
    """The first sentence of a text, on one line (all of it when there is only one).

    A sentence ends at ``.``, ``!`` or ``?`` followed by space and a capital letter, a digit,
    a quote, a parenthesis or markup; never at an abbreviation (``e.g.``, ``i.e.``, ``etc.``,
    ``vs.``), a version number (``2.1``) or a name (``hw:numa_cpus.0``). Every summary -- the
    reference's tables, the JSON Schemas' descriptions -- cuts here, so all show one sentence.
    """
    flat = " ".join(text.split())
    match = _SENTENCE_END.search(flat)
    return flat[: match.end()] if match else flat
