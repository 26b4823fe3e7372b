"""The service's tables, as SQLAlchemy describes them: what the migrations build.

Every table is declared here, in :data:`~onespec.validators_runtime.service.db.engine.METADATA`, so
the migration environment and the schema test see all of them by importing one module.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from onespec.validators_runtime.service.db.engine import METADATA

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


#: A flavor's extra specs: one row per flavor and key.
FLAVOR_EXTRA_SPECS = sa.Table(
    "flavor_extra_specs",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("flavor_id", sa.String(255), nullable=False),
    sa.Column("key", sa.String(255), nullable=False),
    sa.Column("value", sa.String(255), nullable=False),
    sa.UniqueConstraint("flavor_id", "key"),
)
