"""The in-tree catalogue of flavor extra specs, one module per namespace.

Each module defines ``NAMESPACE`` (a :class:`~onespec.definitions.model.Namespace`) and ``EXTRA_SPECS``
(a tuple of :class:`~onespec.definitions.model.ExtraSpec`). The order of :data:`MODULES` is the order of the
reference and of the generated tables; it never decides a clash, because names are unique in-tree.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from onespec.definitions.model import ExtraSpec, Namespace

#: The catalogue modules, in documentation order.
MODULES: tuple[str, ...] = (
    "hw",
    "hw_rng",
    "hw_video",
    "os",
    "pci_passthrough",
    "accel",
    "quota",
    "vmware",
    "resources",
    "trait",
    "capabilities",
    "aggregate_instance_extra_specs",
    "unnamespaced",
)


def modules() -> tuple[ModuleType, ...]:
    """Import every catalogue module (they are data; importing them has no side effects)."""
    return tuple(importlib.import_module(f"{__name__}.{name}") for name in MODULES)


def namespaces() -> tuple[Namespace, ...]:
    """Every in-tree namespace, in documentation order."""
    return tuple(module.NAMESPACE for module in modules())


def extra_specs() -> tuple[ExtraSpec, ...]:
    """Every in-tree definition, in documentation order."""
    return tuple(spec for module in modules() for spec in module.EXTRA_SPECS)


def module_for(namespace: str) -> ModuleType | None:
    """The catalogue module that defines ``namespace``, or None for an unknown one."""
    for module in modules():
        if module.NAMESPACE.name == namespace:
            return module
    return None
