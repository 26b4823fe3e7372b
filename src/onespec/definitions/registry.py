"""Every extra-spec definition onespec knows of: the in-tree catalogue, then out-of-tree ones.

Out-of-tree packages publish definitions in the ``onespec.extra_specs`` entry-point group. They
rank below the in-tree catalogue: a name the catalogue already defines is kept as the catalogue
has it, and the clash is reported. A plugin that fails to import, or publishes anything malformed,
is reported with its entry point's name and skipped whole; it never breaks the in-tree set.

The registry is built once per process, on first use.
"""

from __future__ import annotations

import functools
import logging
from collections import Counter
from dataclasses import dataclass
from typing import cast

from onespec.definitions import extra_specs as catalogue
from onespec.definitions.entry_points import (
    ENTRY_POINT_GROUP,
    PluginProblem,
    PluginSource,
    load_entry_points,
    log_problems,
    merge_out_of_tree,
)
from onespec.definitions.model import DefinitionError, ExtraSpec, Namespace

LOG = logging.getLogger(__name__)

#: How the in-tree catalogue is named as a source.
IN_TREE = "the in-tree catalogue"


@dataclass(frozen=True)
class Registry:
    """The definitions in precedence order, where each came from, and what went wrong."""

    definitions: tuple[ExtraSpec, ...]
    namespaces: tuple[Namespace, ...]
    sources: dict[str, str]
    plugins: tuple[PluginSource, ...]
    problems: tuple[PluginProblem, ...]

    @property
    def in_tree(self) -> tuple[ExtraSpec, ...]:
        return tuple(d for d in self.definitions if self.sources[d.name] == IN_TREE)

    def by_namespace(self, namespace: str) -> tuple[ExtraSpec, ...]:
        """The definitions of one namespace, in precedence order."""
        return tuple(d for d in self.definitions if d.namespace == namespace)


@functools.cache
def in_tree() -> tuple[ExtraSpec, ...]:
    """The in-tree catalogue, checked for names defined twice."""
    definitions = catalogue.extra_specs()
    counts = Counter(d.name for d in definitions)
    twice = sorted(name for name, count in counts.items() if count > 1)
    if twice:
        raise DefinitionError(f"the in-tree catalogue defines {', '.join(twice)} more than once")
    return definitions


def build(group: str = ENTRY_POINT_GROUP) -> Registry:
    """Collect the in-tree catalogue and the out-of-tree definitions of ``group``, afresh."""
    own = in_tree()
    plugins, problems = load_entry_points(group)
    accepted, clashes = merge_out_of_tree((d.name for d in own), plugins)
    problems = (*problems, *clashes)
    log_problems(problems, LOG)
    sources = {d.name: IN_TREE for d in own}
    sources.update({d.name: label for d, label in accepted})
    own_namespaces = catalogue.namespaces()
    known = {namespace.name for namespace in own_namespaces}
    extra_namespaces = tuple(
        Namespace(name, name, "")
        # Derived from the name when not given (ExtraSpec.__post_init__): a string by now.
        for name in dict.fromkeys(cast(str, d.namespace) for d, _ in accepted)
        if name not in known
    )
    return Registry(
        definitions=(*own, *(d for d, _ in accepted)),
        namespaces=(*own_namespaces, *extra_namespaces),
        sources=sources,
        plugins=plugins,
        problems=problems,
    )


@functools.cache
def load() -> Registry:
    """The registry of this process, built on first use."""
    return build()
