"""The single source: one frozen, typed definition per fact (installed as onespec.definitions)."""
