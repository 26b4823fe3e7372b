"""The generated metadefs load with Glance's real loader and read back through Glance's API code.

Glance lives in a virtual environment of its own, which ``make peers`` (run by ``make test``)
creates from ``tests/peers/glance.txt``; the project does not depend on it.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests import peers
from tests.conftest import ROOT

#: Every test runs Glance for seconds of its own: out of the fast loop. (The ``peers`` marker
#: is found from the calls, through ``round_trip``, as for every test.)
pytestmark = pytest.mark.slow

SCRIPT = ROOT / "tests" / "peers" / "glance_roundtrip.py"
METADEFS = ROOT / "outputs" / "glance-metadefs"


def round_trip(directory):
    peers.require("glance")
    result = subprocess.run(
        [str(peers.PROGRAMS["glance"].python), str(SCRIPT), str(directory)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return result.returncode, json.loads(result.stdout)


@pytest.fixture(scope="module")
def generated():
    return round_trip(METADEFS)


def written():
    """What the files say: namespace -> {resource type: the keys it should read back as}."""
    expected = {}
    for path in sorted(METADEFS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        names = [*data.get("properties", {})]
        for obj in data.get("objects", []):
            names += [*obj["properties"]]
        keys = {"": sorted(names)}
        for association in data["resource_type_associations"]:
            prefix = association.get("prefix", "")
            keys[association["name"]] = sorted(prefix + name for name in names)
        expected[data["namespace"]] = keys
    return expected


def test_every_namespace_loads_and_reads_back_without_error(generated):
    returncode, report = generated
    assert report["failures"] == []
    assert returncode == 0
    assert set(report["namespaces"]) == set(written())
    assert {entry["visibility"] for entry in report["namespaces"].values()} == {"public"}


def test_every_key_reads_back_with_its_prefix_for_every_resource_type(generated):
    _, report = generated
    for namespace, keys in written().items():
        got = {rt: sorted(names) for rt, names in report["namespaces"][namespace]["keys"].items()}
        assert got == keys, namespace


def test_flavor_and_image_spellings_of_a_shared_setting(generated):
    _, report = generated
    flavor = {
        k for e in report["namespaces"].values() for k in e["keys"].get("OS::Nova::Flavor", [])
    }
    image = {
        k for e in report["namespaces"].values() for k in e["keys"].get("OS::Glance::Image", [])
    }
    assert {"hw:cpu_policy", "hw:numa_cpus.0", "trait:HW_CPU_X86_AVX2", "resources:VCPU"} <= flavor
    assert "hw_cpu_policy" in image and "hw:cpu_policy" not in image


def test_the_check_catches_what_glance_refuses(tmp_path):
    """An attribute Glance does not know (there is no deprecation field) breaks the read-back."""
    source = METADEFS / "onespec-compute-accel.json"
    data = json.loads(source.read_text(encoding="utf-8"))
    next(iter(data["properties"].values()))["deprecated"] = True
    (tmp_path / source.name).write_text(json.dumps(data), encoding="utf-8")
    shutil.copy(METADEFS / "onespec-compute-os.json", tmp_path)
    returncode, report = round_trip(tmp_path)
    assert returncode == 1
    assert len(report["failures"]) >= 1
    assert all("Accel" in failure for failure in report["failures"])
    assert "UnknownAttribute" in " ".join(report["failures"])
