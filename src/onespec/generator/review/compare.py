"""What changed between two catalogues, key by key, most breaking first.

Each change says whether it breaks existing flavors: a flavor that validated before may be
refused after (a removed key or enum member, a narrowed bound or length, a new pattern, another
type), or silently mean something else (a changed default). Renames are found two ways: the new
catalogue deprecates the old key with a replacement (a deprecation, not breaking), or a removed
and an added key of the same namespace are spelled with the same words and accept the same
values (``hw:max_cpu_sockets`` -> ``hw:cpu_max_sockets``: breaking, nothing keeps the old name).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from onespec.definitions.model import ExtraSpec, type_name

#: Change kinds, in the order a reviewer reads them (most breaking first).
KINDS = (
    "removed",
    "renamed",
    "type",
    "bound",
    "enum-member-removed",
    "pattern",
    "max-length",
    "default",
    "status",
    "deprecated",
    "virt-driver",
    "enum-member-added",
    "added",
)


@dataclass(frozen=True)
class Change:
    """One change of one key: kind, key, a sentence, and whether existing flavors break."""

    kind: str
    key: str
    message: str
    breaks: bool
    verdict: str

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "key": self.key,
            "message": self.message,
            "breaks_existing_flavors": self.breaks,
            "verdict": self.verdict,
        }


def _words(name: str) -> tuple[str, frozenset[str]]:
    namespace, _, rest = name.partition(":")
    return namespace, frozenset(re.split(r"[_.:]", rest))


def _same_values(old: ExtraSpec, new: ExtraSpec) -> bool:
    a, b = old.value, new.value
    return (a.type, a.min, a.max, a.enum_values, a.pattern) == (
        b.type,
        b.min,
        b.max,
        b.enum_values,
        b.pattern,
    )


def _yes(why: str) -> str:
    return f"Breaks existing flavors? Yes: {why}."


def _no(why: str) -> str:
    return f"Breaks existing flavors? No: {why}."


def compare(old: Sequence[ExtraSpec], new: Sequence[ExtraSpec]) -> list[Change]:
    """Every change from *old* to *new*, most breaking first, then by key."""
    before = {d.name: d for d in old}
    after = {d.name: d for d in new}
    changes: list[Change] = []
    removed = [name for name in before if name not in after]
    added = [name for name in after if name not in before]
    renamed: dict[str, str] = {}
    for name in removed:
        words = _words(name)
        for candidate in added:
            if candidate in renamed.values():
                continue
            if _words(candidate) == words and _same_values(before[name], after[candidate]):
                renamed[name] = candidate
                break
    for name in removed:
        if name in renamed:
            target = renamed[name]
            changes.append(
                Change(
                    "renamed",
                    name,
                    f"{name} was renamed {target}; the old name is no longer defined",
                    True,
                    _yes(f"flavors setting {name} must set {target} instead"),
                )
            )
        else:
            changes.append(
                Change(
                    "removed",
                    name,
                    f"{name} was removed",
                    True,
                    _yes(f"flavors setting {name} are refused or lose its effect"),
                )
            )
    for name in added:
        if name in renamed.values():
            continue
        changes.append(
            Change("added", name, f"{name} was added", False, _no("a new key is opt-in"))
        )
    for name in before.keys() & after.keys():
        changes.extend(_changes(before[name], after[name]))
    order = {kind: index for index, kind in enumerate(KINDS)}
    changes.sort(key=lambda c: (not c.breaks, order[c.kind], c.key))
    return changes


def _changes(old: ExtraSpec, new: ExtraSpec) -> Iterable[Change]:
    name = new.name
    a, b = old.value, new.value
    if a.type is not b.type:
        yield Change(
            "type",
            name,
            f"{name}: type {type_name(a.type)} -> {type_name(b.type)}",
            True,
            _yes("values of the old type may be refused"),
        )
        return
    for label, low_old, low_new, high_old, high_new in (("value", a.min, b.min, a.max, b.max),):
        narrowed = (low_new is not None and (low_old is None or low_new > low_old)) or (
            high_new is not None and (high_old is None or high_new < high_old)
        )
        if (low_old, high_old) != (low_new, high_new):
            text = f"{name}: {label} bounds [{_b(low_old)}, {_b(high_old)}] -> "
            text += f"[{_b(low_new)}, {_b(high_new)}]"
            yield Change(
                "bound",
                name,
                text,
                narrowed,
                _yes("values outside the new bounds are refused")
                if narrowed
                else _no("the bounds only widened"),
            )
    gone = [v for v in a.enum_values if v not in b.enum_values] if b.enum else []
    if gone:
        yield Change(
            "enum-member-removed",
            name,
            f"{name}: no longer accepts {', '.join(gone)}",
            True,
            _yes(f"flavors with {name}={gone[0]} are refused"),
        )
    if a.enum and not b.enum:
        yield Change(
            "enum-member-added",
            name,
            f"{name}: no longer restricted to an enum",
            False,
            _no("every value accepted before is still accepted"),
        )
    new_members = [v for v in b.enum_values if v not in a.enum_values] if a.enum else []
    if new_members:
        yield Change(
            "enum-member-added",
            name,
            f"{name}: now also accepts {', '.join(new_members)}",
            False,
            _no("new values are opt-in"),
        )
    if a.pattern != b.pattern:
        yield Change(
            "pattern",
            name,
            f"{name}: pattern {a.pattern!r} -> {b.pattern!r}",
            b.pattern is not None,
            _yes("values matching only the old pattern are refused")
            if b.pattern is not None
            else _no("the pattern was dropped"),
        )
    if a.max_length != b.max_length:
        narrowed = b.max_length is not None and (
            a.max_length is None or b.max_length < a.max_length
        )
        yield Change(
            "max-length",
            name,
            f"{name}: max length {a.max_length} -> {b.max_length}",
            narrowed,
            _yes("longer values are refused") if narrowed else _no("the limit only grew"),
        )
    if a.default != b.default:
        yield Change(
            "default",
            name,
            f"{name}: default {a.default!r} -> {b.default!r}",
            True,
            _yes("flavors that leave it unset now get another behaviour"),
        )
    if old.status.level != new.status.level:
        if new.deprecated:
            replacement = new.status.replacement
            text = f"{name} is deprecated" + (f" in favour of {replacement}" if replacement else "")
            yield Change(
                "deprecated",
                name,
                text,
                False,
                _no("it is still accepted" + (f"; move to {replacement}" if replacement else "")),
            )
        else:
            yield Change(
                "status",
                name,
                f"{name}: status {old.status.level.value} -> {new.status.level.value}",
                False,
                _no("the key is accepted as before"),
            )
    if set(old.virt_drivers) != set(new.virt_drivers):
        lost = sorted(set(old.virt_drivers) - set(new.virt_drivers))
        gained = sorted(set(new.virt_drivers) - set(old.virt_drivers))
        parts = [f"no longer {', '.join(lost)}"] if lost else []
        parts += [f"now also {', '.join(gained)}"] if gained else []
        yield Change(
            "virt-driver",
            name,
            f"{name}: virt drivers: {'; '.join(parts)}",
            bool(lost),
            _yes(f"on {', '.join(lost)} it no longer takes effect")
            if lost
            else _no("more drivers honour it"),
        )


def _b(bound: int | None) -> str:
    return "none" if bound is None else str(bound)
