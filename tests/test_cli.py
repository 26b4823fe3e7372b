"""The ``onespec`` command line, as a user runs it.

The commands run in-process (:func:`tests.commands.onespec`); the exit statuses 0, 1 and 2 are
also checked through the installed console script in a process of its own (the ``process``
tests). The generator's drift check runs through :class:`click.testing.CliRunner` itself, so that
it can be pointed at a temporary copy of the generated module and never touches the committed one.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from onespec.validators_runtime._generated import extra_specs as generated
from onespec.validators_runtime.cli import cli
from tests.commands import ONESPEC, onespec, onespec_process


def validate_json(*args: str, stdin: str | None = None, cwd: Path | None = None):
    """Run ``validate extra-specs --format json``; return (exit code, parsed stdout)."""
    done = onespec("validate", "extra-specs", "--format", "json", *args, stdin=stdin, cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def by_key(report: dict) -> dict:
    return {finding["key"]: finding for finding in report["findings"]}


@pytest.mark.process
def test_the_console_script_is_installed_next_to_the_interpreter():
    assert ONESPEC.is_file()


# --- validate extra-specs: KEY=VALUE arguments -------------------------------------------------


@pytest.mark.process  # the exit status as the shell sees it
def test_valid_specs_exit_zero():
    done = onespec_process("validate", "extra-specs", "hw:cpu_policy=dedicated", "hw:numa_nodes=2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 extra specs checked in strict mode: valid (0 errors, 0 warnings)." in done.stdout
    assert "error" not in done.stdout.replace("0 errors", "")


@pytest.mark.process  # the exit status as the shell sees it
def test_a_bad_value_exits_one_and_names_key_value_and_suggestion():
    done = onespec_process("validate", "extra-specs", "hw:cpu_policy=dedicatd")
    assert done.returncode == 1
    assert "hw:cpu_policy" in done.stdout
    assert "dedicatd" in done.stdout
    assert "did you mean 'dedicated'" in done.stdout.lower()
    assert "error: [invalid-value]" in done.stdout
    assert "invalid (1 error, 0 warnings)" in done.stdout


def test_a_typoed_key_exits_one_and_suggests_the_real_key():
    done = onespec("validate", "extra-specs", "hw:cpu_pollicy=dedicated")
    assert done.returncode == 1
    assert "error: [unknown-key]" in done.stdout
    assert "hw:cpu_pollicy" in done.stdout
    assert "did you mean 'hw:cpu_policy'" in done.stdout.lower()


def test_permissive_mode_turns_an_unknown_key_into_a_warning_line():
    done = onespec("validate", "extra-specs", "--mode", "permissive", "hw:cpu_pollicy=dedicated")
    assert done.returncode == 0, done.stdout + done.stderr
    warnings = [line for line in done.stdout.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1
    assert "[unknown-key]" in warnings[0]
    assert "hw:cpu_policy" in warnings[0]
    assert "valid (0 errors, 1 warning)" in done.stdout
    # The finding is the command's output; the runtime's log must not print it a second time.
    assert "hw:cpu_pollicy" not in done.stderr


def test_permissive_mode_still_rejects_a_bad_value():
    done = onespec("validate", "extra-specs", "--mode", "permissive", "hw:cpu_policy=dedicatd")
    assert done.returncode == 1
    assert "error: [invalid-value]" in done.stdout


def test_off_mode_accepts_garbage():
    done = onespec(
        "validate",
        "extra-specs",
        "--mode",
        "off",
        "hw:cpu_policy=zzz",
        "hw:cpu_pollicy=x",
        "hw:numa_nodes=-4",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "checked in off mode: valid (0 errors, 0 warnings)" in done.stdout
    # What Nova cannot store is refused in every mode: here, the empty key.
    done = onespec("validate", "extra-specs", "--mode", "off", "=nothing")
    assert done.returncode == 1
    assert "[invalid-key]" in done.stdout


@pytest.mark.process  # the exit status as the shell sees it
def test_an_unknown_mode_is_a_usage_error():
    done = onespec_process("validate", "extra-specs", "--mode", "bogus", "hw:cpu_policy=dedicated")
    assert done.returncode == 2
    assert "--mode" in done.stderr
    assert "bogus" in done.stderr
    assert done.stdout == ""


def test_an_argument_without_equals_is_a_usage_error():
    done = onespec("validate", "extra-specs", "hw:cpu_policy=dedicated", "KEY")
    assert done.returncode == 2
    assert "'KEY' is not KEY=VALUE" in done.stderr
    assert done.stdout == ""


def test_no_arguments_at_all_is_a_usage_error():
    done = onespec("validate", "extra-specs")
    assert done.returncode == 2
    assert "KEY=VALUE" in done.stderr
    assert "--file" in done.stderr


def test_bare_onespec_is_a_usage_error_with_help():
    done = onespec()
    assert done.returncode == 2
    assert "Usage: onespec" in done.stdout + done.stderr


def test_an_unknown_command_is_a_usage_error():
    done = onespec("valdiate")
    assert done.returncode == 2
    assert "valdiate" in done.stderr


def test_a_value_may_contain_an_equals_sign():
    code, report = validate_json("hw:cpu_policy=dedicated=shared")
    assert code == 1
    assert by_key(report)["hw:cpu_policy"]["value"] == "dedicated=shared"


def test_an_empty_key_is_an_invalid_key_not_a_crash():
    code, report = validate_json("=dedicated")
    assert code == 1
    assert by_key(report)[""]["code"] == "invalid-key"


def test_a_later_argument_overrides_an_earlier_one():
    code, report = validate_json("hw:cpu_policy=dedicatd", "hw:cpu_policy=dedicated")
    assert code == 0
    assert report["checked"] == 1
    assert report["findings"] == []


def test_a_key_of_another_service_is_accepted():
    code, report = validate_json("someservice:anything=goes", "plainkey=1")
    assert code == 0
    assert report["valid"] is True
    assert report["findings"] == []


# --- validate extra-specs: --format json ------------------------------------------------------


#: The note a report of extra specs gives once, in strict and permissive mode.
RULES_NOTE = (
    "rules between keys that need the flavor's sizes or an image are checked by "
    "'onespec validate flavor'."
)


def test_json_output_of_valid_specs():
    code, report = validate_json("hw:cpu_policy=dedicated", "hw:numa_nodes=2")
    assert code == 0
    assert report == {
        "valid": True,
        "mode": "strict",
        "checked": 2,
        "note": RULES_NOTE,
        "findings": [],
    }


def test_json_output_lists_every_finding():
    code, report = validate_json(
        "hw:cpu_policy=dedicatd",
        "hw:cpu_pollicy=shared",
        "hw:numa_nodes=0",
        "hide_hypervisor_id=true",
        "hw:cpu_realtime=yes",
    )
    assert code == 1
    assert report["valid"] is False
    assert report["mode"] == "strict"
    assert report["checked"] == 5
    findings = by_key(report)
    assert set(findings) == {
        "hw:cpu_policy",
        "hw:cpu_pollicy",
        "hw:numa_nodes",
        "hide_hypervisor_id",
        "hw:cpu_realtime",  # real-time without a valid pinning CPU policy: a rule between keys
    }
    value = findings["hw:cpu_policy"]
    assert (value["code"], value["severity"], value["suggestion"]) == (
        "invalid-value",
        "error",
        "dedicated",
    )
    assert value["value"] == "dedicatd"
    assert "hw:cpu_policy" in value["message"]
    key = findings["hw:cpu_pollicy"]
    assert (key["code"], key["severity"], key["suggestion"]) == (
        "unknown-key",
        "error",
        "hw:cpu_policy",
    )
    low = findings["hw:numa_nodes"]
    assert (low["code"], low["severity"], low["suggestion"]) == ("invalid-value", "error", "1")
    assert "minimum" in low["message"]
    old = findings["hide_hypervisor_id"]
    assert (old["code"], old["severity"], old["suggestion"]) == (
        "deprecated",
        "warning",
        "hw:hide_hypervisor_id",
    )
    rule = findings["hw:cpu_realtime"]
    assert (rule["code"], rule["nova_exception"], rule["phase"]) == (
        "realtime-needs-pinning",
        "RealtimeConfigurationInvalid",
        "api",
    )
    for finding in report["findings"]:
        per_key = {
            *("code", "severity", "message", "file", "line", "path", "value", "suggestion"),
            "keys",
            "key",
        }
        # A rule between keys adds the fields a whole flavor's finding has.
        rule_fields = {"nova_exception", "phase"} if finding is rule else set()
        assert set(finding) == per_key | rule_fields
        if finding is not rule:
            assert finding["keys"] == [finding["key"]]
        assert finding["path"] == finding["key"]


def test_json_output_in_permissive_mode_is_valid_with_a_warning():
    code, report = validate_json("--mode", "permissive", "hw:cpu_pollicy=dedicated")
    assert code == 0
    assert report["valid"] is True
    assert report["mode"] == "permissive"
    assert report["checked"] == 1
    [finding] = report["findings"]
    assert finding["code"] == "unknown-key"
    assert finding["severity"] == "warning"
    assert finding["suggestion"] == "hw:cpu_policy"


def test_json_output_in_off_mode_has_no_findings():
    code, report = validate_json("--mode", "off", "hw:cpu_policy=zzz", "hw:cpu_pollicy=x")
    assert code == 0
    assert report == {
        "valid": True,
        "mode": "off",
        "checked": 2,
        "note": "off mode applies no rule between keys; "
        "'onespec validate flavor' applies them all.",
        "findings": [],
    }


def test_json_output_is_the_only_thing_on_stdout():
    done = onespec("validate", "extra-specs", "--format", "json", "hw:cpu_policy=dedicatd")
    assert done.returncode == 1
    json.loads(done.stdout)  # no text summary mixed in
    assert "checked in strict mode" not in done.stdout


# --- validate extra-specs: deprecated keys ----------------------------------------------------


def test_a_deprecated_key_is_valid_with_a_warning_naming_its_replacement():
    done = onespec("validate", "extra-specs", "hide_hypervisor_id=true")
    assert done.returncode == 0, done.stdout + done.stderr
    [warning] = [line for line in done.stdout.splitlines() if line.startswith("warning:")]
    assert "[deprecated]" in warning
    assert "hide_hypervisor_id" in warning
    assert "'hw:hide_hypervisor_id'" in warning
    assert "valid (0 errors, 1 warning)" in done.stdout


def test_a_deprecated_key_with_a_bad_value_is_still_invalid():
    code, report = validate_json("hide_hypervisor_id=maybe")
    assert code == 1
    codes = sorted(f["code"] for f in report["findings"])
    assert codes == ["deprecated", "invalid-value"]


# --- validate extra-specs: --file --------------------------------------------------------------


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_yaml_values_stay_strings(tmp_path):
    # Plain YAML would read `yes` as True and `2` as an int; both must arrive as strings.
    path = write(
        tmp_path, "specs.yaml", "hw:cpu_realtime: yes\nhw:numa_nodes: 2\nhw:cpu_policy: dedicated\n"
    )
    code, report = validate_json("--file", str(path))
    assert code == 0, report
    assert report == {
        "valid": True,
        "mode": "strict",
        "checked": 3,
        "note": RULES_NOTE,
        "findings": [],
    }


@pytest.mark.parametrize("text", ["on", "off", "y", "n", "true", "FALSE", "1", "0"])
def test_every_yaml_boolean_spelling_is_read_as_written(tmp_path, text):
    # With pinned CPUs, which real-time needs (a rule between keys).
    path = write(tmp_path, "specs.yaml", f"hw:cpu_realtime: {text}\nhw:cpu_policy: dedicated\n")
    code, report = validate_json("--file", str(path))
    assert code == 0, report


def test_yaml_numbers_are_checked_as_written(tmp_path):
    # `0x10` and `2.0` are numbers to plain YAML (16 and 2.0); as strings neither is an integer.
    path = write(tmp_path, "specs.yml", "hw:numa_nodes: 0x10\nhw:numa_mem.0: 2.0\n")
    code, report = validate_json("--file", str(path))
    assert code == 1
    findings = by_key(report)
    assert findings["hw:numa_nodes"]["value"] == "0x10"
    assert findings["hw:numa_nodes"]["code"] == "invalid-value"


def test_a_bad_yaml_value_fails(tmp_path):
    path = write(tmp_path, "specs.yaml", "hw:cpu_realtime: maybe\nhw:numa_nodes: 2\n")
    done = onespec("validate", "extra-specs", "--file", str(path))
    assert done.returncode == 1
    assert "hw:cpu_realtime" in done.stdout
    assert "'maybe'" in done.stdout
    code, report = validate_json("--file", str(path))
    assert code == 1
    assert report["checked"] == 2
    [finding] = report["findings"]
    assert (finding["key"], finding["code"], finding["value"]) == (
        "hw:cpu_realtime",
        "invalid-value",
        "maybe",
    )


def test_a_json_file_with_an_integer_is_valid(tmp_path):
    path = write(tmp_path, "specs.json", '{"hw:numa_nodes": 2, "hw:cpu_policy": "shared"}')
    code, report = validate_json("--file", str(path))
    assert code == 0, report
    assert report["checked"] == 2


def test_a_json_file_with_a_fraction_is_invalid(tmp_path):
    path = write(tmp_path, "specs.json", '{"hw:numa_nodes": 1.5}')
    code, report = validate_json("--file", str(path))
    assert code == 1
    [finding] = report["findings"]
    assert finding["key"] == "hw:numa_nodes"
    assert finding["code"] == "invalid-value"
    assert finding["value"] == "1.5"
    assert "not an integer" in finding["message"]


def test_a_json_boolean_is_not_a_string(tmp_path):
    path = write(tmp_path, "specs.json", '{"hw:cpu_realtime": true}')
    code, report = validate_json("--file", str(path))
    assert code == 1
    [finding] = report["findings"]
    assert finding["key"] == "hw:cpu_realtime"
    assert finding["code"] == "invalid-value"
    assert "not a string" in finding["message"]


def test_a_json_null_is_not_a_string(tmp_path):
    path = write(tmp_path, "specs.json", '{"hw:cpu_policy": null}')
    code, report = validate_json("--file", str(path))
    assert code == 1
    assert by_key(report)["hw:cpu_policy"]["code"] == "invalid-value"


@pytest.mark.parametrize("suffix", ["json", "yaml"])
def test_the_nova_api_body_shape_is_unwrapped(tmp_path, suffix):
    good = write(
        tmp_path,
        f"good.{suffix}",
        '{"extra_specs": {"hw:cpu_policy": "dedicated", "hw:numa_nodes": "2"}}',
    )
    code, report = validate_json("--file", str(good))
    assert code == 0, report
    assert report["checked"] == 2
    # The inner specs are really checked, not accepted as one key "extra_specs".
    bad = write(tmp_path, f"bad.{suffix}", '{"extra_specs": {"hw:cpu_policy": "dedicatd"}}')
    code, report = validate_json("--file", str(bad))
    assert code == 1
    assert by_key(report)["hw:cpu_policy"]["suggestion"] == "dedicated"


def test_standard_input_is_read_with_file_dash():
    good = onespec("validate", "extra-specs", "--file", "-", stdin="hw:cpu_policy: dedicated\n")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "1 extra spec checked" in good.stdout
    bad = onespec("validate", "extra-specs", "--file", "-", stdin="hw:cpu_realtime: maybe\n")
    assert bad.returncode == 1
    assert "hw:cpu_realtime" in bad.stdout


def test_standard_input_takes_the_nova_api_body_as_json():
    code, report = validate_json(
        "--file", "-", stdin='{"extra_specs": {"hw:cpu_policy": "dedicatd"}}'
    )
    assert code == 1
    assert by_key(report)["hw:cpu_policy"]["code"] == "invalid-value"


def test_arguments_override_file_entries(tmp_path):
    path = write(tmp_path, "specs.yaml", "hw:cpu_policy: dedicatd\nhw:numa_nodes: 2\n")
    code, report = validate_json("--file", str(path), "hw:cpu_policy=dedicated")
    assert code == 0, report
    assert report["checked"] == 2
    # ... and an argument can break a file that was valid on its own.
    path = write(tmp_path, "good.yaml", "hw:cpu_policy: dedicated\n")
    code, report = validate_json("--file", str(path), "hw:cpu_policy=dedicatd", "hw:numa_nodes=2")
    assert code == 1
    assert report["checked"] == 2
    assert by_key(report)["hw:cpu_policy"]["value"] == "dedicatd"


def test_a_relative_file_path_is_read_from_the_working_directory(tmp_path):
    write(tmp_path, "specs.yaml", "hw:cpu_policy: dedicated\n")
    code, report = validate_json("--file", "specs.yaml", cwd=tmp_path)
    assert code == 0
    assert report["checked"] == 1


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("broken.yaml", "hw:cpu_policy: [dedicated\nhw:numa_nodes: 2\n"),
        ("broken.json", '{"hw:cpu_policy": "dedicated",'),
    ],
)
def test_a_malformed_file_is_invalid_input_naming_the_file(tmp_path, name, text):
    """The file was read and is wrong: exit 1, as the command-line grammar says."""
    path = write(tmp_path, name, text)
    done = onespec("validate", "extra-specs", "--file", str(path))
    assert done.returncode == 1
    assert done.stderr.startswith(f"Error: {path}")
    assert "not valid" in done.stderr
    assert done.stdout == ""


def test_a_missing_file_is_a_usage_error(tmp_path):
    path = tmp_path / "nowhere.yaml"
    done = onespec("validate", "extra-specs", "--file", str(path))
    assert done.returncode == 2
    assert str(path) in done.stderr
    assert "no such file" in done.stderr


def test_a_directory_is_a_usage_error(tmp_path):
    done = onespec("validate", "extra-specs", "--file", str(tmp_path))
    assert done.returncode == 2
    assert f"{tmp_path}: is a directory, not a regular file" in done.stderr


def test_a_file_that_is_not_utf8_is_invalid_input(tmp_path):
    path = write(tmp_path, "latin1.yaml", "hw:cpu_policy: d\xe9dicated\n".encode("latin-1"))
    done = onespec("validate", "extra-specs", "--file", str(path))
    assert done.returncode == 1
    assert "not UTF-8" in done.stderr


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("list.yaml", "- hw:cpu_policy=dedicated\n- hw:numa_nodes=2\n", "a list"),
        ("list.json", '["hw:cpu_policy", "dedicated"]', "a list"),
        ("scalar.yaml", "hw:cpu_policy=dedicated\n", "the text 'hw:cpu_policy=dedicated'"),
        ("tilde.yaml", "~\n", "the text '~'"),  # every scalar is text, as over the API
        ("wrapped.json", '{"extra_specs": ["hw:cpu_policy"]}', "a list"),
    ],
)
def test_a_file_that_is_not_a_mapping_is_invalid_input(tmp_path, name, text, kind):
    path = write(tmp_path, name, text)
    done = onespec("validate", "extra-specs", "--file", str(path))
    assert done.returncode == 1
    assert done.stderr == (
        f"Error: {path}: holds {kind}; expected a mapping of extra-spec keys to values, a "
        "flavor or a list of flavors\n"
    )


# --- --help and --version ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        (),
        ("validate",),
        ("validate", "extra-specs"),
        ("definitions",),
        ("definitions", "doctor"),
        ("generate",),
        ("generate", "all"),
        ("generate", "runtime"),
    ],
    ids=lambda command: " ".join(command) or "onespec",
)
def test_help_works_everywhere(command):
    for flag in ("--help", "-h"):
        done = onespec(*command, flag)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"Usage: {' '.join(('onespec', *command))}")
        assert "Show this message and exit." in done.stdout


def test_the_top_level_help_lists_every_command():
    done = onespec("--help")
    for command in ("validate", "definitions", "generate"):
        assert f"  {command} " in done.stdout


def test_version():
    done = onespec("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"onespec, version {importlib.metadata.version('onespec')}"


# --- definitions doctor ------------------------------------------------------------------------


def test_doctor_without_plugins():
    done = onespec("definitions", "doctor")
    assert done.returncode == 0, done.stdout + done.stderr
    namespaces = {record[1] for record in generated.SPECS}
    assert (
        f"In-tree catalogue: {len(generated.SPECS)} definitions in {len(namespaces)} namespaces"
        in done.stdout
    )
    for name, version in generated.SOURCE_VERSIONS.items():
        assert f"{name} {version}" in done.stdout
    assert "Out-of-tree definitions: none loaded from onespec.extra_specs." in done.stdout
    assert "Problems: none." in done.stdout


def test_doctor_json_without_plugins():
    from onespec.definitions.registry import in_tree

    done = onespec("definitions", "doctor", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["in_tree"]["definitions"] == len(generated.SPECS) == len(in_tree())
    assert report["in_tree"]["namespaces"] == sorted({d.namespace for d in in_tree()})
    assert "hw" in report["in_tree"]["namespaces"]
    assert report["in_tree"]["source_versions"] == generated.SOURCE_VERSIONS
    assert set(report["in_tree"]["source_versions"]) == {"os-traits", "os-resource-classes"}
    assert report["out_of_tree"] == []
    assert report["problems"] == []


# --- generate ----------------------------------------------------------------------------------


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_generate_check_passes_on_the_committed_tree():
    from onespec.generator.extra_specs import runtime as runtime_module

    before = sha256(runtime_module.OUTPUT)
    done = onespec("generate", "all", "--check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""  # no diff
    # One line per output group, on standard error: what was checked.
    from onespec.generator.manifest import all_outputs

    groups = [output.name for output in all_outputs()]
    lines = done.stderr.splitlines()
    assert [line.split(":")[0] for line in lines] == groups
    assert all(
        re.search(r": \d+ files? checked, 0 differ \(\d+\.\d\d s\)$", line) for line in lines
    )
    done = onespec("generate", "runtime", "--check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert sha256(runtime_module.OUTPUT) == before


@pytest.fixture
def real_output():
    """The committed generated module: its path and text, checked unchanged afterwards."""
    from onespec.generator.extra_specs import runtime as runtime_module

    path = runtime_module.OUTPUT
    text = path.read_text(encoding="utf-8")
    digest = sha256(path)
    yield path, text
    assert sha256(path) == digest, "a test modified the committed generated module"


def drift(text: str) -> tuple[str, str, str]:
    """``text`` with one line changed: (changed text, the original line, the changed line)."""
    old = f"MAX_LENGTH = {generated.MAX_LENGTH}\n"
    new = f"MAX_LENGTH = {generated.MAX_LENGTH - 1}\n"
    assert text.count(old) == 1
    return text.replace(old, new), old, new


@pytest.mark.parametrize("command", ["all", "runtime"])
def test_generate_check_reports_drift_as_a_unified_diff(
    tmp_path, monkeypatch, real_output, command
):
    from onespec.generator.extra_specs import runtime as runtime_module

    real_path, committed = real_output
    changed, old, new = drift(committed)
    copy = tmp_path / "extra_specs.py"
    copy.write_text(changed, encoding="utf-8")
    monkeypatch.setattr(runtime_module, "OUTPUT", copy)

    result = CliRunner().invoke(cli, ["generate", command, "--check"])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stdout.splitlines(keepends=True)
    assert f"--- {copy} (committed)\n" in lines
    assert f"+++ {copy} (generated)\n" in lines
    assert any(line.startswith("@@ ") for line in lines)
    assert f"-{new}" in lines
    assert f"+{old}" in lines
    changed_lines = [
        line for line in lines if line[:1] in "+-" and not line.startswith(("---", "+++"))
    ]
    assert changed_lines == [f"-{new}", f"+{old}"]
    assert "1 generated file differ" in result.stderr
    assert str(real_path) not in result.output
    # --check never writes.
    assert copy.read_text(encoding="utf-8") == changed


def test_generate_runtime_writes_the_correct_content(tmp_path, monkeypatch, real_output):
    from onespec.generator.extra_specs import runtime as runtime_module

    _, committed = real_output
    changed, _, _ = drift(committed)
    copy = tmp_path / "extra_specs.py"
    copy.write_text(changed, encoding="utf-8")
    monkeypatch.setattr(runtime_module, "OUTPUT", copy)
    runner = CliRunner()

    result = runner.invoke(cli, ["generate", "runtime", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert copy.read_text(encoding="utf-8") == committed
    (report,) = json.loads(result.stdout)["outputs"]
    assert report["changed"] == [str(copy)]
    assert list(tmp_path.iterdir()) == [copy]  # no temporary file left behind
    lines = result.stderr.splitlines()
    assert lines[0].startswith("runtime: wrote 1 of 1 file (")
    assert lines[1:] == [f"  wrote {copy}"]

    result = runner.invoke(cli, ["generate", "runtime", "--format", "json"])
    assert result.exit_code == 0, result.output
    (report,) = json.loads(result.stdout)["outputs"]
    assert report["changed"] == [] and len(report["files"]) == 1
    assert result.stderr.startswith("runtime: 1 file up to date (")

    result = runner.invoke(cli, ["generate", "all", "--check"])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""


def test_generate_all_creates_a_missing_file(tmp_path, monkeypatch, real_output):
    from onespec.generator.extra_specs import runtime as runtime_module

    _, committed = real_output
    missing = tmp_path / "new" / "extra_specs.py"
    monkeypatch.setattr(runtime_module, "OUTPUT", missing)
    runner = CliRunner()

    result = runner.invoke(cli, ["generate", "all", "--check"])
    assert result.exit_code == 1
    assert "--- /dev/null" in result.stdout
    assert f"+++ {missing} (generated)" in result.stdout
    assert not missing.exists()

    result = runner.invoke(cli, ["generate", "all"])
    assert result.exit_code == 0, result.output
    assert missing.read_text(encoding="utf-8") == committed


# --- The shapes the OpenStack client and Nova's API print ----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"properties": {"hw:cpu_policy": "bogus"}}',  # openstack flavor show -c properties
        '{"name": "m1.large", "properties": {"hw:cpu_policy": "bogus"}}',  # flavor show
        '{"flavor": {"id": "1", "extra_specs": {"hw:cpu_policy": "bogus"}}}',  # Nova's API
        '[{"Name": "m1.large", "Properties": {"hw:cpu_policy": "bogus"}}]',  # flavor list --long
    ],
)
def test_a_flavor_as_the_clients_print_it_is_validated_not_passed(text):
    done = CliRunner().invoke(cli, ["validate", "extra-specs", "--file", "-"], input=text)
    assert done.exit_code == 1, done.output
    assert "[invalid-value] Extra spec 'hw:cpu_policy' has the value 'bogus'" in done.output


def test_a_list_of_flavors_is_reported_per_flavor():
    text = json.dumps(
        {
            "flavors": [
                {"name": "small", "extra_specs": {"hw:numa_nodes": "0"}},
                {"name": "large", "extra_specs": {"hw:cpu_policy": "dedicated"}},
            ]
        }
    )
    done = CliRunner().invoke(
        cli, ["validate", "extra-specs", "--file", "-", "--format", "json"], input=text
    )
    assert done.exit_code == 1
    report = json.loads(done.output)
    assert [(f["flavor"], f["valid"]) for f in report["flavors"]] == [
        ("small", False),
        ("large", True),
    ]
    text_done = CliRunner().invoke(cli, ["validate", "extra-specs", "--file", "-"], input=text)
    assert text_done.output.splitlines()[0].startswith("flavor small: error: [invalid-value]")


def test_property_options_are_extra_specs_as_the_openstack_client_spells_them():
    """``openstack flavor set --property K=V``: the same spelling, repeated, is read the same
    as KEY=VALUE arguments (it was "No such option")."""
    as_options = onespec(
        "validate", "extra-specs", "--property", "hw:cpu_policy=dedicatd",
        "--property", "hw:numa_nodes=2", "-f", "json",
    )  # fmt: skip
    as_arguments = onespec(
        "validate", "extra-specs", "hw:cpu_policy=dedicatd", "hw:numa_nodes=2", "-f", "json"
    )
    assert as_options.returncode == as_arguments.returncode == 1
    assert json.loads(as_options.stdout) == json.loads(as_arguments.stdout)
    assert json.loads(as_options.stdout)["checked"] == 2
    malformed = onespec("validate", "extra-specs", "--property", "hw:cpu_policy")
    assert malformed.returncode == 2 and "is not KEY=VALUE" in malformed.stderr


@pytest.mark.process
def test_a_wide_terminal_shows_every_command_summary_whole():
    """At 200 columns the listing cut most summaries ("Software components..."): click stops
    at 80 columns unless the group says otherwise. (A process: click's test runner forces a
    width of its own.)"""
    for group in ([], ["validate"]):
        shown = onespec_process(*group, "--help", env={"COLUMNS": "200"})
        assert shown.returncode == 0, shown.stderr
        listing = shown.stdout.split("Commands:\n", 1)[1].splitlines()
        assert listing and not [line for line in listing if line.rstrip().endswith("...")]


def test_validate_flavor_names_the_flavor_and_the_image_in_text_and_json(tmp_path):
    """It said "flavor with image: ..." and its JSON named neither."""
    flavor = tmp_path / "m1.rt.json"
    flavor.write_text(
        json.dumps({"name": "m1.rt", "vcpus": 3, "ram": 1024, "disk": 1,
                    "properties": {"hw:numa_nodes": "2"}}),
        encoding="utf-8",
    )  # fmt: skip
    image = tmp_path / "centos.json"
    image.write_text(json.dumps({"name": "centos-9", "properties": {}}), encoding="utf-8")
    text = onespec("validate", "flavor", str(flavor), "--image", str(image))
    assert text.returncode == 1
    assert "flavor 'm1.rt' with image 'centos-9': Nova would refuse it" in text.stdout
    report = onespec("validate", "flavor", str(flavor), "--image", str(image), "-f", "json")
    assert json.loads(report.stdout)["flavor"] == "m1.rt"
    assert json.loads(report.stdout)["image"] == "centos-9"
    nameless = tmp_path / "nameless.json"
    nameless.write_text(json.dumps({"vcpus": 1, "ram": 512, "disk": 1}), encoding="utf-8")
    alone = onespec("validate", "flavor", str(nameless), "-f", "json")
    assert json.loads(alone.stdout)["flavor"] is None and "image" not in json.loads(alone.stdout)


FLAVOR_YAML = """\
name: m1.rt
vcpus: 3
ram: 4096
disk: 20
properties:
  hw:cpu_policy: dedicated
  hw:numa_nodes: '2'
