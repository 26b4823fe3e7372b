"""The reader idioms: functions that build an extra-spec key from an argument and a prefix.

A service rarely spells every key it reads. Nova's ``_get_flavor_image_meta('cpu_policy', ...)``
reads the extra spec ``hw:cpu_policy`` and the image property ``hw_cpu_policy``. Such functions
are declared here, as data, rather than guessed; a project adds its own with ``--idioms FILE``
(YAML: a list of mappings with the fields of :class:`ReaderIdiom`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from onespec.errors import OnespecError
from onespec.validators_runtime import inputs, yaml_limits
from onespec.validators_runtime.cli_grammar import empty_input, yaml_message


@dataclass(frozen=True)
class ReaderIdiom:
    """A function whose argument names part of a key.

    ``function`` is the called name (a plain name or the last attribute); ``argument`` the
    position of the key part (or ``keyword``); ``prefix_keyword`` an argument that overrides
    ``prefix``; ``extra_spec`` and ``image_property`` are templates of what is read, with
    ``{prefix}`` and ``{key}`` (empty: not read). ``returns`` lists, for a call whose result is
    unpacked, which element holds which read ("extra_spec" / "image_property"), so comparisons
    of those names are checked against the key's enum.
    """

    function: str
    argument: int = 0
    keyword: str = "key"
    prefix: str = ""
    prefix_keyword: str = ""
    extra_spec: str = "{prefix}:{key}"
    image_property: str = ""
    returns: tuple[str, ...] = ("extra_spec",)


@dataclass(frozen=True)
class PrefixReader:
    """Code that reads every key under a prefix (a loop over the flavor's extra specs)."""

    prefix: str
    why: str = ""


#: Nova's idioms, in ``nova/virt/hardware.py``.
DEFAULT_IDIOMS: tuple[ReaderIdiom, ...] = (
    ReaderIdiom(
        "_get_flavor_image_meta",
        prefix="hw",
        prefix_keyword="prefix",
        image_property="{prefix}_{key}",
        returns=("extra_spec", "image_property"),
    ),
    ReaderIdiom(
        "_get_unique_flavor_image_meta",
        prefix="hw",
        prefix_keyword="prefix",
        image_property="{prefix}_{key}",
        returns=("extra_spec",),
    ),
    # _get_constraint_mappings_from_flavor(flavor, 'hw:numa_cpus', ...) reads hw:numa_cpus.N
    ReaderIdiom(
        "_get_constraint_mappings_from_flavor",
        argument=1,
        keyword="key",
        extra_spec="{key}.{{}}",
    ),
)

#: Prefixes Nova reads by iterating over the extra specs rather than by name.
DEFAULT_PREFIXES: tuple[PrefixReader, ...] = (
    PrefixReader("resources", "the scheduler's ResourceRequest matches every resources*: key"),
    PrefixReader("trait", "the scheduler's ResourceRequest matches every trait*: key"),
    PrefixReader(
        "aggregate_instance_extra_specs:",
        "AggregateInstanceExtraSpecsFilter compares every key of its scope with the aggregate's",
    ),
    PrefixReader(
        "capabilities:", "ComputeCapabilitiesFilter compares every key with the host's state"
    ),
)

#: Literals in an extra-spec namespace that are not extra specs (API body keys, ...).
DEFAULT_NOT_KEYS: tuple[str, ...] = ("os:scheduler_hints",)


class IdiomYAMLError(OnespecError):
    """The idiom file is not valid YAML (invalid input, not a usage error)."""


class IdiomFileError(OnespecError, ValueError):
    """An idioms file that holds something else than idioms (invalid input); the message names
    the file and the entry. A file that cannot be read raises the reader's
    :class:`~onespec.validators_runtime.inputs.InputError`."""


@dataclass(frozen=True)
class IdiomTable:
    """What an idioms file adds."""

    idioms: tuple[ReaderIdiom, ...]
    prefixes: tuple[PrefixReader, ...]
    not_keys: tuple[str, ...]


#: The largest idiom file read, in bytes: a table of a few hundred idioms is a few kilobytes.
MAX_IDIOMS_FILE_SIZE = 1 << 20


def load_file(path: Path) -> IdiomTable:
    """A YAML file ``{idioms: [...], prefixes: [...], not_keys: [...]}``."""
    text = inputs.read_text(path, limit=MAX_IDIOMS_FILE_SIZE)
    if str(path) == "-":  # named in messages as every reader names standard input
        path = Path(inputs.STDIN_NAME)
    if inputs.blank(text.encode("utf-8")):  # standard input; a named file was checked before
        raise IdiomYAMLError(str(empty_input(str(path)).message))
    try:
        loader = yaml_limits.counting_loader(str(path))
        data = yaml.load(text, Loader=loader) or {}  # noqa: S506 - a counting safe loader
    except (yaml.YAMLError, yaml_limits.YAMLLimitError) as error:
        raise IdiomYAMLError(yaml_message(error, str(path))) from None
    except ValueError as error:  # an integer past Python's digit limit
        raise IdiomFileError(f"{path}: not an idiom file: {str(error).split(':')[0]}") from None
    if not isinstance(data, Mapping):
        raise IdiomFileError(f"{path}:1: expected a mapping with 'idioms' and 'prefixes'")
    idioms = tuple(
        _entry(path, "idioms", i, raw, ReaderIdiom)
        for i, raw in enumerate(_list(path, data, "idioms"))
    )
    prefixes = tuple(
        _entry(path, "prefixes", i, raw, PrefixReader)
        for i, raw in enumerate(_list(path, data, "prefixes"))
    )
    not_keys = tuple(str(item) for item in _list(path, data, "not_keys"))
    unknown = sorted(set(data) - {"idioms", "prefixes", "not_keys"})
    if unknown:
        raise IdiomFileError(
            f"{path}: unknown sections {unknown}; expected idioms, prefixes, not_keys"
        )
    return IdiomTable(idioms, prefixes, not_keys)


def _list(path: Path, data: Mapping[str, Any], field: str) -> Sequence[Any]:
    value = data.get(field, [])
    if not isinstance(value, list):
        raise IdiomFileError(f"{path}: {field} must be a list, not {value!r}")
    return value


def _entry(path: Path, field: str, index: int, raw: Any, kind: type) -> Any:
    if not isinstance(raw, Mapping):
        raise IdiomFileError(f"{path}: {field}[{index}] must be a mapping, not {raw!r}")
    values = dict(raw)
    if "returns" in values:
        values["returns"] = tuple(values["returns"])
    try:
        return kind(**values)
    except TypeError as error:
        raise IdiomFileError(f"{path}: {field}[{index}]: {error}") from None
