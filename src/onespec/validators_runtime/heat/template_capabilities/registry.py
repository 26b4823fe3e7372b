"""The one walker of a ``resource_registry``: every part that reads, rewrites or checks a registry
goes through it, so that ``base_url`` and the keys Heat reserves are handled once.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from onespec.validators_runtime.heat.hot_loader import (
    Loaded,
)
from onespec.validators_runtime.heat.template_capabilities.model import (
    BASE_URL,
    LIST_KEYS,
    kind_of,
    section_error,
)
from onespec.validators_runtime.heat.template_capabilities.paths import (
    join_base,
    local_path,
)

RegistryEntry = tuple[tuple[str, ...], Any]

#: What :func:`walk` yields for a nested mapping, before the entries inside it.
MAPPING = object()


def walk(
    registry: Mapping[Any, Any], prefix: tuple[str, ...] = (), base: str | None = None
) -> Iterator[tuple[tuple[str, ...], Any, Any, str | None]]:
    """Every entry of a ``resource_registry``, depth first and in order.

    Yields ``(key path, key, value, base_url in force)``; a nested mapping is yielded once with
    the value :data:`MAPPING`, then its entries. ``base_url`` itself is not an entry (it is
    applied to the entries below it); the keys Heat reserves for lists (``hooks``, ...) are
    yielded as they are, not descended into.
    """
    here = registry.get(BASE_URL)
    if isinstance(here, str):
        base = join_base(base, here)
    for key, value in registry.items():
        if key == BASE_URL:
            continue
        path = (*prefix, str(key))
        if key not in LIST_KEYS and isinstance(value, Mapping):
            yield path, key, MAPPING, base
            yield from walk(value, path, base)
        else:
            yield path, key, value, base


def _reserved(key: Any) -> bool:
    return key in LIST_KEYS


def _is_path_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _bad_entry(path: tuple[str, ...], value: Any) -> str:
    return (
        f"resource_registry {'/'.join(path)} must be a template path, a resource "
        "type, null, a mapping or a non-empty list of template paths, not "
        f"{kind_of(value)}"
    )


def registry_entries(
    registry: Mapping[Any, Any], loaded: Loaded | None
) -> tuple[list[RegistryEntry], list[tuple[int | None, tuple[str, ...], str]]]:
    """Flatten a ``resource_registry`` into (key path, value) pairs, values against base_url;
    and the entries that are none of those, as (line, key path, message)."""
    entries: list[RegistryEntry] = []
    errors: list[tuple[int | None, tuple[str, ...], str]] = []
    for path, key, value, base in walk(registry):
        if value is MAPPING or _reserved(key):
            continue
        if value is None:
            entries.append((path, None))
        elif isinstance(value, str):
            entries.append((path, join_base(base, value)))
        elif _is_path_list(value):
            entries.append((path, [join_base(base, v) for v in value]))
        else:
            line = loaded.line("resource_registry", *path) if loaded else None
            errors.append((line, path, _bad_entry(path, value)))
    return entries, errors


def deep_update(old: dict[Any, Any], new: Mapping[Any, Any]) -> dict[Any, Any]:
    """Merge ``new`` into ``old`` as the Heat client merges environment files.

    Mappings merge key by key, recursively; anything else replaces; a null never replaces a
    mapping (``python-heatclient``'s ``template_utils.deep_update``).
    """
    for key, value in new.items():
        if isinstance(value, Mapping):
            current = old.get(key)
            old[key] = deep_update(current if isinstance(current, dict) else {}, value)
        elif value is None and isinstance(old.get(key), Mapping):
            continue
        else:
            old[key] = value
    return old


def absolute_registry(registry: Mapping[Any, Any], loaded: Loaded, folder: str) -> dict[str, Any]:
    """A registry with every local path absolute (read against the file and any base_url)."""

    def resolve_value(value: str, base: str | None) -> str:
        joined = join_base(base, value)
        local = local_path(joined)
        if local is None:
            return joined
        return os.path.normpath(os.path.join(folder, local))

    result: dict[Any, Any] = {}
    parents: list[dict[Any, Any]] = [result]
    for path, key, value, base in walk(registry):
        parent = parents[len(path) - 1]
        if value is MAPPING:
            parent[key] = {}
            parents[len(path) :] = [parent[key]]
        elif _reserved(key):
            parent[key] = copy.deepcopy(value)
        elif value is None:
            parent[key] = None
        elif isinstance(value, str):
            parent[key] = resolve_value(value, base)
        elif _is_path_list(value):
            parent[key] = [resolve_value(v, base) for v in value]
        else:
            raise section_error(_bad_entry(path, value), loaded, "resource_registry", *path)
    return result


def list_entries(registry: Mapping[Any, Any]) -> Iterator[Any]:
    """The entries that map a key to a list of templates: (key path, the list)."""
    for path, key, value, _base in walk(registry):
        if isinstance(value, list) and not _reserved(key):
            yield path, value


def lookup_entry(registry: Mapping[Any, Any], path: Sequence[str]) -> Any:
    node: Any = registry
    for key in path:
        if not isinstance(node, Mapping) or key not in node:
            return None
        node = node[key]
    return node


def assign_entry(registry: dict[Any, Any], path: Sequence[str], value: Any) -> None:
    node = registry
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
