"""``-f json|yaml|table|csv|value`` and ``-c/--column`` on every command that reports, and the
renderers behind them (:mod:`onespec.validators_runtime.cli_formats`).

The commands are found by walking the ``onespec`` group, as in ``test_cli_grammar``: a command
whose ``--format`` offers ``table`` is a reporting command, and must be listed in
:data:`INVOCATIONS` with a command line that runs it for real (in process). The others keep the
formats a program reads (:data:`PROGRAM_OUTPUT`).
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from onespec.validators_runtime.cli_formats import (
    ColumnError,
    Rows,
    chosen,
    listing,
    records,
    render,
    render_csv,
    render_table,
    render_value,
    render_yaml,
)
from onespec.validators_runtime.problems import BASE_KEYS
from tests.commands import onespec, walk
from tests.conftest import ROOT


def _formats(command: Any) -> list[str]:
    for parameter in command.params:
        if parameter.name == "output_format":
            return [str(choice) for choice in parameter.type.choices]
    return []


COMMANDS = dict(walk())
REPORTING = {path: command for path, command in COMMANDS.items() if "table" in _formats(command)}

#: Commands whose output a program reads: text and JSON alone, as the program expects.
PROGRAM_OUTPUT = {
    ("component", "hook"),  # heat-config reads its answer
    ("component", "metadata"),  # the derived config, as the hook reads it
    ("image", "script"),  # a bash script
    ("schemas", "settings"),  # a setting pasted into an editor's JSON
    ("serve",),  # the address, for the program that started the server
    ("diff",),  # its own: text, json, rst, reno
}

MINI_NOVA = '''
"""Validators for the acme namespace."""
from nova.api.validation.extra_specs import base

EXTRA_SPEC_VALIDATORS = [
    base.ExtraSpecValidator(name='acme:speed', description='How fast.', value={'type': int}),
]
'''

FLAVOR = "examples/flavors/m1.rt.json"
IMAGE = "examples/flavors/centos.json"

#: How to run each reporting command: ``{tmp}`` is a fresh directory, ``{url}`` a live API,
#: ``{db}`` a migrated database, ``{fleet}`` and ``{images}`` JSON lists of a flavor and an image.
INVOCATIONS: dict[tuple[str, ...], list[str]] = {
    ("audit",): ["src/onespec/validators_runtime/flavor_parts"],
    ("component", "actions"): [],
    ("component", "validate"): [
        "examples/appserver/broken.yaml",
        "examples/appserver/appserver.yaml",
    ],
    ("db", "current"): ["--database-url", "sqlite:///{tmp}/none.db"],
    ("db", "upgrade"): ["--database-url", "{db}"],
    ("definitions", "doctor"): [],
    ("generate", "all"): ["--check"],
    ("generate", "api"): ["--check"],
    ("generate", "components"): ["--check"],
    ("generate", "flavor-rules"): ["--check"],
    ("generate", "images"): ["--check"],
    ("generate", "metadefs"): ["--check"],
    ("generate", "plugin-labels"): ["--check"],
    ("generate", "runtime"): ["--check"],
    ("generate", "schemas"): ["--check"],
    ("generate", "template-capabilities"): ["--check"],
    ("image", "check"): ["examples/images/bad.yaml"],
    ("image", "validate"): ["{tmp}/spec.yaml", "--remote", "local"],
    ("import", "glance-metadefs"): ["{tmp}/metadefs", "--package", "acme", "--output", "{tmp}/o"],
    ("import", "nova"): ["{tmp}", "--package", "acme", "--output", "{tmp}/o"],
    ("plugins", "list"): ["--all"],
    ("plugins", "show"): ["fake"],
    ("plugins", "update"): ["fake", "--disable", "--plugin-version", "0.1"],
    ("policy", "sample"): [],
    ("schemas", "path"): [],
    ("template-capabilities", "choices"): ["-r", "examples/capabilities"],
    ("template-capabilities", "find"): [
        "-c",
        "resource_type=OS::TripleO::Controller",
        "-r",
        "examples/capabilities",
    ],
    ("template-capabilities", "resolve"): ["-e", "examples/capabilities/environment.yaml"],
    ("template-capabilities", "summary"): ["-r", "examples/capabilities"],
    # No cloud on a test machine: the command fails as asked (exit 2), in every format; its rows
    # are checked on a real report below (test_a_cloud_report_has_a_row_per_finding).
    ("validate", "cloud"): ["--os-cloud", "nowhere"],
    ("validate", "extra-specs"): [
        "hw:cpu_policy=dedicatd",
        "hw:cpu_pollicy=x",
        "hide_hypervisor_id=1",
    ],
    ("validate", "flavor"): [FLAVOR, "--image", IMAGE],
    ("validate", "fleet"): ["--flavors", "{fleet}", "--images", "{images}"],
    ("validate", "image-properties"): [IMAGE],
    ("validate", "rebuild"): [FLAVOR, "--from-image", IMAGE, "--image", IMAGE],
    ("validate", "resize"): [FLAVOR, FLAVOR, "--image", IMAGE],
}

#: The option that picks columns, where ``-c`` already means something else.
COLUMN_OPTION = {("template-capabilities", "find"): "--column"}
#: Commands that cannot report here, and the exit status they fail with.
FAILING = {("validate", "cloud"): 2}
#: Fields that differ from one run to the next (times).
VOLATILE = {"seconds"}

#: Generating every output takes seconds a run.
SLOW = {("generate", "all")}
IDS = [" ".join(path) for path in INVOCATIONS]
PARAMS = [
    pytest.param(path, id=" ".join(path), marks=[pytest.mark.slow] if path in SLOW else [])
    for path in INVOCATIONS
]


@pytest.fixture(scope="module")
def api() -> Iterator[dict[str, str]]:
    """The API, for real, under waitress on 127.0.0.1, over a migrated SQLite database."""
    from onespec.validators_runtime.service.app import create_app
    from tests.servers import LiveServer

    folder = Path(__import__("tempfile").mkdtemp(prefix="onespec-formats-"))
    url = f"sqlite:///{folder / 'onespec.db'}"
    assert onespec("db", "upgrade", "--database-url", url).returncode == 0
    server = LiveServer(create_app({"DATABASE_URL": url}))
    try:
        yield {"url": server.url, "db": url}
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def place(tmp_path: Path, api: dict[str, str]) -> dict[str, str]:
    """The inputs the command lines name, written for one test."""
    (tmp_path / "spec.yaml").write_text("validators:\n  - package: coreutils\n")
    metadefs = tmp_path / "metadefs"
    metadefs.mkdir()
    shutil.copy(ROOT / "outputs/glance-metadefs/onespec-compute-hw-rng.json", metadefs)
    nova = tmp_path / "nova" / "api" / "validation" / "extra_specs"
    nova.mkdir(parents=True)
    for name in ("__init__.py", "base.py", "validators.py"):
        (nova / name).write_text("")
    (nova / "acme.py").write_text(MINI_NOVA)
    flavor = json.loads((ROOT / FLAVOR).read_text())
    image = json.loads((ROOT / IMAGE).read_text())
    (tmp_path / "fleet.json").write_text(json.dumps([flavor, {**flavor, "name": "m1.other"}]))
    (tmp_path / "images.json").write_text(json.dumps([image]))
    return {
        "tmp": str(tmp_path),
        "db": api["db"],
        "fleet": str(tmp_path / "fleet.json"),
        "images": str(tmp_path / "images.json"),
    }


class Runner:
    """One reporting command, run in this process with the options of a test."""

    def __init__(self, path: tuple[str, ...], place: dict[str, str], api: dict[str, str]):
        self.path = path
        self.place = place
        self.env = {
            "ONESPEC_URL": api["url"],
            "ONESPEC_PROJECT_ID": "demo",
            "ONESPEC_ROLES": "admin",
            "COLUMNS": None,  # a table as wide as it is, whatever the terminal of the test run
            "OS_CLOUD": None,
            "OS_AUTH_URL": None,
            "OS_CLIENT_CONFIG_FILE": str(Path(place["tmp"]) / "clouds.yaml"),
        }
        self.runs = 0

    def __call__(self, *options: str) -> tuple[int, str, str]:
        self.runs += 1
        output = Path(self.place["tmp"]) / "o"
        if output.exists():  # the import commands write into a new directory each time
            shutil.rmtree(output)
        arguments = [part.format(**self.place) for part in INVOCATIONS[self.path]]
        done = onespec(*self.path, *arguments, *options, env=self.env)
        assert "Traceback" not in done.stderr, done.stderr
        return done.returncode, done.stdout, done.stderr

    @property
    def column(self) -> str:
        return COLUMN_OPTION.get(self.path, "-c")


@pytest.fixture
def runner(request: pytest.FixtureRequest, place: dict[str, str], api: dict[str, str]) -> Runner:
    return Runner(request.param, place, api)


def _steady(document: Any) -> Any:
    """The document without what changes between runs (times)."""
    if isinstance(document, dict):
        return {k: _steady(v) for k, v in document.items() if k not in VOLATILE}
    if isinstance(document, list):
        return [_steady(item) for item in document]
    return document


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


BORDER = re.compile(r"\+(-+\+)+")


def _table(text: str) -> tuple[list[str], list[list[str]]]:
    """(heading, rows) of a drawn table, after checking its frame: every line as wide as the
    borders, a border above and below the heading and at the end."""
    lines = text.splitlines()
    assert len(lines) >= 4, text
    assert all(len(line) == len(lines[0]) for line in lines), text
    borders = [number for number, line in enumerate(lines) if BORDER.fullmatch(line)]
    assert borders[:2] == [0, 2] and borders[-1] == len(lines) - 1, text
    assert all(line.startswith("| ") and line.endswith(" |") for line in lines if line[0] == "|")
    cells = [[cell.strip() for cell in line[2:-2].split(" | ")] for line in lines[3:-1]]
    return [cell.strip() for cell in lines[1][2:-2].split(" | ")], cells


# --- the matrix --------------------------------------------------------------------------------


def test_every_reporting_command_is_run_here():
    assert set(INVOCATIONS) == set(REPORTING)
    formatted = {path for path, command in COMMANDS.items() if _formats(command)}
    assert formatted - set(REPORTING) == PROGRAM_OUTPUT
    for path in PROGRAM_OUTPUT:
        assert "yaml" not in _formats(COMMANDS[path]), path


@pytest.mark.parametrize("runner", PARAMS, indirect=True)
def test_every_format_prints_the_one_report(runner: Runner):
    code, out, err = runner("-f", "json")
    expected = FAILING.get(runner.path)
    if expected is not None:
        _fails_in_every_format(runner, expected)
        return
    assert code in (0, 1), err
    document = json.loads(out)

    # yaml: the same document, in one YAML document, with the same exit status.
    again, out, err = runner("-f", "yaml")
    assert again == code, err
    assert _steady(yaml.safe_load(out)) == _steady(document)
    assert not out.lstrip().startswith("{"), "block style"

    # csv: a header, then rows of the same length, every cell that is not a number quoted.
    again, out, err = runner("-f", "csv")
    assert again == code, err
    header, *rows = _csv(out)
    assert header and all(len(row) == len(header) for row in rows), out
    assert out.splitlines()[0] == ",".join(f'"{name}"' for name in header)

    # table: the same columns and as many rows, framed.
    again, out, err = runner("-f", "table")
    assert again == code, err
    heading, cells = _table(out)
    if heading == ["Field", "Value"]:  # one object: a row a field
        assert [cell[0] for cell in cells if cell[0]] == header
    else:
        assert heading == header
        if not any("\n" in cell for row in rows for cell in row):
            assert len(cells) == len(rows)

    # value: no header, the bare cells -- one column is exactly the CSV's cells, unquoted.
    again, out, err = runner("-f", "value", runner.column, header[0])
    assert again == code, err
    assert out.splitlines() == [row[0] for row in rows]


@pytest.mark.parametrize("runner", PARAMS, indirect=True)
def test_columns_are_picked_in_the_order_given(runner: Runner):
    if runner.path in FAILING:
        return  # no report to pick from: test_every_format_prints_the_one_report
    code, out, _ = runner("-f", "csv")
    header = _csv(out)[0]
    picked = [header[-1], header[0]] if len(header) > 1 else header
    again, out, err = runner("-f", "csv", *[part for c in picked for part in (runner.column, c)])
    assert again == code, err
    assert _csv(out)[0] == picked
    again, out, err = runner("-f", "json", runner.column, picked[0])
    assert again == code, err
    chosen_rows = json.loads(out)
    listed = chosen_rows if isinstance(chosen_rows, list) else [chosen_rows]
    assert all(list(row) == [picked[0]] for row in listed), out


@pytest.mark.parametrize("runner", PARAMS, indirect=True)
def test_an_unknown_column_is_a_usage_error_naming_the_columns(runner: Runner):
    if runner.path in FAILING:
        return
    header = _csv(runner("-f", "csv")[1])[0]
    misspelt = header[0].upper() + "_"
    code, out, err = runner("-f", "table", runner.column, misspelt)
    assert code == 2
    assert out == ""
    assert f"Error: no column {misspelt!r} in this report; its columns are: " in err
    assert all(name in err for name in header)
    assert f"Did you mean {header[0]!r}?" in err
    # With -f yaml, the error is one YAML document, as -f json gives one JSON document.
    code, out, err = runner("-f", "yaml", runner.column, misspelt)
    assert code == 2
    document = yaml.safe_load(out)
    assert document["exit_code"] == 2 and document["valid"] is False
    assert list(document["problems"][0])[: len(BASE_KEYS)] == list(BASE_KEYS)


@pytest.mark.parametrize("runner", PARAMS, indirect=True)
def test_columns_with_text_are_a_usage_error_saying_which_formats_take_them(runner: Runner):
    code, out, err = runner(runner.column, "code")
    assert code == 2
    assert out == ""
    assert "Error: -c/--column picks the columns of json, yaml, value, table, csv output" in err


def _fails_in_every_format(runner: Runner, expected: int) -> None:
    for output_format in ("json", "yaml"):
        code, out, err = runner("-f", output_format)
        assert code == expected, err
        document = (json.loads if output_format == "json" else yaml.safe_load)(out)
        assert document["exit_code"] == expected and document["problems"], out
    for output_format in ("table", "csv", "value"):
        code, out, err = runner("-f", output_format)
        assert code == expected
        assert out == ""  # the error is said on standard error, as text
        assert err.startswith("Error: ") or "\nError: " in err, err


# --- the finding shape -------------------------------------------------------------------------


FINDING_REPORTS = [
    ("validate", "extra-specs"),
    ("validate", "flavor"),
    ("validate", "fleet"),
    ("image", "check"),
    ("audit",),
    ("component", "validate"),
]


def _findings(document: Any) -> Iterator[dict[str, Any]]:
    if isinstance(document, dict):
        if "message" in document and "code" in document:
            yield document
        for value in document.values():
            yield from _findings(value)
    elif isinstance(document, list):
        for item in document:
            yield from _findings(item)


@pytest.mark.parametrize(
    "runner", [pytest.param(p, id=" ".join(p)) for p in FINDING_REPORTS], indirect=True
)
def test_every_finding_has_the_base_keys_and_the_same_names(runner: Runner):
    document = json.loads(runner("-f", "json")[1])
    found = list(_findings(document))
    assert found, document
    for finding in found:
        assert set(BASE_KEYS) <= set(finding), finding
        if "key" in finding:  # one extra spec: keys too, the name every report uses
            assert finding["keys"] == [finding["key"]]
        if "nova_exception" in finding:
            assert isinstance(finding["keys"], list) and "phase" in finding


def test_a_template_that_cannot_be_read_is_a_problem_in_the_one_shape(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("heat_template_version: 2018-08-31\nresources: [1]\n")
    done = onespec("component", "validate", str(broken), "-f", "json")
    assert done.returncode == 1
    (template,) = json.loads(done.stdout)["templates"]
    (problem,) = template["problems"]
    assert list(problem)[: len(BASE_KEYS)] == list(BASE_KEYS)
    assert problem["file"] == str(broken) and template["error"]


def test_a_cloud_report_has_a_row_per_finding():
    """The rows of ``validate cloud`` on a report of the real check, from objects as the cloud
    gives them (no cloud runs here: tests/cloud runs the command against one)."""
    from onespec.validators_runtime.cloud import CloudFlavor, CloudImage, check_cloud
    from onespec.validators_runtime.flavor_cli import CLOUD_ROWS
    from onespec.validators_runtime.flavors import read_flavor, read_image

    flavor = json.loads((ROOT / FLAVOR).read_text())
    image = json.loads((ROOT / IMAGE).read_text())
    cloud_flavor = CloudFlavor("f1", flavor["name"], True, False, read_flavor(flavor))
    bad = {**image, "properties": {**image["properties"], "hw_rng_model": "vortio"}}
    cloud_image = CloudImage("i1", image["name"], "active", "public", read_image(bad))
    report = check_cloud("box", [cloud_flavor], [cloud_image]).to_dict()
    header, *rows = _csv(render(report, "csv", CLOUD_ROWS))
    expected = (
        len(report["image_findings"])
        + len(report["flavor_findings"])
        + len(report["pair_findings"])
    )
    assert len(rows) == expected > 0
    assert header[0] == "image" and {"severity", "code", "message"} <= set(header)
    assert rows[0][header.index("image")] == image["name"]


# --- the renderers ------------------------------------------------------------------------------

FINDINGS = {
    "valid": False,
    "findings": [
        {"code": "unknown-key", "keys": ["hw:a"], "message": "Not known.", "line": 3},
        {"code": "invalid-value", "keys": ["hw:b", "hw:c"], "message": "Bad.", "line": None},
    ],
}
ROWS = listing("findings", columns=("code", "keys", "message"))


def test_a_table_is_framed_as_cliff_frames_it():
    assert render(FINDINGS, "table", ROWS) == (
        "+---------------+-----------------+------------+\n"
        "| code          | keys            | message    |\n"
        "+---------------+-----------------+------------+\n"
        '| unknown-key   | ["hw:a"]        | Not known. |\n'
        '| invalid-value | ["hw:b","hw:c"] | Bad.       |\n'
        "+---------------+-----------------+------------+\n"
    )


def test_a_table_is_fitted_to_the_width_its_long_cells_wrapped():
    long = "word " * 30
    text = render_table(["name", "message"], [{"name": "x", "message": long.strip()}], width=40)
    lines = text.splitlines()
    assert all(len(line) <= 40 for line in lines)
    assert len(lines) > 5
    words = " ".join(line[2:-2].split(" | ")[1].strip() for line in lines[3:-1]).split()
    assert words == long.split()


def test_a_table_that_cannot_be_narrowed_more_keeps_its_columns_legible():
    text = render_table(["a", "b", "c"], [{"a": "x" * 20, "b": "y" * 20, "c": "z" * 20}], width=10)
    assert all(len(line) == len(text.splitlines()[0]) for line in text.splitlines())
    assert "xxxxxxxx" in text


def test_an_empty_list_is_a_heading_alone():
    text = render({"findings": []}, "table", ROWS)
    assert text.splitlines()[1] == "| code | keys | message |"
    assert len(text.splitlines()) == 4
    assert render({"findings": []}, "csv", ROWS) == '"code","keys","message"\n'
    assert render({"findings": []}, "value", ROWS) == ""


def test_csv_quotes_all_but_numbers_and_writes_nested_values_as_compact_json():
    text = render_csv(
        ["s", "n", "f", "none", "list", "bool"],
        [{"s": 'say "hi"', "n": 3, "f": 1.5, "none": None, "list": [1, "a"], "bool": True}],
    )
    header, row = text.splitlines()
    assert header == '"s","n","f","none","list","bool"'
    assert row == '"say ""hi""",3,1.5,"","[1,""a""]","true"'
    assert next(csv.reader(io.StringIO(row))) == ['say "hi"', "3", "1.5", "", '[1,"a"]', "true"]


