"""TripleO's template tree as released (``tripleo-heat-templates`` 18.0.0, 1,672 YAML files):
loaded, classified, introspected, resolved, and what onespec writes read back by Heat itself.

The tree is read from its source distribution (``make peers``) where it is unpacked; a test that
changes it works on a copy in a temporary directory.
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml

from onespec.validators_runtime.heat import template_capabilities as api
from onespec.validators_runtime.heat.hot_loader import load
from tests import peers
from tests.validators_runtime.heat.template_capabilities.test_capabilities import (
    HOT_SECTIONS,
    heat_accepts_environment,
)
from tests.validators_runtime.heat.template_capabilities.test_heat import heat

SOURCE = peers.peer("tripleo-heat-templates")
TREE = SOURCE.location
CAPABILITIES_MAP = (
    Path(__file__).resolve().parents[3] / "fixtures" / "tripleo-capabilities-map.yaml"
)

#: Environments Heat itself refuses (an empty section), as onespec does, with Heat's words.
REFUSED = {
    "environments/barbican-backend-dogtag.yaml": 3,
    "environments/barbican-backend-kmip.yaml": 3,
    "environments/firewall.yaml": 4,
}
EMPTY_SECTION = 'environment has empty section "parameter_defaults"'


def plain_environments() -> list[str]:
    """The environments TripleO ships ready to use: no Jinja sources, no release notes."""
    if not peers.is_provided(SOURCE):
        return ["tripleo-heat-templates-not-provided"]
    return sorted(
        path.relative_to(TREE).as_posix()
        for path in (TREE / "environments").rglob("*.yaml")
        if ".j2." not in path.name and "releasenotes" not in path.parts
    )


@pytest.fixture(scope="module")
def tree() -> Path:
    peers.require("tripleo-heat-templates")
    return TREE


@pytest.fixture(scope="module")
def scanned(tree):
    return api.scan([tree], recursive=True, cache=False)


@pytest.fixture
def inside(tree, monkeypatch):
    monkeypatch.chdir(tree)
    return tree


def test_every_file_is_classified_and_the_scan_goes_on(scanned):
    kinds = Counter(record.kind for record in scanned.records)
    assert kinds == {"template": 279, "environment": 229, "other": 1167}
    assert scanned.problems == ()
    errors = {
        (Path(p.location.file).relative_to(TREE).as_posix(), p.location.line): p.message
        for p in scanned.errors
    }
    assert errors == {(path, line): EMPTY_SECTION for path, line in REFUSED.items()}


def test_heat_refuses_the_same_environments(tree):
    texts = [(tree / path).read_text() for path in REFUSED]
    assert heat(environments=texts)["environments"] == [f"ValueError: {EMPTY_SECTION}"] * 3


def test_files_that_are_not_heats_are_others_with_the_reason(scanned):
    others = {
        Path(r.path).relative_to(TREE).as_posix(): r.detail
        for r in scanned.records
        if r.kind == "other"
    }
    for name in ("roles_data.yaml", "zuul.d/layout.yaml", "network_data_default.yaml"):
        assert others[name].startswith(
            "not a template or environment (The template is not a JSON"
        ), name
    assert "found character '%'" in others["overcloud.j2.yaml"]  # a Jinja source, not YAML
    assert sum(1 for name in others if ".j2." in name) == 40


def test_a_file_named_explicitly_is_still_an_error(tree):
    result = api.scan([tree / "roles_data.yaml"], cache=False)
    (record,) = result.records
    assert record.kind == "error"
    assert "not a JSON object or YAML mapping" in record.problems[0].message


def test_versions_are_strings(scanned):
    versions = {record.version for record in scanned.records if record.kind == "template"}
    assert versions == {"wallaby"}


def test_no_template_has_capabilities_yet(inside):
    assert (
        api.find(["."], {"resource_type": "OS::TripleO::Controller"}, recursive=True).matches == ()
    )
    summary = api.summary(["."], recursive=True).to_dict()
    assert (summary["labels"], summary["resource_types"]) == ({}, {})
    # What it cannot read is said, as find and choices say it: TripleO's few environments with
    # an empty section, each named with its line.
    problems = summary.get("problems", [])
    assert {problem["code"] for problem in problems} <= {"empty-section"}
    assert all(problem["file"] and problem["line"] for problem in problems)


def test_choices_reports_the_types_with_several_implementations(inside):
    environments = [e for e in plain_environments() if e not in REFUSED]
    result = api.choices(environments)
    assert result.problems == ()
    assert len(result.environments) == len(environments)
    assert result.types["OS::TripleO::AllNodesExtraConfig"] == {
        "extraconfig/all_nodes/swap-partition.yaml": ["environments/enable-swap-partition.yaml"],
        "extraconfig/all_nodes/swap.yaml": ["environments/enable-swap.yaml"],
    }
    mysql = result.types["OS::TripleO::Services::MySQL"]
    assert {
        "deployment/database/mysql-container-puppet.yaml",
        "deployment/database/mysql-pacemaker-puppet.yaml",
    } <= set(mysql)
    assert len(result.types) > 80


def test_every_exclusive_group_of_a_capabilities_map_is_a_choice(inside):
    """Groups of mutually exclusive environments map some resource type differently."""
    capabilities_map = yaml.safe_load(CAPABILITIES_MAP.read_text())
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


@pytest.fixture(scope="module")
def resolutions(tree) -> dict[str, str]:
    """Each plain environment resolved on its own, as the text onespec writes."""
    texts = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tree)
        for environment in plain_environments():
            if environment not in REFUSED:
                texts[environment] = api.resolve([environment]).to_yaml()
    return texts


def test_heat_accepts_every_resolved_environment(resolutions):
    verdicts = heat(environments=list(resolutions.values()))["environments"]
    refused = {name: v for name, v in zip(resolutions, verdicts, strict=True) if v is not None}
    assert refused == {}
    assert len(resolutions) > 180


@pytest.mark.parametrize("environment", plain_environments())
def test_every_plain_environment_resolves_or_is_refused_in_heats_words(inside, environment):
    if environment in REFUSED:
        with pytest.raises(api.CapabilitiesError, match=EMPTY_SECTION):
            api.resolve([environment])
        return
    resolution = api.resolve([environment])
    assert resolution.decisions == ()  # nothing ships capabilities yet
    heat_accepts_environment(resolution.to_yaml())
    original = load(environment).data
    for section in ("parameters", "parameter_defaults"):
        for key, value in (original.get(section) or {}).items():
            assert resolution.environment[section][key] == value


def annotate(path: Path, capabilities: dict) -> None:
    """Add a capabilities section after the version line, keeping the rest of the text."""
    lines = path.read_text().splitlines(keepends=True)
    block = yaml.safe_dump({"capabilities": capabilities}, default_flow_style=False)
    index = next(i for i, line in enumerate(lines) if line.startswith("heat_template_version"))
    path.write_text("".join([*lines[: index + 1], "\n", block, *lines[index + 1 :]]))


def test_resolving_and_writing_the_real_tree(tree, tmp_path, monkeypatch):
    copy = tmp_path / "tripleo"
    shutil.copytree(tree, copy, ignore=shutil.ignore_patterns(".onespec-peer"))
    monkeypatch.chdir(copy)
    mysql = "OS::TripleO::Services::MySQL"
    database = copy / "deployment" / "database"
    annotate(database / "mysql-container-puppet.yaml", {"ha": "no", "resource_type": mysql})
    annotate(database / "mysql-pacemaker-puppet.yaml", {"ha": "pacemaker", "resource_type": mysql})
    (copy / "environments" / "choose.yaml").write_text(
        "requires:\n  ha: pacemaker\nresource_registry:\n"
        f"  {mysql}:\n    - ../deployment/database/mysql-container-puppet.yaml\n"
        "    - ../deployment/database/mysql-pacemaker-puppet.yaml\n"
    )
    resolution = api.resolve(["environments/debug.yaml", "environments/choose.yaml"])
    (decision,) = resolution.decisions
    assert decision.chosen.path == "deployment/database/mysql-pacemaker-puppet.yaml"

    out = tmp_path / "out"
    # The default root is the environments' folder: TripleO's templates lie beside it.
    with pytest.raises(api.OutputError, match="give --root a directory that holds it"):
        api.write_resolution(resolution, out)
    assert not out.exists()  # refused: nothing written
    written = api.write_resolution(resolution, out, root=copy)
    assert Path(written.root) == copy.resolve()
    assert written.stripped == ("deployment/database/mysql-pacemaker-puppet.yaml",)
    text = (out / "environment.yaml").read_text()
    registry = yaml.safe_load(text)["resource_registry"]
    assert registry[mysql] == "deployment/database/mysql-pacemaker-puppet.yaml"
    templates = [p for p in out.rglob("*.yaml") if "heat_template_version" in load(p).data]
    for path in templates:
        assert set(load(path).data) <= HOT_SECTIONS, path
    verdicts = heat(environments=[text], templates=[p.read_text() for p in templates])
    assert verdicts == {"environments": [None], "templates": [None] * len(templates)}
