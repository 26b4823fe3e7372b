"""CPU sets as Nova writes them (``0-3,^2,6``) and page sizes as Nova reads them."""

from __future__ import annotations

import re

from onespec.errors import OnespecError


class CpuSpecError(OnespecError, ValueError):
    """A CPU set that cannot be read."""


def parse_cpu_spec(spec: str) -> set[int]:
    """The CPUs of a CPU set: single CPUs and ranges are included, ``^N`` and ``^N-M`` then
    excluded; empty parts are skipped."""
    included: set[int] = set()
    excluded: set[int] = set()
    for part in str(spec).split(","):
        part = part.strip()
        if not part:
            continue
        target = included
        if part.startswith("^"):
            target, part = excluded, part[1:]
        first, dash, last = part.partition("-")
        try:
            if dash:
                start, end = int(first.strip()), int(last.strip())
                if start > end:
                    raise CpuSpecError(f"the range {part!r} runs backwards")
                if end - start > 65536:
                    raise CpuSpecError(f"the range {part!r} is too large")
                target.update(range(start, end + 1))
            else:
                target.add(int(part))
        except ValueError:
            raise CpuSpecError(f"{part!r} is not a CPU number or range") from None
    return included - excluded


def vcpu_mask(mask: str, vcpus: int) -> set[int]:
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
