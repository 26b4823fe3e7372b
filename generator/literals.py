"""Python source for plain data: how the generated runtime modules spell their tables.

Every generated module under ``validators_runtime/_generated/`` is a list of assignments of
literals, so importing it builds nothing and a reviewer can read a diff of it. They all format
those literals the same way -- insertion order kept, 100 columns, compact -- so that the same data
always gives the same text and ``make check`` sees only real changes.
"""

from __future__ import annotations

import pprint
from collections.abc import Iterator


def assignment(name: str, value: object) -> Iterator[str]:
    """Yield the lines of ``name = <value as a literal>``, then a blank line."""
    text = pprint.pformat(value, width=100, sort_dicts=False, compact=True)
    yield f"{name} = {text}"
    yield ""
