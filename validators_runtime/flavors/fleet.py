"""A fleet: every flavor on its own, then every flavor with every image, grouped by cause.

A cloud has hundreds of flavors and thousands of images, so the pairs are not checked one by
one: images are grouped by what the rules read of them (the properties that take part in a
rule, ``min_ram``, ``min_disk`` and the size in whole GiB, which is all a size check compares),
and each flavor is checked once per group. What is kept per cause (a rule broken by one
flavor) is a count and a few names, so memory does not grow with the number of pairs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from onespec.validators_runtime.flavors import (
    TRIGGER_NAMES,
    Flavor,
    FlavorFinding,
    Image,
    normalized_names,
    rule_findings,
    validate_flavor,
)
from onespec.validators_runtime.flavors.image_props import typed_properties

_GIB = 1024**3
#: How many image names a cause lists before "and N more".
EXAMPLES = 3


def signature(image: Image) -> tuple:
    """What the rules can tell apart about an image."""
    relevant = tuple(
        sorted(
            (key, str(value))
            for key, value in image.properties.items()
            if not normalized_names(key).isdisjoint(TRIGGER_NAMES)
        )
    )
    return (relevant, image.min_ram, image.min_disk, -(-image.size // _GIB))


@dataclass
class Cause:
    """One rule broken by one flavor with some images."""

    flavor: str
    finding: FlavorFinding
    pairs: int = 0
    images: list[str] = field(default_factory=list)

    def add(self, names: list[str]) -> None:
        self.pairs += len(names)
        self.images.extend(names[: max(0, EXAMPLES - len(self.images))])

    def to_dict(self) -> dict[str, Any]:
        return {
            "flavor": self.flavor,
            "pairs": self.pairs,
            "images": self.images,
            **self.finding.to_dict(),
        }


@dataclass
class FleetReport:
    flavors: int
    images: int
    image_groups: int
    alone: list[tuple[str, FlavorFinding]]
    causes: list[Cause]

    @property
    def valid(self) -> bool:
        return not self.alone and not self.causes

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "flavors": self.flavors,
            "images": self.images,
            "image_groups": self.image_groups,
            "refused_pairs": sum(cause.pairs for cause in self.causes),
            "flavor_findings": [{"flavor": name, **f.to_dict()} for name, f in self.alone],
            "pair_findings": [cause.to_dict() for cause in self.causes],
        }


def _label(item: Flavor | Image, index: int, kind: str) -> str:
    return item.name or f"{kind} #{index}"


def check_fleet(
    flavors: Iterable[Flavor], images: Iterable[Image], mode: str = "strict"
) -> FleetReport:
    """Every flavor that cannot boot on its own, and every flavor x image pair Nova would
    refuse, grouped by (flavor, rule)."""
    groups: dict[tuple, tuple[Image, Mapping[str, Any], list[str]]] = {}
    image_count = 0
    for index, image in enumerate(images):
        image_count += 1
        key = signature(image)
        if key not in groups:
            typed, _ = typed_properties(image.properties)
            sized = replace(image, size=key[3] * _GIB)
            groups[key] = (sized, typed, [])
        groups[key][2].append(_label(image, index, "image"))
    alone: list[tuple[str, FlavorFinding]] = []
    causes: dict[tuple[int, str], Cause] = {}
    flavor_count = 0
    for index, flavor in enumerate(flavors):
        flavor_count += 1
        name = _label(flavor, index, "flavor")
        own = [f for f in validate_flavor(flavor, mode=mode) if f.severity == "error"]
        alone += [(name, finding) for finding in own]
        refused_alone = {finding.code for finding in own}
        for image, typed, names in groups.values():
            for finding in rule_findings(flavor, image, typed):
                if finding.severity != "error" or finding.code in refused_alone:
                    continue
                cause = causes.get((index, finding.code))
                if cause is None:
                    cause = causes[(index, finding.code)] = Cause(name, finding)
                cause.add(names)
    return FleetReport(flavor_count, image_count, len(groups), alone, list(causes.values()))
