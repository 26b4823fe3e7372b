"""JSON Schema documents: the dialect, where schemas live and how they are named and written.

Shared by every area that writes a schema; it imports no area.
"""

from __future__ import annotations

import json
from typing import Any

from onespec.errors import OnespecError
from onespec.generator.outputs import ROOT

#: The JSON Schema dialect every schema is written in.
DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: Where every schema's ``$id`` starts. A schema's id is this plus its file name, and never
#: changes: other schemas and tools refer to it.
ID_BASE = "https://onespec.dev/schemas/"

#: The directory the schemas are written to; it holds nothing else.
DIRECTORY = ROOT / "outputs" / "schemas"


class SchemaError(OnespecError, ValueError):
    """A definition uses something a JSON Schema cannot state faithfully.

    Raised at generation time, naming the definition, so that the schema is never silently
    looser or stricter than the runtime.
    """


def schema_id(file_name: str) -> str:
    """The ``$id`` of a schema: stable, because other documents refer to it."""
    return ID_BASE + file_name


def dumps(schema: dict[str, Any]) -> str:
    """JSON text that is the same for the same schema: key order kept, 2-space indent."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
