"""``onespec template-capabilities ...`` as a user runs it (in-process, :mod:`tests.commands`):
exit codes 0, 1 and 2, text and JSON, the seed's examples and the guide's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from tests import commands
from tests.conftest import ROOT
from tests.validators_runtime.heat.template_capabilities.test_capabilities import (
    SEED,
    heat_accepts_environment,
)


def onespec(*args: str, cwd: Path, env: dict[str, str] | None = None):
    return commands.onespec("template-capabilities", *args, cwd=cwd, env=env)


@pytest.fixture
def seed(tmp_path, monkeypatch):
    target = tmp_path / "templates"
    shutil.copytree(SEED, target)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return target


def test_find_prints_one_path_per_line(seed):
    done = onespec(
        "find", "-r", "-c", "resource_type=OS::TripleO::Controller", "docker", "puppet", cwd=seed
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "docker/controller.yaml\npuppet/controller.yaml\n"
    assert done.stderr == ""


def test_find_as_json(seed):
    done = onespec("find", "-r", "-c", "deployment=docker", "--format", "json", ".", cwd=seed)
    report = json.loads(done.stdout)
    assert report["matches"] == ["docker/controller.yaml"]
    assert report["constraints"] == [{"key": "deployment", "value": "docker"}]
    assert report["templates"] == 2


@pytest.mark.parametrize(
    "args",
    [
        ("find", "-c", "deployment", "."),  # not KEY=VALUE
        ("find", "-c", "=x", "."),
        ("find", "."),  # no -c
        ("find", "-c", "a=b", "missing-path"),
        ("summary",),
        ("resolve",),
        ("resolve", "-e", "environment.yaml", "--root", "."),
        ("frobnicate",),
    ],
)
def test_usage_errors_exit_2(seed, args):
    done = onespec(*args, cwd=seed)
    assert done.returncode == 2, (done.stdout, done.stderr)


def test_summary_prints_both_summaries(seed):
    done = onespec(
        "summary", "-f", "json", "puppet/controller.yaml", "docker/controller.yaml", cwd=seed
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "labels": {"deployment": ["docker", "puppet"]},
        "resource_types": {
            "OS::TripleO::Controller": ["docker/controller.yaml", "puppet/controller.yaml"]
        },
        "problems": [],
    }
    recursive = onespec("summary", "-r", ".", "--format", "json", cwd=seed)
    assert json.loads(recursive.stdout) == json.loads(done.stdout)
    text = onespec("summary", "-r", ".", cwd=seed)
    assert text.stdout.splitlines() == [
        "label deployment: docker, puppet",
        "resource type OS::TripleO::Controller: docker/controller.yaml, puppet/controller.yaml",
    ]


def test_invalid_files_are_reported_and_exit_1_with_the_results(seed):
    (seed / "broken.yaml").write_text("heat_template_version: 2015-10-15\ncapabilities: [x]\n")
    done = onespec("find", "-r", "-c", "deployment=puppet", ".", cwd=seed)
    assert done.returncode == 1
    assert done.stdout == "puppet/controller.yaml\n"
    assert done.stderr.startswith(
        "Error: broken.yaml:2: the capabilities section must be a mapping"
    )


def test_problems_in_json_name_the_file_and_the_line_as_every_area_does(seed):
    (seed / "broken.yaml").write_text("heat_template_version: 2015-10-15\ncapabilities: [x]\n")
    done = onespec("find", "-r", "-c", "deployment=puppet", "--format", "json", ".", cwd=seed)
    assert done.returncode == 1
    (problem,) = json.loads(done.stdout)["problems"]
    assert problem["file"] == "broken.yaml"
    assert problem["line"] == 2
    assert problem["path"] == "capabilities"  # a place inside the document, not the file
    assert problem["code"] == "invalid-section" and problem["severity"] == "error"


def test_a_directory_without_recursion_is_a_usage_error(seed):
    done = onespec("find", "-c", "deployment=puppet", "puppet", "docker/controller.yaml", cwd=seed)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Error: 'puppet' is a directory: give -r to scan it\n" in done.stderr


@pytest.mark.parametrize(
    "query",
    [("find", "-c", "deployment=puppet"), ("summary",), ("choices",)],
    ids=["find", "summary", "choices"],
)
def test_skip_invalid_lists_the_files_left_out_and_exits_0(seed, query):
    (seed / "broken.yaml").write_text("heat_template_version: 2015-10-15\ncapabilities: [x]\n")
    failing = onespec(*query, "-r", ".", cwd=seed)
    assert failing.returncode == 1
    done = onespec(*query, "-r", "--skip-invalid", ".", cwd=seed)
    assert done.returncode == 0, done.stderr
    assert done.stdout == failing.stdout
    assert done.stderr == (
        "Warning: skipped broken.yaml:2: the capabilities section must be a mapping of names "
        "to values, not a list\n"
    )


def test_find_exits_1_when_nothing_matches_as_grep_does(seed):
    done = onespec("find", "-r", "-c", "deployment=ansible", ".", cwd=seed)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "")
    found = onespec("find", "-r", "-c", "deployment=puppet", ".", cwd=seed)
    assert (found.returncode, found.stdout) == (0, "puppet/controller.yaml\n")


def test_warnings_only_with_verbose(seed):
    (seed / "dup.yaml").write_text("heat_template_version: 2015-10-15\na: 1\na: 2\n")
    quiet = onespec("find", "-r", "-c", "deployment=puppet", ".", cwd=seed)
    assert quiet.returncode == 0
    assert quiet.stderr == ""
    loud = onespec("find", "-v", "-r", "-c", "deployment=puppet", ".", cwd=seed)
    assert loud.returncode == 0
    assert loud.stderr == (
        "Warning: dup.yaml:3: duplicate key 'a' at lines 2 and 3: YAML keeps the last "
        "value silently, and so does Heat; remove one of them\n"
    )


def test_resolve_prints_an_environment_heat_accepts(seed):
    done = onespec("resolve", "-e", "environment.yaml", cwd=seed)
    assert done.returncode == 0, done.stderr
    heat_accepts_environment(done.stdout)
    assert yaml.safe_load(done.stdout) == {
        "resource_registry": {"OS::TripleO::Controller": str(seed / "puppet" / "controller.yaml")}
    }
    assert "use '--output-dir' for copies without it" in done.stderr


@pytest.mark.parametrize("environment", ["ansible.yaml", "any.yaml"])
def test_resolve_exits_1_when_a_list_does_not_resolve(seed, environment):
    done = onespec("resolve", "-e", environment, cwd=seed)
    assert done.returncode == 1
    assert done.stdout == ""
    assert "puppet/controller.yaml (capabilities {deployment: puppet" in done.stderr
    report = json.loads(onespec("resolve", "-e", environment, "--format", "json", cwd=seed).stdout)
    assert report["resolved"] is False
    assert [c["matched"] for c in report["decisions"][0]["candidates"]] in (
        [False, False],
        [True, True],
    )


def test_resolve_exits_1_for_an_environment_heat_would_refuse(seed):
    (seed / "bad.yaml").write_text("requires: {deployment: puppet}\nresources: {}\n")
    done = onespec("resolve", "-e", "bad.yaml", cwd=seed)
    assert done.returncode == 1
    assert done.stderr.startswith("Error: bad.yaml:2: environment has wrong section")


def test_resolve_with_an_output_directory(seed, tmp_path):
    out = tmp_path / "out"
    done = onespec("resolve", "-e", "environment.yaml", "--output-dir", str(out), cwd=seed)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{out / 'environment.yaml'}\n"
    heat_accepts_environment((out / "environment.yaml").read_text())
    assert "capabilities" not in (out / "puppet" / "controller.yaml").read_text()
    again = onespec("resolve", "-e", "environment.yaml", "--output-dir", str(out), cwd=seed)
    assert again.returncode == 2
    assert "is not empty" in again.stderr
    forced = onespec(
        "resolve",
        "-e",
        "environment.yaml",
        "--output-dir",
        str(out),
        "--overwrite",
        "--format",
        "json",
        cwd=seed,
    )
    assert forced.returncode == 0
    assert json.loads(forced.stdout)["written"]["stripped"] == ["puppet/controller.yaml"]


def test_choices(seed):
    (seed / "other.yaml").write_text(
        "resource_registry:\n  OS::TripleO::Controller: docker/controller.yaml\n"
    )
    (seed / "first.yaml").write_text(
        "resource_registry:\n  OS::TripleO::Controller: puppet/controller.yaml\n"
    )
    done = onespec("choices", "first.yaml", "other.yaml", cwd=seed)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "OS::TripleO::Controller: 2 implementations\n"
        "  docker/controller.yaml\n"
        "      from other.yaml\n"
        "  puppet/controller.yaml\n"
        "      from first.yaml\n"
    )
    report = json.loads(
        onespec("choices", "--format", "json", "first.yaml", "other.yaml", cwd=seed).stdout
    )
    assert report["choices"]["OS::TripleO::Controller"]["docker/controller.yaml"] == ["other.yaml"]


def test_no_cache_leaves_the_cache_alone(seed, tmp_path):
    onespec("find", "--no-cache", "-r", "-c", "a=b", ".", cwd=seed)
    assert not (tmp_path / "cache").exists()
    onespec("find", "-r", "-c", "a=b", ".", cwd=seed)
    assert list((tmp_path / "cache" / "onespec" / "template-capabilities").glob("*.json"))


def test_help_of_every_command():
    for command in ("find", "summary", "choices", "resolve"):
        done = onespec(command, "--help", cwd=ROOT)
        assert done.returncode == 0
        assert "Usage: onespec template-capabilities " + command in done.stdout


# --- The guide's console sessions are what the commands print -------------------------------------

# The guide's sessions run as written in tests/test_doc_blocks.py, on examples/capabilities.
