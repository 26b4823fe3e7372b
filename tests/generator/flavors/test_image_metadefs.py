"""The image-property metadefs: every ImageMetaProps field offered to images once, in the one
directory of onespec's metadefs, as Glance 33.0.0 reads them back."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from onespec.definitions.extra_specs import namespaces
from onespec.definitions.image_properties import IMAGE_PROPERTIES
from onespec.definitions.registry import in_tree
from onespec.generator.extra_specs import metadefs
from onespec.generator.flavors import image_metadefs
from tests.conftest import ROOT
from tests.generator.extra_specs.test_glance_roundtrip import round_trip

DIRECTORY = ROOT / "outputs" / "glance-metadefs"
DOCUMENTS = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(DIRECTORY.glob("*.json"))]
FIELDS = {prop.name for prop in IMAGE_PROPERTIES}
IMAGE_TYPES = ("OS::Glance::Image", "OS::Cinder::Volume")


def offers(document, resource_type):
    """The property names one document offers to a resource type, with the association's prefix."""
    listed = [*document.get("properties", {})]
    for group in document.get("objects", []):
        listed += [*group["properties"]]
    return [
        association.get("prefix", "") + name
        for association in document["resource_type_associations"]
        if association["name"] == resource_type
        for name in listed
    ]


def test_every_field_but_traits_required_is_offered_to_images():
    assert len(FIELDS) == 86
    for resource_type in IMAGE_TYPES:
        offered = {name.split(".")[0] for d in DOCUMENTS for name in offers(d, resource_type)}
        assert FIELDS - offered == {"traits_required"}, resource_type
        assert offered - FIELDS == set(), resource_type


@pytest.mark.parametrize("resource_type", IMAGE_TYPES)
def test_no_property_is_offered_to_images_by_two_namespaces(resource_type):
    counts = Counter(name for d in DOCUMENTS for name in offers(d, resource_type))
    assert [name for name, count in counts.items() if count > 1] == []


def test_a_twin_with_the_flavor_keys_values_lives_in_the_extra_spec_namespace():
    shared = json.loads((DIRECTORY / "onespec-compute-hw-shared.json").read_text("utf-8"))
    image_hw = json.loads((DIRECTORY / "onespec-image-hw.json").read_text("utf-8"))
    assert "hw_cpu_policy" in offers(shared, "OS::Glance::Image")
    assert "cpu_policy" not in image_hw["properties"]
    # A field without such a twin is listed in the image namespace, with its clash rule.
    assert (
        "Flavor twin: hw:sound_model (clash: equal"
        in (image_hw["properties"]["sound_model"]["description"])
    )
    assert "machine_type" in image_hw["properties"]


def test_the_committed_files_are_the_generated_ones_and_coverage_is_computed_from_them():
    extra_specs = metadefs.checked_documents(in_tree(), namespaces())
    offered = image_metadefs.offered_to_images(extra_specs.values())
    expected = image_metadefs.render_texts(offered)
    for name, document in image_metadefs.checked_documents(offered).items():
        assert json.loads(expected[name]) == document, name
    for name, text in expected.items():
        assert (DIRECTORY / name).read_text(encoding="utf-8") == text
    assert sorted(p.name for p in DIRECTORY.glob("onespec-image-*.json")) == sorted(expected)
    assert image_metadefs.covered(DOCUMENTS) == FIELDS - {"traits_required"}


@pytest.mark.peers
@pytest.mark.slow
def test_glance_loads_the_directory_and_reads_back_nova_field_names():
    returncode, report = round_trip(DIRECTORY)
    assert report["failures"] == []
    assert returncode == 0
    read_back = set()
    for document in DOCUMENTS:
        keys = report["namespaces"][document["namespace"]]["keys"]
        if "OS::Glance::Image" in keys:
            assert keys["OS::Glance::Image"] == keys["OS::Cinder::Volume"]
            read_back |= {key.split(".")[0] for key in keys["OS::Glance::Image"]}
    assert read_back == FIELDS - {"traits_required"}
