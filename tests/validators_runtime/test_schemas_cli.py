"""``onespec schemas``: the editors' offline setup points at files that exist and check files.

The language server reads ``yaml.schemas`` as printed by ``onespec schemas settings``; here each
example of the editors guide is routed through those patterns as the language server routes it,
and validated with the local file the setting names (no URL is ever fetched).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from tests.commands import onespec, onespec_process
from tests.conftest import ROOT
from tests.generator.test_catalog import EXAMPLES, examples, matches


@pytest.mark.process  # python -m onespec finds the files of the package it imports
def test_path_prints_the_directory_that_holds_the_schemas_and_the_catalog():
    done = onespec_process("schemas", "path", module=True)
    assert done.returncode == 0, done.stderr
    directory = Path(done.stdout.strip())
    assert (directory / "catalog.json").is_file()
    assert (directory / "flavor-extra-specs.schema.json").is_file()


def test_path_of_one_file_in_json():
    done = onespec("schemas", "path", "hot-capabilities.schema.json", "--format", "json")
    assert done.returncode == 0, done.stderr
    found = Path(json.loads(done.stdout)["path"])
    assert json.loads(found.read_text(encoding="utf-8"))["title"]


def test_a_misspelt_file_name_is_a_usage_error_with_a_suggestion():
    done = onespec("schemas", "path", "flavor-extra-spec.schema.json")
    assert done.returncode == 2
    assert "Did you mean 'flavor-extra-specs.schema.json'?" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_the_settings_route_every_example_to_a_local_schema_that_accepts_it():
    done = onespec("schemas", "settings", "--format", "json")
    assert done.returncode == 0, done.stderr
    mapping = json.loads(done.stdout)["yaml.schemas"]
    assert len(mapping) == 5
    for local in mapping:
        assert Path(local).is_absolute() and Path(local).is_file(), local
        assert not local.startswith("http")
    checked = 0
    for example in examples():
        relative = example.relative_to(ROOT).as_posix()
        (local,) = [
            path
            for path, patterns in mapping.items()
            if any(matches(pattern, relative) for pattern in patterns)
        ]
        schema = json.loads(Path(local).read_text(encoding="utf-8"))
        errors = list(Draft202012Validator(schema).iter_errors(yaml.safe_load(example.read_text())))
        assert errors == [], (example, errors)
        checked += 1
    assert checked == len(list(EXAMPLES.rglob("*.yaml")))


def test_the_text_settings_are_the_same_setting_for_people_to_paste():
    text = onespec("schemas", "settings")
    machine = onespec("schemas", "settings", "--format", "json")
    assert json.loads(text.stdout) == json.loads(machine.stdout)
    assert text.stdout.count("\n") > 10  # indented, one pattern a line


def test_every_modeline_of_the_examples_names_a_local_schema_file():
    modelines = 0
    for example in examples():
        first = example.read_text(encoding="utf-8").splitlines()[0]
        if first.startswith("# yaml-language-server: $schema="):
            target = (example.parent / first.partition("$schema=")[2]).resolve()
            assert target.is_file(), (example, target)
            modelines += 1
    assert modelines >= 1
