"""The real TripleO Mitaka tree (``shared/corpora/tripleo-heat-templates-mitaka``): 144 templates,
54 environments and 10 other files, loaded, classified, introspected and resolved.

The corpus is read where it is; a test that changes it works on a copy in a temporary directory.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from tests.validators_runtime.heat.capabilities.test_capabilities import (
    HOT_SECTIONS,
    heat_accepts_environment,
)
from validators_runtime.heat import capabilities as api
from validators_runtime.heat.capabilities import OutputError
from validators_runtime.heat.hot_loader import load

TRIPLEO = (
    Path(__file__).resolve().parents[2].parent
    / "shared"
    / "corpora"
    / "tripleo-heat-templates-mitaka"
)
ROOT_ENVIRONMENT = "overcloud-resource-registry-puppet.yaml"

pytestmark = pytest.mark.skipif(not TRIPLEO.is_dir(), reason=f"{TRIPLEO} is missing")


@pytest.fixture(scope="module")
def scanned():
    return api.scan([TRIPLEO], recursive=True, cache=False)


@pytest.fixture
def inside(monkeypatch):
    monkeypatch.chdir(TRIPLEO)
    return TRIPLEO


def test_every_file_loads_and_is_classified(scanned):
    kinds: dict[str, int] = {}
    for record in scanned.records:
        kinds[record.kind] = kinds.get(record.kind, 0) + 1
    assert kinds == {"template": 144, "environment": 54, "other": 10}
    assert scanned.errors == ()
    assert scanned.problems == ()


def test_versions_are_strings(scanned):
    versions = {record.version for record in scanned.records if record.kind == "template"}
    assert versions == {"2014-10-16", "2015-04-30", "2015-10-15"}
    assert all(isinstance(version, str) for version in versions)


def test_the_capabilities_map_is_not_a_template(scanned):
    (record,) = [r for r in scanned.records if r.path.endswith("capabilities-map.yaml")]
    assert record.kind == "other"
    assert "capabilities map" in record.detail
    others = sorted(Path(r.path).name for r in scanned.records if r.kind == "other")
    assert others == [
        "RedHat.yaml",
        "capabilities-map.yaml",
        "ceph.yaml",
        "common.yaml",
        "compute.yaml",
        "controller.yaml",
        "database.yaml",
        "endpoint_data.yaml",
        "object.yaml",
        "volume.yaml",
    ]


def test_the_real_duplicate_keys_are_warned_about_with_both_lines(scanned):
    warnings = {
        (Path(p.path).relative_to(TRIPLEO).as_posix(), p.line): p.message
        for p in scanned.all_problems
        if p.severity == "warning"
    }
    assert set(warnings) == {
        ("extraconfig/tasks/major_upgrade_keystone_liberty_mitaka.yaml", 27),
        ("overcloud-without-mergepy.yaml", 1081),
        ("overcloud.yaml", 1081),
        ("puppet/controller.yaml", 533),
        ("puppet/controller.yaml", 1494),
        ("puppet/controller.yaml", 1564),
    }
    assert warnings[("puppet/controller.yaml", 533)].startswith(
        "duplicate key 'NeutronL3HA' at lines 475 and 533"
    )


def test_no_template_has_capabilities_yet(inside):
    assert (
        api.find(["."], {"resource_type": "OS::TripleO::Controller"}, recursive=True).matches == ()
    )
    assert api.summary(["."], recursive=True).to_dict() == {"labels": {}, "resource_types": {}}


def test_choices_reports_the_types_with_several_implementations(inside):
    environments = [ROOT_ENVIRONMENT, *sorted(str(p) for p in Path("environments").rglob("*.yaml"))]
    result = api.choices(environments)
    assert result.problems == ()
    assert len(result.environments) == 52  # the root environment and environments/**
    assert result.types["OS::TripleO::NodeUserData"] == {
        "docker/firstboot/install_docker_agents.yaml": ["environments/docker.yaml"],
        "firstboot/userdata_default.yaml": [ROOT_ENVIRONMENT],
    }
    controller_nic = result.types["OS::TripleO::Controller::Net::SoftwareConfig"]
    assert controller_nic["net-config-bridge.yaml"] == [ROOT_ENVIRONMENT]
    assert "network/config/bond-with-vlans/controller.yaml" in controller_nic
    assert result.types["OS::TripleO::ComputePostDeployment"]["OS::Heat::None"]
    assert len(result.types) > 40
    # Every implementation is a type, or a file that exists: paths were normalised correctly.
    for implementations in result.types.values():
        for implementation in implementations:
            assert "::" in implementation or Path(implementation).is_file(), implementation


def test_choices_over_the_whole_tree_finds_the_same(inside):
    everything = api.choices(["."], recursive=True)
    assert len(everything.environments) == 54
    explicit = api.choices(
        [ROOT_ENVIRONMENT, *sorted(str(p) for p in Path("environments").rglob("*.yaml"))]
    )
    assert set(explicit.types) <= set(everything.types)


def test_every_exclusive_group_of_the_capabilities_map_is_a_choice(inside):
    """TripleO's map groups mutually exclusive environments; they map some type differently."""
    capabilities_map = yaml.safe_load(Path("capabilities-map.yaml").read_text())
    assert load(capabilities_map["root_template"]).data["heat_template_version"] == "2015-04-30"
    groups = 0
    for topic in capabilities_map["topics"]:
        for group in topic["environment_groups"]:
            files = [environment["file"] for environment in group["environments"]]
            for name in files:
                assert api.scan([name], cache=False).records[0].kind == "environment"
            if len(files) > 1:
                groups += 1
                assert api.choices(files).types, group["title"]
    assert groups == 2


