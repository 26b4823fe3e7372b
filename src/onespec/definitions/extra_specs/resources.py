"""Extra specs of the ``resources`` namespace: amounts of Placement resource classes.

The standard resource classes come from the ``os-resource-classes`` library, the registry that
Placement itself uses, so the catalogue follows the library instead of a hand-copied list. The
version that generated the runtime tables is named in their header.
"""

import os_resource_classes

from onespec.definitions.extra_specs._placement import CUSTOM_NAME, GROUP
from onespec.definitions.model import ExtraSpec, Namespace, Parameter, Value

NAMESPACE = Namespace(
    name="resources",
    title="Placement resources",
    description=(
        "Override or add to the amounts of resources that the scheduler asks Placement for. "
        "By default a flavor's ``vcpus``, ``ram`` and ``disk`` become requests for ``VCPU``, "
        "``MEMORY_MB`` and ``DISK_GB``; a ``resources`` extra spec replaces the amount for its "
        "class (``0`` removes the request entirely) or asks for a class the flavor has no field "
        "for, such as ``PCPU``, ``VGPU`` or a ``CUSTOM_`` class that an operator created."
    ),
)

_AMOUNT = Value(
    type=int,
    description=(
        "How many units of the resource class to request. Nova's API takes any integer, but "
        "its scheduler skips a negative amount (logging that amounts must not be negative): "
        "the flavor's own ``vcpus``, ``ram`` or ``disk`` is then asked for, and nothing for "
        "a class the flavor has no field for. ``onespec validate flavor`` warns about it."
    ),
)


def _standard(resource_class: str) -> ExtraSpec:
    return ExtraSpec(
        name=f"resources{{group}}:{resource_class}",
        description=(
            f"Request this many units of the standard resource class ``{resource_class}`` "
            "from Placement for each instance of the flavor."
        ),
        parameters=(GROUP,),
        value=_AMOUNT,
    )


EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    *(_standard(resource_class) for resource_class in os_resource_classes.STANDARDS),
    ExtraSpec(
        name="resources{group}:CUSTOM_{resource}",
        description=(
            "Request this many units of a custom resource class, one that an operator or a "
            "service created in Placement to model something the standard classes do not, "
            "such as a bare-metal node class or a licensed device."
        ),
        parameters=(
            GROUP,
            Parameter(
                "resource",
                str,
                "The rest of the custom resource class name: upper-case letters, digits and ``_``.",
                pattern=CUSTOM_NAME,
            ),
        ),
        value=_AMOUNT,
    ),
)
