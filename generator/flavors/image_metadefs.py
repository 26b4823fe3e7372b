"""Glance metadefs for every image property Nova reads, from ``definitions/image_properties.py``.

Glance's own catalogue describes 47 of the 86 fields of Nova 34.0.0's ``ImageMetaProps``;
these files describe every one that an image property can carry, one namespace per prefix
(``hw_``, ``os_``, ``img_``), each associated with ``OS::Glance::Image`` and with
``OS::Cinder::Volume`` image metadata (``properties_target: image``), the prefix applied by the
association so that the property names read back exactly as Nova reads them. The per-node
``hw_numa_cpus`` and ``hw_numa_mem`` are listed for nodes 0 to 7, as the flavor keys are.
``traits_required`` is not a property of its own (an image asks for a trait with
``trait:NAME=required``), so it is described, not listed.

Every file is checked as Glance's API reads it back (the extra-spec area's
``glance_rules.check_document``) before it is written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from onespec.definitions.image_properties import IMAGE_PROPERTIES, ImageProperty, twins
from onespec.generator.extra_specs.glance_rules import IMAGE, VOLUME, check_document
from onespec.generator.outputs import ROOT, Output

OUTPUT_DIR = ROOT / "outputs" / "glance-metadefs-images"
NAMESPACE_PREFIX = "OS::Glance::Onespec::Image"
NUMA_NODES = range(8)
PREFIXES = {"hw_": "Hw", "os_": "Os", "img_": "Img"}

_TYPES = {"bool": "boolean", "int": "integer"}


def _twin_sentences() -> dict[str, str]:
    sentences = {}
    for twin in twins():
        sentences[twin.prop] = (
            f"Flavor twin: {twin.spec} (clash: {twin.policy.value}"
            + (f", rule {twin.rule}" if twin.rule else "")
            + ")."
        )
    return sentences


def _property(prop: ImageProperty, name: str, twin: str | None) -> dict[str, Any]:
    description = prop.description + (f"\n\n{twin}" if twin else "")
    schema: dict[str, Any] = {
        "title": name,
        "description": description,
        "type": _TYPES.get(prop.kind, "string"),
    }
    if prop.enum:
        schema["enum"] = list(prop.enum)
    return schema


def _names(prop: ImageProperty) -> list[str]:
    if prop.kind in ("cpu-lists", "int-list"):
        return [f"{prop.name}.{node}" for node in NUMA_NODES]
    return [prop.name]


def documents() -> dict[str, dict[str, Any]]:
    """One namespace document per prefix, by file name."""
    twin_of = _twin_sentences()
    files: dict[str, dict[str, Any]] = {}
    for prefix, camel in PREFIXES.items():
        properties: dict[str, Any] = {}
        for prop in IMAGE_PROPERTIES:
            if not prop.name.startswith(prefix):
                continue
            for name in _names(prop):
                short = name[len(prefix) :]
                properties[short] = _property(prop, name, twin_of.get(prop.name))
                if prop.kind == "int-list":
                    properties[short]["type"] = "integer"
        files[f"onespec-image-{prefix.rstrip('_')}.json"] = {
            "namespace": f"{NAMESPACE_PREFIX}{camel}",
            "display_name": f"Image properties Nova reads ({prefix}*)",
            "description": (
                f"Every {prefix}* field of Nova 34.0.0's ImageMetaProps, typed as Nova reads "
                "it, with its flavor twin and how a clash between the two is settled."
            ),
            "visibility": "public",
            "protected": True,
            "resource_type_associations": [
                {"name": IMAGE, "prefix": prefix},
                {"name": VOLUME, "prefix": prefix, "properties_target": "image"},
            ],
            "properties": dict(sorted(properties.items())),
        }
    return files


def covered() -> set[str]:
    """The ImageMetaProps fields the files describe (by their Nova field name)."""
    names = set()
    for document in documents().values():
        prefix = document["resource_type_associations"][0]["prefix"]
        names |= {(prefix + name).split(".")[0] for name in document["properties"]}
    return names


def render() -> dict[Path, str]:
    texts = {}
    for name, document in documents().items():
        text = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        check_document(name, json.loads(text))
        texts[OUTPUT_DIR / name] = text
    return texts


def output() -> Output:
    """The ``image-metadefs`` output: the whole of ``outputs/glance-metadefs-images/``."""
    return Output("image-metadefs", render, owns=OUTPUT_DIR)
