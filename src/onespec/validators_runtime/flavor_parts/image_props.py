"""An image's properties typed as Nova types them (``ImageMetaProps.from_dict``).

Glance holds every property as a string; Nova reads the 86 it knows, each by its kind: booleans
as ``FlexibleBoolean`` (anything but a true spelling is false), integers, enumerations, CPU lists
written one per node (``hw_numa_cpus.0``, ``.1``, ... up to the first missing), and
``trait:NAME=required`` as ``traits_required``. A property Nova cannot read is a finding here:
Nova would fail to build the image's metadata and refuse the server (``InvalidRequest``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from onespec.definitions.model import FALSE_STRINGS, TRUE_STRINGS
from onespec.validators_runtime._generated.image_properties import (
    CANONICAL_SPELLINGS,
    GLANCE_IMAGE_FIELDS,
    GLANCE_RESERVED_PREFIX,
    LEGACY_NAMES,
    PROPERTY_KINDS,
)
from onespec.validators_runtime.extra_spec_values import SMALL_COUNTS
from onespec.validators_runtime.flavor_parts.cpusets import CpuSpecError, parse_cpu_spec
from onespec.validators_runtime.flavor_parts.findings import FlavorFinding
from onespec.validators_runtime.problems import Location, did_you_mean, shown

#: How many per-node entries Nova reads at most (``ImageMetaProps.NUMA_NODES_MAX``).
NUMA_NODES_MAX = 128
_UUID = re.compile(r"^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$")
#: The longest text read as an integer: more than any count holds, and far below the 4,300
#: digits past which int() refuses (the time it takes grows with the digits).
_LONGEST_INTEGER = 64
_LEGACY = frozenset(LEGACY_NAMES)
#: The per-node properties, typed as lists from ``NAME.0``, ``NAME.1``, ...
_PER_NODE = ("hw_numa_cpus", "hw_numa_mem")
_PREFIXES = ("hw_", "os_", "img_")


def _usual_spellings(kind: str, enum: tuple[str, ...]) -> dict[str, Any] | None:
    """The strings a property of ``kind`` usually holds, each with the value Nova reads from
    it; None where Nova reads any value as it is (``str``) or only by parsing (the rest)."""
    if kind == "enum":
        return {value: value for value in enum}
    if kind == "bool":
        return {
            "": False,
            **dict.fromkeys(FALSE_STRINGS, False),
            **dict.fromkeys(TRUE_STRINGS, True),
        }
    if kind == "int":
        return SMALL_COUNTS  # Nova reads every other integer too
    return None


#: Each property's usual spellings (:func:`_usual_spellings`): most properties are typed with
#: one look-up.
_USUAL: dict[str, dict[str, Any]] = {
    name: spellings
    for name, (kind, enum) in PROPERTY_KINDS.items()
    if (spellings := _usual_spellings(kind, enum)) is not None
}
#: The properties Nova reads as they are.
_AS_IS = frozenset(name for name, (kind, _) in PROPERTY_KINDS.items() if kind == "str")
_UNUSUAL = object()


def flexible_bool(value: Any) -> bool:
    """Nova's ``FlexibleBoolean``: a true spelling is true, anything else false."""
    if type(value) is str:
        # The spellings as they are usually written, without a copy.
        if value in TRUE_STRINGS:
            return True
        if not value or value in FALSE_STRINGS:
            return False
    elif isinstance(value, bool):
        return value
    return str(value).strip().lower() in TRUE_STRINGS


