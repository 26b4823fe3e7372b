"""Pure functions from definitions to text: reference, metadefs, schemas, runtime tables."""

from onespec._layout import refuse_second_copy

refuse_second_copy(__name__, "onespec.generator")
