"""The database schema's migrations (alembic, shipped inside the package).

``onespec db upgrade`` creates the tables or brings them to the latest revision;
``onespec serve`` refuses to start on a database that is not at it, rather than fail requests.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from onespec.validators_runtime.service.db import tables
from onespec.validators_runtime.service.db.engine import StoreError, display_url, write_transaction

if TYPE_CHECKING:
    from alembic.config import Config

#: The alembic script directory: ``env.py`` and ``versions/``.
MIGRATIONS = Path(__file__).resolve().parent / "migrations"

#: What the migrations build; a test checks that they agree.
TARGET_METADATA: sa.MetaData = tables.METADATA


class DatabaseNotReady(StoreError):
    """The database's schema is missing or at another revision than this release needs."""


def alembic_config(connection: sa.Connection | None = None) -> Config:
    """An alembic configuration for the shipped migrations, bound to ``connection``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The latest revision of the shipped migrations."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:  # pragma: no cover - the package ships its migrations
        raise DatabaseNotReady("The shipped migrations have no revision: the package is broken.")
    return head


def known_revisions() -> set[str]:
    """Every revision the shipped migrations know."""
    from alembic.script import ScriptDirectory

    return {
        script.revision for script in ScriptDirectory.from_config(alembic_config()).walk_revisions()
    }


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at, or None when it has no onespec schema."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> str | None:
    """Bring the database to ``revision`` in one transaction; return the revision it is at."""
    from alembic import command

    with write_transaction(engine) as connection:
        command.upgrade(alembic_config(connection), revision)
    return current_revision(engine)


def ensure_current(engine: Engine) -> None:
    """Raise :class:`DatabaseNotReady`, saying what to run, unless the schema is the latest."""
    where = display_url(engine.url)
    command = f"onespec db upgrade --database-url {shlex.quote(where)}"
    database = engine.url.database
    if engine.url.get_backend_name() == "sqlite" and database and not Path(database).exists():
        raise DatabaseNotReady(
            f"The database {where} does not exist yet; create it with `{command}`."
        )
    try:
        current = current_revision(engine)
    except DBAPIError as exc:
        reason = " ".join(str(exc.orig).split())
        raise DatabaseNotReady(f"Cannot read the database {where}: {reason}.") from None
    head = head_revision()
    if current == head:
        return
    if current is None:
        raise DatabaseNotReady(
            f"The database {where} has no onespec tables yet; create them with `{command}`."
        )
    if current not in known_revisions():
        raise DatabaseNotReady(
            f"The database {where} is at revision {current}, which this release of onespec does "
            "not know: a newer release upgraded it. Run that release, or restore a backup."
        )
    raise DatabaseNotReady(
        f"The database {where} is at revision {current}, but this release needs {head}; "
        f"upgrade it with `{command}`."
    )
