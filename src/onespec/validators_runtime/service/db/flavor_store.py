"""Flavor extra specs in the service's database: one row per flavor and key.

Flavors themselves are not modelled: any flavor ID has an empty set of extra specs until some
are stored. Writes to one flavor are serialised (a transaction-scoped advisory lock on
PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite), so a replacement never interleaves with another
write to the same flavor.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from onespec.validators_runtime.service.db.engine import write_transaction
from onespec.validators_runtime.service.db.tables import FLAVOR_EXTRA_SPECS

# The first key of PostgreSQL's two-key advisory locks taken for flavor writes ("onespec").
_LOCK_SPACE = 0x6F6E6573

_TABLE = FLAVOR_EXTRA_SPECS
_COLUMNS = _TABLE.c


def _lock(connection: Connection, flavor_id: str) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(
            sa.select(sa.func.pg_advisory_xact_lock(_LOCK_SPACE, sa.func.hashtext(flavor_id)))
        )


def _upsert(connection: Connection, flavor_id: str, specs: Mapping[str, str]) -> None:
    if not specs:
        return
    rows = [{"flavor_id": flavor_id, "key": key, "value": value} for key, value in specs.items()]
    dialect = connection.dialect.name
    if dialect in {"postgresql", "sqlite"}:
        module = postgresql if dialect == "postgresql" else sqlite
        statement = module.insert(_TABLE)
        connection.execute(
            statement.on_conflict_do_update(
                index_elements=["flavor_id", "key"], set_={"value": statement.excluded.value}
            ),
            rows,
        )
        return
    keys = list(specs)  # pragma: no cover - only SQLite and PostgreSQL are supported
    connection.execute(
        sa.delete(_TABLE).where(_COLUMNS.flavor_id == flavor_id, _COLUMNS.key.in_(keys))
    )
    connection.execute(sa.insert(_TABLE), rows)


#: Called inside a write, under the flavor's lock, with the extra specs before and after it;
#: raising aborts the write (nothing is stored). Concurrent writes to one flavor are
#: serialised, so what it is shown is what the write changes.
Vet = Callable[[Mapping[str, str], Mapping[str, str]], None]


def _current(connection: Connection, flavor_id: str) -> dict[str, str]:
    query = sa.select(_COLUMNS.key, _COLUMNS.value).where(_COLUMNS.flavor_id == flavor_id)
    return {row.key: row.value for row in connection.execute(query)}


class FlavorSpecStore:
    """Read and write the extra specs of flavors."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def all(self, flavor_id: str) -> dict[str, str]:
        """Every extra spec of a flavor, by key, in key order."""
        query = (
            sa.select(_COLUMNS.key, _COLUMNS.value)
            .where(_COLUMNS.flavor_id == flavor_id)
            .order_by(_COLUMNS.key)
        )
        with self.engine.connect() as connection:
            return {row.key: row.value for row in connection.execute(query)}

    def get(self, flavor_id: str, key: str) -> str | None:
        """One extra spec's value, or None."""
        query = sa.select(_COLUMNS.value).where(
            _COLUMNS.flavor_id == flavor_id, _COLUMNS.key == key
        )
        with self.engine.connect() as connection:
            return connection.execute(query).scalar_one_or_none()

    def merge(self, flavor_id: str, specs: Mapping[str, str], vet: Vet | None = None) -> None:
        """Set these extra specs, keeping the flavor's others."""
        with write_transaction(self.engine) as connection:
            _lock(connection, flavor_id)
            if vet is not None:
                before = _current(connection, flavor_id)
                vet(before, {**before, **specs})
            _upsert(connection, flavor_id, specs)

    def replace(self, flavor_id: str, specs: Mapping[str, str], vet: Vet | None = None) -> None:
        """Make these the flavor's only extra specs."""
        with write_transaction(self.engine) as connection:
            _lock(connection, flavor_id)
            if vet is not None:
                vet(_current(connection, flavor_id), specs)
            connection.execute(sa.delete(_TABLE).where(_COLUMNS.flavor_id == flavor_id))
            _upsert(connection, flavor_id, specs)

    def delete(self, flavor_id: str, key: str, vet: Vet | None = None) -> bool:
        """Delete one extra spec; False when there was none."""
        with write_transaction(self.engine) as connection:
            _lock(connection, flavor_id)
            if vet is not None:
                before = _current(connection, flavor_id)
                if key not in before:
                    return False
                vet(before, {k: v for k, v in before.items() if k != key})
            result = connection.execute(
                sa.delete(_TABLE).where(_COLUMNS.flavor_id == flavor_id, _COLUMNS.key == key)
            )
        return bool(result.rowcount)
