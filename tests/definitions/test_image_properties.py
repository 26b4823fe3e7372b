"""Image properties and their flavor twins: where both sides list the same values, they list
them in the same order, so the reference, the metadefs and the schemas show one list."""

from __future__ import annotations

from onespec.definitions.image_properties import BY_NAME, twins
from onespec.definitions.registry import in_tree


def test_twins_with_the_same_values_list_them_in_the_same_order():
    specs = {spec.name: spec for spec in in_tree()}
    compared = 0
    for twin in twins():
        prop, spec = BY_NAME[twin.prop], specs.get(twin.spec)
        if spec is None or not prop.enum or not spec.value.enum:
            continue
        spec_values = tuple(member.value for member in spec.value.enum)
        if set(spec_values) == set(prop.enum):
            compared += 1
            assert prop.enum == spec_values, twin.prop
    assert compared >= 5
