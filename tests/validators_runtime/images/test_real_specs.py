"""The seven real plugin specs load, pass ``image check``, and their quirks come out as warnings."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from onespec.validators_runtime._generated.image_validators import SCHEMA
from onespec.validators_runtime.images import (
    ImageValidationError,
    ImageValidationSpecificationError,
    LocalRemote,
    SaharaImageValidator,
)
from onespec.validators_runtime.images.reading import read_yaml
from tests.validators_runtime.images.conftest import real_specs, resource_root, spec_path
from tests.validators_runtime.images.helpers import onespec

#: Quirks each spec is known to carry: (YAML path, words the warning must contain).
QUIRKS = {
    "sahara-plugin-ambari__ambari_all-versions__image.yaml": [
        (
            "validators[8].os_case[0].redhat[3].script['centos/unlimited_security_artifacts']"
            ".env_vars[0]",
            "unlimited_security_location is neither a declared argument",
        ),
        ("validators[2].argument_case.cases", "no case for 2.4.3.0"),
    ],
    "sahara-plugin-mapr__mapr_all-versions__image.yaml": [
        ("arguments.plugin_version.hidden", "'hidden' is not one of them"),
        ("arguments.scala_version.hidden", "'hidden' is not one of them"),
        ("arguments.scala_version.default", "the number 1"),
    ],
    "sahara-plugin-spark__spark_all-versions__image.yaml": [
        (
            "validators[2].script['common/install_spark'].env_vars[1]",
            "cdh_version is neither a declared argument",
        ),
        ("validators[1].argument_case.cases", "no case for oracle-java"),
    ],
    **{
        f"sahara-plugin-cdh__cdh_v5_{minor}_0__image.yaml": [
            ("arguments.plugin_version.hidden", "'hidden' is not one of them"),
            ("validators[1].argument_case.cases", "no case for oracle-java"),
        ]
        for minor in (7, 9, 11, 13)
    },
}


def test_the_plugins_ship_seven_specs():
    spec_path(real_specs()[0])  # skips, or fails under CI, when the plugins are not provided
    assert len(real_specs()) == 7
    assert set(QUIRKS) == set(real_specs())


@pytest.mark.parametrize("name", real_specs())
def test_each_spec_loads_with_its_quirks_as_warnings(name):
    root = resource_root(name)
    spec = SaharaImageValidator.from_yaml(spec_path(name), resource_roots=[root])
    assert spec.validators, name
    found = {(w.path, w.message) for w in spec.warnings}
    for path, words in QUIRKS[name]:
        assert any(p == path and words in m for p, m in found), (path, words, found)
    for warning in spec.warnings:
        assert str(warning).startswith(f"{spec_path(name)}:"), warning
        assert warning.line is not None


@pytest.mark.parametrize("name", real_specs())
def test_each_spec_satisfies_the_json_schema(name):
    data, _ = read_yaml((spec_path(name)).read_text(encoding="utf-8"), name)
    errors = list(Draft202012Validator(SCHEMA).iter_errors(data))
    assert errors == []


@pytest.mark.parametrize("name", real_specs())
def test_image_check_passes_each_spec_and_prints_its_warnings(name):
    root = resource_root(name)
    done = onespec("image", "check", str(spec_path(name)), "--resource-root", str(root))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{spec_path(name)}: valid (" in done.stdout
    for path, words in QUIRKS[name]:
        assert any(
            line.startswith("warning: ") and f" {path}: " in line and words in line
            for line in done.stdout.splitlines()
        ), (path, done.stdout)


def test_image_check_json_lists_arguments_and_packages():
    name = "sahara-plugin-spark__spark_all-versions__image.yaml"
    root = resource_root(name)
    done = onespec(
        "image", "check", str(spec_path(name)), "--resource-root", str(root), "--format", "json"
    )
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["valid"] is True and body["errors"] == []
    assert [a["name"] for a in body["arguments"]] == [
        "plugin_version",
        "java_distro",
        "hdfs_lib_dir",
        "swift_url",
    ]
    assert "hadoop-hdfs-namenode" in body["packages"]
    assert all({"file", "path", "line", "message"} <= set(w) for w in body["warnings"])


def test_without_its_scripts_a_spec_is_refused_naming_the_missing_script(tmp_path):
    name = "sahara-plugin-spark__spark_all-versions__image.yaml"
    with pytest.raises(ImageValidationSpecificationError) as caught:
        SaharaImageValidator.from_yaml(spec_path(name), resource_roots=[tmp_path])
    error = caught.value
    assert error.file == str(spec_path(name))
    assert error.path == "validators[0].os_case[0].redhat[1].script"
    assert "centos/wget_cdh_repo" in error.reason
    assert "not a file in any resource root" in error.reason
    done = onespec("image", "check", str(spec_path(name)), "--resource-root", str(tmp_path))
    assert done.returncode == 1
    assert "centos/wget_cdh_repo" in done.stdout


def test_a_real_spec_checked_on_this_machine_fails_naming_what_is_missing(tmp_path):
    """The CDH spec, as on Ubuntu, checked without reconcile: nothing is installed."""
    name = "sahara-plugin-cdh__cdh_v5_13_0__image.yaml"
    root = resource_root(name)
    spec = SaharaImageValidator.from_yaml(spec_path(name), resource_roots=[root])
    with LocalRemote() as remote, pytest.raises(ImageValidationError) as caught:
        spec.validate(remote, reconcile=False, distro="ubuntu")
    report = caught.value.report
    assert not report.passed
    assert "cloudera-manager-agent" in str(caught.value)
    assert not any("apt-get" in command for command in report.commands)
    queries = [c for c in report.commands if c.startswith("dpkg-query -W -f='${Package}\\t")]
    scripts = [c for c in report.commands if c.startswith("env ")]
    # One query for the packages before the first script, one after each script.
    assert len(queries) <= len(scripts) + 1
    # Once something is missing, the names it may have meant are listed once for the run.
    listings = [c for c in report.commands if "apt-cache pkgnames" in c]
    assert len(listings) == 1
    assert all("SIV_RECONCILE=0" in command for command in scripts)
