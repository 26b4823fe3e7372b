"""Glance metadefs for every image property Nova reads, from ``definitions/image_properties.py``.

Glance's own catalogue describes 47 of the 86 fields of Nova 34.0.0's ``ImageMetaProps``;
onespec's metadefs describe every one that an image property can carry, each in one place. The
flavor extra specs whose image twin is the same setting with the same values are offered to
images by the extra-spec namespace they live in (``OS::Compute::Onespec::HwShared``, prefix
``hw_`` for ``OS::Glance::Image``); every other field is listed here, one namespace per prefix
(``hw_``, ``os_``, ``img_``), each associated with ``OS::Glance::Image`` and with
``OS::Cinder::Volume`` image metadata (``properties_target: image``), the prefix applied by the
association so that the property names read back exactly as Nova reads them. So no property is
offered to an image by two namespaces. The per-node ``hw_numa_cpus`` and ``hw_numa_mem`` are
listed for nodes 0 to 7, as the flavor keys are. ``traits_required`` is not a property of its
own (an image asks for a trait with ``trait:NAME=required``), so it is described, not listed.

The files are written beside the extra-spec metadefs, in ``outputs/glance-metadefs/``
(``make metadefs``; shipped in the wheel with them), so a deployment loads one directory. Every
file is checked as Glance's API reads it back (the extra-spec area's
``glance_rules.check_document``) before it is written.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Set
from typing import Any

from onespec.definitions.image_properties import IMAGE_PROPERTIES, ImageProperty, twins
from onespec.generator.extra_specs.glance_rules import IMAGE, VOLUME, check_document

#: The image namespaces' files, beside the extra-spec metadefs (``onespec-compute-*.json``).
FILE_PREFIX = "onespec-image-"
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


def offered_to_images(documents: Iterable[Mapping[str, Any]]) -> set[str]:
    """The image property names that namespace documents offer to ``OS::Glance::Image``."""
    names: set[str] = set()
    for document in documents:
        listed = [*document.get("properties", {})]
        for group in document.get("objects", []):
            listed += [*group.get("properties", {})]
        for association in document.get("resource_type_associations", []):
            if association["name"] == IMAGE:
                names |= {association.get("prefix", "") + name for name in listed}
    return names


def documents(elsewhere: Set[str]) -> dict[str, dict[str, Any]]:
    """One namespace document per prefix, by file name, leaving out the property names in
    ``elsewhere``: those the extra-spec namespaces written beside them offer to images
    (:func:`offered_to_images` of their documents)."""
    twin_of = _twin_sentences()
    files: dict[str, dict[str, Any]] = {}
    for prefix, camel in PREFIXES.items():
        properties: dict[str, Any] = {}
        for prop in IMAGE_PROPERTIES:
            if not prop.name.startswith(prefix):
                continue
            for name in _names(prop):
                if name in elsewhere:
                    continue
                short = name[len(prefix) :]
                properties[short] = _property(prop, name, twin_of.get(prop.name))
                if prop.kind == "int-list":
                    properties[short]["type"] = "integer"
        if not properties:
            continue
        files[f"{FILE_PREFIX}{prefix.rstrip('_')}.json"] = {
            "namespace": f"{NAMESPACE_PREFIX}{camel}",
            "display_name": f"Image properties Nova reads ({prefix}*)",
            "description": (
                f"The {prefix}* fields of Nova 34.0.0's ImageMetaProps, typed as Nova reads "
                "them, with their flavor twin and how a clash between the two is settled. The "
                "fields that share a flavor extra spec's values are offered to images by that "
                "extra spec's namespace instead."
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


def covered(documents: Iterable[Mapping[str, Any]]) -> set[str]:
    """The ImageMetaProps fields that namespace documents offer to images (by Nova's name)."""
    return {name.split(".")[0] for name in offered_to_images(documents)}


def dumps(document: Mapping[str, Any]) -> str:
    """One namespace file as text: keys sorted, 2-space indent, UTF-8, a final newline."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def checked_documents(elsewhere: Set[str]) -> dict[str, dict[str, Any]]:
    """:func:`documents`, each checked as Glance reads it back. They hold JSON's own types
    only, so the text :func:`dumps` writes reads back as the document that was checked."""
    found = documents(elsewhere)
    for name, document in found.items():
        check_document(name, document)
    return found


def render_texts(elsewhere: Set[str]) -> dict[str, str]:
    """Every file's text by file name, each checked as Glance reads it back."""
    return {name: dumps(document) for name, document in checked_documents(elsewhere).items()}
