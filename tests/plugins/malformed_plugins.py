"""Entry points that import but publish something malformed."""

from definitions.model import ExtraSpecValidator

#: A value with a key the seed shape does not have: Nova would silently ignore the bound.
BAD_BOUND = [
    {"name": "malformed:before", "description": "Fine on its own.", "value": {"type": str}},
    {"name": "malformed:size", "description": "", "value": {"type": int, "minimum": 1}},
]

#: A list with something in it that is not a definition.
WITH_INT = [
    ExtraSpecValidator(name="malformed:ok", description="Fine on its own.", value={"type": str}),
    42,
]

#: A single definition instead of a list.
NOT_A_LIST = {"name": "malformed:single", "description": "", "value": {"type": str}}


def explode():
    raise RuntimeError("the ACME licence server is unreachable")