def test_value_is_the_bare_cells_space_separated_without_a_heading():
    assert render_value(["code", "line"], FINDINGS["findings"]) == "unknown-key 3\ninvalid-value \n"
    assert render(FINDINGS, "value", ROWS, ["code"]) == "unknown-key\ninvalid-value\n"


def test_yaml_keeps_the_order_of_keys_and_unicode_in_block_style():
    document = {"zeta": "ünïcode ✓", "alpha": [{"b": 1, "a": None}], "long": "x " * 80}
    text = render_yaml(document)
    assert text.splitlines()[0] == "zeta: ünïcode ✓"
    assert text.index("zeta") < text.index("alpha") and text.index("b: 1") < text.index("a: null")
    assert "{" not in text and "\\u" not in text
    assert len(text.splitlines()) == 5, "a long string stays on one line"
    assert yaml.safe_load(text) == document


def test_one_object_is_a_field_value_table_and_its_values_one_a_line():
    document = {"database": "sqlite:///x", "revision": None, "nested": {"a": [1]}}
    assert render(document, "table") == (
        "+----------+-------------+\n"
        "| Field    | Value       |\n"
        "+----------+-------------+\n"
        "| database | sqlite:///x |\n"
        "| revision |             |\n"
        '| nested   | {"a":[1]}   |\n'
        "+----------+-------------+\n"
    )
    assert render(document, "value", asked=["revision", "database"]) == "\nsqlite:///x\n"
    assert render(document, "json", asked=["database"]) == '{\n  "database": "sqlite:///x"\n}\n'


