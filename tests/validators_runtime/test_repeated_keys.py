"""A key given twice in a YAML or JSON file: the file loads as before (the later value wins) and
each command that reads it warns, with the lines of both occurrences and the value used; the
verdict and the exit status are the loaded data's."""

from __future__ import annotations

import json
import string

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from onespec.validators_runtime import yaml_limits
from onespec.validators_runtime.cli import cli
from onespec.validators_runtime.cli_grammar import MAX_REPEAT_WARNINGS
from onespec.validators_runtime.repeated_keys import RepeatedKey, load_json, load_yaml
from onespec.validators_runtime.yaml_lines import repeated_keys

LOADER = yaml_limits.counting_loader("_TestLoader")

SPECS_YAML = """\
hw:cpu_policy: shared
hw:numa_nodes: "2"
hw:cpu_policy: dedicated
"""

SPECS_JSON = """\
{
  "hw:cpu_policy": "shared",
  "hw:numa_nodes": "2",
  "hw:cpu_policy": "dedicated"
}
"""


def run(*arguments: str):
    return CliRunner().invoke(cli, ["validate", *arguments])


# --- the readers -------------------------------------------------------------------------------


def test_yaml_loads_as_before_and_names_both_lines():
    data, repeats = load_yaml(SPECS_YAML, LOADER)
    assert data == yaml.safe_load(SPECS_YAML)
    assert repeats == [RepeatedKey("hw:cpu_policy", 1, 3, "dedicated")]


def test_json_loads_as_before_and_names_both_lines():
    data, repeats = load_json(SPECS_JSON)
    assert data == json.loads(SPECS_JSON)
    assert repeats == [RepeatedKey("hw:cpu_policy", 2, 4, "dedicated")]


def test_json_reader_options_still_apply():
    data, repeats = load_json('{"a": 1,\n"a": 2.5}', parse_int=str, parse_float=str)
    assert data == {"a": "2.5"}
    assert repeats == [RepeatedKey("a", 1, 2, "2.5")]


def test_repeats_are_found_in_nested_mappings_of_both_formats():
    text = '{"flavor": {"extra_specs": {"k": "1",\n "k": "2"}},\n "list": [{"x": 1, "x": 2}]}'
    _, from_json = load_json(text)
    _, from_yaml = load_yaml(text, LOADER)
    assert [(r.key, r.first_line, r.line) for r in from_json] == [("k", 1, 2), ("x", 3, 3)]
    assert [(r.key, r.first_line, r.line) for r in from_yaml] == [("k", 1, 2), ("x", 3, 3)]


def test_a_file_without_repeats_reports_none():
    assert load_yaml("a: 1\nb: {a: 2}\n", LOADER) == ({"a": 1, "b": {"a": 2}}, [])
    assert load_json('{"a": 1, "b": {"a": 2}}') == ({"a": 1, "b": {"a": 2}}, [])
    assert load_yaml("", LOADER) == (None, [])


def test_a_mapping_reached_through_aliases_is_reported_once():
    text = "base: &b {x: 1, x: 2}\none: *b\ntwo: *b\n"
    _, repeats = load_yaml(text, LOADER)
    assert [(r.key, r.first_line, r.line) for r in repeats] == [("x", 1, 1)]


def test_merge_keys_are_not_repeats():
    text = "base: &b {x: 1}\nthing:\n  <<: *b\n  <<: *b\n  y: 2\n"
    node = yaml.compose(text)
    assert list(repeated_keys(node)) == []


def test_the_message_says_where_and_which_value_is_used():
    message = RepeatedKey("hw:cpu_policy", 1, 3, "dedicated").message("specs.yaml")
    assert message == (
        "specs.yaml:3: the key 'hw:cpu_policy' is given twice, on lines 1 and 3; "
        "the value of line 3 ('dedicated') is used."
    )
    # A mapping value is not quoted whole.
    assert "is used." in RepeatedKey("flavor", 1, 9, {"a": 1}).message("f.json")
    assert "(" not in RepeatedKey("flavor", 1, 9, {"a": 1}).message("f.json")


def test_broken_json_is_refused_as_before():
    with pytest.raises(ValueError):
        load_json('{"a": 1, "a": }')


_KEYS = st.sampled_from(list(string.ascii_lowercase[:4]))
_PAIRS = st.lists(st.tuples(_KEYS, st.integers(-5, 5)), max_size=8)


