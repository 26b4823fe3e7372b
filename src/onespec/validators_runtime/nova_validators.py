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
``src/onespec/definitions/nova_differences.py``.

Nova also loads the validators other packages register in its entry-point group
``nova.api.extra_spec_validators`` (modules with a ``register()`` returning
``base.ExtraSpecValidator`` objects); so does this module, every one but Nova's own (which
onespec's catalogue replaces), so installing the adapter never drops a rule a plugin adds.
``VALIDATORS`` is keyed by Nova's names (``hw:numa_cpus.{num}``), so code written against Nova's
registry -- Nova's own documentation extension among it -- reads the adapter's the same way.

Like the rest of the runtime this module needs no library beyond the standard library, but it
is not standard library only: on first use (its import) it builds onespec's default registry,
which imports ``onespec.definitions``' vocabulary modules (``model``, ``nova_shape``,
``entry_points``); descriptions, which the tables leave out, are read from the whole catalogue
(``onespec.definitions.registry``) on first access only.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from onespec.definitions.key_templates import template_regex
from onespec.validators_runtime.extra_specs import (
    ExtraSpecValidationError,
    Registry,
    default_registry,
)
from onespec.validators_runtime.tables import ParameterRecord, SpecRecord, Template

#: How every refusal starts, as Nova words it.
PREFIX = "Validation failed; "

#: The entry-point group in which Nova finds validator modules, its own and other packages'.
NOVA_ENTRY_POINT_GROUP = "nova.api.extra_spec_validators"
#: Nova's own validator modules: onespec's catalogue stands in for them.
_NOVAS_OWN = "nova.api.validation.extra_specs."

#: Definitions whose parameters Nova names otherwise: onespec's name -> Nova's. Nova's registry
#: is keyed by its names, and code reading it (Nova's docs extension, its tests) looks them up.
NOVA_NAMES = {
    "hw:numa_cpus.{id}": "hw:numa_cpus.{num}",
    "hw:numa_mem.{id}": "hw:numa_mem.{num}",
}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")

LOG = logging.getLogger(__name__)

_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool}


def _parameter_regex(parameter: ParameterRecord) -> str:
    """A parameter's expression as Nova spells it: a bounded repetition written out.

    onespec matches ``[a-z]*`` and then checks ``max_length`` so that an over-long suffix is
    reported; Nova writes the bound into the expression (``([a-z]{1,64})?``). Both match the
    same texts within the bound, and Nova's own tests compare the spelling.
    """
    _, _, regex, _, _, max_length = parameter
    if max_length is not None and regex.endswith("*") and re.fullmatch(r"\[[^\]]+\]\*", regex):
        regex = f"({regex[:-1]}{{1,{max_length}}})?"
    elif max_length is not None and re.fullmatch(r"\[[^\]]+\]\+", regex):
        regex = f"{regex[:-1]}{{1,{max_length}}}"
    return regex


def _template_regex(template: Template, names: Mapping[str, str] = MappingProxyType({})) -> str:
    """The template's expression through the one rule (:func:`template_regex`), each parameter
    spelled as Nova spells it; *names* renames parameters (onespec's name -> Nova's)."""
    return template_regex(
        part if isinstance(part, str) else (names.get(part[0], part[0]), _parameter_regex(part))
        for part in template
    )


def _parameters(record: SpecRecord, names: Mapping[str, str]) -> tuple[Mapping[str, Any], ...]:
    return tuple(
        MappingProxyType(
            {"name": names.get(part[0], part[0]), "pattern": part[2], "description": ""}
        )
        for part in (*record.prefix, *record.rest)
        if not isinstance(part, str)
    )


@functools.cache
def _descriptions() -> Mapping[str, tuple[str, str]]:
    """Every definition's description and its value's, read from the definitions on first access.

    The runtime's tables carry only what validation needs; importing the catalogue costs
    time and libraries a service should not pay for unless something asks for a description.
    """
    try:
        from onespec.definitions.registry import load
    except ImportError:  # the runtime installed without the definitions' libraries
        return {}
    return {
        definition.name: (definition.description, definition.value.description)
        for definition in load().definitions
    }


