"""The single source: one frozen, typed definition per fact (installed as onespec.definitions)."""

from onespec._layout import refuse_second_copy

refuse_second_copy(__name__, "onespec.definitions")
