"""A plugin defining exact keys that in-tree patterns already govern (as plain mappings)."""

EXTRA_SPECS = [
    {
        "name": "hw:numa_cpus.5",
        "description": "Governed by the in-tree hw:numa_cpus.{id}.",
        "value": {"type": "str", "enum": ["anything"]},
    },
    {
        "name": "trait:CUSTOM_ACME",
        "description": "Governed by the in-tree trait{group}:CUSTOM_{trait}.",
        "value": {"type": "str", "enum": ["maybe"]},
    },
    {
        "name": "shadow:kept",
        "description": "A definition of the same plugin that clashes with nothing.",
        "value": {"type": "bool"},
    },
]
