"""onespec validate fleet: flavors alone, then pairs grouped by (flavor, rule)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from onespec.validators_runtime.cli import cli
from onespec.validators_runtime.flavors import read_flavor, read_image
from onespec.validators_runtime.flavors.fleet import check_fleet

FLAVORS = [
    {"Name": "m1.small", "VCPUs": 1, "RAM": 2048, "Disk": 20, "Properties": {}},
    {"Name": "m1.pmu", "VCPUs": 4, "RAM": 4096, "Disk": 20, "Properties": {"hw:pmu": "false"}},
    {"Name": "m1.odd", "VCPUs": 3, "RAM": 4096, "Disk": 20, "Properties": {"hw:numa_nodes": "2"}},
]


def images(count: int) -> list[dict]:
    return [
        {
            "ID": str(i),
            "Name": f"img{i}",
            "Size": 10**9 + i,
            "Properties": {"hw_pmu": "true" if i % 2 else "false"},
        }
        for i in range(count)
    ]


def test_a_thousand_pairs_with_one_cause_are_one_cause():
    report = check_fleet([read_flavor(f) for f in FLAVORS], [read_image(i) for i in images(1000)])
    assert report.image_groups == 2  # hw_pmu takes two values; sizes are counted, not grouped
    assert [(name, f.nova_exception) for name, f in report.alone] == [
        ("m1.odd", "ImageNUMATopologyAsymmetric")
    ]
    assert [(c.flavor, c.finding.code, c.pairs) for c in report.causes] == [
        ("m1.pmu", "pmu-flavor-image-differ", 500)
    ]
    assert report.causes[0].images == ["img1", "img3", "img5"]


def test_the_command_reports_json_and_exits_1(tmp_path):
    (tmp_path / "f.json").write_text(json.dumps(FLAVORS))
    (tmp_path / "i.json").write_text(json.dumps({"images": images(10)}))
    args = [
        "validate",
        "fleet",
        "--flavors",
        str(tmp_path / "f.json"),
        "--images",
        str(tmp_path / "i.json"),
    ]
    result = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["refused_pairs"] == 5
    assert report["pair_findings"][0]["nova_exception"] == "FlavorImageConflict"
    assert report["pair_findings"][0]["phase"] == "api"
    text = CliRunner().invoke(cli, args).stdout
    assert "flavor m1.pmu with 5 images (img1, img3, img5 and 2 more)" in text


def test_a_flavor_built_by_hand_with_keys_that_are_not_text_is_reported_not_raised():
    from onespec.validators_runtime.flavors import Flavor, Image
    from onespec.validators_runtime.flavors.fleet import check_fleet

    flavor = Flavor(2, 1024, 1, extra_specs={1: "x", "hw:cpu_policy": "mixed"}, name="odd")
    report = check_fleet([flavor], [Image({"hw_pmu": "true"}, name="i")])
    assert {finding.code for _, finding in report.alone} == {"invalid-key", "mixed-needs-a-mask"}
