"""The service's database engines: URLs, connections, and the write transaction every store uses.

SQLite (a file; the default) and PostgreSQL are supported and tested. The schema is created and
upgraded by the migrations in :mod:`onespec.validators_runtime.service.db.migrations` (``onespec db
upgrade``); :data:`METADATA` (filled by :mod:`onespec.validators_runtime.service.db.tables`)
describes what they build, and a test keeps the two equal.

Writes are read-modify-write under a lock, so concurrent updates of one plugin never lose a
change: PostgreSQL locks the project's row (``SELECT ... FOR UPDATE``); SQLite serialises
writers with ``BEGIN IMMEDIATE`` (and waits for the lock up to :data:`SQLITE_BUSY_TIMEOUT_MS`).
Reads never block writers: SQLite runs in write-ahead-log mode.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, IntegrityError

from onespec.errors import OnespecError

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


class StoreError(OnespecError):
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

        @event.listens_for(engine, "connect")
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

        @event.listens_for(engine, "begin")
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
        on_postgresql = postgresql.insert(table).values(**values)
        connection.execute(on_postgresql.on_conflict_do_nothing(index_elements=keys))
    elif dialect == "sqlite":
        on_sqlite = sqlite.insert(table).values(**values)
        connection.execute(on_sqlite.on_conflict_do_nothing(index_elements=keys))
    else:  # pragma: no cover - only SQLite and PostgreSQL are supported
        try:
            with connection.begin_nested():
                connection.execute(sa.insert(table).values(**values))
        except IntegrityError:
            pass
