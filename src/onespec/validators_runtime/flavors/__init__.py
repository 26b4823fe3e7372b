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

A server's change is checked by ``validate_resize(old_flavor, new_flavor, image)`` and
``validate_rebuild(flavor, old_image, new_image)`` (``change.py``): the refusals Nova makes when
the flavor or the image changes (phase ``resize`` or ``rebuild``), then the create-time check of
the new pair.

Importing this package loads the rules. The modules they are built from live apart, in
:mod:`onespec.validators_runtime.flavor_parts`, which the generated rules import; reading a
flavor there (``flavor_parts.inputs.read_flavor``) loads no rules.
"""

from __future__ import annotations

from onespec.validators_runtime.flavor_parts.findings import FlavorFinding
from onespec.validators_runtime.flavor_parts.inputs import (
    Flavor,
    Image,
    InputError,
    read_flavor,
    read_image,
)
from onespec.validators_runtime.flavors.change import validate_rebuild, validate_resize
from onespec.validators_runtime.flavors.whole_flavor import (
    TRIGGER_NAMES,
    normalized_names,
    rule_findings,
    validate_flavor,
    validate_image_properties,
)

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
    "validate_rebuild",
    "validate_resize",
]
