"""An out-of-tree plugin written for Nova: plain validator objects, no onespec import."""


class ExtraSpecValidator:
    """The shape of ``nova.api.validation.extra_specs.base.ExtraSpecValidator``."""

    def __init__(self, name, description, value, parameters=None, deprecated=False):
        self.name = name
        self.description = description
        self.value = value
        self.parameters = parameters or []
        self.deprecated = deprecated


VALIDATORS = [
    ExtraSpecValidator(
        name="novaobj:mode",
        description="How the thing runs.",
        value={"type": str, "description": "The mode.", "enum": ("fast", "slow")},
    ),
    ExtraSpecValidator(
        name="novaobj:count",
        description="How many things.",
        value={"type": int, "min": 0, "max": 4},
    ),
    ExtraSpecValidator(
        name="novaobj:queue{num}",
        description="The name of queue NUM.",
        value={"type": str, "pattern": "[a-z]+"},
        parameters=[{"name": "num", "pattern": r"\d+", "description": "The queue number."}],
    ),
    ExtraSpecValidator(
        name="novaobj:legacy",
        description="Old switch.",
        value={"type": bool},
        deprecated=True,
    ),
]


def load():
    """An entry point may name a callable returning the list."""
    return [
        ExtraSpecValidator(
            name="novacall:flag",
            description="A flag published through a callable.",
            value={"type": bool},
        )
    ]
