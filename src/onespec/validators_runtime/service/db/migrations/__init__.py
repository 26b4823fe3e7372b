"""The alembic migrations of the service's database (``onespec db upgrade`` runs them)."""
