"""Check a resize (a new flavor, the same image) or a rebuild (the same flavor, a new image) as
Nova would.

::

    from onespec.validators_runtime.flavors import validate_rebuild, validate_resize

    findings = validate_resize(old_flavor, new_flavor, image)
    findings = validate_rebuild(flavor, old_image, new_image)

Each returns every finding at once: first the refusals of the change itself (the rules of
:mod:`onespec.definitions.flavor_change_rules`, whose ``phase`` is ``resize`` or
``rebuild``), then what the create-time check (:func:`validate_flavor`) finds in the new pair,
which Nova checks again on both operations. A change finding's ``keys`` name each side
(``old_flavor.disk``, ``new_image.hw_cpu_policy``); its ``nova_exception`` is Nova's class.

Flavors and images are read as :func:`validate_flavor` reads them, with the flavor's ``id``
and ``OS-FLV-DISABLED:disabled`` and the image's ``id`` besides: a resize to a flavor of the
same ``id`` is no resize, and a rebuild with an image of the same ``id`` keeps the image.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from onespec.validators_runtime._generated.flavor_change_rules import (
    ROOT_DISK_RULES,
    RULES,
    broken_rebuild,
    broken_resize,
)
from onespec.validators_runtime.flavor_parts.findings import FlavorFinding
from onespec.validators_runtime.flavor_parts.inputs import Flavor, Image
from onespec.validators_runtime.flavors.change_side import ChangeSide
from onespec.validators_runtime.flavors.whole_flavor import validate_flavor
from onespec.validators_runtime.problems import Location, shown

FlavorInput = Flavor | Mapping[str, Any]
ImageInput = Image | Mapping[str, Any]

#: Where in the operation Nova refuses, in words.
_STAGE_WORDS = {
    "api": "Nova's API refuses the request",
    "conductor": "the conductor fails it after the API accepted it",
    "compute": "the compute host fails it and rolls it back",
}

#: The most values a message quotes (a fact may read many keys).
_MOST_VALUES = 6


class _Server:
    """What the change knows of the server: the generated rules read ``c.volume_backed`` and
    ``c.image_changes``."""

    def __init__(self, volume_backed: bool, image_changes: bool) -> None:
        self.volume_backed = volume_backed
        self.image_changes = image_changes


def _labels(operation: str) -> dict[tuple[str, str], str]:
    """How a (side, flavor or image) is named in a key path."""
    if operation == "resize":
        return {
            ("old", "flavor"): "old_flavor",
            ("new", "flavor"): "new_flavor",
            ("old", "image"): "image",
            ("new", "image"): "image",
        }
    return {
        ("old", "flavor"): "flavor",
        ("new", "flavor"): "flavor",
        ("old", "image"): "old_image",
        ("new", "image"): "new_image",
    }


def _present(name: str, side: ChangeSide) -> list[tuple[str, str, Any]]:
    """(flavor or image, name as spelt, value) for each spelling of ``name`` the side holds: a
    field, an extra spec or a property; ``.N`` and ``*`` stand for any ending; the typed
    ``traits_required`` for the image's ``trait:`` properties."""
    if name in ("id", "disabled", "vcpus", "ram", "disk", "swap", "ephemeral"):
        return [("flavor", name, side.field(name))]
    if name.startswith("image."):
        return [("image", name.removeprefix("image."), side.field(name))]
    if name == "traits_required":
        name = "trait:*"
    pools = (("flavor", side.specs), ("image", side.raw_props))
    if name.endswith((".N", "*")):
        stem = name.rstrip("N*")
        return [
            (kind, key, pool[key]) for kind, pool in pools for key in pool if key.startswith(stem)
        ]
    return [(kind, name, pool[name]) for kind, pool in pools if name in pool]


def _finding(index: int, operation: str, old: ChangeSide, new: ChangeSide) -> FlavorFinding:
    name, _, nova_exception, stage, severity, what, fix, reads = RULES[index]
    labels = _labels(operation)
    keys: list[str] = []
    values: list[str] = []
    for side_name, read in reads:
        for kind, spelled, value in _present(read, old if side_name == "old" else new):
            path = f"{labels[(side_name, kind)]}.{spelled}"
            if path not in keys:
                keys.append(path)
                values.append(f"{path}={shown(value)}")
    quoted = ", ".join(values[:_MOST_VALUES]) + (", ..." if len(values) > _MOST_VALUES else "")
    where = f" ({quoted})" if quoted else ""
    refused = f"; {_STAGE_WORDS[stage]}" if nova_exception else ""
    return FlavorFinding(
        code=name,
        message=f"{what}{where}{refused}. {fix}",
        severity="error" if severity == "error" else "warning",
        location=Location(path=keys[0] if keys else None),
        keys=tuple(keys),
        nova_exception=nova_exception,
        phase=operation,
    )


