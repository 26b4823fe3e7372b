"""Extra specs: the reference rST, the JSON Schema, the Glance metadefs and the runtime tables."""
