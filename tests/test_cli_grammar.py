"""The command-line grammar (:mod:`onespec.validators_runtime.cli_grammar`), checked on every
command.

The commands are found by walking the ``onespec`` group, so a new command is in the matrix the
moment it is added: the cases that need to know how to call it (the files it reads) fail until
the tables below say so.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from onespec.validators_runtime.cli import cli
from tests.commands import walk

COMMANDS: dict[tuple[str, ...], click.Command] = dict(walk())
IDS = [" ".join(path) for path in COMMANDS]

#: Files a command writes rather than reads: not part of the missing-file and bad-YAML cases.
WRITTEN = {("image", "script", "output")}

#: Files that are not YAML (keys, known_hosts): only the missing-file case applies.
NOT_YAML = {
    ("image", "validate", "identity"),
    ("image", "validate", "known_hosts"),
    ("audit", "sources"),  # Python sources
    ("validate", "flavor", "flavor_file"),  # JSON, as the OpenStack client prints it
    ("validate", "flavor", "image_file"),
    ("validate", "image-properties", "image_file"),
    ("validate", "fleet", "flavors_file"),
    ("validate", "fleet", "images_file"),
}

#: How to give each read file to its command; ``@`` stands for the file.
FILE_ARGS: dict[tuple[str, ...], list[str]] = {
    ("audit", "sources"): ["@"],
    ("audit", "idioms_file"): [".", "--idioms", "@"],
    ("template-capabilities", "choices", "paths"): ["@"],
    ("template-capabilities", "find", "paths"): ["-c", "resource_type=X", "@"],
    ("template-capabilities", "resolve", "environments"): ["-e", "@"],
    ("template-capabilities", "summary", "paths"): ["@"],
    ("component", "metadata", "template_path"): ["--resource", "c", "--action", "CREATE", "@"],
    ("component", "validate", "templates"): ["@"],
    ("image", "check", "spec"): ["@"],
    ("image", "script", "spec"): ["@", "--distro", "ubuntu"],
    ("image", "validate", "spec"): ["@", "--remote", "local"],
    ("image", "validate", "identity"): ["@@SPEC", "--remote", "local", "--identity", "@"],
    ("image", "validate", "known_hosts"): ["@@SPEC", "--remote", "local", "--known-hosts", "@"],
    ("serve", "policy_file"): ["--policy-file", "@", "--port", "0"],
    ("validate", "extra-specs", "file_"): ["--file", "@"],
    ("validate", "flavor", "flavor_file"): ["@"],
    ("validate", "flavor", "image_file"): ["-", "--image", "@"],
    ("validate", "image-properties", "image_file"): ["@"],
    ("validate", "fleet", "flavors_file"): ["--flavors", "@", "--images", "-"],
    ("validate", "fleet", "images_file"): ["--flavors", "-", "--images", "@"],
}


def read_files() -> list[tuple[str, ...]]:
    """Every (command..., parameter) that names a file the command reads."""
    found = []
    for path, command in COMMANDS.items():
        for parameter in command.params:
            kind = parameter.type
            if isinstance(kind, click.Path) and kind.file_okay and parameter.name:
                key = (*path, parameter.name)
                if key not in WRITTEN:
                    found.append(key)
    return found


READ_FILES = read_files()


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Run ``onespec ARGS`` in-process in ``tmp_path``; return (exit code, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("ONESPEC_URL", "http://127.0.0.1:9")

    def invoke(*args: str, stdin: str = "") -> tuple[int, str, str]:
        result = CliRunner().invoke(cli, list(args), input=stdin, prog_name="onespec")
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.stdout, result.stderr

    return invoke


def assert_clean(stderr: str) -> None:
    """Diagnostics carry the one prefix, and never a traceback or another prefix."""
    assert "Traceback" not in stderr
    for other in ("onespec: error:", "spec error:", "\nerror:", "ERROR:"):
        assert other not in f"\n{stderr}", stderr
    assert not stderr.startswith("error:"), stderr


# --- every command ------------------------------------------------------------------------------


def test_the_matrix_covers_every_command():
    assert len(COMMANDS) >= 29
    assert set(FILE_ARGS) == set(READ_FILES), "say how to give each read file to its command"


@pytest.mark.parametrize("path", COMMANDS, ids=IDS)
def test_help_exits_0(run, path):
    code, out, err = run(*path, "--help")
    assert code == 0, err
    assert out.startswith(f"Usage: onespec {' '.join(path)}")


@pytest.mark.parametrize("path", COMMANDS, ids=IDS)
def test_an_unknown_option_is_a_usage_error(run, path):
    code, _, err = run(*path, "--no-such-option")
    assert code == 2
    assert "Error: No such option '--no-such-option'" in err
    assert_clean(err)


@pytest.mark.parametrize("path", COMMANDS, ids=IDS)
def test_every_command_takes_format_text_or_json(run, path):
    options = {opt: p for p in COMMANDS[path].params for opt in getattr(p, "opts", ())}
    assert "--format" in options, f"onespec {' '.join(path)} has no --format"
    # text and json everywhere; a command may offer more after them (diff: rst, reno).
    assert list(options["--format"].type.choices)[:2] == ["text", "json"]
    code, out, err = run(*path, "--format", "yaml")
    assert code == 2
    if path == ("component", "hook"):
        json.loads(out)  # heat-config reads the hook's answer, a usage error's included
    else:
        assert out == ""
    assert "Error: Invalid value for '-f' / '--format'" in err
    assert_clean(err)


@pytest.mark.parametrize("path", COMMANDS, ids=IDS)
def test_a_misspelt_format_gets_a_suggestion(run, path):
    code, _, err = run(*path, "-f", "jsn")
    assert code == 2
    assert "Error: Invalid value for '-f' / '--format'" in err
    assert "Did you mean 'json'?" in err
    assert_clean(err)


def _options(command: click.Command) -> list[click.Option]:
    return [p for p in command.params if isinstance(p, click.Option) and p.name != "help"]


@pytest.mark.parametrize("path", COMMANDS, ids=IDS)
def test_f_is_the_output_format_as_in_the_openstack_client(path):
    by_short = {o: p for p in _options(COMMANDS[path]) for o in p.opts if not o.startswith("--")}
    assert by_short["-f"].opts == ["-f", "--format"], f"onespec {' '.join(path)}: -f"


def test_each_short_option_has_one_meaning_across_commands():
    meanings: dict[str, set[tuple[str, bool]]] = {}
    for command in COMMANDS.values():
        for option in _options(command):
            long = next(o for o in (*option.opts, *option.secondary_opts) if o.startswith("--"))
            for short in (o for o in option.opts if not o.startswith("--")):
                meanings.setdefault(short, set()).add((long, option.is_flag))
    assert {short for short, seen in meanings.items() if len(seen) > 1} == set(), meanings
    assert meanings["-r"] == {("--recursive", True)}


def test_f_json_prints_json(run):
    code, out, err = run("component", "actions", "-f", "json")
    assert code == 0, err
    assert [a["name"] for a in json.loads(out)["actions"]][:2] == ["CREATE", "UPDATE"]


@pytest.mark.parametrize("path", COMMANDS, ids=IDS)
def test_a_misspelt_command_name_gets_a_suggestion(run, path):
    *parent, name = path
    code, _, err = run(*parent, f"{name}x")
    assert code == 2
    assert f"Error: No such command '{name}x'. Did you mean '{name}'?" in err
    assert_clean(err)


# --- files ----------------------------------------------------------------------------------------


def _args(key: tuple[str, ...], file: Path, spec: Path) -> list[str]:
    return [str(spec) if a == "@@SPEC" else str(file) if a == "@" else a for a in FILE_ARGS[key]]


def _command(key: tuple[str, ...]) -> tuple[str, ...]:
    return next(path for path in COMMANDS if key[: len(path)] == path and len(key) == len(path) + 1)


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text("validators:\n  - package: coreutils\n")
    return path


@pytest.mark.parametrize("key", READ_FILES, ids=[" ".join(k) for k in READ_FILES])
def test_a_missing_file_is_a_usage_error_naming_it(run, tmp_path, spec, key):
    missing = tmp_path / "missing.yaml"
    code, out, err = run(*_command(key), *_args(key, missing, spec))
    assert code == 2, (out, err)
    assert "missing.yaml" in err and "Error: " in err
    assert_clean(err)
    assert not missing.exists()


YAML_FILES = [key for key in READ_FILES if key not in NOT_YAML]


@pytest.mark.parametrize("key", YAML_FILES, ids=[" ".join(k) for k in YAML_FILES])
def test_bad_yaml_is_invalid_input_with_one_located_message(run, tmp_path, spec, key):
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: 1\nb: [unclosed\n")
    code, out, err = run(*_command(key), *_args(key, bad, spec))
    assert code == 1, (out, err)
    said = out + err
    assert len(re.findall(rf"{re.escape(str(bad))}:3: not valid YAML: ", said)) == 1, said
    for noise in ("<unicode string>", "^", "Error parsing template", "Traceback"):
        assert noise not in said, said
    assert_clean(err)


@pytest.mark.parametrize("key", YAML_FILES, ids=[" ".join(k) for k in YAML_FILES])
def test_bad_yaml_in_json_is_one_json_document(run, tmp_path, spec, key):
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: 1\nb: [unclosed\n")
    if "--format" not in {o for p in COMMANDS[_command(key)].params for o in p.opts}:
        pytest.fail("every command has --format")
    code, out, err = run(*_command(key), *_args(key, bad, spec), "--format", "json")
    assert code == 1, (out, err)
    if out:
        json.loads(out)  # a report, if any, is one JSON document
    assert "Usage:" not in err


def test_a_misspelt_distribution_gets_a_suggestion(run, spec):
    code, _, err = run("image", "script", str(spec), "--distro", "ubunt")
    assert code == 2
    assert "Did you mean 'ubuntu'?" in err
    assert_clean(err)


def test_a_misspelt_mode_gets_a_suggestion(run):
    code, _, err = run("validate", "extra-specs", "--mode", "stric", "hw:cpu_policy=dedicated")
    assert code == 2
    assert "Did you mean 'strict'?" in err


def test_progress_is_quiet_when_stderr_is_not_a_terminal(run, spec):
    code, out, err = run("image", "validate", str(spec), "--remote", "local")
    assert code == 0, err
    assert err == "" and "passed" in out
    code, _, err = run("image", "validate", str(spec), "--remote", "local", "--progress")
    assert "passed     validators[0].package package coreutils" in err
