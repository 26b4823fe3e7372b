"""Pure functions from definitions to text: reference, metadefs, schemas, runtime tables."""
