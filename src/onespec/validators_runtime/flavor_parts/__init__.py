"""What the whole-flavor check is built from, and what its generated rules import.

``inputs`` reads a flavor and an image as the tools print them, ``image_props`` types an image's
properties as Nova does, ``facts`` derives the values Nova computes from several keys, ``checks``
says what each rule kind finds on plain values, ``cpusets`` reads CPU sets, and ``findings`` is
the shape of what is found. The rules themselves (``_generated/flavor_rules.py``) import these
modules, and :mod:`onespec.validators_runtime.flavors` imports the rules: so this package stands
apart from that one and imports nothing of it, and whichever of the three a program imports
first, each module is whole before another uses it. This ``__init__`` imports nothing, so
importing one module here (reading a flavor, say) loads no rules.
"""
