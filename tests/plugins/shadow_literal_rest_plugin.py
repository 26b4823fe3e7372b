"""A plugin defining exact keys governed by in-tree definitions with a patterned prefix
(``trait{group}:HW_CPU_X86_AVX``, ``resources{group}:VCPU``): the part after the colon is
literal, the part before it is a pattern."""

EXTRA_SPECS = [
    {
        "name": "trait:HW_CPU_X86_AVX",
        "description": "Governed by the in-tree trait{group}:HW_CPU_X86_AVX.",
        "value": {"type": "str", "enum": ["maybe"]},
    },
    {
        "name": "resources:VCPU",
        "description": "Governed by the in-tree resources{group}:VCPU.",
        "value": {"type": "str", "enum": ["lots"]},
    },
]