@pytest.mark.parametrize(
    "environment",
    sorted(str(p.relative_to(TRIPLEO)) for p in (TRIPLEO / "environments").rglob("*.yaml"))
    if TRIPLEO.is_dir()
    else [],
)
def test_every_real_environment_resolves_to_one_heat_accepts(inside, environment):
    resolution = api.resolve([ROOT_ENVIRONMENT, environment])
    assert resolution.decisions == ()  # no lists in Mitaka
    heat_accepts_environment(resolution.to_yaml())
    original = load(environment).data
    registry = resolution.environment["resource_registry"]
    if environment == "environments/overcloud-steps.yaml":
        assert registry["resources"] == original["resource_registry"]["resources"]
    for section in ("parameters", "parameter_defaults"):
        for key, value in original.get(section, {}).items():
            assert resolution.environment[section][key] == value


def annotate(path: Path, capabilities: dict) -> None:
    """Add a capabilities section after the version line, keeping the rest of the text."""
    lines = path.read_text().splitlines(keepends=True)
    block = yaml.safe_dump({"capabilities": capabilities}, default_flow_style=False)
    index = next(i for i, line in enumerate(lines) if line.startswith("heat_template_version"))
    path.write_text("".join([*lines[: index + 1], "\n", block, *lines[index + 1 :]]))


def test_resolving_and_writing_the_real_tree(tmp_path, monkeypatch):
    tree = tmp_path / "tripleo"
    shutil.copytree(TRIPLEO, tree)
    monkeypatch.chdir(tree)
    post = "OS::TripleO::ComputePostDeployment"
    annotate(tree / "puppet" / "compute-post.yaml", {"deployment": "puppet", "resource_type": post})
    annotate(tree / "docker" / "compute-post.yaml", {"deployment": "docker", "resource_type": post})
    (tree / "environments" / "choose.yaml").write_text(
        "requires:\n  deployment: docker\nresource_registry:\n"
        f"  {post}: [../puppet/compute-post.yaml, ../docker/compute-post.yaml]\n"
    )
    resolution = api.resolve(
        [ROOT_ENVIRONMENT, "environments/network-isolation.yaml", "environments/choose.yaml"]
    )
    (decision,) = resolution.decisions
    assert decision.chosen.path == "docker/compute-post.yaml"

    # The YAML-only corpus lacks the scripts and manifests its templates read with get_file:
    # each is reported, with the template and line that names it, and nothing is written.
    out = tmp_path / "out"
    with pytest.raises(OutputError) as caught:
        api.write_resolution(resolution, out)
    missing = [p for p in caught.value.problems if p.endswith("which does not exist")]
    assert missing == list(caught.value.problems)
    assert any(":" in p.split(": ")[0] for p in missing)  # path:line of the reference
    assert not out.exists()
    for problem in missing:
        target = Path(problem.split(" names ")[1].rsplit(", which", 1)[0])
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("# placeholder for the test\n")

    written = api.write_resolution(resolution, out)
    assert Path(written.root) == tree
    assert written.stripped == ("docker/compute-post.yaml",)
    text = (out / "environment.yaml").read_text()
    heat_accepts_environment(text)
    registry = yaml.safe_load(text)["resource_registry"]
    assert registry[post] == "docker/compute-post.yaml"
    for value in registry.values():
        if isinstance(value, str) and "::" not in value:
            assert (out / value).is_file(), value
    for path in out.rglob("*.yaml"):
        data = load(path).data
        if "heat_template_version" in data:
            assert set(data) <= HOT_SECTIONS, path
    # Files the copies read came along, Hiera data included.
    assert (out / "puppet" / "hieradata" / "common.yaml").is_file()
