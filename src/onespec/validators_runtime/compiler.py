"""Turn extra-spec definitions into the plain records that :mod:`onespec.validators_runtime.tables`
indexes.

A record keeps what validation needs and nothing that only documentation needs, so the generated
tables stay small and quick to import.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from onespec.definitions.model import ExtraSpec, LiteralText, Parameter, Segment
from onespec.validators_runtime.tables import ParameterRecord, SpecRecord, Tables, build_tables


def parameter_record(parameter: Parameter) -> ParameterRecord:
    return (
        parameter.name,
        parameter.type.__name__,
        parameter.regex,
        parameter.min,
        parameter.max,
        parameter.max_length,
    )


def spec_record(definition: ExtraSpec) -> SpecRecord:
    """The plain-data form of one definition: what validation needs, nothing for documentation."""
    value = definition.value
    status = definition.status
    return SpecRecord(
        name=definition.name,
        # Derived from the name when not given (ExtraSpec.__post_init__): a string by now.
        namespace=cast(str, definition.namespace),
        type=value.type.__name__,
        min=value.min,
        max=value.max,
        enum=value.enum_values,
        pattern=value.pattern,
        pattern_hint=value.pattern_hint,
        max_length=value.max_length,
        status=status.level.value,
        since=status.since,
        replacement=status.replacement,
        removal=status.removal,
        prefix=_plain(definition.key_prefix),
        rest=_plain(definition.key_rest),
    )


def _plain(segments: Sequence[Segment]) -> tuple[str | ParameterRecord, ...]:
    return tuple(s.text if isinstance(s, LiteralText) else parameter_record(s) for s in segments)


def compile_definitions(definitions: Iterable[ExtraSpec]) -> Tables:
    """Records and tables for definitions in precedence order."""
    return build_tables(spec_record(definition) for definition in definitions)
