"""Where onespec's whole-flavor verdict deliberately differs from Nova 34.0.0's own code.

Each difference says which inputs it covers (``applies``), why onespec differs, and whether the
differential test's generated pairs meet it (``generated``): a listed difference that the test
no longer sees fails it, so this list cannot outlive the behaviour it describes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FlavorDifference:
    name: str
    why: str
    applies: Callable[[Mapping[str, Any]], bool]
    generated: bool = True


#: None: every generated pair and every case of Nova's own tests agrees with Nova. Where Nova's
#: behaviour looks unintended (hw:redirected_usb_ports clashes with its image twin even when the
#: counts are equal, because a string is compared with an integer), onespec follows Nova and
#: says so in the rule's fix: the point is to know whether the pair boots.
DIFFERENCES: tuple[FlavorDifference, ...] = ()
