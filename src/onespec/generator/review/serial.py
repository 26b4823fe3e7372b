"""Definitions as plain data and back, so a catalogue can cross a process boundary.

``onespec diff`` loads an older revision of a definitions tree in a child process (its modules
must not meet the ones this process imported) and receives the definitions as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from onespec.definitions.model import EnumMember, ExtraSpec, Parameter, Status, Value, type_name


def to_data(definition: ExtraSpec) -> dict[str, Any]:
    """*definition* as JSON-ready data."""
    value = definition.value
    return {
        "name": definition.name,
        "description": definition.description,
        "value": {
            "type": type_name(value.type),
            "description": value.description,
            "min": value.min,
            "max": value.max,
            "enum": [[m.value, m.description] for m in value.enum],
            "pattern": value.pattern,
            "max_length": value.max_length,
            "default": value.default,
        },
        "parameters": [
            {
                "name": p.name,
                "type": type_name(p.type),
                "description": p.description,
                "pattern": p.pattern,
                "min": p.min,
                "max": p.max,
                "max_length": p.max_length,
            }
            for p in definition.parameters
        ],
        "status": {
            "level": definition.status.level.value,
            "since": definition.status.since,
            "replacement": definition.status.replacement,
            "removal": definition.status.removal,
        },
        "virt_drivers": list(definition.virt_drivers),
    }


def from_data(data: Mapping[str, Any]) -> ExtraSpec:
    """The definition :func:`to_data` wrote."""
    value = dict(data["value"])
    value["enum"] = tuple(EnumMember(v, d) for v, d in value["enum"])
    return ExtraSpec(
        name=data["name"],
        description=data["description"],
        value=Value(**value),
        parameters=tuple(Parameter(**p) for p in data["parameters"]),
        status=Status(**data["status"]),
        virt_drivers=tuple(data["virt_drivers"]),
    )
