"""A drop-in for Nova's ``nova.api.validation.extra_specs.validators``, backed by onespec.

Nova's API validates each flavor extra spec with ``validators.validate(name, value)`` and keeps
its registry in ``VALIDATORS`` (name -> validator object) and ``NAMESPACES`` (the regular
expressions of the namespaces it knows). This module offers the same interface over onespec's
compiled tables, so a deployment can put it in place of Nova's module (``sys.modules`` or a
packaging patch) and get onespec's verdicts and messages without changing Nova's code::

    import sys
    from onespec.validators_runtime import nova_validators
    sys.modules["nova.api.validation.extra_specs.validators"] = nova_validators

Refusals raise ``nova.exception.ValidationError`` when Nova is importable, with Nova's
``Validation failed; `` opening (its API and its tests match on it), and
:class:`~onespec.validators_runtime.extra_specs.ExtraSpecValidationError` otherwise. Either carries
the onespec ``findings``. Where onespec's verdict deliberately differs from Nova's, the reason is in
``definitions/nova_differences.py``.

Like the rest of the runtime this module needs only the standard library; descriptions, which
the tables leave out, are read from the definitions on first access only.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from onespec.validators_runtime.extra_specs import (
    ExtraSpecValidationError,
    Registry,
    default_registry,
)
from onespec.validators_runtime.tables import ParameterRecord, SpecRecord, Template

#: How every refusal starts, as Nova words it.
PREFIX = "Validation failed; "

_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool}


def _parameter_regex(parameter: ParameterRecord) -> str:
    """A parameter's expression as Nova spells it: a bounded repetition written out.

    onespec matches ``[a-z]*`` and then checks ``max_length`` so that an over-long suffix is
    reported; Nova writes the bound into the expression (``([a-z]{1,64})?``). Both match the
    same texts within the bound, and Nova's own tests compare the spelling.
    """
    name, _, regex, _, _, max_length = parameter
    if max_length is not None and regex.endswith("*") and re.fullmatch(r"\[[^\]]+\]\*", regex):
        regex = f"({regex[:-1]}{{1,{max_length}}})?"
    elif max_length is not None and re.fullmatch(r"\[[^\]]+\]\+", regex):
        regex = f"{regex[:-1]}{{1,{max_length}}}"
    return f"(?P<{name}>{regex})"


def _template_regex(template: Template) -> str:
    return "".join(
        re.escape(part) if isinstance(part, str) else _parameter_regex(part) for part in template
    )


def _parameters(record: SpecRecord) -> tuple[Mapping[str, Any], ...]:
    return tuple(
        MappingProxyType({"name": part[0], "pattern": part[2], "description": ""})
        for part in (*record.prefix, *record.rest)
        if not isinstance(part, str)
    )


@functools.cache
def _descriptions() -> Mapping[str, str]:
    """Every definition's description, read from the definitions on first access.

    The runtime's tables carry only what validation needs; importing the catalogue costs
    time and libraries a service should not pay for unless something asks for a description.
    """
    try:
        from onespec.definitions.registry import load
    except ImportError:  # the runtime installed without the definitions' libraries
        return {}
    return {definition.name: definition.description for definition in load().definitions}


@dataclass(frozen=True)
class NovaValidator:
    """One definition in the shape of Nova's ``base.ExtraSpecValidator``.

    ``value`` and ``parameters`` are read-only mappings with Nova's keys; ``name_regex``
    matches the keys the definition governs (its dots are literal, unlike Nova's).
    """

    name: str
    value: Mapping[str, Any]
    deprecated: bool
    parameters: tuple[Mapping[str, Any], ...]
    name_regex: str
    value_regex: str | None = None
    _registry: Registry | None = field(default=None, repr=False, compare=False)

    @property
    def description(self) -> str:
        return _descriptions().get(self.name, "")

    def validate(self, name: str, value: str) -> None:
        """Check ``value`` for key ``name``, which must be one this definition governs."""
        if not isinstance(name, str) or not re.fullmatch(self.name_regex, name):
            raise _refusal(f"expected a name of format '{self.name}' but got '{name}'.")
        _check(self._registry or default_registry(), name, value)


def _validator(record: SpecRecord, registry: Registry) -> NovaValidator:
    value: dict[str, Any] = {"type": _TYPES[record.type]}
    for key in ("min", "max", "pattern"):
        if getattr(record, key) is not None:
            value[key] = getattr(record, key)
    if record.enum:
        value["enum"] = list(record.enum)
    name_regex = _template_regex(record.prefix)
    if record.rest or ":" in record.name:
        name_regex += ":" + _template_regex(record.rest)
    return NovaValidator(
        name=record.name,
        value=MappingProxyType(value),
        deprecated=record.status == "deprecated",
        parameters=_parameters(record),
        name_regex=name_regex,
        value_regex=record.pattern if record.type == "str" else None,
        _registry=registry,
    )


#: Nova's registry: every definition by name (``hw:numa_cpus.{id}``, ``resources{group}:VCPU``).
VALIDATORS: dict[str, NovaValidator] = {}
#: The regular expressions of the namespaces that definitions claim, spelt as Nova spells them.
NAMESPACES: set[str] = set()
_lock = threading.Lock()


def load_validators(registry: Registry | None = None) -> None:
    """Fill :data:`VALIDATORS` and :data:`NAMESPACES` from ``registry`` (the default one).

    Nova calls its own ``load_validators()`` once at import; this one runs at import too, and
    again whenever called, replacing the contents in place so references others hold stay live.
    """
    registry = registry or default_registry()
    records = [SpecRecord._make(record) for record in registry.tables.specs]
    validators = {record.name: _validator(record, registry) for record in records}
    namespaces = {_template_regex(record.prefix) for record in records if ":" in record.name}
    with _lock:
        VALIDATORS.clear()
        VALIDATORS.update(validators)
        NAMESPACES.clear()
        NAMESPACES.update(namespaces)
        _state["registry"] = registry


_state: dict[str, Registry] = {}


@functools.cache
def _error_type() -> type[Exception]:
    """Nova's ``ValidationError`` when Nova is importable, else onespec's own error."""
    try:
        from nova import exception
    except ImportError:
        return ExtraSpecValidationError
    return exception.ValidationError


def _refusal(detail: str, error: ExtraSpecValidationError | None = None) -> Exception:
    error_type = _error_type()
    if error_type is ExtraSpecValidationError:
        refusal: Exception = ExtraSpecValidationError(error.findings if error else ())
        if error is None:
            refusal.args = (PREFIX + detail,)
    else:
        refusal = error_type(PREFIX + detail)
    refusal.findings = error.findings if error else ()  # type: ignore[attr-defined]
    return refusal


def _check(registry: Registry, name: Any, value: Any) -> None:
    try:
        registry.validate({name: value}, mode="strict")
    except ExtraSpecValidationError as error:
        raise _refusal(" ".join(finding.message for finding in error.errors), error) from None


def validate(name: str, value: str) -> None:
    """Validate one extra spec as Nova's ``validators.validate`` does.

    Keys of a namespace no definition claims, and keys without a namespace that no definition
    claims, are accepted: they belong to other services. Raises Nova's ``ValidationError`` (or
    :class:`ExtraSpecValidationError` without Nova) naming every problem.
    """
    _check(_state["registry"], name, value)


load_validators()


# --- Opt-in: the whole flavor ------------------------------------------------------------------

_FLAVOR_FIELDS = ("name", "vcpus", "memory_mb", "root_gb", "ephemeral_gb", "swap", "extra_specs")


def validate_whole_flavor(flavor: Any, image: Mapping[str, Any] | None = None) -> list[Any]:
    """Opt-in: check the whole flavor, and the flavor with the image it boots, at once.

    Nova checks each extra spec on its own when it is written and finds what is wrong between
    keys only when a server is created, scheduled or spawned. Call this where a flavor's extra
    specs are written (or before a server is created) to refuse all of that up front. ``flavor``
    is Nova's ``Flavor`` object or a dict in Nova's API shape; ``image`` the image dict the
    compute API holds (properties under ``properties``) or Glance's. Returns the warnings;
    raises Nova's ``ValidationError`` (onespec's error without Nova) naming every refusal with
    the exception Nova would raise and its phase, carrying them as ``findings``.
    """
    from onespec.validators_runtime.flavors import validate_flavor

    if not isinstance(flavor, Mapping):
        flavor = {name: flavor.get(name) for name in _FLAVOR_FIELDS if flavor.get(name) is not None}
    findings = validate_flavor(flavor, image)
    errors = [f for f in findings if f.severity == "error"]
    if errors:
        detail = " ".join(f"{f.message} ({f.nova_exception}, {f.phase})" for f in errors)
        refusal = _refusal(detail)
        refusal.findings = tuple(findings)  # type: ignore[attr-defined]
        raise refusal
    return findings


__all__ = [
    "NAMESPACES",
    "VALIDATORS",
    "NovaValidator",
    "load_validators",
    "validate",
    "validate_whole_flavor",
]
