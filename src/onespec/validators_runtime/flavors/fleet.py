"""A fleet: every flavor on its own, then every flavor with every image, grouped by cause.

A cloud has hundreds of flavors and thousands of images, so the pairs are not checked one by
one: images are grouped by the properties the rules between keys read, and each flavor is
checked once per group; the size checks (``min_ram``, ``min_disk``, the image's size against
the flavor's RAM and disk) count the images above the flavor's limit in a sorted list. What is
kept per cause (a rule broken by one flavor) is a count and a few names, so memory does not grow
with the number of pairs. The refused pairs are counted once each, and a flavor no image can
boot is found, from the same groups: the images of the groups no rule refuses that fit the
flavor's sizes are counted per group (:class:`_Fits`). A fleet needing more checks than
:data:`~onespec.validators_runtime.inputs.MAX_FLEET_CHECKS` is refused before any work.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Set, Sized
from dataclasses import dataclass, field
from typing import Any

from onespec.errors import OnespecError
from onespec.validators_runtime._generated.flavor_rules import BY_POLICY, RULES, SIZE_RULES, broken
from onespec.validators_runtime.applied_rules import rule_finding
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
    validate_flavor,
)
from onespec.validators_runtime.inputs import MAX_FLEET_CHECKS
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


#: How many images :class:`_Fits` scans in one go; larger groups are cut into blocks this size.
_BLOCK = 64

#: A block of :class:`_Fits`: its largest first key, its second keys sorted, and its images'
#: (first, second) keys sorted by the first.
_Block = tuple[int, list[int], list[tuple[int, int]]]


class _Fits:
    """How many images of one group fit a flavor's sizes: a count, so that the refused pairs
    are counted once each, however many size rules refuse them.

    The size rules compare an image field with a flavor field (``min_ram`` with ``ram``;
    ``size``, in GiB rounded up, and ``min_disk`` with ``disk``), so an image fits when, for
    each flavor field, the largest of its fields compared with it is within the flavor's. That
    is a count of points under a corner: the images are sorted by their first key and cut into
    blocks, each with its second keys sorted, so a count costs a binary search per block. Which
    size rules apply depends on the flavor (their conditions), so the keys are built for each
    set of applying rules on first use, and counts are kept per flavor sizes.
    """

    def __init__(self, sizes: list[tuple[int, ...]]) -> None:
        self.sizes = sizes
        self._layouts: dict[tuple[bool, ...], list[_Block]] = {}
        self._counts: dict[tuple, int] = {}

    def count(self, applies: tuple[bool, ...], limits: tuple[int, ...]) -> int:
        known = self._counts.get((applies, limits))
        if known is None:
            known = self._counts[(applies, limits)] = self._count(applies, limits)
        return known

    def _count(self, applies: tuple[bool, ...], limits: tuple[int, ...]) -> int:
        first_limit, second_limit = limits
        fitting = 0
        for top, seconds, points in self._layout(applies):
            if top <= first_limit:
                fitting += bisect.bisect_right(seconds, second_limit)
            else:
                fitting += sum(
                    1 for first, second in points if first <= first_limit and second <= second_limit
                )
                break  # the blocks after this one start above the limit
        return fitting

    def _layout(self, applies: tuple[bool, ...]) -> list[_Block]:
        layout = self._layouts.get(applies)
        if layout is None:
            points = sorted(_keys(image_sizes, applies) for image_sizes in self.sizes)
            layout = self._layouts[applies] = [
                (block[-1][0], sorted(second for _, second in block), block)
                for block in (points[i : i + _BLOCK] for i in range(0, len(points), _BLOCK))
            ]
        return layout


def _keys(image_sizes: tuple[int, ...], applies: tuple[bool, ...]) -> tuple[int, int]:
    """An image's two keys for :class:`_Fits`: for each flavor field the size rules compare
    with, the largest of the image's fields compared with it, in the flavor field's unit."""
    keys = {field: 0 for field in _LIMIT_FIELDS}
    for value, applied, (_, _, limit_field, scale, _) in zip(
        image_sizes, applies, SIZE_RULES, strict=True
    ):
        if applied and value:
            keys[limit_field] = max(keys[limit_field], -(-value // scale))
    first, second = _LIMIT_FIELDS
    return keys[first], keys[second]


#: The flavor fields the size rules compare with (``ram`` and ``disk``), in a fixed order:
#: :class:`_Fits` counts in these two (a test holds the catalogue to them).
_LIMIT_FIELDS = tuple(dict.fromkeys(rule[2] for rule in SIZE_RULES))


@dataclass
class Cause:
    """One rule broken by one flavor with some images."""

    flavor: str
    finding: FlavorFinding
    pairs: int = 0
    images: list[str] = field(default_factory=list)

    def add(self, names: list[str]) -> None:
        self.pairs += len(names)
        if len(self.images) < EXAMPLES:
            self.images.extend(names[: EXAMPLES - len(self.images)])

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
    #: The (flavor, image) pairs Nova would refuse, each once however many causes refuse it; a
    #: flavor refused on its own refuses every image.
    refused_pairs: int = 0

    @property
    def valid(self) -> bool:
        return not self.alone and not self.causes

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "flavors": self.flavors,
            "images": self.images,
            "image_groups": self.image_groups,
            "pairs": self.flavors * self.images,
            "refused_pairs": self.refused_pairs,
            "flavor_findings": [{"flavor": name, **f.to_dict()} for name, f in self.alone],
            "pair_findings": [cause.to_dict() for cause in self.causes],
            "unbootable_flavors": self.unbootable,
        }


class FleetTooLarge(OnespecError):
    """The fleet needs more (flavor, image group) checks than allowed."""

    def __init__(self, flavors: int, groups: int, allowed: int) -> None:
        self.needed = flavors * groups
        self.allowed = allowed
        super().__init__(
            f"checking {flavors} flavors with {groups} images that Nova's checks tell apart "
            f"takes {self.needed:,} checks, more than the {allowed:,} allowed (about ten seconds "
            f"of one core); allow them with --max-checks {self.needed}, or check fewer flavors "
            "or images at a time"
        )


def _label(item: Flavor | Image, index: int, kind: str) -> str:
    return item.name or f"{kind} #{index}"


def check_fleet(
    flavors: Iterable[Flavor],
    images: Iterable[Image],
    mode: str = "strict",
    *,
    as_admin: bool = False,
    max_checks: int | None = MAX_FLEET_CHECKS,
    flavor_count: int | None = None,
) -> FleetReport:
    """Every flavor that cannot boot on its own, and every flavor x image pair Nova would
    refuse, grouped by (flavor, rule); ``as_admin`` leaves out what only a policy refuses a
    non-admin user (see :func:`validate_flavor`).

    Raises :class:`FleetTooLarge` before any check when the flavors times the image groups
    exceed ``max_checks`` (None: no limit). ``flavor_count`` is the number of flavors when
    ``flavors`` cannot tell it (an iterator, a progress bar), so that the limit is known at once.
    """
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
    if flavor_count is None and isinstance(flavors, Sized):
        flavor_count = len(flavors)
    if (
        max_checks is not None
        and flavor_count is not None
        and flavor_count * len(groups) > max_checks
    ):
        raise FleetTooLarge(flavor_count, len(groups), max_checks)
    sorted_sizes = {index: _Sizes(values) for index, values in sizes.items()}
    fits = {key: _Fits(values) for key, values in group_sizes.items()}
    alone: list[tuple[str, FlavorFinding]] = []
    causes: dict[tuple[int, str], Cause] = {}
    unbootable: list[str] = []
    refused_pairs = 0
    flavor_count = 0
    for index, flavor in enumerate(flavors):
        flavor_count += 1
        if max_checks is not None and flavor_count * len(groups) > max_checks:
            # Flavors that could not say their number: the limit is met as they come.
            raise FleetTooLarge(flavor_count, len(groups), max_checks)
        name = _label(flavor, index, "flavor")
        own = [
            f
            for f in validate_flavor(flavor, mode=mode, as_admin=as_admin)
            if f.severity == "error"
        ]
        alone += [(name, finding) for finding in own]
        refused_alone = {finding.code for finding in own}
        flavor = as_text(flavor)
        specs = flavor.extra_specs
        names_of_flavor = flavor_names(flavor)
        applies, limits = _size_limits(flavor)
        fitting = 0
        for key, (image, props, names, present) in groups.items():
            refused = False
            present_names = names_of_flavor | present
            view = View(flavor, image, props, present_names)
            # The verdicts alone: a finding, with its message and keys, is built only for the
            # first pair of each cause.
            for number, what in broken(view, specs, props, present_names):
                code, _, _, severity = RULES[number][:4]
                if severity != "error" or (as_admin and code in BY_POLICY):
                    continue
                refused = True
                if code in refused_alone:
                    continue
                cause = causes.get((index, code))
                if cause is None:
                    finding = rule_finding(number, what, view)
                    cause = causes[(index, code)] = Cause(name, finding)
                cause.add(names)
            if not refused:
                fitting += fits[key].count(applies, limits)
        for size_rule, applied in zip(SIZE_RULES, applies, strict=True):
            if applied:
                _size_cause(size_rule, flavor, index, name, sorted_sizes[size_rule[0]], causes)
        refused_pairs += image_count if own else image_count - fitting
        if image_count and not own and not fitting:
            unbootable.append(name)
    return FleetReport(
        flavor_count,
        image_count,
        len(groups),
        alone,
        list(causes.values()),
        unbootable,
        refused_pairs,
    )


def _size_limits(flavor: Flavor) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """Which size rules apply to ``flavor`` (in SIZE_RULES' order), and its fields they compare
    with (in :data:`_LIMIT_FIELDS`' order)."""
    applies = tuple(
        when is None or bool(when(View(flavor, None, {}), flavor.extra_specs, {}))
        for *_, when in SIZE_RULES
    )
    return applies, tuple(getattr(flavor, limit_field) for limit_field in _LIMIT_FIELDS)


def _size_cause(
    size_rule: tuple, flavor: Flavor, index: int, name: str, sizes: _Sizes, causes: dict
) -> None:
    """The images whose size field exceeds what ``flavor`` allows, as one cause (a size rule
    that applies to ``flavor``: see :func:`_size_limits`)."""
    rule_index, image_field, limit_field, scale, _ = size_rule
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
