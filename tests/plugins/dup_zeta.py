"""One of two plugins that define the same key; its entry point sorts last."""

EXTRA_SPECS = [
    {"name": "dup:key", "description": "zeta's", "value": {"type": str, "enum": ["zeta"]}},
    {"name": "dup:zeta_only", "description": "", "value": {"type": str, "enum": ["z"]}},
]
