"""Every generated output and every JSON Schema, listed once.

``onespec generate`` writes :data:`OUTPUT_FACTORIES` in order; the ``schemas`` output writes
:data:`SCHEMAS`, each file name with the function that builds it, so a new output or schema
joins by adding one entry here. This is the only module that imports every area; the areas
import only the shared helpers (``onespec.generator.schema``, ``onespec.generator.text``,
``onespec.generator.rst``,
``onespec.generator.literals``, ``onespec.generator.outputs``), so there is no cycle to work around.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from onespec.definitions.extra_specs import namespaces
from onespec.definitions.registry import in_tree
from onespec.generator.api import plugin_labels as api_plugin_labels
from onespec.generator.api import schemas as api_schemas
from onespec.generator.catalog import CATALOG_FILE, catalog
from onespec.generator.components import runtime as components_runtime
from onespec.generator.components.schema import SOFTWARE_COMPONENT, software_component_schema
from onespec.generator.extra_specs import metadefs
from onespec.generator.extra_specs import runtime as extra_specs_runtime
from onespec.generator.extra_specs.schema import FLAVOR_EXTRA_SPECS, flavor_extra_specs_schema
from onespec.generator.flavors import change_runtime as flavor_change_runtime
from onespec.generator.flavors import image_metadefs
from onespec.generator.flavors import runtime as flavors_runtime
from onespec.generator.flavors.flavor_schema import FLAVOR_SCHEMA, flavor_schema
from onespec.generator.flavors.schema import IMAGE_PROPERTIES_SCHEMA, image_properties_schema
from onespec.generator.images import grammar as images
from onespec.generator.outputs import Output
from onespec.generator.schema import DIRECTORY, dumps
from onespec.generator.template_capabilities import runtime as template_capabilities_runtime
from onespec.generator.template_capabilities.schema import (
    ENVIRONMENT_REQUIRES,
    HOT_CAPABILITIES,
    environment_requires_schema,
    hot_capabilities_schema,
)

LOG = logging.getLogger(__name__)

#: Every schema ``outputs/schemas/`` holds, by file name, with the function that builds it.
SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    FLAVOR_EXTRA_SPECS: flavor_extra_specs_schema,
    HOT_CAPABILITIES: hot_capabilities_schema,
    ENVIRONMENT_REQUIRES: environment_requires_schema,
    SOFTWARE_COMPONENT: software_component_schema,
    **api_schemas.BUILDERS,
    images.SCHEMA_FILE: images.schema,
    IMAGE_PROPERTIES_SCHEMA: image_properties_schema,
    FLAVOR_SCHEMA: flavor_schema,
}


def render_schemas() -> dict[Path, str]:
    """Every schema's file and text, and the catalog that maps files to them for editors."""
    files = {DIRECTORY / name: dumps(build()) for name, build in SCHEMAS.items()}
    files[DIRECTORY / CATALOG_FILE] = dumps(catalog(set(SCHEMAS)))
    return files


def metadef_files(
    extra_spec_documents: Mapping[str, Mapping[str, Any]], directory: Path
) -> dict[Path, str]:
    """The files of a metadefs directory: the extra-spec namespaces (checked documents, by
    file name) and, beside them, the image namespaces, which leave out what the extra-spec
    namespaces already offer to images. That is read from the documents themselves, and each
    document is turned into text once, here."""
    elsewhere = image_metadefs.offered_to_images(extra_spec_documents.values())
    images = image_metadefs.render_texts(elsewhere)
    return {
        **{directory / name: metadefs.dumps(doc) for name, doc in extra_spec_documents.items()},
        **{directory / name: text for name, text in images.items()},
    }


def metadefs_output() -> Output:
    """The ``metadefs`` output: the whole of ``outputs/glance-metadefs/``, the extra-spec
    namespaces of the in-tree catalogue and the image-property namespaces, so one directory
    holds every property once."""
    return Output(
        "metadefs",
        lambda: metadef_files(
            metadefs.checked_documents(in_tree(), namespaces()), metadefs.OUTPUT_DIR
        ),
        owns=metadefs.OUTPUT_DIR,
    )


def schemas_output() -> Output:
    """The ``schemas`` output: it owns ``outputs/schemas/`` whole."""
    return Output("schemas", render_schemas, owns=DIRECTORY)


def runtime_output() -> Output:
    """The ``runtime`` output: the extra-spec tables of the in-tree catalogue."""
    return Output(
        "runtime",
        lambda: {
            extra_specs_runtime.OUTPUT: extra_specs_runtime.render(
                in_tree(), extra_specs_runtime.source_versions(), namespaces()
            )
        },
    )


def deployment_output(name: str, directory: Path) -> Output:
    """The ``metadefs`` or ``schemas`` output written into ``directory`` for a deployment.

    Unlike the committed files, which hold the in-tree catalogue only (so that they do not
    depend on what happens to be installed), these include the definitions that installed
    packages add through the ``onespec.extra_specs`` entry point, exactly as the runtime
    validates them. Only onespec's own files in ``directory`` are ever removed as stale.
    """
    from onespec.definitions.registry import IN_TREE, load

    registry = load()
    if name == "metadefs":
        # Glance properties are concrete names. The in-tree catalogue decides, per pattern,
        # which names to list (metadefs.EXPANSIONS) or to leave out; an out-of-tree package
        # cannot add to that table, so its patterned keys are left out, and said so.
        patterned = [
            d.name
            for d in registry.definitions
            if d.is_patterned and registry.sources[d.name] != IN_TREE
        ]
        if patterned:
            LOG.warning(
                "left out of the Glance metadefs (patterned names; Glance lists concrete "
                "properties only): %s",
                ", ".join(patterned),
            )
        exported = tuple(d for d in registry.definitions if d.name not in patterned)
        return Output(
            "metadefs",
            lambda: metadef_files(
                metadefs.checked_documents(exported, registry.namespaces), directory
            ),
            owns=directory,
            owned_pattern="onespec-*.json",
        )
    if name == "schemas":
        builders = {
            **SCHEMAS,
            FLAVOR_EXTRA_SPECS: lambda: flavor_extra_specs_schema(registry.definitions),
        }
        return Output(
            "schemas",
            lambda: {directory / file: dumps(build()) for file, build in builders.items()},
        )
    raise ValueError(f"{name!r} is not written for deployments: metadefs or schemas")


#: Every output ``onespec generate all`` writes, by name, in order.
OUTPUT_FACTORIES: dict[str, Callable[[], Output]] = {
    "runtime": runtime_output,
    "plugin-labels": api_plugin_labels.output,
    "api": api_schemas.output,
    "metadefs": metadefs_output,
    "schemas": schemas_output,
    "components": components_runtime.output,
    "template-capabilities": template_capabilities_runtime.output,
    "images": images.output,
    "flavor-rules": flavors_runtime.output,
    "flavor-change-rules": flavor_change_runtime.output,
}


def all_outputs() -> tuple[Output, ...]:
    """Every generated output, in the order ``onespec generate all`` writes them."""
    return tuple(factory() for factory in OUTPUT_FACTORIES.values())
