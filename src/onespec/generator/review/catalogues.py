"""Which definitions an audit compares against: ``in-tree``, ``nova`` or an entry point's name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from onespec.definitions.entry_points import PluginProblem, load_entry_points
from onespec.definitions.model import ExtraSpec
from onespec.errors import OnespecError
from onespec.generator.review import nova_catalogue
from onespec.validators_runtime.problems import Problem


class CatalogueError(OnespecError, ValueError):
    """A catalogue that cannot be loaded: unknown name, no Nova tree, a broken plugin."""


@dataclass(frozen=True)
class Catalogue:
    """Definitions, where each was defined (when known), the files that define them, notes."""

    label: str
    definitions: tuple[ExtraSpec, ...]
    origins: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    defining_files: tuple[Path, ...] = ()
    notes: tuple[Problem, ...] = ()


def load(name: str, sources: Sequence[Path]) -> Catalogue:
    """The catalogue *name*: ``in-tree``, ``nova`` (read from *sources*) or an entry point."""
    if name == "in-tree":
        from onespec.definitions import registry

        return Catalogue("the in-tree catalogue", registry.in_tree())
    if name == "nova":
        root = nova_catalogue.find_root(sources)
        if root is None:
            raise CatalogueError(
                "--catalogue nova: no nova/api/validation/extra_specs/ in or above the sources"
            )
        try:
            nova = nova_catalogue.load(root)
        except nova_catalogue.NovaTreeError as error:
            raise CatalogueError(f"--catalogue nova: {error}") from None
        return Catalogue(
            f"Nova's validators in {root}",
            nova.definitions,
            nova.origins,
            nova.modules,
            nova.notes,
        )
    plugins, problems = load_entry_points()
    chosen = [plugin for plugin in plugins if plugin.entry_point == name]
    broken = [problem for problem in problems if f"{name!r}" in problem.source]
    if not chosen:
        known = ", ".join(sorted(p.entry_point for p in plugins)) or "none installed"
        detail = f" ({_problems(broken)})" if broken else ""
        raise CatalogueError(
            f"--catalogue {name}: not in-tree, nova, nor an onespec.extra_specs entry point "
            f"(entry points: {known}){detail}"
        )
    return Catalogue(chosen[0].label, tuple(chosen[0].definitions))


def _problems(problems: Sequence[PluginProblem]) -> str:
    return "; ".join(str(problem) for problem in problems)
