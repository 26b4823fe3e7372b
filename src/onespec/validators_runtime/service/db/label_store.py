"""The plugin labels each project stored, in the service's database (the ``plugins`` table).

It implements :class:`~onespec.validators_runtime.plugin_labels.store.LabelStore`, the protocol
the label manager uses; the runtime's in-memory store implements the same one.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from onespec.validators_runtime.plugin_labels.store import StoredLabels
from onespec.validators_runtime.service.db.engine import insert_if_absent, write_transaction
from onespec.validators_runtime.service.db.tables import PLUGINS


def _stored(row: Any) -> StoredLabels:
    return {"plugin_labels": row.plugin_labels or {}, "version_labels": row.version_labels or {}}


class PluginStore:
    """The ``plugins`` table: one row per project and plugin, holding the labels it changed."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._columns = (PLUGINS.c.name, PLUGINS.c.plugin_labels, PLUGINS.c.version_labels)

    def labels_for(self, tenant_id: str) -> dict[str, StoredLabels]:
        query = sa.select(*self._columns).where(PLUGINS.c.tenant_id == tenant_id)
        with self.engine.connect() as connection:
            return {row.name: _stored(row) for row in connection.execute(query)}

    def labels(self, tenant_id: str, name: str) -> StoredLabels | None:
        query = sa.select(*self._columns).where(
            PLUGINS.c.tenant_id == tenant_id, PLUGINS.c.name == name
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else _stored(row)

    def update(
        self, tenant_id: str, name: str, change: Callable[[StoredLabels | None], StoredLabels]
    ) -> StoredLabels:
        where = (PLUGINS.c.tenant_id == tenant_id, PLUGINS.c.name == name)
        with write_transaction(self.engine) as connection:
            insert_if_absent(
                connection,
                PLUGINS,
                {
                    "id": str(uuid.uuid4()),
                    "tenant_id": tenant_id,
                    "name": name,
                    "plugin_labels": {},
                    "version_labels": {},
                },
                ["tenant_id", "name"],
            )
            row = connection.execute(
                sa.select(PLUGINS.c.id, *self._columns).where(*where).with_for_update()
            ).one()
            new = change(_stored(row))
            connection.execute(
                sa.update(PLUGINS)
                .where(PLUGINS.c.id == row.id)
                .values(plugin_labels=new["plugin_labels"], version_labels=new["version_labels"])
            )
        return new
