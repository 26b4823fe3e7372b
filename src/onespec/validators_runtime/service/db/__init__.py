"""The service's database: engines, tables, the label and flavor stores, and migrations."""
