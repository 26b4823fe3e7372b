"""Heat template capabilities (the ``capabilities``/``requires`` sections, not Nova's
``capabilities:`` extra-spec namespace): the runtime tables, the JSON Schemas, the reference."""
