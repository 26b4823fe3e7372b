"""The digits Python's ``int()`` and ``re``'s ``\\d`` read: Unicode's decimal digits.

Nova reads integer extra specs with ``int()`` and matches its value patterns with Python's
``re``, whose ``\\d`` is any decimal digit (category Nd), not only ``0``-``9``: ``٣`` is 3 and
``１２`` is 12, in any mix of scripts. The schemas must take the same strings, and ECMA-262 has
no class for them, so they are spelt out from this table.

Unicode places each script's decimal digits in one run, zero to nine, so the table holds each
run's zero. It is Unicode 14.0.0's (Python 3.11's, the oldest Python onespec supports), written
out rather than read from the running Python so that the schemas are the same whichever Python
generates them; later Pythons know a few more scripts (Unicode 15 adds Kawi and Nag Mundari),
whose digits they read and the schemas do not.

The schemas take the digits of the Basic Multilingual Plane only (:data:`SPELT`): a pattern
must mean the same in ECMA-262 with and without the ``u`` flag, and without it a character
beyond that plane is two UTF-16 code units, which no character class can range over. The
29 runs beyond it (mathematical digits such as ``𝟑``, and scripts such as Adlam) are a
documented difference: the runtime takes them, the schemas do not.
"""

from __future__ import annotations

#: The Unicode version the table is taken from.
UNICODE_VERSION = "14.0.0"

#: The code point of the zero of every run of decimal digits, in order.
ZEROS: tuple[int, ...] = (
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66,
    0x0CE6, 0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946,
    0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0,
    0xA9F0, 0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0,
    0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50,
    0x11DA0, 0x16A60, 0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140,
    0x1E2F0, 0x1E950, 0x1FBF0,
)  # fmt: skip


#: The zeros whose runs the schemas spell out: those of the Basic Multilingual Plane.
SPELT: tuple[int, ...] = tuple(zero for zero in ZEROS if zero + 9 <= 0xFFFF)


def members(low: int, high: int) -> str:
    """The members of a character class of the digits worth ``low`` to ``high`` in every
    script the schemas spell out (:data:`SPELT`), as ranges of literal characters."""
    spans: list[list[int]] = []
    for zero in SPELT:
        first, last = zero + low, zero + high
        if spans and spans[-1][1] + 1 == first:
            spans[-1][1] = last
        else:
            spans.append([first, last])
    return "".join(
        chr(first) if first == last else f"{chr(first)}-{chr(last)}" for first, last in spans
    )


__all__ = ["SPELT", "UNICODE_VERSION", "ZEROS", "members"]
