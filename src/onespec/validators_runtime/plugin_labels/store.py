"""Where the labels each project set are kept: the protocol, and a store in memory.

The label manager works against :class:`LabelStore`; the service supplies one backed by its
database (:mod:`onespec.validators_runtime.service.db.label_store`), while tools and tests use
:class:`MemoryStore`, so that the runtime needs no database library.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

#: What a project stored for one plugin: ``{"plugin_labels": {...}, "version_labels": {...}}``.
StoredLabels = dict[str, Any]


class LabelStore(Protocol):
    """Where the labels each project set are kept."""

    def labels_for(self, tenant_id: str) -> dict[str, StoredLabels]:
        """Every plugin's stored labels for one project, by plugin name."""
        ...

    def labels(self, tenant_id: str, name: str) -> StoredLabels | None:
        """One plugin's stored labels for one project, or None when it stored none."""
        ...

    def update(
        self, tenant_id: str, name: str, change: Callable[[StoredLabels | None], StoredLabels]
    ) -> StoredLabels:
        """Replace one plugin's stored labels by ``change(current)``, atomically."""
        ...


class MemoryStore:
    """Stored labels in a dict, for tools and tests that need no database."""

    def __init__(self) -> None:
        self._rows: dict[tuple[str, str], StoredLabels] = {}
        self._lock = threading.Lock()

    def labels_for(self, tenant_id: str) -> dict[str, StoredLabels]:
        with self._lock:
            return {name: row for (tenant, name), row in self._rows.items() if tenant == tenant_id}

    def labels(self, tenant_id: str, name: str) -> StoredLabels | None:
        with self._lock:
            return self._rows.get((tenant_id, name))

    def update(
        self, tenant_id: str, name: str, change: Callable[[StoredLabels | None], StoredLabels]
    ) -> StoredLabels:
        with self._lock:
            new = change(self._rows.get((tenant_id, name)))
            self._rows[tenant_id, name] = new
            return new
