"""The Nova-shaped way to write a definition, turned into the typed vocabulary.

Nova and the seed write a validator as ``ExtraSpecValidator(name=..., value={'type': int, 'min':
1}, parameters=[...])``. Packages written for that shape publish such objects (or mappings with
those keys); :func:`coerce_definition` turns each into an
:class:`~onespec.definitions.model.ExtraSpec` so they load unchanged. Standard library only,
like the rest of the vocabulary.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from onespec.definitions.model import (
    DefinitionError,
    ExtraSpec,
    Parameter,
    Status,
    Support,
    Value,
    definition_error,
    enum_members,
    parse_type,
)

_VALUE_KEYS = {
    "type",
    "description",
    "min",
    "max",
    "enum",
    "pattern",
    "pattern_hint",
    "max_length",
    "default",
}
_PARAMETER_KEYS = {"name", "type", "description", "pattern", "min", "max", "max_length"}


def _value_from_mapping(raw: Mapping[str, Any], name: str) -> Value:
    unknown = sorted(set(raw) - _VALUE_KEYS)
    if unknown:
        # Nova silently ignored such keys, so a typo like 'minimum' disabled a bound unnoticed.
        raise definition_error(
            f"unknown keys {unknown}; a value takes {sorted(_VALUE_KEYS)}", name, "value"
        )
    if "type" not in raw:
        raise definition_error("a value needs a 'type'", name, "value")
    fields = dict(raw)
    fields["type"] = parse_type(fields["type"], name=name, field="value.type")
    if "enum" in fields:
        fields["enum"] = enum_members(fields["enum"], name, "value.enum")
    try:
        return Value(**fields)
    except DefinitionError as exc:
        raise definition_error(exc.reason, name, exc.field or "value") from None


def _parameter_from_mapping(raw: Mapping[str, Any], name: str, index: int) -> Parameter:
    unknown = sorted(set(raw) - _PARAMETER_KEYS)
    where = f"parameters[{index}]"
    if unknown:
        raise definition_error(
            f"unknown keys {unknown}; a parameter takes {sorted(_PARAMETER_KEYS)}", name, where
        )
    if "name" not in raw:
        raise definition_error("a parameter needs a 'name'", name, where)
    fields = dict(raw)
    if "type" in fields:
        fields["type"] = parse_type(fields["type"], name=name, field=f"{where}.type")
    try:
        return Parameter(**fields)
    except DefinitionError as exc:
        raise definition_error(exc.reason, name, exc.field or where) from None


def ExtraSpecValidator(
    name: str,
    description: str = "",
    value: Mapping[str, Any] | Value | None = None,
    parameters: Iterable[Mapping[str, Any] | Parameter] = (),
    deprecated: bool = False,
    **fields: Any,
) -> ExtraSpec:
    """Build an :class:`~onespec.definitions.model.ExtraSpec` from the shape the specification
    shows.

    The capitalised name is the specification's, kept so that out-of-tree code ports unchanged.

    ``value`` is a mapping such as ``{'type': int, 'min': 1}``; ``parameters`` a list of mappings
    such as ``{'name': 'id', 'type': int, 'description': '...'}``; ``deprecated=True`` marks the
    spec deprecated. Any field of :class:`~onespec.definitions.model.ExtraSpec` (``status``,
    ``virt_drivers``, ...) may be given as a keyword too.
    """
    if not isinstance(name, str) or not name:
        raise DefinitionError(f"a definition needs a non-empty string name, not {name!r}")
    if value is None:
        raise definition_error("a definition needs a value", name, "value")
    if isinstance(value, Mapping):
        value = _value_from_mapping(value, name)
    elif not isinstance(value, Value):
        raise definition_error(
            f"value must be a mapping, not {type(value).__name__}", name, "value"
        )
    if isinstance(parameters, str | bytes | Mapping) or not isinstance(parameters, Iterable):
        raise definition_error("parameters must be a list of mappings", name, "parameters")
    typed_parameters = []
    for index, parameter in enumerate(parameters):
        if isinstance(parameter, Mapping):
            parameter = _parameter_from_mapping(parameter, name, index)
        typed_parameters.append(parameter)
    if deprecated:
        if "status" in fields:
            raise definition_error(
                "give either deprecated=True or a status, not both", name, "status"
            )
        fields["status"] = Status(Support.DEPRECATED)
    allowed = {"status", "virt_drivers", "namespace"}
    unknown = sorted(set(fields) - allowed)
    if unknown:
        raise definition_error(f"unknown fields {unknown}", name)
    return ExtraSpec(
        name=name,
        description=description,
        value=value,
        parameters=tuple(typed_parameters),
        **fields,
    )


def coerce_definition(obj: Any) -> ExtraSpec:
    """Turn anything an out-of-tree package may publish into an
    :class:`~onespec.definitions.model.ExtraSpec`.

    Accepted: an ``ExtraSpec``; a mapping of the seed's keyword arguments; or any object with the
    seed's attributes (``name``, ``description``, ``value``, ``parameters``, ``deprecated``) --
    which is what validator objects written for Nova look like.
    """
    if isinstance(obj, ExtraSpec):
        return obj
    if isinstance(obj, Mapping):
        return ExtraSpecValidator(**obj)
    if all(hasattr(obj, attribute) for attribute in ("name", "value")):
        return ExtraSpecValidator(
            name=obj.name,
            description=getattr(obj, "description", "") or "",
            value=obj.value,
            parameters=getattr(obj, "parameters", None) or (),
            deprecated=bool(getattr(obj, "deprecated", False)),
        )
    raise DefinitionError(f"{obj!r} is not an extra-spec definition")
