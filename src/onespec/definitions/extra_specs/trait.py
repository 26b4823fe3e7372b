"""Extra specs of the ``trait`` namespace: qualitative requirements on resource providers.

The standard traits come from the ``os-traits`` library, the registry that Placement itself uses;
the version that generated the runtime tables is named in their header.
"""

import os_traits

from onespec.definitions.extra_specs._placement import CUSTOM_NAME, GROUP
from onespec.definitions.model import EnumMember, ExtraSpec, Namespace, Parameter, Value

NAMESPACE = Namespace(
    name="trait",
    title="Placement traits",
    description=(
        "Require or forbid a trait on the resource providers that serve an instance: a CPU "
        "feature, a storage or network capability, a driver capability. The scheduler adds "
        "these to its Placement query, so hosts without a required trait (or with a forbidden "
        "one) are never candidates. With a group suffix the trait applies to the provider "
        "that satisfies that granular group's resources."
    ),
)

_PRESENCE = Value(
    type=str,
    description="Whether the trait must be present on, or absent from, the resource provider.",
    enum=(
        EnumMember("required", "Only providers that have the trait are candidates."),
        EnumMember("forbidden", "Only providers that do not have the trait are candidates."),
    ),
)


def _standard(trait: str) -> ExtraSpec:
    return ExtraSpec(
        name=f"trait{{group}}:{trait}",
        description=f"Require or forbid the standard trait ``{trait}``.",
        parameters=(GROUP,),
        value=_PRESENCE,
    )


EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    *(_standard(trait) for trait in sorted(os_traits.get_traits())),
    ExtraSpec(
        name="trait{group}:CUSTOM_{trait}",
        description=(
            "Require or forbid a custom trait, one that an operator placed on resource "
            "providers to mark something the standard traits do not describe, such as a rack, "
            "a physical network or a certification."
        ),
        parameters=(
            GROUP,
            Parameter(
                "trait",
                str,
                "The rest of the custom trait name: upper-case letters, digits and ``_``.",
                pattern=CUSTOM_NAME,
            ),
        ),
        value=_PRESENCE,
    ),
)
