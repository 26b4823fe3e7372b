"""A flavor key written with an image property's spelling, and the other way round.

Nova reads ``hw:cpu_policy`` from a flavor and ``hw_cpu_policy`` from an image; each side
ignores the other's spelling without a word, so ``hw_cpu_policy=dedicated`` as an extra spec
pins nothing. Each such key is a warning that names the spelling its side reads.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from onespec.validators_runtime._generated.extra_specs import EXACT as EXACT_KEYS
from onespec.validators_runtime._generated.image_properties import PROPERTY_KINDS
from onespec.validators_runtime.flavor_parts.findings import FlavorFinding
from onespec.validators_runtime.problems import Location

#: The namespaces whose keys have an image twin spelt ``<namespace>_<rest>``.
_PREFIXES = ("hw", "os")
#: Per-node keys, read as ``NAME.0``, ``NAME.1``...: the name before the node number.
_PER_NODE = frozenset({"hw_numa_cpus", "hw_numa_mem", "hw:numa_cpus", "hw:numa_mem"})


def _stem(name: str) -> tuple[str, str]:
    """A per-node name split into its stem and ``.N``; any other name and ``""``."""
    stem, dot, node = name.rpartition(".")
    if dot and stem in _PER_NODE and node.isascii() and node.isdigit():
        return stem, f".{node}"
    return name, ""


def flavor_spelling(prop: str) -> str | None:
    """The extra spec Nova reads where an image has ``prop`` (``hw:cpu_policy`` for
    ``hw_cpu_policy``), or None when the flavor has no such key."""
    stem, node = _stem(prop)
    prefix, underscore, rest = stem.partition("_")
    if not underscore or prefix not in _PREFIXES:
        return None
    key = f"{prefix}:{rest}"
    return key + node if key in EXACT_KEYS or (node and key in _PER_NODE) else None


def image_spelling(key: str) -> str | None:
    """The image property Nova reads where a flavor has ``key`` (``hw_cpu_policy`` for
    ``hw:cpu_policy``), or None when the image has no such property."""
    stem, node = _stem(key)
    prefix, colon, rest = stem.partition(":")
    if not colon or prefix not in _PREFIXES:
        return None
    prop = f"{prefix}_{rest}"
    return prop + node if prop in PROPERTY_KINDS else None


def _warning(code: str, name: str, where: str, right: str, reads: str) -> FlavorFinding:
    return FlavorFinding(
        code=code,
        severity="warning",
        message=f"{where} {name!r} is spelt as {reads}; Nova ignores it here. "
        f"Did you mean {right!r}?",
        location=Location(path=name),
        suggestion=right,
        keys=(name,),
    )


def _found(specs: Mapping[str, Any], properties: Mapping[str, Any]) -> Iterator[FlavorFinding]:
    for key in specs:
        if isinstance(key, str) and key[:3] in ("hw_", "os_") and key not in EXACT_KEYS:
            right = flavor_spelling(key)
            if right is not None:
                yield _warning(
                    "image-property-as-extra-spec",
                    key,
                    "Extra spec",
                    right,
                    "an image property",
                )
    for name in properties:
        if isinstance(name, str) and name[:3] in ("hw:", "os:"):
            right = image_spelling(name)
            if right is not None:
                yield _warning(
                    "extra-spec-as-image-property",
                    name,
                    "Image property",
                    right,
                    "a flavor extra spec",
                )


def other_side_spellings(
    specs: Mapping[str, Any], properties: Mapping[str, Any]
) -> list[FlavorFinding]:
    """A warning for each extra spec spelt as an image property whose flavor spelling Nova
    reads, and for each image property spelt as an extra spec whose image spelling it reads."""
    return list(_found(specs, properties))
