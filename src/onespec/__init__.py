"""onespec: one Python definition per fact, and the checks generated from it.

The short public API a service needs::

    import onespec

    warnings = onespec.validate({"hw:cpu_policy": "dedicated"})      # mode="strict" by default
    try:
        onespec.validate({"hw:cpu_pollicy": "dedicated"})
    except onespec.ExtraSpecValidationError as error:
        for finding in error.findings:
            print(finding.key, finding.code, finding.suggestion)

A whole flavor, with the image it boots, or a server's resize or rebuild, is checked as Nova
checks it::

    for finding in onespec.validate_flavor(flavor, image):   # what openstack ... -f json prints
        print(finding.severity, finding.code, finding.nova_exception, finding.phase)

One convention, by what a call is for. ``validate`` guards a write: it raises
``ExtraSpecValidationError`` when the extra specs must not be stored, and returns the warnings
of a write that may go on. ``validate_flavor``, ``validate_image_properties``,
``validate_resize`` and ``validate_rebuild`` report: they return every finding, errors and
warnings (``finding.severity``), and raise only ``InputError`` for a document that cannot be
read as a flavor or an image at all.

Every exception onespec raises on purpose, in any area, is an ``onespec.OnespecError``.

Everything else lives in the subpackages: ``onespec.validators_runtime`` (what services run),
``onespec.definitions`` (the facts), ``onespec.generator`` (the outputs) and
``onespec.sphinxext`` (the Sphinx extension). The names below are loaded on first use, so
``import onespec`` -- which every subpackage import runs first -- costs nothing and imports
none of them.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from onespec.errors import OnespecError
    from onespec.validators_runtime.extra_specs import (
        MODES,
        ExtraSpecValidationError,
        Finding,
        validate,
    )
    from onespec.validators_runtime.flavors import (
        FlavorFinding,
        InputError,
        validate_flavor,
        validate_image_properties,
        validate_rebuild,
        validate_resize,
    )

#: Public name -> the module that defines it.
_PUBLIC: dict[str, str] = {
    "validate": "onespec.validators_runtime.extra_specs",
    "ExtraSpecValidationError": "onespec.validators_runtime.extra_specs",
    "Finding": "onespec.validators_runtime.extra_specs",
    "MODES": "onespec.validators_runtime.extra_specs",
    "OnespecError": "onespec.errors",
    "validate_flavor": "onespec.validators_runtime.flavors",
    "validate_image_properties": "onespec.validators_runtime.flavors",
    "validate_resize": "onespec.validators_runtime.flavors",
    "validate_rebuild": "onespec.validators_runtime.flavors",
    "FlavorFinding": "onespec.validators_runtime.flavors",
    "InputError": "onespec.validators_runtime.flavors",
}


def _version() -> str:
    # importlib.metadata costs ~30 ms to import: read the version only when it is asked for.
    from importlib import metadata

    try:
        return metadata.version("onespec")
    except metadata.PackageNotFoundError:  # a checkout's src/ on sys.path, never installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        globals()[name] = version = _version()
        return version
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'onespec' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names and the subpackages already imported: not the helpers this module
    itself imports (``importlib``, ``Any``), which ``dir(onespec)`` would otherwise offer."""
    loaded = {
        name
        for name, value in globals().items()
        if isinstance(value, ModuleType) and value.__name__ == f"{__name__}.{name}"
    }
    dunders = {name for name in globals() if name.startswith("__") and name.endswith("__")}
    return sorted({*__all__, *loaded, *dunders})


__all__ = [
    "MODES",
    "ExtraSpecValidationError",
    "Finding",
    "FlavorFinding",
    "InputError",
    "OnespecError",
    "__version__",
    "validate",
    "validate_flavor",
    "validate_image_properties",
    "validate_rebuild",
    "validate_resize",
]
