"""A flavor and an image as the tools print them, read into two plain records.

Accepted shapes, so that what an operator already has can be checked as it is:

* a flavor as ``openstack flavor show -f json`` prints it (``ram``, ``disk``,
  ``OS-FLV-EXT-DATA:ephemeral``, ``properties``), as Nova's API returns it (``{"flavor": {...,
  "extra_specs": {...}}}``), or as Nova's ``Flavor`` object names its fields (``memory_mb``,
  ``root_gb``, ``ephemeral_gb``);
* an image as ``openstack image show -f json`` prints it (extra properties under
  ``properties``), as Glance's v2 API returns it (every property at the top level), or as Nova
  reads it (``{"properties": {...}, "min_ram": ..., ...}``).

What cannot be read raises :class:`~onespec.validators_runtime.inputs.InputError` (the reader's
one class, with the code ``shape``), naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from onespec.validators_runtime.inputs import InputError
from onespec.validators_runtime.problems import shown

#: Fields of a Glance image that are not properties.
IMAGE_FIELDS = frozenset(
    {
        "id",
        "name",
        "status",
        "visibility",
        "protected",
        "checksum",
        "os_hash_algo",
        "os_hash_value",
        "os_hidden",
        "owner",
        "size",
        "virtual_size",
        "container_format",
        "disk_format",
        "created_at",
        "updated_at",
        "tags",
        "direct_url",
        "min_ram",
        "min_disk",
        "properties",
        "file",
        "schema",
        "self",
        "locations",
        "stores",
        "project_id",
        # `openstack image list --long -f json` capitalises its columns.
        "ID",
        "Name",
        "Status",
        "Visibility",
        "Protected",
        "Project",
        "Checksum",
        "Size",
        "Tags",
        "Disk Format",
        "Container Format",
        "Properties",
    }
)

#: Each field's spellings: Nova's API, Nova's object, `openstack flavor list --long -f json`.
_FLAVOR_FIELDS = {
    "vcpus": ("vcpus", "VCPUs"),
    "ram": ("ram", "memory_mb", "RAM"),
    "disk": ("disk", "root_gb", "Disk"),
    "swap": ("swap", "Swap"),
    "ephemeral": ("OS-FLV-EXT-DATA:ephemeral", "ephemeral", "ephemeral_gb", "Ephemeral"),
}


#: Sets an attribute of a frozen record (its ``__dict__``, in one step).
_set = object.__setattr__


def _refused(reason: str) -> InputError:
    """A flavor or image that cannot be read, as an :class:`InputError` whose message is
    ``reason`` (naming the field): code ``shape``, and no file, since the document was handed
    over already parsed."""
    return InputError("shape", None, reason)


@dataclass(frozen=True, init=False)
class Flavor:
    """A flavor's own fields and its extra specs (strings, as Nova stores them); ``disabled``
    is Nova's ``OS-FLV-DISABLED:disabled``."""

    vcpus: int
    ram: int
    disk: int = 0
    swap: int = 0
    ephemeral: int = 0
    extra_specs: Mapping[str, str] = field(default_factory=dict)
    name: str | None = None
    disabled: bool = False

    def __init__(
        self,
        vcpus: int,
        ram: int,
        disk: int = 0,
        swap: int = 0,
        ephemeral: int = 0,
        extra_specs: Mapping[str, str] | None = None,
        name: str | None = None,
        disabled: bool = False,
    ) -> None:
        # Set in one step rather than through the frozen dataclass's setattr per field: a
        # flavor is read on every check.
        _set(
            self,
            "__dict__",
            {
                "vcpus": vcpus,
                "ram": ram,
                "disk": disk,
                "swap": swap,
                "ephemeral": ephemeral,
                "extra_specs": {} if extra_specs is None else extra_specs,
                "name": name,
                "disabled": disabled,
            },
        )


@dataclass(frozen=True, init=False)
class Image:
    """An image's sizes and its properties as Glance holds them (mostly strings), with its
    Glance ``status`` (None when the document does not say) and the
    ``cinder_encryption_key_id`` property of an image uploaded from an encrypted volume."""

    properties: Mapping[str, Any] = field(default_factory=dict)
    min_ram: int = 0
    min_disk: int = 0
    size: int = 0
    name: str | None = None
    status: str | None = None

    def __init__(
        self,
        properties: Mapping[str, Any] | None = None,
        min_ram: int = 0,
        min_disk: int = 0,
        size: int = 0,
        name: str | None = None,
        status: str | None = None,
    ) -> None:
        _set(
            self,
            "__dict__",
            {
                "properties": {} if properties is None else properties,
                "min_ram": min_ram,
                "min_disk": min_disk,
                "size": size,
                "name": name,
                "status": status,
            },
        )

    @property
    def cinder_encryption_key_id(self) -> Any:
        """The key of the encrypted volume the image was uploaded from, if it was."""
        return self.properties.get("cinder_encryption_key_id")