def test_rows_under_a_list_carry_the_fields_of_their_parent():
    document = {
        "flavors": [
            {"flavor": "a", "valid": False, "findings": [{"code": "x"}, {"code": "y"}]},
            {"flavor": "b", "valid": True, "findings": []},
            {"flavor": "c", "valid": False, "findings": [{"code": "z", "flavor": "own"}]},
        ]
    }
    found = records(document, listing("findings", "flavors[].findings"))
    assert found == [
        {"flavor": "a", "valid": False, "code": "x"},
        {"flavor": "a", "valid": False, "code": "y"},
        {"flavor": "own", "valid": False, "code": "z"},
    ]


def test_rows_of_several_lists_follow_one_another_and_mappings_give_a_row_an_entry():
    document = {"alone": [{"f": 1}], "pairs": [{"f": 2, "pairs": 3}], "by": {"t": ["a", "b"]}}
    assert records(document, listing("alone", "pairs")) == [{"f": 1}, {"f": 2, "pairs": 3}]
    assert records(document, listing("by", columns=("type", "templates"), key="type")) == [
        {"type": "t", "templates": ["a", "b"]}
    ]
    assert records({"matches": ["p", "q"]}, listing("matches", columns=("template",))) == [
        {"template": "p"},
        {"template": "q"},
    ]
    assert records(document, Rows()) is None
    assert records(document, listing("absent")) is None