def _digits(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` also takes other scripts' digits)."""
    return text.isascii() and text.isdigit()


def _invalid(name: str, value: Any, why: str) -> FlavorFinding:
    return FlavorFinding(
        code="invalid-image-property",
        message=f"Image property {name!r} {why}" + ("" if why.endswith((".", "?")) else "."),
        location=Location(path=name),
        value=value,
        keys=(name,),
        # Server create types the properties (ImageMeta.from_dict) and answers a ValueError
        # with InvalidRequest, HTTP 400.
        nova_exception="InvalidRequest",
        phase="api",
    )


def _typed(name: str, kind: str, enum: tuple[str, ...], value: Any) -> tuple[Any, str | None]:
    """The typed value, or None and why it cannot be read."""
    if kind == "bool":
        return flexible_bool(value), None
    if kind == "int":
        if isinstance(value, int) and not isinstance(value, bool):
            return value, None
        # Nova's IntegerField is int(): space around, a sign, underscores and the decimal
        # digits of every script (٣) are read.
        text = str(value)
        if len(text) <= _LONGEST_INTEGER:
            try:
                return int(text), None
            except ValueError:
                pass
        return None, f"must be a whole number, not {shown(value)}"
    if kind == "enum":
        spellings = CANONICAL_SPELLINGS.get(name)
        if spellings is not None and isinstance(value, str):
            # Nova lower-cases these, and reads an older spelling as the one it stands for.
            lowered = value.lower()
            value = spellings.get(lowered, lowered)
        if value in enum:
            return value, None
        return None, f"must be one of {', '.join(enum)}, not {value!r}.{did_you_mean(value, enum)}"
    if kind == "uuid":
        if isinstance(value, str) and _UUID.match(value):
            return value, None
        return None, f"must be a UUID, not {value!r}"
    if kind == "str-list":
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return value, None
        return None, "must be a list of strings"
    return value, None


def _per_node(raw: Mapping[str, Any], name: str, read: Any) -> tuple[list | None, str | None]:
    found = []
    for node in range(NUMA_NODES_MAX):
        key = f"{name}.{node}"
        if key not in raw:
            break
        try:
            found.append(read(raw[key]))
        except (ValueError, CpuSpecError) as error:
            return None, f"{key}: {error}"
    return (found or None), None


def typed_properties(raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[FlavorFinding]]:
    """The properties Nova reads, typed, and a finding for each it could not read."""
    typed: dict[str, Any] = {}
    findings: list[FlavorFinding] = []
    per_node = traits = False
    usual_of = _USUAL.get
    for name, value in raw.items():
        # The usual spellings first, in one look-up: an allowed value, a boolean's spelling,
        # any value of a property Nova reads as it is.
        usual = usual_of(name)
        if usual is not None:
            try:
                found = usual.get(value, _UNUSUAL)
            except TypeError:  # a value that cannot be looked up (a list): read below
                found = _UNUSUAL
            if found is not _UNUSUAL:
                typed[name] = found
                continue
        elif name in _AS_IS:
            typed[name] = value
            continue
        known = PROPERTY_KINDS.get(name)
        if known is None:
            per_node = per_node or name.startswith(_PER_NODE)
            traits = traits or name.startswith("trait:")
            continue
        kind, enum = known
        if kind == "bool":
            typed[name] = flexible_bool(value)
        elif kind == "int" and type(value) is str and len(value) < 19 and _digits(value):
            typed[name] = int(value)
        elif kind not in ("cpu-lists", "int-list"):
            result, why = _typed(name, kind, enum, value)
            if why is not None:
                findings.append(_invalid(name, value, why))
            elif name != "traits_required":
                typed[name] = result
    if per_node:
        for name, read in (("hw_numa_cpus", parse_cpu_spec), ("hw_numa_mem", int)):
            lists, why = _per_node(raw, name, read)
            if why is not None:
                findings.append(_invalid(name, raw, why))
            elif lists is not None:
                typed[name] = lists
    if not _LEGACY.isdisjoint(raw):
        findings += _legacy_properties(raw, typed)
    if traits:
        required = [
            k[6:] for k, v in raw.items() if k.startswith("trait:") and str(v) == "required"
        ]
        if required:
            typed["traits_required"] = required
    return typed, findings


def _legacy_properties(raw: Mapping[str, Any], typed: dict[str, Any]) -> list[FlavorFinding]:
    """The older names (``architecture``, ``vm_mode``...) typed as the properties they set,
    into ``typed`` where the current name is not given too (Nova reads it over the older one),
    and a finding for each Nova cannot read (even beside the current name: Nova reads the
    older name first and fails there)."""
    findings = []
    for old, new in LEGACY_NAMES.items():
        if old not in raw:
            continue
        kind, enum = PROPERTY_KINDS[new]
        value, why = _typed(new, kind, enum, raw[old])
        if why is not None:
            findings.append(_invalid(old, raw[old], f"(read as {new}) {why}"))
        elif new not in raw:
            typed[new] = value
    return findings


#: Glance image fields a flavor (or an image spec) has too, so they tell nothing apart.
_SHARED_FIELDS = frozenset({"id", "name"})


def glance_fields(document: Mapping[str, Any]) -> list[str]:
    """The fields of ``document``, in its order, that only a Glance image has: what shows a
    file handed over for a flavor or an image spec to be an image."""
    return [name for name in document if name in GLANCE_IMAGE_FIELDS and name not in _SHARED_FIELDS]


def unknown_properties(raw: Mapping[str, Any]) -> list[FlavorFinding]:
    """Warnings for properties that look like Nova's (``hw_``, ``os_``, ``img_``) but are not
    one of them: Nova ignores them silently, which is rarely what was meant."""
    names = list(PROPERTY_KINDS)
    warnings = []
    for name in raw:
        base = name.split(".", 1)[0]
        if base in PROPERTY_KINDS or not name.startswith(_PREFIXES):
            continue
        if name in GLANCE_IMAGE_FIELDS or name.startswith(GLANCE_RESERVED_PREFIX):
            continue  # Glance's own, printed among the properties by the client
        warnings.append(
            FlavorFinding(
                code="unknown-image-property",
                severity="warning",
                message=f"Image property {name!r} is not one Nova reads; Nova ignores it."
                + did_you_mean(name, names),
                location=Location(path=name),
                keys=(name,),
            )
        )
    return warnings