def _is_mapping(value: Any) -> bool:
    """A mapping; a plain dict (what JSON gives) without the slower abstract-class check."""
    return type(value) is dict or isinstance(value, Mapping)


def _count(raw: Any, where: str, spelled: str, *, required: bool) -> int:
    """A whole number from ``raw``; the error names ``where.spelled`` (built only on error)."""
    if type(raw) is int:
        return raw
    if raw is None or raw == "":
        if required:
            raise _refused(f"{where}.{spelled} is missing")
        return 0
    if isinstance(raw, bool):
        raise _refused(f"{where}.{spelled} must be a whole number, not {raw!r}")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str) and raw.strip().isdecimal() and len(raw) < 20:
        return int(raw)
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    written = repr(raw) if len(repr(raw)) < 60 else repr(raw)[:57] + "..."
    raise _refused(f"{where}.{spelled} must be a whole number, not {written}")


def all_text(items: Any) -> bool:
    """Whether every item is a string: ``str.join`` checks that in one pass, in C."""
    try:
        "".join(items)
    except TypeError:
        return False
    return True


def all_text_items(mapping: Mapping[Any, Any]) -> bool:
    """Whether every key and every value of ``mapping`` is a string, in one pass."""
    try:
        "".join([*mapping, *mapping.values()])
    except TypeError:
        return False
    return True


#: One ``KEY='VALUE'`` of the text ``openstack ... -f value -c properties`` prints (and the
#: client printed in every format before 4.0): a quoted value may hold commas.
_PAIR = re.compile(r"""\s*([^=,\s][^=,]*?)\s*=\s*(?:'([^']*)'|"([^"]*)"|([^,'"]*?))\s*(?:,|$)""")


def properties_text(text: str, *, quoted: bool = True) -> dict[str, str] | None:
    """``hw:cpu_policy='dedicated', hw:numa_cpus.0='0,1'`` as extra specs; None when ``text``
    is not wholly such pairs. Values are quoted, as the client prints them, unless ``quoted``
    is false (a flavor's own ``properties`` text, where ``k=v`` was always read)."""
    specs: dict[str, str] = {}
    position, end = 0, len(text.rstrip())
    while position < end:
        pair = _PAIR.match(text, position)
        if pair is None or pair.end() == position or (quoted and pair[4] is not None):
            return None
        key, *values = pair.groups()
        specs[key] = next(value for value in values if value is not None)
        position = pair.end()
    return specs or None


def _specs(raw: Any, where: str, spelled: str) -> dict[str, str]:
    """Extra specs as a mapping; ``openstack`` before 4.0 printed them as ``k='v', k2='v2'``.
    Errors name ``where.spelled`` (joined only on error)."""
    if type(raw) is dict and all_text_items(raw):
        return dict(raw)  # strings only, as Nova stores them
    where = f"{where}.{spelled}"
    if raw is None:
        return {}
    if isinstance(raw, str):
        if not raw.strip():
            return {}
        parsed = properties_text(raw, quoted=False)
        if parsed is None:
            raise _refused(f"{where}: {shown(raw)} is not KEY='VALUE', KEY='VALUE' ...")
        return parsed
    if not _is_mapping(raw):
        raise _refused(f"{where} must be a mapping of extra specs, not {type(raw).__name__}")
    if all_text_items(raw):
        return dict(raw)
    specs = {}
    for key, value in raw.items():
        if type(key) is str and type(value) is str:
            specs[key] = value
            continue
        if not isinstance(key, str):
            raise _refused(f"{where}: the key {key!r} is not a string")
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, int | float):
            value = str(value)
        if not isinstance(value, str):
            raise _refused(f"{where}.{key} must be a string, not {type(value).__name__}")
        specs[key] = value
    return specs


def _unwrapped(document: Any, name: str, where: str) -> tuple[Mapping[str, Any], str]:
    """The document, or what it wraps under its one key ``name`` (Nova's and Glance's shape)."""
    if _is_mapping(document) and len(document) == 1 and name in document:
        document, where = document[name], f"{where}.{name}"
    if not _is_mapping(document):
        raise _refused(f"{where} must be a mapping, not {type(document).__name__}")
    return document, where


def _spelled(document: Mapping[str, Any], spellings: tuple[str, ...]) -> tuple[str, Any]:
    """The first of ``spellings`` the document uses and its value, else the first and None."""
    for spelled in spellings:
        if spelled in document:
            return spelled, document[spelled]
    return spellings[0], None