class _Value(Mapping[str, Any]):
    """A validator's ``value`` with Nova's keys, ``description`` read on first access only."""

    def __init__(self, name: str, fields: Mapping[str, Any], description: str | None) -> None:
        self._name = name
        self._fields = dict(fields)
        self._description = description

    def __getitem__(self, key: str) -> Any:
        if key == "description":
            if self._description is None:
                return _descriptions().get(self._name, ("", ""))[1]
            return self._description
        return self._fields[key]

    def __iter__(self) -> Iterator[str]:
        return iter([*self._fields, "description"])

    def __len__(self) -> int:
        return len(self._fields) + 1

    def __repr__(self) -> str:
        return f"{{{', '.join(f'{k!r}: {v!r}' for k, v in self._fields.items())}, ...}}"


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
    #: onespec's name of the definition, where Nova names it otherwise (:data:`NOVA_NAMES`).
    _onespec_name: str | None = field(default=None, repr=False, compare=False)
    #: The description of a definition that is not in onespec's catalogue (a Nova plugin's).
    _description: str | None = field(default=None, repr=False, compare=False)

    @property
    def description(self) -> str:
        if self._description is not None:
            return self._description
        return _descriptions().get(self._onespec_name or self.name, ("", ""))[0]

    def validate(self, name: str, value: str) -> None:
        """Check ``value`` for key ``name``, which must be one this definition governs."""
        if not isinstance(name, str) or not re.fullmatch(self.name_regex, name):
            raise _refusal(f"expected a name of format '{self.name}' but got '{name}'.")
        _check(self._registry or default_registry(), name, value)


def _validator(
    record: SpecRecord, registry: Registry, descriptions: Mapping[str, tuple[str, str]]
) -> NovaValidator:
    value: dict[str, Any] = {"type": _TYPES[record.type]}
    for key in ("min", "max", "pattern"):
        if getattr(record, key) is not None:
            value[key] = getattr(record, key)
    if record.enum:
        value["enum"] = list(record.enum)
    nova_name = NOVA_NAMES.get(record.name, record.name)
    names = dict(
        zip(_PLACEHOLDER.findall(record.name), _PLACEHOLDER.findall(nova_name), strict=True)
    )
    if ":" in record.name:
        name_regex = _template_regex(record.prefix, names) + ":"
        name_regex += _template_regex(record.rest, names)
    else:  # no namespace: the whole name is the rest (group_policy)
        name_regex = _template_regex(record.rest, names)
    own = descriptions.get(record.name)
    return NovaValidator(
        name=nova_name,
        value=_Value(record.name, value, own[1] if own else None),
        deprecated=record.status == "deprecated",
        parameters=_parameters(record, names),
        name_regex=name_regex,
        value_regex=record.pattern if record.type == "str" else None,
        _registry=registry,
        _onespec_name=record.name,
        _description=own[0] if own else None,
    )


def _novas_plugins() -> tuple[Any, ...]:
    """The entry points of Nova's group that are not Nova's own validator modules."""
    import importlib.metadata

    return tuple(
        entry_point
        for entry_point in importlib.metadata.entry_points(group=NOVA_ENTRY_POINT_GROUP)
        if not entry_point.value.startswith(_NOVAS_OWN)
    )


