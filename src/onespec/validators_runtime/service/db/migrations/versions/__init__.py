"""One module per revision; alembic reads them by path."""
