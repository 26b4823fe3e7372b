"""The published schemas and metadefs API, and the installed-package guards, in the checkout.

``tests/test_installed.py`` runs the same things from a built wheel and sdist; these are the
quick checks that say which piece broke.
"""

from __future__ import annotations

import importlib.util
import json
import tomllib

import pytest
from click.testing import CliRunner

import onespec.generator.cli
from onespec.validators_runtime import resources
from onespec.validators_runtime.cli import cli
from onespec.validators_runtime.service import cli as service_cli
from tests.conftest import ROOT


def test_every_committed_schema_and_metadef_loads_by_name():
    for name, loader, directory in (
        (resources.schema_names(), resources.schema, "schemas"),
        (resources.metadef_names(), resources.metadef, "glance-metadefs"),
    ):
        on_disk = sorted(p.name for p in (ROOT / "outputs" / directory).glob("*.json"))
        assert list(name) == on_disk
        for file in name:
            assert loader(file) == json.loads((ROOT / "outputs" / directory / file).read_text())


def test_an_unknown_name_is_a_lookup_error_listing_the_others():
    with pytest.raises(LookupError, match=r"flavor-extra-specs\.schema\.json"):
        resources.schema("flavor.json")
    with pytest.raises(ValueError, match="schemas or glance-metadefs"):
        resources.directory("images")  # type: ignore[arg-type]


def test_the_api_modules_are_the_api_extra_but_its_database_driver():
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]["api"]
    names = {
        requirement.split(">")[0].split("[")[0].lower().replace(".", "_").replace("-", "_")
        for requirement in extra
    }
    assert names - {"psycopg"} == set(service_cli.API_MODULES)


@pytest.mark.parametrize(
    "argv", [["serve"], ["db", "upgrade"], ["db", "current"], ["policy", "sample"]]
)
def test_service_commands_without_the_api_extra_name_it_and_exit_2(monkeypatch, argv, tmp_path):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "waitress" else real(name, *a)
    )
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 2, result.output
    assert "its 'api' extra" in result.output and "pip install '.[api]'" in result.output
    assert "waitress is not installed" in result.output
    assert not isinstance(result.exception, ModuleNotFoundError)


@pytest.mark.parametrize(
    "argv", [["generate", "all", "--check"], ["generate", "schemas"], ["generate", "runtime"]]
)
def test_generate_outside_a_checkout_refuses_instead_of_comparing_the_wrong_files(
    monkeypatch, argv, tmp_path
):
    monkeypatch.setattr(onespec.generator.cli, "is_checkout", lambda: False)
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 2, result.output
    assert "not run from a source checkout" in result.output
    assert "--output-dir" in result.output


def test_output_dir_writes_checks_and_keeps_files_that_are_not_onespecs(tmp_path):
    (tmp_path / "compute-host-capabilities.json").write_text("{}\n")
    runner = CliRunner()
    assert (
        runner.invoke(cli, ["generate", "metadefs", "--output-dir", str(tmp_path)]).exit_code == 0
    )
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted([*resources.metadef_names(), "compute-host-capabilities.json"])
    checked = runner.invoke(cli, ["generate", "metadefs", "--output-dir", str(tmp_path), "--check"])
    assert checked.exit_code == 0, checked.output
    (tmp_path / "onespec-compute-stale.json").write_text("{}\n")
    stale = runner.invoke(cli, ["generate", "metadefs", "--output-dir", str(tmp_path), "--check"])
    assert stale.exit_code == 1 and "onespec-compute-stale.json" in stale.output
    assert (
        runner.invoke(cli, ["generate", "metadefs", "--output-dir", str(tmp_path)]).exit_code == 0
    )
    assert not (tmp_path / "onespec-compute-stale.json").exists()
    assert (tmp_path / "compute-host-capabilities.json").exists()