#: Where the extra specs are: Nova's API, `openstack flavor show`, `... list --long`.
_EXTRA_SPECS = ("extra_specs", "properties", "Properties")
#: The fields a flavor cannot do without.
_REQUIRED = frozenset(("vcpus", "ram"))
#: Nova's API's spelling of each size and its value when absent (none for a required one),
#: and every other spelling: a document without any other is read in one step.
_API_SPELLINGS = tuple(spellings[0] for spellings in _FLAVOR_FIELDS.values())
_ABSENT = tuple(None if name in _REQUIRED else 0 for name in _FLAVOR_FIELDS)
_OTHER_SPELLINGS = frozenset(
    spelled for spellings in _FLAVOR_FIELDS.values() for spelled in spellings[1:]
)


def _sizes(document: Mapping[str, Any], where: str) -> list[int]:
    """The flavor's sizes in :class:`Flavor`'s order, each by its first spelling present."""
    sizes: list[int] = []
    for name, spellings in _FLAVOR_FIELDS.items():
        spelled, raw = _spelled(document, spellings)
        if type(raw) is not int:
            required = name in _REQUIRED
            raw = (
                0
                if raw is None and not required
                else _count(raw, where, spelled, required=required)
            )
        sizes.append(raw)
    return sizes


def read_flavor(document: Any, where: str = "flavor") -> Flavor:
    """A :class:`Flavor` from any of the shapes above."""
    if type(document) is not dict or "flavor" in document:
        document, where = _unwrapped(document, "flavor", where)
    get = document.get
    # Read on every check of a flavor: the usual document (Nova's spellings, whole numbers)
    # is read without a loop; anything else by :func:`_sizes`.
    vcpus, ram, disk, swap, ephemeral = map(get, _API_SPELLINGS, _ABSENT)
    if not (
        type(vcpus) is int
        and type(ram) is int
        and type(disk) is int
        and type(swap) is int
        and type(ephemeral) is int
        and _OTHER_SPELLINGS.isdisjoint(document)
    ):
        vcpus, ram, disk, swap, ephemeral = _sizes(document, where)
    raw = get("extra_specs")
    if raw is None:
        spelled, raw = _spelled(document, _EXTRA_SPECS)
    else:
        spelled = "extra_specs"
    specs = _specs(raw, where, spelled) if raw is not None else {}
    name = get("name")
    if name is None:
        name = get("Name")
    disabled = _disabled(document, where)
    return Flavor(
        vcpus,
        ram,
        disk,
        swap,
        ephemeral,
        specs,
        name if isinstance(name, str) else None,
        disabled,
    )


#: Where a flavor says it is disabled: Nova's API and the client, then Nova's object.
_DISABLED = ("OS-FLV-DISABLED:disabled", "disabled")


def _disabled(document: Mapping[str, Any], where: str) -> bool:
    """Whether the flavor is disabled: a boolean, or its spelling as text (``"True"``)."""
    spelled, raw = _spelled(document, _DISABLED)
    if raw is None or isinstance(raw, bool):
        return bool(raw)
    if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
        return raw.strip().lower() == "true"
    raise _refused(f"{where}.{spelled} must be true or false, not {shown(raw)}")


def read_image(document: Any, where: str = "image") -> Image:
    """An :class:`Image` from any of the shapes above: properties nested under ``properties``
    and at the top level are merged (top level first)."""
    if type(document) is not dict or "image" in document:
        document, where = _unwrapped(document, "image", where)
    get = document.get
    # Glance's v2 API puts properties at the top level; Nova's shape and the client's nest them.
    properties: dict[str, Any] = (
        {}
        if IMAGE_FIELDS.issuperset(document)
        else {
            key: value
            for key, value in document.items()
            if key not in IMAGE_FIELDS and isinstance(key, str)
        }
    )
    nested = get("properties")
    if nested is None:
        nested = get("Properties")
    if type(nested) is dict or _is_mapping(nested):
        if all_text(nested):
            properties.update(nested)
        else:
            properties.update({k: v for k, v in nested.items() if isinstance(k, str)})
    elif nested is not None and not isinstance(nested, str):
        raise _refused(f"{where}.properties must be a mapping")
    name = get("name")
    if name is None:
        name = get("Name")
    min_ram, min_disk, size = get("min_ram", 0), get("min_disk", 0), get("size")
    if size is None:
        size = get("Size", 0)
    status = get("status")
    if status is None:
        status = get("Status")
    if status is not None and not isinstance(status, str):
        raise _refused(f"{where}.status must be text, not {shown(status)}")
    return Image(
        properties,
        min_ram if type(min_ram) is int else _count(min_ram, where, "min_ram", required=False),
        min_disk if type(min_disk) is int else _count(min_disk, where, "min_disk", required=False),
        size if type(size) is int else _count(size, where, "size", required=False),
        name if isinstance(name, str) else None,
        status,
    )
