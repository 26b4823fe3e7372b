"""The image-property metadefs cover every ImageMetaProps field and load into Glance 33.0.0."""

from __future__ import annotations

import json

from onespec.definitions.image_properties import IMAGE_PROPERTIES
from onespec.generator.flavors import image_metadefs
from tests.conftest import ROOT
from tests.generator.extra_specs.test_glance_roundtrip import round_trip

DIRECTORY = ROOT / "outputs" / "glance-metadefs-images"


def test_every_field_but_traits_required_is_described():
    fields = {prop.name for prop in IMAGE_PROPERTIES}
    assert len(fields) == 86
    assert fields - image_metadefs.covered() == {"traits_required"}


def test_glance_loads_them_and_reads_back_nova_field_names():
    returncode, report = round_trip(DIRECTORY)
    assert report["failures"] == []
    assert returncode == 0
    read_back = set()
    for path in sorted(DIRECTORY.glob("*.json")):
        namespace = json.loads(path.read_text(encoding="utf-8"))["namespace"]
        keys = report["namespaces"][namespace]["keys"]
        assert keys["OS::Glance::Image"] == keys["OS::Cinder::Volume"]
        read_back |= {key.split(".")[0] for key in keys["OS::Glance::Image"]}
    assert read_back == {prop.name for prop in IMAGE_PROPERTIES} - {"traits_required"}
