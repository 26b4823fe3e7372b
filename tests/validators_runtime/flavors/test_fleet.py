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


def fleet_command(folder, flavors, images) -> list[str]:
    """``validate fleet`` on the two lists, written as files in ``folder``."""
    (folder / "f.json").write_text(json.dumps(flavors))
    (folder / "i.json").write_text(json.dumps(images))
    return [
        "validate",
        "fleet",
        "--flavors",
        str(folder / "f.json"),
        "--images",
        str(folder / "i.json"),
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
    args = fleet_command(tmp_path, FLAVORS, {"images": images(10)})
    result = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    # m1.odd, refused on its own, refuses its 10 pairs; m1.pmu the 5 images with hw_pmu=true.
    assert report["refused_pairs"] == 15
    assert report["pairs"] == 30
    assert report["pair_findings"][0]["nova_exception"] == "FlavorImageConflict"
    assert report["pair_findings"][0]["phase"] == "api"
    text = CliRunner().invoke(cli, args).stdout
    assert "flavor m1.pmu with 5 images (img1, img3, img5 and 2 more)" in text


def test_a_pair_two_rules_refuse_is_one_refused_pair():
    """Each cause counts its images, but the report counts pairs: one image that breaks two
    rules with one flavor is one refused pair of one."""
    flavor = read_flavor(
        {"name": "f", "vcpus": 1, "ram": 512, "disk": 1, "extra_specs": {"hw:pmu": "false"}}
    )
    image = read_image(
        {"name": "i", "min_ram": 1024, "min_disk": 5, "properties": {"hw_pmu": "true"}}
    )
    report = check_fleet([flavor], [image])
    assert sorted(c.finding.code for c in report.causes) == [
        "flavor-disk-below-image-min-disk",
        "flavor-ram-below-image-min-ram",
        "pmu-flavor-image-differ",
    ]
    assert report.refused_pairs == 1
    assert report.unbootable == ["f"]


def test_pairs_are_counted_once_whichever_rules_refuse_them():
    """Against a count made pair by pair with the whole check, over flavors and images whose
    sizes and properties draw from small sets, so that images share groups and rules overlap."""
    import random

    from onespec.validators_runtime.flavors import validate_flavor

    chance = random.Random(7)  # noqa: S311 - a reproducible draw, not a secret
    flavors = [
        read_flavor(
            {
                "name": f"f{n}",
                "vcpus": chance.choice((1, 2)),
                "ram": chance.choice((512, 1024, 2048)),
                "disk": chance.choice((0, 1, 5, 10)),
                "extra_specs": chance.choice(({}, {"hw:pmu": "false"}, {"hw:pmu": "true"})),
            }
        )
        for n in range(12)
    ]
    images = [
        read_image(
            {
                "name": f"i{n}",
                "min_ram": chance.choice((0, 512, 1024, 4096)),
                "min_disk": chance.choice((0, 1, 5, 20)),
                "size": chance.choice((0, 10**9, 3 * 2**30, 2**34)),
                "properties": chance.choice(({}, {"hw_pmu": "true"}, {"hw_pmu": "false"})),
            }
        )
        for n in range(300)  # more than one block of the size count
    ]
    report = check_fleet(flavors, images, as_admin=True)
    refused = 0
    unbootable = []
    for flavor in flavors:
        verdicts = [
            any(f.severity == "error" for f in validate_flavor(flavor, image, as_admin=True))
            for image in images
        ]
        refused += sum(verdicts)
        if all(verdicts) and not any(
            f.severity == "error" for f in validate_flavor(flavor, as_admin=True)
        ):
            unbootable.append(flavor.name)
    assert report.refused_pairs == refused
    assert 0 < refused < len(flavors) * len(images)
    assert report.unbootable == unbootable


def test_a_fleet_past_the_budget_is_refused_before_any_check_naming_what_it_needs(tmp_path):
    from onespec.validators_runtime.flavors.fleet import FleetTooLarge

    distinct = [
        read_image({"name": f"i{n}", "properties": {"hw_video_ram": str(n + 1)}}) for n in range(50)
    ]
    flavors = [read_flavor(f) for f in FLAVORS]
    try:
        check_fleet(flavors, distinct, max_checks=100)
    except FleetTooLarge as exc:
        assert exc.needed == 150
        assert "--max-checks 150" in str(exc)
    else:
        raise AssertionError("a fleet past its budget was checked")
    assert check_fleet(flavors, distinct, max_checks=150).image_groups == 50
    listed = [{"name": f"i{n}", "properties": {"hw_video_ram": str(n + 1)}} for n in range(50)]
    args = fleet_command(tmp_path, FLAVORS, listed)
    result = CliRunner().invoke(cli, [*args, "--max-checks", "100"])
    assert result.exit_code == 2
    assert "150 checks, more than the 100 allowed" in result.stderr
    assert "--max-checks 150" in result.stderr
    assert CliRunner().invoke(cli, [*args, "--max-checks", "150"]).exit_code == 1


def test_as_an_admin_a_zero_disk_flavor_refuses_no_pair():
    """Nova's policy refuses a 0 GB root disk to members only: as an admin, no pair with it is
    refused for that, neither on its own nor as a cause."""
    flavor = read_flavor({"name": "z", "vcpus": 1, "ram": 512, "disk": 0})
    image = read_image({"name": "i"})
    member = check_fleet([flavor], [image])
    assert [f.code for _, f in member.alone] == ["zero-disk-needs-volume"]
    assert member.refused_pairs == 1
    admin = check_fleet([flavor], [image], as_admin=True)
    assert (admin.alone, admin.causes, admin.refused_pairs, admin.unbootable) == ([], [], 0, [])


def test_the_commands_default_budget_is_the_runtimes():
    import inspect

    from onespec.validators_runtime import flavor_cli, inputs

    (option,) = [p for p in flavor_cli.validate_fleet_command.params if p.name == "max_checks"]
    assert option.default == inputs.MAX_FLEET_CHECKS
    default = inspect.signature(check_fleet).parameters["max_checks"].default
    assert default == inputs.MAX_FLEET_CHECKS


def test_the_size_rules_compare_with_ram_and_disk_as_the_fleets_count_needs():
    from onespec.validators_runtime.flavors import fleet

    assert fleet._LIMIT_FIELDS == ("ram", "disk")


def test_a_flavor_built_by_hand_with_keys_that_are_not_text_is_reported_not_raised():
    from onespec.validators_runtime.flavors import Flavor, Image
    from onespec.validators_runtime.flavors.fleet import check_fleet

    flavor = Flavor(2, 1024, 1, extra_specs={1: "x", "hw:cpu_policy": "mixed"}, name="odd")
    report = check_fleet([flavor], [Image({"hw_pmu": "true"}, name="i")])
    assert {finding.code for _, finding in report.alone} == {"invalid-key", "mixed-needs-a-mask"}