#: The create-time rule a change does not apply to the new pair: a disabled flavor. A rebuild
#: keeps the server's own flavor, disabled or not; a resize to a disabled flavor is refused by
#: the resize's own rule (``FlavorNotFound`` too), which says so in the resize's words.
NOT_ON_CHANGE = frozenset({"flavor-disabled"})


def held_image(old: ChangeSide) -> Image | None:
    """The image as a server of the old flavor holds it, which Nova checks the new flavor
    against on resize: its properties as text, its min_ram, and as min_disk the larger of the
    image's and the old flavor's root disk (the old flavor's alone for a VHD image); no size.
    Nova stores it so when the server is created (``get_system_metadata_from_image``)."""
    image = old.image
    if image is None:
        return None
    disk = old.flavor.disk
    min_disk = disk if old.disk_format == "vhd" else max(image.min_disk or 0, disk)
    properties = {key: _as_text(value) for key, value in image.properties.items()}
    return Image(properties, image.min_ram, min_disk, 0, image.name)


def _as_text(value: Any) -> Any:
    """A property as Nova's system metadata keeps it: text, at most 255 characters."""
    if isinstance(value, bool):
        return str(value)
    return str(value)[:255] if isinstance(value, str | int | float) else value


def validate_resize(
    old_flavor: FlavorInput,
    new_flavor: FlavorInput,
    image: ImageInput | None = None,
    *,
    volume_backed: bool = False,
    mode: str = "strict",
    as_admin: bool = False,
) -> list[FlavorFinding]:
    """Every finding about resizing a server of ``old_flavor`` booted from ``image`` to
    ``new_flavor``: the resize's own refusals, then the create-time check of ``new_flavor``
    with ``image`` (without the root-disk rules for a ``volume_backed`` server, as Nova).
    The image is taken as the server holds it (``held_image``). ``mode`` is the
    extra-spec runtime's. Raises :exc:`~onespec.validators_runtime.inputs.InputError` when a
    flavor or the image cannot be read. ``as_admin`` leaves out what Nova's default policy
    refuses only other users, as :func:`validate_flavor`'s does."""
    old = ChangeSide(old_flavor, image, "old_flavor", "image")
    new = ChangeSide(new_flavor, image, "new_flavor", "image")
    server = _Server(volume_backed, image_changes=False)
    findings = [_finding(i, "resize", old, new) for i in broken_resize(old, new, server)]
    created = validate_flavor(new.flavor, held_image(old), mode=mode, as_admin=as_admin)
    left_out = NOT_ON_CHANGE | ROOT_DISK_RULES if volume_backed else NOT_ON_CHANGE
    return findings + [f for f in created if f.code not in left_out]


def validate_rebuild(
    flavor: FlavorInput,
    old_image: ImageInput,
    new_image: ImageInput,
    *,
    mode: str = "strict",
    as_admin: bool = False,
) -> list[FlavorFinding]:
    """Every finding about rebuilding a server of ``flavor`` from ``old_image`` with
    ``new_image``: the rebuild's own refusals, then the create-time check of ``flavor`` with
    ``new_image``. The image changes unless both images carry the same ``id``. Raises
    :exc:`~onespec.validators_runtime.inputs.InputError` when the flavor or an image cannot be
    read. ``as_admin`` as for :func:`validate_resize`."""
    old = ChangeSide(flavor, old_image, "flavor", "old_image")
    new = ChangeSide(old.flavor, new_image, "flavor", "new_image")
    new.flavor_id, new.disabled = old.flavor_id, old.disabled
    same = old.image_id is not None and old.image_id == new.image_id
    server = _Server(volume_backed=False, image_changes=not same)
    findings = [_finding(i, "rebuild", old, new) for i in broken_rebuild(old, new, server)]
    created = validate_flavor(new.flavor, new.image, mode=mode, as_admin=as_admin)
    return findings + [f for f in created if f.code not in NOT_ON_CHANGE]
