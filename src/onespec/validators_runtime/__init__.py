"""The runtime services import: fast validation generated from the definitions."""
