"""A diff as text, JSON, reStructuredText or a reno release note."""

from __future__ import annotations

import json
from collections.abc import Sequence

import yaml

from onespec.generator.review.compare import Change


def text(changes: Sequence[Change], old: str, new: str) -> str:
    lines = [f"{len(changes)} change(s) from {old} to {new}:"]
    for change in changes:
        mark = "BREAKING" if change.breaks else "ok      "
        lines.append(f"{mark} {change.kind:<20} {change.message}")
        lines.append(f"         {'':<20} {change.verdict}")
    return "\n".join(lines) + "\n"


def as_json(changes: Sequence[Change], old: str, new: str) -> str:
    data = {"old": old, "new": new, "changes": [c.as_dict() for c in changes]}
    return json.dumps(data, indent=2) + "\n"


def rst(changes: Sequence[Change], old: str, new: str) -> str:
    title = f"Extra-spec changes from {old} to {new}"
    lines = [title, "=" * len(title), ""]
    lines += [".. list-table::", "   :header-rows: 1", ""]
    lines += ["   * - Key", "     - Change", "     - Breaks existing flavors?"]
    for change in changes:
        lines += [
            f"   * - ``{change.key}``",
            f"     - {change.message}",
            f"     - {change.verdict.removeprefix('Breaks existing flavors? ')}",
        ]
    return "\n".join(lines) + "\n"


def reno(changes: Sequence[Change], old: str, new: str) -> str:
    """A release note: breaking changes under upgrade, deprecations, additions under features."""
    sections: dict[str, list[str]] = {"upgrade": [], "deprecations": [], "features": []}
    for change in changes:
        note = f"Flavor extra spec ``{change.key}``: {change.message}. {change.verdict}"
        if change.breaks:
            sections["upgrade"].append(note)
        elif change.kind == "deprecated":
            sections["deprecations"].append(note)
        else:
            sections["features"].append(note)
    document = {section: notes for section, notes in sections.items() if notes}
    return yaml.safe_dump(document, sort_keys=False, width=88, allow_unicode=True)


RENDERERS = {"text": text, "json": as_json, "rst": rst, "reno": reno}
