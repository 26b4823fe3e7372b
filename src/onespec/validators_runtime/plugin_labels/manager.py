"""The label manager: the loaded plugins, merged with what each project stored."""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from typing import Any

from onespec.validators_runtime.plugin_labels import labels
from onespec.validators_runtime.plugin_labels.labels import PluginNotFound
from onespec.validators_runtime.plugin_labels.model import PluginInfo
from onespec.validators_runtime.plugin_labels.store import LabelStore, MemoryStore


class LabelManager:
    """Plugins and their labels, per project (``tenant_id``, the project of the request).

    Views are shaped as the API returns them (see
    :func:`~onespec.validators_runtime.plugin_labels.labels.plugin_view`); updates are validated
    whole before anything is written, and written in one transaction.
    """

    def __init__(self, plugins: Iterable[PluginInfo], store: LabelStore | None = None) -> None:
        self.plugins: dict[str, PluginInfo] = {}
        for info in plugins:
            if info.name in self.plugins:
                raise ValueError(f"the plugin {info.name!r} is given twice")
            self.plugins[info.name] = info
        self.store: LabelStore = store if store is not None else MemoryStore()

    def plugin(self, name: str) -> PluginInfo:
        """The loaded plugin called ``name``; raises :class:`PluginNotFound`."""
        info = self.plugins.get(name)
        if info is None:
            raise PluginNotFound(name, self.plugins)
        return info

    def list(self, tenant_id: str) -> list[dict[str, Any]]:
        """Every plugin, hidden ones included, in name order."""
        stored = self.store.labels_for(tenant_id)
        return [
            labels.plugin_view(info, stored.get(name))
            for name, info in sorted(self.plugins.items())
        ]

    def show(self, tenant_id: str, name: str, version: str | None = None) -> dict[str, Any]:
        """One plugin (and with ``version``, that version alone)."""
        info = self.plugin(name)
        if version is not None and version not in info.versions:
            raise labels.VersionNotFound(name, version, info.versions)
        return labels.plugin_view(info, self.store.labels(tenant_id, name), version=version)

    def update(self, tenant_id: str, name: str, body: Any) -> dict[str, Any]:
        """Apply a PATCH body whole and return the plugin's new view.

        Raises :class:`~onespec.validators_runtime.plugin_labels.labels.LabelUpdateError` without
        changing anything when any part of the body is refused.
        """
        info = self.plugin(name)
        update = labels.validate_update(info, body)
        if not update.plugin and not update.versions:
            return labels.plugin_view(info, self.store.labels(tenant_id, name))
        stored = self.store.update(
            tenant_id, name, lambda current: labels.apply_update(current, update)
        )
        return labels.plugin_view(info, stored)

    def check_cluster_operation(
        self, tenant_id: str, name: str, version: str, operation: str
    ) -> builtins.list[str]:  # ``list`` in this class is the method above
        """:func:`~onespec.validators_runtime.plugin_labels.labels.check_cluster_operation` for one
        project."""
        return labels.check_cluster_operation(self.show(tenant_id, name), version, operation)
