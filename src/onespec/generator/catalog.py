"""The schema catalog: which files editors should check against which of onespec's schemas.

``outputs/schemas/catalog.json`` is in the format SchemaStore publishes and yaml-language-server
(VS Code's YAML extension, and every editor that embeds it) reads from ``yaml.schemaStore.url``:
a list of schemas, each with a name, a description, the file patterns it applies to
(``fileMatch``, globs on the file's path) and its URL, which is the schema's ``$id``.

The patterns are conventions onespec proposes, because HOT templates, environments and flavor
files are all plain ``.yaml`` and nothing in their names tells them apart: a suffix before the
extension (``web.hot.yaml``) or a conventional folder (``environments/``, Sahara's
``resources/images/image.yaml``). Files named otherwise opt in with a modeline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from onespec.generator.schema import schema_id
from onespec.validators_runtime.resources import CATALOG_FILE

#: The format of SchemaStore's catalog, which its own catalog names.
CATALOG_SCHEMA = "https://json.schemastore.org/schema-catalog.json"


@dataclass(frozen=True)
class CatalogEntry:
    """One schema as editors see it: what it checks and which files it applies to."""

    schema_file: str
    name: str
    description: str
    file_match: tuple[str, ...]


def _yaml_names(stem: str) -> tuple[str, ...]:
    return (f"{stem}.yaml", f"{stem}.yml")


ENTRIES: tuple[CatalogEntry, ...] = (
    CatalogEntry(
        "flavor-extra-specs.schema.json",
        "onespec flavor extra specs",
        "One flavor's extra specs: a mapping of keys to string values, checked against "
        "the keys and rules of the extra-spec catalogue.",
        (*_yaml_names("*.extra-specs"), "*.extra-specs.json"),
    ),
    CatalogEntry(
        "flavor.schema.json",
        "onespec whole flavor",
        "A whole flavor (vcpus, ram, extra specs), as Nova's API or `openstack flavor show` "
        "gives it: each extra spec, and the rules between keys that JSON Schema can state.",
        (*_yaml_names("*.flavor"), "*.flavor.json"),
    ),
    CatalogEntry(
        "hot-capabilities.schema.json",
        "onespec HOT template capabilities",
        "A Heat Orchestration Template; its capabilities section, which environments "
        "select templates by.",
        _yaml_names("*.hot"),
    ),
    CatalogEntry(
        "heat-environment-requires.schema.json",
        "onespec Heat environment",
        "A Heat environment: Heat's sections and the requires section that selects "
        "templates by their capabilities.",
        (*_yaml_names("*.env"), *_yaml_names("**/environments/*")),
    ),
    CatalogEntry(
        "image-validation-spec.schema.json",
        "onespec image validation spec",
        "An image validation spec: the packages, scripts and arguments an image must have, "
        "as Sahara's plugins write them.",
        (*_yaml_names("*.image-spec"), "**/resources/images/image.yaml"),
    ),
)


def catalog(schema_files: set[str] | None = None) -> dict[str, Any]:
    """The catalog document; ``schema_files`` (the files written beside it) are checked."""
    if schema_files is not None:
        missing = sorted({entry.schema_file for entry in ENTRIES} - schema_files)
        if missing:
            raise ValueError(f"{CATALOG_FILE}: no schema file {', '.join(missing)} to point to")
    return {
        "$schema": CATALOG_SCHEMA,
        "version": 1,
        "schemas": [
            {
                "name": entry.name,
                "description": entry.description,
                "fileMatch": list(entry.file_match),
                "url": schema_id(entry.schema_file),
            }
            for entry in ENTRIES
        ],
    }
