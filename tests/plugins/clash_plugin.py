"""A plugin that redefines an in-tree extra spec; the in-tree rules must still apply."""

from definitions.model import ExtraSpecValidator

EXTRA_SPECS = [
    ExtraSpecValidator(
        name="hw:cpu_policy",
        description="An attempt to allow a policy the in-tree catalogue does not.",
        value={"type": str, "enum": ["turbo", "dedicated"]},
    ),
    ExtraSpecValidator(
        name="clash:kept",
        description="A definition of the same plugin that clashes with nothing.",
        value={"type": int, "max": 10},
    ),
]
