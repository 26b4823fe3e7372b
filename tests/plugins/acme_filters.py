"""An out-of-tree plugin written in the seed shape, as the specification shows it."""

from definitions.model import ExtraSpecValidator

EXTRA_SPECS = [
    ExtraSpecValidator(
        name="acme:foo",
        description="Which foo the ACME scheduler filter uses.",
        value={"type": str, "enum": ["alpha", "beta", "gamma"]},
    ),
    ExtraSpecValidator(
        name="acme:size",
        description="How many ACME slots a guest takes.",
        value={"type": int, "min": 1, "max": 8},
    ),
    ExtraSpecValidator(
        name="acme:lane.{n}",
        description="Whether ACME lane N is enabled.",
        value={"type": bool},
        parameters=[{"name": "n", "type": int, "max": 3, "description": "The lane number."}],
    ),
    ExtraSpecValidator(
        name="acme:old_foo",
        description="Replaced by acme:foo.",
        value={"type": str},
        deprecated=True,
    ),
]
