"""Turn extra-spec definitions into the plain records that :mod:`validators_runtime.tables`
indexes.

A record keeps what validation needs and nothing that only documentation needs, so the generated
tables stay small and quick to import.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from definitions.model import ExtraSpec, LiteralText, Parameter, Segment
from validators_runtime.tables import ParameterRecord, Tables, build_tables


def parameter_record(parameter: Parameter) -> ParameterRecord:
    return (
        parameter.name,
        parameter.type.__name__,
        parameter.regex,
        parameter.min,
        parameter.max,
        parameter.max_length,
    )


def spec_record(definition: ExtraSpec) -> tuple:
    """The plain-data form of one definition: what validation needs, nothing for documentation.

    The last two fields are the key templates before and after the first colon, each a tuple of
    literal strings and parameter records.
    """
    value = definition.value
    status = definition.status
    return (
        definition.name,
        definition.namespace,
        value.type.__name__,
        value.min,
        value.max,
        value.enum_values,
        value.pattern,
        value.pattern_hint,
        value.max_length,
        status.level.value,
        status.since,
        status.replacement,
        status.removal,
        _plain(definition.key_prefix),
        _plain(definition.key_rest),
    )


def _plain(segments: Sequence[Segment]) -> tuple[str | ParameterRecord, ...]:
    return tuple(s.text if isinstance(s, LiteralText) else parameter_record(s) for s in segments)


def compile_definitions(definitions: Iterable[ExtraSpec]) -> Tables:
    """Records and tables for definitions in precedence order."""
    return build_tables(spec_record(definition) for definition in definitions)