"""


def test_validate_flavor_reads_what_the_client_prints_with_f_yaml(tmp_path):
    """`openstack flavor show -f yaml` was refused as "not valid JSON"."""
    path = tmp_path / "m1.rt.yaml"
    path.write_text(FLAVOR_YAML, encoding="utf-8")
    done = onespec("validate", "flavor", str(path), "-f", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["flavor"] == "m1.rt"
    assert [f["code"] for f in report["findings"]] == ["numa-nodes-split-unevenly"]
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [\n", encoding="utf-8")
    done = onespec("validate", "flavor", str(broken))
    assert done.returncode == 1 and f"{broken}:2: not valid YAML" in done.stderr


def test_a_flavor_where_an_image_goes_and_the_reverse_are_usage_errors(tmp_path):
    """A flavor file given as --image was "accepted by Nova's checks", exit 0."""
    flavor = tmp_path / "m1.rt.yaml"
    flavor.write_text(FLAVOR_YAML, encoding="utf-8")
    image = tmp_path / "centos.json"
    image.write_text(
        json.dumps({"name": "centos", "disk_format": "qcow2", "min_ram": 0, "properties": {}}),
        encoding="utf-8",
    )
    as_image = onespec("validate", "flavor", str(flavor), "--image", str(flavor))
    assert as_image.returncode == 2
    assert f"--image {flavor} holds a flavor (it has vcpus, ram), not an image" in as_image.stderr
    as_flavor = onespec("validate", "flavor", str(image))
    assert as_flavor.returncode == 2
    assert "holds an image (it has disk_format, min_ram), not a flavor" in as_flavor.stderr
    properties = onespec("validate", "image-properties", str(flavor))
    assert properties.returncode == 2 and "holds a flavor" in properties.stderr


def test_a_fleet_whose_images_carry_no_properties_says_how_to_get_them(tmp_path):
    """`openstack image list --long -f json` carries no properties: the check ran no image rule
    and said nothing."""
    flavors = tmp_path / "flavors.json"
    flavors.write_text(
        json.dumps([{"Name": "m1", "RAM": 1024, "Disk": 1, "VCPUs": 1, "Properties": {}}]),
        encoding="utf-8",
    )
    images = tmp_path / "images.json"
    images.write_text(
        json.dumps([{"ID": "1", "Name": "cirros", "Disk Format": "qcow2", "Status": "active"}]),
        encoding="utf-8",
    )
    done = onespec("validate", "fleet", "--flavors", str(flavors), "--images", str(images))
    assert done.returncode == 0, done.stderr
    assert "the image carries no properties, so no rule" in done.stderr
    assert "openstack image show IMAGE -f json" in done.stderr


def test_the_properties_text_of_f_value_is_read_wherever_extra_specs_are(tmp_path):
    """`openstack flavor show -f value -c properties` prints KEY='VALUE', ...: read inside a
    flavor's JSON, it was refused by `validate extra-specs --file -`; a quoted value may hold
    commas (`hw:numa_cpus.0='0,1'` was split in two)."""
    text = "hw:cpu_policy='dedicatd', hw:numa_cpus.0='0,1', hw:numa_nodes='2'\n"
    done = onespec("validate", "extra-specs", "--file", "-", "-f", "json", stdin=text)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["checked"] == 3
    assert [(f["key"], f["code"]) for f in report["findings"]] == [
        ("hw:cpu_policy", "invalid-value"),
        ("hw:numa_cpus.0", "numa-lists-incomplete"),  # two nodes, one list: a rule between keys
    ]
    flavor = tmp_path / "m1.json"
    flavor.write_text(
        json.dumps({"name": "m1", "vcpus": 2, "ram": 1024, "disk": 1, "properties": text}),
        encoding="utf-8",
    )
    whole = onespec("validate", "flavor", str(flavor), "-f", "json")
    assert {f["code"] for f in json.loads(whole.stdout)["findings"]} >= {"invalid-value"}
