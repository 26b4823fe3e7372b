"""A fleet: every flavor on its own, then every flavor with every image, grouped by cause.

A cloud has hundreds of flavors and thousands of images, so the pairs are not checked one by
one: images are grouped by the properties the rules between keys read, and each flavor is
checked once per group; the size checks (``min_ram``, ``min_disk``, the image's size against
the flavor's RAM and disk) count the images above the flavor's limit in a sorted list. What is
kept per cause (a rule broken by one flavor) is a count and a few names, so memory does not grow
with the number of pairs. Whether a flavor boots any image at all is asked of the same groups:
the first image of a group that no rule refuses and that fits the flavor's sizes answers it.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass, field
from typing import Any

from onespec.validators_runtime._generated.flavor_rules import RULES, SIZE_RULES
from onespec.validators_runtime.flavor_parts.facts import View
from onespec.validators_runtime.flavor_parts.image_props import typed_properties
from onespec.validators_runtime.flavors.whole_flavor import (
    TRIGGER_NAMES,
    Flavor,
    FlavorFinding,
    Image,
    as_text,
    flavor_names,
    image_names,
    normalized_names,
    rule_findings,
    validate_flavor,
)
from onespec.validators_runtime.problems import Location

#: How many image names a cause lists before "and N more".
EXAMPLES = 3


def signature(image: Image) -> tuple:
    """What the rules between keys can tell apart about an image: the properties they read,
    its status and whether it was uploaded from an encrypted volume."""
    return (
        image.status,
        bool(image.cinder_encryption_key_id),
        *sorted(
            (key, str(value))
            for key, value in image.properties.items()
            if not TRIGGER_NAMES.isdisjoint(normalized_names(key))
        ),
    )


class _Sizes:
    """The images sorted by one size field, so that "how many exceed this flavor's limit" is a
    binary search."""

    def __init__(self, images: list[tuple[int, str]]) -> None:
        images.sort()
        self.values = [value for value, _ in images]
        self.names = [name for _, name in images]

    def above(self, limit: int) -> tuple[int, list[str]]:
        first = bisect.bisect_right(self.values, limit)
        return len(self.values) - first, self.names[first : first + EXAMPLES]


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
    #: The flavors, not refused on their own, that no image can boot: each image is refused by
    #: some cause, which the causes' counts cannot tell (one pair may have several).
    unbootable: list[str] = field(default_factory=list)

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
            "unbootable_flavors": self.unbootable,
        }


def _label(item: Flavor | Image, index: int, kind: str) -> str:
    return item.name or f"{kind} #{index}"


def check_fleet(
    flavors: Iterable[Flavor],
    images: Iterable[Image],
    mode: str = "strict",
    *,
    as_admin: bool = False,
) -> FleetReport:
    """Every flavor that cannot boot on its own, and every flavor x image pair Nova would
    refuse, grouped by (flavor, rule); ``as_admin`` leaves out what only a policy refuses a
    non-admin user (see :func:`validate_flavor`)."""
    groups: dict[tuple, tuple[Image, Mapping[str, Any], list[str], Set[str]]] = {}
    # Each group's images' size fields, in SIZE_RULES' order: what the size rules read.
    group_sizes: dict[tuple, list[tuple[int, ...]]] = {}
    # The rules that compare an image's size fields with the flavor's (min_ram with RAM, size
    # and min_disk with the root disk) are checked per image by counting, not per group.
    sizes: dict[int, list[tuple[int, str]]] = {rule[0]: [] for rule in SIZE_RULES}
    image_count = 0
    for index, image in enumerate(images):
        image_count += 1
        label = _label(image, index, "image")
        key = signature(image)
        if key not in groups:
            typed, _ = typed_properties(image.properties)
            grouped = Image(properties=image.properties, status=image.status)
            groups[key] = (grouped, typed, [], image_names(grouped, typed))
            group_sizes[key] = []
        groups[key][2].append(label)
        group_sizes[key].append(tuple(getattr(image, rule[1]) for rule in SIZE_RULES))
        for index, image_field, *_ in SIZE_RULES:
            value = getattr(image, image_field)
            if value:
                sizes[index].append((value, label))
    sorted_sizes = {index: _Sizes(values) for index, values in sizes.items()}
    alone: list[tuple[str, FlavorFinding]] = []
    causes: dict[tuple[int, str], Cause] = {}
    unbootable: list[str] = []
    flavor_count = 0
    for index, flavor in enumerate(flavors):
        flavor_count += 1
        name = _label(flavor, index, "flavor")
        own = [
            f
            for f in validate_flavor(flavor, mode=mode, as_admin=as_admin)
            if f.severity == "error"
        ]
        alone += [(name, finding) for finding in own]
        refused_alone = {finding.code for finding in own}
        flavor = as_text(flavor)
        names_of_flavor = flavor_names(flavor)
        open_groups = []
        for key, (image, props, names, present) in groups.items():
            refused = False
            for finding in rule_findings(flavor, image, props, names_of_flavor | present):
                if finding.severity != "error":
                    continue
                refused = True
                if finding.code in refused_alone:
                    continue
                cause = causes.get((index, finding.code))
                if cause is None:
                    cause = causes[(index, finding.code)] = Cause(name, finding)
                cause.add(names)
            if not refused:
                open_groups.append(group_sizes[key])
        for rule in SIZE_RULES:
            _size_cause(rule, flavor, index, name, sorted_sizes[rule[0]], causes)
        if image_count and not own and not _boots_any(flavor, open_groups):
            unbootable.append(name)
    return FleetReport(
        flavor_count, image_count, len(groups), alone, list(causes.values()), unbootable
    )


def _size_limits(flavor: Flavor) -> list[int | None]:
    """What each size rule allows an image's field, in SIZE_RULES' order: None where the rule
    does not apply to this flavor."""
    limits: list[int | None] = []
    for _, _, limit_field, scale, when in SIZE_RULES:
        applies = when is None or when(View(flavor, None, {}), flavor.extra_specs, {})
        limits.append(getattr(flavor, limit_field) * scale if applies else None)
    return limits


def _boots_any(flavor: Flavor, open_groups: list[list[tuple[int, ...]]]) -> bool:
    """Whether some image of the groups no rule refuses fits the flavor's sizes: the first
    that does answers, so a flavor that boots most images costs one image."""
    if not open_groups:
        return False
    limits = _size_limits(flavor)
    for sizes in open_groups:
        for image_sizes in sizes:
            if all(
                limit is None or not value or value <= limit
                for value, limit in zip(image_sizes, limits, strict=True)
            ):
                return True
    return False


def _size_cause(
    size_rule: tuple, flavor: Flavor, index: int, name: str, sizes: _Sizes, causes: dict
) -> None:
    """The images whose size field exceeds what ``flavor`` allows, as one cause."""
    rule_index, image_field, limit_field, scale, when = size_rule
    if when is not None and not when(View(flavor, None, {}), flavor.extra_specs, {}):
        return
    code, nova_exception, phase, _, fix, _, _ = RULES[rule_index]
    flavor_limit = getattr(flavor, limit_field)
    count, examples = sizes.above(flavor_limit * scale)
    if not count:
        return
    finding = FlavorFinding(
        code=code,
        message=f"The image's {image_field} exceeds the flavor's {limit_field} "
        f"({flavor_limit}). {fix}",
        location=Location(path=limit_field),
        keys=(limit_field, f"image.{image_field}"),
        nova_exception=nova_exception,
        phase=phase,
    )
    cause = causes[(index, code)] = Cause(name, finding)
    cause.pairs, cause.images = count, examples
