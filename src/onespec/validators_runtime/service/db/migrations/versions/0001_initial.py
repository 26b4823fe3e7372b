"""The plugins table (labels each project set) and the flavor_extra_specs table.

Revision ID: 0001
Revises:
Create Date: 2026-08-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "plugins",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("tenant_id", sa.String(255), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("plugin_labels", JSON, nullable=False),
        sa.Column("version_labels", JSON, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_plugins"),
        sa.UniqueConstraint("tenant_id", "name", name="uq_plugins_tenant_id_name"),
    )
    op.create_table(
        "flavor_extra_specs",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("flavor_id", sa.String(255), nullable=False),
        sa.Column("key", sa.String(255), nullable=False),
        sa.Column("value", sa.String(255), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_flavor_extra_specs"),
        sa.UniqueConstraint("flavor_id", "key", name="uq_flavor_extra_specs_flavor_id_key"),
    )


def downgrade() -> None:
    op.drop_table("flavor_extra_specs")
    op.drop_table("plugins")
