"""The SQL store: the database's tables, engines, and the labels each project stored.

SQLite (a file; the default) and PostgreSQL are supported and tested. The schema is created and
upgraded by the migrations in :mod:`validators_runtime.api.migrations` (``onespec db upgrade``);
:data:`METADATA` describes what they build, and a test keeps the two equal.

Writes are read-modify-write under a lock, so concurrent updates of one plugin never lose a
change: PostgreSQL locks the project's row (``SELECT ... FOR UPDATE``); SQLite serialises
writers with ``BEGIN IMMEDIATE`` (and waits for the lock up to :data:`SQLITE_BUSY_TIMEOUT_MS`).
Reads never block writers: SQLite runs in write-ahead-log mode.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, IntegrityError

#: The environment variable that names the database when no URL is given.
DATABASE_URL_VARIABLE = "ONESPEC_DATABASE_URL"

#: How long a SQLite writer waits for another writer's lock before failing.
SQLITE_BUSY_TIMEOUT_MS = 30_000

_WRITE = "onespec_write"

METADATA = sa.MetaData(
    naming_convention={
        "pk": "pk_%(table_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    }
)

#: JSON columns: ``jsonb`` on PostgreSQL, text holding JSON elsewhere.
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")

#: The labels each project stored for a plugin: only the mutable labels it changed.
PLUGINS = sa.Table(
    "plugins",
    METADATA,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("tenant_id", sa.String(255), nullable=False),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("plugin_labels", JSON, nullable=False),
    sa.Column("version_labels", JSON, nullable=False),
    sa.UniqueConstraint("tenant_id", "name"),
)


class StoreError(Exception):
    """The database cannot be used as configured; the message says what to change."""


# --- Engines -------------------------------------------------------------------------------------


def default_database_url() -> str:
    """``$ONESPEC_DATABASE_URL``, or a SQLite file in the user's state directory."""
    configured = os.environ.get(DATABASE_URL_VARIABLE)
    if configured:
        return configured
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return f"sqlite:///{Path(state) / 'onespec' / 'onespec.db'}"


def normalize_url(url: str | sa.URL) -> sa.URL:
    """Parse a database URL; ``postgresql://`` and ``postgres://`` use the psycopg driver."""
    try:
        parsed = sa.make_url(url)
    except ArgumentError:
        raise StoreError(
            f"{str(url)!r} is not a database URL; use sqlite:///PATH or "
            "postgresql://USER:PASSWORD@HOST/DATABASE."
        ) from None
    if parsed.drivername in {"postgresql", "postgres"}:
        parsed = parsed.set(drivername="postgresql+psycopg")
    backend = parsed.get_backend_name()
    if backend not in {"sqlite", "postgresql"}:
        raise StoreError(
            f"The database URL {parsed.render_as_string(hide_password=True)!r} names the "
            f"{backend!r} backend; onespec supports sqlite and postgresql."
        )
    if backend == "sqlite" and (not parsed.database or parsed.database == ":memory:"):
        raise StoreError(
            "An in-memory SQLite database would be empty on every connection; give a file, "
            "as in sqlite:///var/lib/onespec/onespec.db."
        )
    return parsed


def display_url(url: str | sa.URL) -> str:
    """A database URL fit for logs: the password hidden."""
    return sa.make_url(url).render_as_string(hide_password=True)


def create_engine(url: str | sa.URL, *, pool_size: int = 10) -> Engine:
    """An engine for ``url``, set up for concurrent use by a threaded server.

    SQLite runs in write-ahead-log mode with a busy timeout, and its transactions are begun by
    SQLAlchemy's events (``BEGIN``, or ``BEGIN IMMEDIATE`` for :func:`write_transaction`)
    rather than by the driver, which would begin them too late to lock anything.
    """
    parsed = normalize_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = sa.create_engine(
            parsed,
            connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000, "check_same_thread": False},
            pool_size=pool_size,
            max_overflow=pool_size,
        )

        @sa.event.listens_for(engine, "connect")
        def _connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None  # transactions are begun below
            cursor = dbapi_connection.cursor()
            for pragma in (
                "journal_mode=WAL",
                f"busy_timeout={SQLITE_BUSY_TIMEOUT_MS}",
                "foreign_keys=ON",
                "synchronous=NORMAL",
            ):
                cursor.execute(f"PRAGMA {pragma}")
            cursor.close()

        @sa.event.listens_for(engine, "begin")
        def _begin(connection: Connection) -> None:
            immediate = connection.get_execution_options().get(_WRITE)
            connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

        return engine
    return sa.create_engine(parsed, pool_size=pool_size, max_overflow=pool_size, pool_pre_ping=True)


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that will write: on SQLite it holds the write lock from its first statement."""
    with engine.connect() as connection:
        connection.execution_options(**{_WRITE: True})
        with connection.begin():
            yield connection


def insert_if_absent(
    connection: Connection, table: sa.Table, values: Mapping[str, Any], keys: list[str]
) -> None:
    """Insert a row unless one with the same ``keys`` exists, without failing on the race."""
    dialect = connection.dialect.name
    if dialect == "postgresql":
        statement = postgresql.insert(table).values(**values)
        connection.execute(statement.on_conflict_do_nothing(index_elements=keys))
    elif dialect == "sqlite":
        statement = sqlite.insert(table).values(**values)
        connection.execute(statement.on_conflict_do_nothing(index_elements=keys))
    else:  # pragma: no cover - only SQLite and PostgreSQL are supported
        try:
            with connection.begin_nested():
                connection.execute(sa.insert(table).values(**values))
        except IntegrityError:
            pass


# --- The plugin label store ----------------------------------------------------------------------

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
