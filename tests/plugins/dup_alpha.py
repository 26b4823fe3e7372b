"""One of two plugins that define the same key; its entry point sorts first."""

EXTRA_SPECS = [
    {"name": "dup:key", "description": "alpha's", "value": {"type": str, "enum": ["alpha"]}}
]
