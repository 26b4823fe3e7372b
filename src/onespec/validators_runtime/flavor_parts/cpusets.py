"""CPU sets as Nova writes them (``0-3,^2,6``) and page sizes as Nova reads them."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable, Iterator

from onespec.errors import OnespecError


class CpuSpecError(OnespecError, ValueError):
    """A CPU set that cannot be read."""


class CpuSet:
    """A set of CPU numbers kept as the ranges that make it: sorted, disjoint, never touching.

    Written CPU sets (``0-4095,^7``) name ranges; expanding them into one number each made the
    cost of a check grow with the numbers a value spans rather than with the value: 2 KB of
    ``hw:numa_cpus.N`` took seconds and a gigabyte. Every operation here works on the ranges,
    so it costs what the text costs. It behaves as the ``set[int]`` it stands for: length,
    truth, membership, ``|``, ``&``, ``-``, and equality with a set of the same numbers.
    """

    __slots__ = ("ranges",)

    def __init__(self, ranges: Iterable[tuple[int, int]] = ()) -> None:
        merged: list[tuple[int, int]] = []
        for start, end in sorted(ranges):
            if merged and start <= merged[-1][1] + 1:
                if end > merged[-1][1]:
                    merged[-1] = (merged[-1][0], end)
            else:
                merged.append((start, end))
        self.ranges: tuple[tuple[int, int], ...] = tuple(merged)

    @classmethod
    def below(cls, count: int) -> CpuSet:
        """``0 .. count - 1``: a flavor's vCPUs."""
        return cls(((0, count - 1),) if count > 0 else ())

    @classmethod
    def of(cls, cpus: CpuSet | Iterable[int]) -> CpuSet:
        """``cpus`` as a CpuSet: itself, or the numbers of a plain set (as Nova's own image
        objects hold them, where the runtime runs inside Nova)."""
        return cpus if isinstance(cpus, CpuSet) else cls((cpu, cpu) for cpu in cpus)

    @classmethod
    def union(cls, *sets: CpuSet | Iterable[int]) -> CpuSet:
        return cls(span for cpus in sets for span in cls.of(cpus).ranges)

    def __len__(self) -> int:
        return sum(end - start + 1 for start, end in self.ranges)

    def __bool__(self) -> bool:
        return bool(self.ranges)

    def __contains__(self, cpu: object) -> bool:
        if not isinstance(cpu, int):
            return False
        at = bisect.bisect_right(self.ranges, (cpu, float("inf"))) - 1
        return at >= 0 and self.ranges[at][0] <= cpu <= self.ranges[at][1]

    def __iter__(self) -> Iterator[int]:
        for start, end in self.ranges:
            yield from range(start, end + 1)

    def first(self, count: int) -> list[int]:
        """The ``count`` lowest numbers, without walking the rest."""
        return list(itertools.islice(self, count))

    def __or__(self, other: CpuSet | Iterable[int]) -> CpuSet:
        other = CpuSet.of(other)
        return CpuSet((*self.ranges, *other.ranges))

    def __and__(self, other: CpuSet | Iterable[int]) -> CpuSet:
        other = CpuSet.of(other)
        found, mine, theirs = [], 0, 0
        while mine < len(self.ranges) and theirs < len(other.ranges):
            (a, b), (c, d) = self.ranges[mine], other.ranges[theirs]
            if max(a, c) <= min(b, d):
                found.append((max(a, c), min(b, d)))
            if b < d:
                mine += 1
            else:
                theirs += 1
        return CpuSet(found)

    def __sub__(self, other: CpuSet | Iterable[int]) -> CpuSet:
        other = CpuSet.of(other)
        found: list[tuple[int, int]] = []
        theirs = other.ranges
        at = 0
        for start, end in self.ranges:
            while at < len(theirs) and theirs[at][1] < start:
                at += 1
            cut = at
            while cut < len(theirs) and theirs[cut][0] <= end:
                if theirs[cut][0] > start:
                    found.append((start, theirs[cut][0] - 1))
                start = max(start, theirs[cut][1] + 1)
                if theirs[cut][1] > end:
                    break
                cut += 1
            if start <= end:
                found.append((start, end))
        return CpuSet(found)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CpuSet):
            return self.ranges == other.ranges
        if isinstance(other, set | frozenset):
            return len(other) == len(self) and all(cpu in self for cpu in other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.ranges)

    def __repr__(self) -> str:
        spans = (str(a) if a == b else f"{a}-{b}" for a, b in self.ranges)
        return f"CpuSet({','.join(spans)!r})"


def parse_cpu_spec(spec: str) -> CpuSet:
    """The CPUs of a CPU set: single CPUs and ranges are included, ``^N`` and ``^N-M`` then
    excluded; empty parts are skipped. Kept as ranges, so a range's size costs nothing."""
    included: list[tuple[int, int]] = []
    excluded: list[tuple[int, int]] = []
    for part in str(spec).split(","):
        part = part.strip()
        if not part:
            continue
        target = included
        if part.startswith("^"):
            target, part = excluded, part[1:]
        first, dash, last = part.partition("-")
        try:
            start = int(first.strip()) if dash else int(part)
            end = int(last.strip()) if dash else start
        except ValueError:
            raise CpuSpecError(f"{part!r} is not a CPU number or range") from None
        if start > end:
            raise CpuSpecError(f"the range {part!r} runs backwards")
        target.append((start, end))
    return CpuSet(included) - CpuSet(excluded)


def vcpu_mask(mask: str, vcpus: int) -> CpuSet:
    """A mask over a flavor's vCPUs: one that starts with ``^`` excludes from all of them."""
    if mask.strip().startswith("^"):
        return parse_cpu_spec(f"0-{vcpus - 1},{mask}")
    return parse_cpu_spec(mask)


_SIZE = re.compile(r"^[-+]?(\d*\.?\d+)([KMGTPEZYRQ]i?)?(b|bit|B)$")
_EXPONENT = {letter: power for power, letter in enumerate("KMGTPEZYRQ", 1)}
#: Nova's page-size keywords and the numbers it stands them for.
PAGE_KEYWORDS = {"small": -1, "large": -2, "any": -3}


#: More digits than any page size has: a longer number is unreadable, never handed to int(),
#: which refuses past 4,300 digits and takes time before that.
_MAX_DIGITS = 20


def page_size(request: str) -> float | None:
    """A requested page size in KiB (a keyword's negative code), or None when unreadable.

    Digits are decimal digits of any script (what int() reads, as Nova does); ``²`` or ``①``,
    which ``str.isdigit`` takes but int() refuses, are unreadable, as is a number longer than
    any page size (both once raised out of here)."""
    if request in PAGE_KEYWORDS:
        return PAGE_KEYWORDS[request]
    if len(request) > _MAX_DIGITS + 4:  # the digits, a unit and its suffix
        return None
    if request.isdecimal():
        return int(request)
    match = _SIZE.match(request)
    if match is None:
        return None
    number = float(match[1]) * 1024 ** _EXPONENT.get((match[2] or " ")[0], 0)
    if match[3] != "B":
        number /= 8
    return number / 1024