def with_novas_plugins(registry: Registry) -> tuple[Registry, Mapping[str, tuple[str, str]]]:
    """*registry* with the validators of Nova's plugins added, and their descriptions.

    A plugin is loaded as Nova loads it (its module's ``register()``), and its Nova-shaped
    validators read as onespec reads that shape. A plugin that fails to load, or a validator
    whose name the registry already governs, is logged and left out, as Nova logs a plugin it
    cannot load; the registry's own definitions always win.
    """
    plugins = _novas_plugins()
    if not plugins:
        return registry, {}
    from onespec.definitions.entry_points import load_entry_points, log_problems
    from onespec.validators_runtime.compiler import spec_record
    from onespec.validators_runtime.tables import build_tables

    sources, problems = load_entry_points(NOVA_ENTRY_POINT_GROUP, plugins)
    kept: dict[str, tuple[Any, str]] = {}
    refused = []
    for source in sources:
        for definition in source.definitions:
            if definition.name in kept or registry.lookup(definition.name) is not None:
                refused.append(f"{source.label}: {definition.name!r} is already defined; skipped")
                continue
            kept[definition.name] = (definition, source.label)
    log_problems(problems, LOG)
    for message in refused:
        LOG.warning("Nova extra-spec validator plugins: %s", message)
    if not kept:
        return registry, {}
    tables = build_tables(
        (*registry.tables.specs, *(spec_record(definition) for definition, _ in kept.values()))
    )
    extended = Registry(
        tables,
        sources={**registry.sources, **{name: label for name, (_, label) in kept.items()}},
        problems=(*registry.problems, *problems),
    )
    descriptions = {
        name: (definition.description, definition.value.description)
        for name, (definition, _) in kept.items()
    }
    return extended, descriptions


#: Nova's registry: every definition by name (``hw:numa_cpus.{id}``, ``resources{group}:VCPU``).
VALIDATORS: dict[str, NovaValidator] = {}
#: The regular expressions of the namespaces that definitions claim, spelt as Nova spells them.
NAMESPACES: set[str] = set()
_lock = threading.Lock()


def load_validators(registry: Registry | None = None) -> None:
    """Fill :data:`VALIDATORS` and :data:`NAMESPACES` from ``registry``.

    Without ``registry``: onespec's default one, with the validators of Nova's plugins
    (:func:`with_novas_plugins`). Nova calls its own ``load_validators()`` once at import; this
    one runs at import too, and again whenever called, replacing the contents in place so
    references others hold stay live.
    """
    descriptions: Mapping[str, tuple[str, str]] = {}
    if registry is None:
        registry, descriptions = with_novas_plugins(default_registry())
    records = [SpecRecord._make(record) for record in registry.tables.specs]
    validators = {
        validator.name: validator
        for validator in (_validator(record, registry, descriptions) for record in records)
    }
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
    # Nova's exception class declares no findings; the refusal carries them for its callers.
    refusal.findings = error.findings if error else ()  # type: ignore[attr-defined]
    return refusal


def _check(registry: Registry, name: Any, value: Any) -> None:
    try:
        registry.validate({name: value}, mode="strict", between_keys=False)
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


def _object_fields(flavor: Any) -> dict[str, Any]:
    """The fields of Nova's ``Flavor`` object that are set. An unset field is left out rather
    than read: reading it would make the object lazy-load it from the database, which a flavor
    being built (or one without a context) cannot do."""
    is_set = getattr(flavor, "obj_attr_is_set", None)
    fields = {}
    for name in _FLAVOR_FIELDS:
        if is_set is not None and not is_set(name):
            continue
        value = getattr(flavor, name, None)
        if value is not None:
            fields[name] = value
    return fields


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
        flavor = _object_fields(flavor)
    findings = validate_flavor(flavor, image)
    errors = [f for f in findings if f.severity == "error"]
    if errors:
        detail = " ".join(f"{f.message} ({f.nova_exception}, {f.phase})" for f in errors)
        refusal = _refusal(detail)
        # Nova's exception class declares no findings; the refusal carries them for its callers.
        refusal.findings = tuple(findings)  # type: ignore[attr-defined]
        raise refusal
    return findings


__all__ = [
    "NAMESPACES",
    "NOVA_ENTRY_POINT_GROUP",
    "NOVA_NAMES",
    "VALIDATORS",
    "NovaValidator",
    "load_validators",
    "validate",
    "validate_whole_flavor",
    "with_novas_plugins",
]