@given(st.lists(_PAIRS, min_size=1, max_size=4))
def test_json_data_is_the_standard_reader_s(objects):
    """Whatever keys repeat, the data are json.loads's and each repeat is counted."""
    text = (
        "[\n"
        + ",\n".join("{" + ", ".join(f'"{k}": {v}' for k, v in pairs) + "}" for pairs in objects)
        + "\n]"
    )
    data, repeats = load_json(text)
    assert data == json.loads(text)
    assert len(repeats) == sum(len(pairs) - len(dict(pairs)) for pairs in objects)
    for repeat in repeats:
        assert repeat.first_line == repeat.line  # each object is on one line here


# --- the commands ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "lines"), [("s.yaml", SPECS_YAML, (1, 3)), ("s.json", SPECS_JSON, (2, 4))]
)
def test_validate_extra_specs_warns_and_keeps_its_verdict(tmp_path, name, text, lines):
    path = tmp_path / name
    path.write_text(text)
    result = run("extra-specs", "--file", str(path))
    assert result.exit_code == 0, result.output
    first, repeat = lines
    assert result.stderr == (
        f"Warning: {path}:{repeat}: the key 'hw:cpu_policy' is given twice, on lines {first} "
        f"and {repeat}; the value of line {repeat} ('dedicated') is used.\n"
    )
    assert "valid (0 errors" in result.stdout


def test_the_warning_leaves_an_invalid_verdict_invalid(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("hw:cpu_policy: dedicated\nhw:cpu_policy: dedicatd\n")
    result = run("extra-specs", "--file", str(path), "--format", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["valid"] is False  # the JSON report stays whole
    assert "given twice, on lines 1 and 2; the value of line 2 ('dedicatd') is used" in (
        result.stderr
    )


FLAVOR = """\
{
  "name": "m1.small",
  "vcpus": 2,
  "ram": 2048,
  "disk": 10,
  "vcpus": 4,
  "properties": {"hw:cpu_policy": "dedicated"}
}
"""

IMAGE = """\
{
  "name": "centos",
  "properties": {
    "hw_cpu_policy": "dedicated",
    "hw_cpu_policy": "shared"
  }
}
"""


def test_validate_flavor_warns_about_a_field_given_twice(tmp_path):
    path = tmp_path / "flavor.json"
    path.write_text(FLAVOR)
    result = run("flavor", str(path))
    assert result.exit_code == 0, result.output
    assert (
        "flavor.json:6: the key 'vcpus' is given twice, on lines 3 and 6; "
        "the value of line 6 (4) is used." in result.stderr
    )


def test_validate_image_properties_warns(tmp_path):
    path = tmp_path / "image.json"
    path.write_text(IMAGE)
    result = run("image-properties", str(path))
    assert "image.json:5: the key 'hw_cpu_policy' is given twice, on lines 4 and 5" in result.stderr
    assert result.exit_code == 0, result.output


def test_validate_flavor_with_an_image_warns_about_each_file(tmp_path):
    flavor, image = tmp_path / "flavor.json", tmp_path / "image.yaml"
    flavor.write_text(FLAVOR)
    image.write_text(yaml.safe_dump(json.loads(IMAGE)) + "name: again\n")
    result = run("flavor", str(flavor), "--image", str(image))
    assert "flavor.json:6:" in result.stderr
    assert "image.yaml:" in result.stderr and "the key 'name' is given twice" in result.stderr


def test_validate_fleet_warns_about_each_file(tmp_path):
    flavors, images = tmp_path / "flavors.json", tmp_path / "images.json"
    flavors.write_text('[{"Name": "a", "VCPUs": 1, "RAM": 512, "Disk": 1,\n "Disk": 2}]')
    images.write_text('[{"Name": "i", "Name": "j"}]')
    result = run("fleet", "--flavors", str(flavors), "--images", str(images))
    assert (
        "flavors.json:2: the key 'Disk' is given twice, on lines 1 and 2; "
        "the value of line 2 (2) is used." in result.stderr
    )
    assert "images.json:1: the key 'Name' is given twice" in result.stderr


def test_a_file_of_many_repeats_gives_a_bounded_warning(tmp_path):
    path = tmp_path / "s.yaml"
    count = MAX_REPEAT_WARNINGS + 7
    path.write_text("".join("hw:cpu_policy: shared\n" for _ in range(count + 1)))
    result = run("extra-specs", "--file", str(path))
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == MAX_REPEAT_WARNINGS + 1
    assert lines[-1] == f"Warning: {path}: 7 more keys are given twice."
