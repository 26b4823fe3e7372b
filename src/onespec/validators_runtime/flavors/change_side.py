"""One side of a resize or a rebuild: a flavor with its image, read into what the change rules
compare (``_generated/flavor_change_rules.py`` reads ``specs``, ``props``, ``field(name)`` and
one attribute per change fact).

A flavor's identity (``id``, and whether it is disabled) and an image's ``id`` matter only when
something changes, so they are read here from the documents as given, not by the create-time
readers.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from onespec.validators_runtime.flavor_parts.facts import View
from onespec.validators_runtime.flavor_parts.image_props import typed_properties
from onespec.validators_runtime.flavor_parts.inputs import Flavor, Image, read_flavor, read_image
from onespec.validators_runtime.inputs import InputError
from onespec.validators_runtime.problems import shown

#: How Nova's ``Architecture.canonicalize`` renames before it looks a name up.
_ARCHITECTURE_ALIASES = {
    "i386": "i686",
    "i486": "i686",
    "i586": "i686",
    "x86_32": "i686",
    "x86_32p": "i686",
    "amd64": "x86_64",
}
_DISABLED = ("OS-FLV-DISABLED:disabled", "disabled", "Disabled", "Is Disabled")
_IDS = ("id", "ID")
_TRUE = frozenset({"true", "True", "yes", "1"})
_FALSE = frozenset({"false", "False", "no", "0", ""})


def _unwrapped(document: Any, kind: str) -> Any:
    if isinstance(document, Mapping) and len(document) == 1 and kind in document:
        return document[kind]
    return document


def _identifier(document: Any, where: str) -> str | None:
    """The ``id`` of a flavor or image document, as text (None when it has none)."""
    if not isinstance(document, Mapping):
        return None
    for spelled in _IDS:
        value = document.get(spelled)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise InputError("shape", None, f"{where}.{spelled} must be text, not {shown(value)}")
        return str(value)
    return None


def _disabled(document: Any, where: str) -> bool:
    if not isinstance(document, Mapping):
        return False
    for spelled in _DISABLED:
        value = document.get(spelled)
        if value is None:
            continue
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value in _TRUE | _FALSE:
            return value in _TRUE
        raise InputError(
            "shape", None, f"{where}.{spelled} must be true or false, not {shown(value)}"
        )
    return False


class ChangeSide:
    """A flavor with its image, as one side of a change sees them."""

    def __init__(
        self,
        flavor: Flavor | Mapping[str, Any],
        image: Image | Mapping[str, Any] | None,
        flavor_where: str,
        image_where: str,
    ) -> None:
        raw_flavor = _unwrapped(flavor, "flavor")
        raw_image = _unwrapped(image, "image")
        self.flavor = flavor if isinstance(flavor, Flavor) else read_flavor(flavor, flavor_where)
        self.image = (
            image if image is None or isinstance(image, Image) else read_image(image, image_where)
        )
        self.flavor_id = _identifier(raw_flavor, flavor_where)
        self.disabled = _disabled(raw_flavor, flavor_where)
        self.image_id = _identifier(raw_image, image_where)
        disk_format = raw_image.get("disk_format") if isinstance(raw_image, Mapping) else None
        self.disk_format = disk_format if isinstance(disk_format, str) else None
        self.specs: Mapping[str, str] = self.flavor.extra_specs
        self.raw_props: Mapping[str, Any] = {} if self.image is None else self.image.properties
        self.props, _ = typed_properties(self.raw_props)
        self.view = View(self.flavor, self.image, self.props)

    def field(self, name: str) -> Any:
        """A flavor's field (``disk``, ``ephemeral``, ``id``, ``disabled``) or an image's."""
        if name == "id":
            return self.flavor_id
        if name == "disabled":
            return self.disabled
        if name == "image.id":
            return self.image_id
        return self.view.field(name)

    # --- the change facts (CHANGE_FACTS in the definitions) ---------------------------------

    @cached_property
    def numa_constraints(self) -> tuple[Any, ...] | None:
        """What Nova's ``numa_get_constraints`` builds, as a value that compares equal exactly
        when Nova's objects would: None without a NUMA topology."""
        view = self.view
        if not view.numa_topology:
            return None
        policy = view.cpu_policy
        if policy == "dedicated":
            dedicated: Any = ("all",)
        elif policy == "mixed":
            dedicated = view.dedicated_cpus or view.realtime_cpus
        else:
            dedicated = None
        manual = view.numa_cpus is not None and view.numa_mem is not None
        return (
            view.numa_node_count,
            tuple(view.numa_cpus) if manual else None,
            tuple(view.numa_mem) if manual else None,
            view.page_size,
            policy,
            view.cpu_thread_policy,
            dedicated,
        )

    @cached_property
    def vtpm(self) -> bool:
        return bool(self.view.tpm_version)

    @cached_property
    def tpm_secret_security(self) -> str:
        return self.specs.get("hw:tpm_secret_security") or "user"

    def _flavor_traits(self, wanted: str) -> frozenset[str]:
        return frozenset(
            key.split(":", 1)[1]
            for key, value in self.specs.items()
            if key.startswith("trait") and ":" in key and value == wanted
        )

    @cached_property
    def forbidden_traits(self) -> frozenset[str]:
        return self._flavor_traits("forbidden")

    @cached_property
    def flavor_required_traits(self) -> frozenset[str]:
        return self._flavor_traits("required")

    @cached_property
    def required_traits(self) -> frozenset[str]:
        return frozenset(self.props.get("traits_required") or ())

    @cached_property
    def unknown_architecture(self) -> str | None:
        value = self.raw_props.get("hw_architecture")
        if not isinstance(value, str) or not value:
            return None
        lowered = value.lower()
        canonical = _ARCHITECTURE_ALIASES.get(lowered, lowered)
        return None if _known_architecture(canonical) else value


def _known_architecture(name: str) -> bool:
    from onespec.validators_runtime._generated.image_properties import PROPERTY_KINDS

    return name in PROPERTY_KINDS["hw_architecture"][1]