def test_default_columns_are_those_the_rows_have_and_asked_ones_come_in_order():
    assert render({"findings": [{"code": "x", "extra": 1}]}, "csv", ROWS) == '"code"\n"x"\n'
    assert chosen(["a", "b", "c"], ["c", "a", "c"], ["a"]) == ["c", "a"]
    with pytest.raises(
        ColumnError, match=r"no column 'B' .* its columns are: a, b\. Did you mean 'b'\?"
    ):
        chosen(["a", "b"], ["B"], [])
    with pytest.raises(ColumnError) as refused:
        chosen(["a"], ["x" * 100_000], [])
    assert len(str(refused.value)) < 400, "a column asked is quoted bounded"


# --- the command line ---------------------------------------------------------------------------


def test_a_command_line_that_cannot_be_read_gives_one_yaml_document_with_f_yaml():
    for spelling in (["-f", "yaml"], ["--format=yaml"], ["-fyaml"]):
        done = onespec("validate", "flavor", *spelling)  # the flavor is missing
        assert done.returncode == 2
        document = yaml.safe_load(done.stdout)
        assert document["exit_code"] == 2
        assert "Missing argument" in document["problems"][0]["message"]
    done = onespec("validate", "flavor", "-f", "table")
    assert done.returncode == 2 and done.stdout == ""


def test_invalid_input_with_f_yaml_is_one_yaml_document(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: 1\nb: [unclosed\n")
    done = onespec("validate", "extra-specs", "--file", str(bad), "-f", "yaml")
    assert done.returncode == 1
    document = yaml.safe_load(done.stdout)
    assert document["exit_code"] == 1
    assert document["problems"][0]["message"].startswith(f"{bad}:3: not valid YAML")
    done = onespec("validate", "extra-specs", "--file", str(bad), "-f", "csv")
    assert done.returncode == 1 and done.stdout == ""
    assert f"{bad}:3: not valid YAML" in done.stderr


def test_a_table_fits_the_terminal_width_given_by_columns():
    args = ("validate", "extra-specs", "hw:cpu_policy=dedicatd", "-f", "table")
    wide = onespec(*args, env={"COLUMNS": None}).stdout.splitlines()
    narrow = onespec(*args, env={"COLUMNS": "60"}).stdout.splitlines()
    assert len(wide[0]) > 60 >= max(len(line) for line in narrow)
    assert len(narrow) > len(wide)
