"""Definitions that other packages publish, found through entry points once, in a fixed order.

An out-of-tree package names a list of definitions (or a callable or module returning one) in the
``onespec.extra_specs`` entry-point group. Loading them must never break the in-tree catalogue:
every failure becomes a :class:`PluginProblem` that ``onespec definitions doctor`` reports.
:func:`load_group` is the project's one entry-point loader: plugins (``onespec.plugins``) are
loaded through it too. Standard library only (``importlib.metadata`` is imported when plugins
are loaded, not before).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from onespec.definitions.model import DefinitionError, ExtraSpec
from onespec.definitions.nova_shape import coerce_definition
from onespec.errors import OnespecError

if TYPE_CHECKING:  # importlib.metadata is slow to import; only loading plugins needs it
    import importlib.metadata

LOG = logging.getLogger(__name__)

T = TypeVar("T")

#: The entry-point group in which out-of-tree packages publish extra-spec definitions.
ENTRY_POINT_GROUP = "onespec.extra_specs"

ProblemKind = Literal["import-error", "malformed", "clash"]


@dataclass(frozen=True)
class PluginProblem:
    """Something wrong with an out-of-tree source; never fatal for the in-tree catalogue."""

    source: str
    kind: ProblemKind
    message: str
    name: str | None = None

    def __str__(self) -> str:
        return f"{self.source}: {self.message}"


@dataclass(frozen=True)
class PluginSource:
    """The definitions one entry point contributed, with where they came from."""

    entry_point: str
    target: str
    distribution: str | None
    definitions: tuple[ExtraSpec, ...]

    @property
    def label(self) -> str:
        return describe_entry_point(self.entry_point, self.target, self.distribution)


def describe_entry_point(name: str, target: str, distribution: str | None) -> str:
    """How an entry point is named in every report: ``entry point 'x' (pkg.mod:V) from dist``."""
    text = f"entry point {name!r} ({target})"
    if distribution:
        text += f" from {distribution}"
    return text


def _distribution_label(entry_point: importlib.metadata.EntryPoint) -> str | None:
    dist = getattr(entry_point, "dist", None)
    if dist is None:
        return None
    try:
        return f"{dist.metadata['Name']} {dist.version}"
    except Exception:  # a broken METADATA file must not hide the rest of the report
        return None


@dataclass(frozen=True)
class Published(Generic[T]):
    """What one entry point published, once loaded and checked, and where it came from."""

    entry_point: str
    target: str
    distribution: str | None
    value: T

    @property
    def label(self) -> str:
        return describe_entry_point(self.entry_point, self.target, self.distribution)


def load_group(
    group: str,
    *,
    build: Callable[[Any], Any],
    check: Callable[[Any, str], T],
    malformed: tuple[type[Exception], ...],
    entry_points: Iterable[importlib.metadata.EntryPoint] | None = None,
) -> tuple[tuple[Published[T], ...], tuple[PluginProblem, ...]]:
    """Load every entry point of ``group``, in a fixed order; the one loader of the project.

    Entry points are read by name, then target, so precedence between two packages does not
    depend on the order of ``sys.path``. For each, ``build`` turns the loaded object into what
    it stands for (calls a factory, instantiates a class) and ``check(value, label)`` reads it;
    an entry point that fails is reported and skipped whole, so a half-loaded package never
    changes what onespec accepts: ``malformed`` errors of ``check`` as ``malformed``, any other
    failure as ``import-error``.
    """
    if entry_points is None:
        import importlib.metadata

        entry_points = importlib.metadata.entry_points(group=group)
    loaded: list[Published[T]] = []
    problems: list[PluginProblem] = []
    for entry_point in sorted(entry_points, key=lambda ep: (ep.name, ep.value)):
        distribution = _distribution_label(entry_point)
        label = describe_entry_point(entry_point.name, entry_point.value, distribution)
        try:
            built = build(entry_point.load())
            try:
                value = check(built, label)
            except malformed as exc:
                problems.append(PluginProblem(label, "malformed", str(exc)))
                continue
        except Exception as exc:
            problems.append(
                PluginProblem(label, "import-error", f"failed to load: {type(exc).__name__}: {exc}")
            )
            continue
        loaded.append(Published(entry_point.name, entry_point.value, distribution, value))
    return tuple(loaded), tuple(problems)


class _Malformed(OnespecError):
    """An entry point names something that is not a list of definitions."""


def _definitions_from_target(target: Any) -> Any:
    if callable(target) and not isinstance(target, type):
        return target()
    register = getattr(target, "register", None)
    if callable(register):  # a module with register(), as Nova's own plugins are written
        return register()
    return target


def _definitions(raw: Any, label: str) -> tuple[ExtraSpec, ...]:
    if isinstance(raw, str | bytes | Mapping) or not isinstance(raw, Iterable):
        raise _Malformed(f"names {type(raw).__name__}, not a list")
    return tuple(coerce_definition(item) for item in raw)


def load_entry_points(
    group: str = ENTRY_POINT_GROUP,
    entry_points: Iterable[importlib.metadata.EntryPoint] | None = None,
) -> tuple[tuple[PluginSource, ...], tuple[PluginProblem, ...]]:
    """Import every entry point of ``group`` and coerce what each names into definitions.

    Each entry point names a list of definitions (or a callable, or a module with ``register()``,
    returning one). An entry point that fails to import or holds anything malformed is reported and
    skipped whole (:func:`load_group`).
    """
    loaded, problems = load_group(
        group,
        build=_definitions_from_target,
        check=_definitions,
        malformed=(_Malformed, DefinitionError, TypeError),
        entry_points=entry_points,
    )
    sources = tuple(
        PluginSource(item.entry_point, item.target, item.distribution, item.value)
        for item in loaded
    )
    return sources, problems


def merge_out_of_tree(
    in_tree_names: Iterable[str],
    sources: Iterable[PluginSource],
) -> tuple[tuple[tuple[ExtraSpec, str], ...], tuple[PluginProblem, ...]]:
    """Keep the out-of-tree definitions that do not clash, each with the label of its source.

    In-tree definitions win every clash; between two plugins the first in the fixed order wins.
    """
    taken: dict[str, str] = {name: "the in-tree catalogue" for name in in_tree_names}
    accepted: list[tuple[ExtraSpec, str]] = []
    problems: list[PluginProblem] = []
    for source in sources:
        for definition in source.definitions:
            owner = taken.get(definition.name)
            if owner is not None:
                problems.append(
                    PluginProblem(
                        source.label,
                        "clash",
                        f"defines {definition.name!r}, which {owner} already defines; "
                        "the existing definition is kept",
                        definition.name,
                    )
                )
                continue
            taken[definition.name] = source.label
            accepted.append((definition, source.label))
    return tuple(accepted), tuple(problems)


def log_problems(problems: Iterable[PluginProblem], logger: logging.Logger = LOG) -> None:
    """Report each out-of-tree problem once, as a warning naming its entry point."""
    for problem in problems:
        logger.warning("Out-of-tree extra-spec definitions: %s", problem)
