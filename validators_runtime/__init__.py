"""The runtime services import: fast validation generated from the definitions."""

from onespec._layout import refuse_second_copy

refuse_second_copy(__name__, "onespec.validators_runtime")
