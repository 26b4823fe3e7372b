"""An out-of-tree plugin module with ``register()``, as Nova's own validator modules are."""

from nova_style import ExtraSpecValidator


def register():
    return [
        ExtraSpecValidator(
            name="novareg:level",
            description="A level published through a module's register().",
            value={"type": int, "min": 1},
        ),
    ]
