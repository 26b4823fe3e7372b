"""The alembic environment: migrations run on the connection ``onespec db upgrade`` passes."""

from __future__ import annotations

from alembic import context

from onespec.validators_runtime.service.db.migrate import TARGET_METADATA

connection = context.config.attributes.get("connection")
if connection is None or context.is_offline_mode():
    raise RuntimeError(
        "onespec's migrations run through `onespec db upgrade`, which passes them a connection."
    )
context.configure(connection=connection, target_metadata=TARGET_METADATA, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
