"""Outputs of the whole-flavor area: image-property metadefs, JSON Schemas, the reference."""
