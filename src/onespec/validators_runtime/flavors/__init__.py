"""Check a whole flavor, and a flavor with the image it boots, as Nova would before and at boot.

::

    from onespec.validators_runtime.flavors import validate_flavor

    findings = validate_flavor(
        {"vcpus": 3, "ram": 4096, "extra_specs": {"hw:numa_nodes": "2"}},
        image={"properties": {"hw_cpu_policy": "dedicated"}},
    )
    for finding in findings:
        print(finding.nova_exception, finding.phase, finding.message)

Every finding is returned at once (Nova stops at the first). Each carries the keys involved,
the exception class Nova raises (``nova_exception``) and the phase in which it does
(``api``, ``scheduler``, ``spawn``), and its message ends with what to change. Per-key
problems come from the extra-spec runtime (:func:`onespec.validators_runtime.extra_specs.validate`);
the rules between keys are the definitions of
:mod:`onespec.definitions.flavor_rule_catalogue`, which the generator writes out as code
(``_generated/flavor_rules.py``), each looked at only when the keys it needs are present.

Without an image, the flavor is checked as Nova checks it with an image that sets nothing,
except that what the flavor demands *of* the image (UEFI firmware for memory encryption, for
example) is a warning, not an error: any image that meets it will do.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from onespec.validators_runtime.flavors.findings import FlavorFinding
    from onespec.validators_runtime.flavors.inputs import (
        Flavor,
        Image,
        InputError,
        read_flavor,
        read_image,
    )
    from onespec.validators_runtime.flavors.whole_flavor import (
        TRIGGER_NAMES,
        normalized_names,
        rule_findings,
        validate_flavor,
        validate_image_properties,
    )

#: Loaded on first use (PEP 562), most from :mod:`.whole_flavor`: the generated rule code
#: imports this package's leaf modules (``checks``, ``facts``), so importing it before this
#: package must not make the package import the generated code while that is still half-built.
__all__ = [
    "TRIGGER_NAMES",
    "Flavor",
    "FlavorFinding",
    "Image",
    "InputError",
    "normalized_names",
    "read_flavor",
    "read_image",
    "rule_findings",
    "validate_flavor",
    "validate_image_properties",
]


#: The module each name comes from: reading a flavor, or naming a finding's type, loads no rules.
_HOMES = {
    "FlavorFinding": "findings",
    **dict.fromkeys(("Flavor", "Image", "InputError", "read_flavor", "read_image"), "inputs"),
}


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    home = import_module(f"{__name__}.{_HOMES.get(name, 'whole_flavor')}")
    return getattr(home, name)
