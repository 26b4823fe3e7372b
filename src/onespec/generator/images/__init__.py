"""Image validation specs: the grammar's JSON Schema, runtime tables and reference rST."""
