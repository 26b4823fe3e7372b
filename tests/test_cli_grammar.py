"""The command-line grammar (:mod:`onespec.validators_runtime.cli_grammar`), checked on every
command.

The commands are found by walking the ``onespec`` group, so a new command is in the matrix the
moment it is added: the cases that need to know how to call it (the files it reads) fail until
the tables below say so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from onespec.validators_runtime.cli import LazyGroup, cli
from tests.commands import walk

COMMANDS: dict[tuple[str, ...], click.Command] = dict(walk())
IDS = [" ".join(path) for path in COMMANDS]

#: A lazy subcommand, as the ``onespec`` group names it.
SCHEMAS = "onespec.validators_runtime.schemas_cli:schemas"

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
    ("validate", "resize", "old_flavor_file"),
    ("validate", "resize", "new_flavor_file"),
    ("validate", "resize", "image_file"),
    ("validate", "rebuild", "flavor_file"),
    ("validate", "rebuild", "old_image_file"),
    ("validate", "rebuild", "new_image_file"),
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
    ("validate", "flavor", "image_file"): ["@@JSON", "--image", "@"],
    ("validate", "image-properties", "image_file"): ["@"],
    ("validate", "fleet", "flavors_file"): ["--flavors", "@", "--images", "@@JSON"],
    ("validate", "fleet", "images_file"): ["--flavors", "@@JSON", "--images", "@"],
    ("validate", "resize", "old_flavor_file"): ["@", "@@JSON"],
    ("validate", "resize", "new_flavor_file"): ["@@JSON", "@"],
    ("validate", "resize", "image_file"): ["@@JSON", "@@JSON", "--image", "@"],
    ("validate", "rebuild", "flavor_file"): ["@", "--from-image", "@@JSON", "--image", "@@JSON"],
    ("validate", "rebuild", "old_image_file"): ["@@JSON", "--from-image", "@", "--image", "@@JSON"],
    ("validate", "rebuild", "new_image_file"): ["@@JSON", "--from-image", "@@JSON", "--image", "@"],
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
    code, out, err = run(*path, "--format", "xml")
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
    for path, command in COMMANDS.items():
        for option in _options(command):
            if path == ("template-capabilities", "find") and option.name == "constraints":
                continue  # -c/--capability came first there; that command takes --column alone
            long = next(o for o in (*option.opts, *option.secondary_opts) if o.startswith("--"))
            for short in (o for o in option.opts if not o.startswith("--")):
                meanings.setdefault(short, set()).add((long, option.is_flag))
    assert {short for short, seen in meanings.items() if len(seen) > 1} == set(), meanings
    assert meanings["-r"] == {("--recursive", True)}
    assert meanings["-c"] == {("--column", False)}


def test_f_json_prints_json(run):
    code, out, err = run("component", "actions", "-f", "json")
    assert code == 0, err
    assert [a["name"] for a in json.loads(out)["actions"]][:2] == ["CREATE", "UPDATE"]


@pytest.mark.parametrize("path", COMMANDS, ids=IDS)
def test_a_misspelt_command_name_gets_a_suggestion(run, path):
    *parent, name = path
    code, _, err = run(*parent, f"{name}x")
    assert code == 2
    (line,) = [line for line in err.splitlines() if line.startswith("Error: ")]
    unknown, _, suggested = line.partition("Did you mean")
    assert f"No such command '{name}x'." in unknown
    assert f"'{name}'" in suggested
    assert_clean(err)


def test_a_lazy_subcommand_is_suggested_before_it_is_imported():
    group = LazyGroup(name="onespec", lazy_subcommands={"schemas": SCHEMAS})
    result = CliRunner().invoke(group, ["schema"], prog_name="onespec")
    assert result.exit_code == 2
    assert not group.commands, "the lazy subcommand was imported"
    assert "Did you mean 'schemas'?" in result.stderr


# --- files ----------------------------------------------------------------------------------------


def _args(key: tuple[str, ...], file: Path, spec: Path) -> list[str]:
    """The arguments that give ``file`` to the command (``@@SPEC``: a valid image spec;
    ``@@JSON``: a JSON file beside it, ``{}``)."""
    other = spec.with_name("other.json")
    other.write_text("{}\n")
    named = {"@": str(file), "@@SPEC": str(spec), "@@JSON": str(other)}
    return [named.get(a, a) for a in FILE_ARGS[key]]


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

#: Files checked as paths and handed on, whose content onespec never reads (on the local remote).
PATH_ONLY = {("image", "validate", "identity"), ("image", "validate", "known_hosts")}

#: Files that cannot come on standard input, and why.
NO_STDIN = {
    ("image", "validate", "identity"): "an SSH key, handed to paramiko by its path",
    ("image", "validate", "known_hosts"): "handed to paramiko by its path",
    ("serve", "policy_file"): "oslo.policy reads it again by its path when it changes",
    ("audit", "sources"): "source trees, walked, and each read is located by its file",
}
STDIN_FILES = [key for key in READ_FILES if key not in NO_STDIN]

#: What a command that reads each kind of file cannot read (content, where it is named).
BAD_CONTENT = {"yaml": ("a: 1\nb: [unclosed\n", ":3: not valid YAML: "), "json": ("{\n", "")}


def _kind(key: tuple[str, ...]) -> str:
    return "json" if key in NOT_YAML else "yaml"


def _json_document(out: str) -> dict:
    """The one JSON document ``out`` must be (json.loads refuses two, or trailing text)."""
    document = json.loads(out)
    assert isinstance(document, dict), out
    return document


@pytest.mark.parametrize("key", STDIN_FILES, ids=[" ".join(k) for k in STDIN_FILES])
def test_every_file_argument_reads_standard_input_as_dash(run, tmp_path, spec, key):
    content, located = BAD_CONTENT[_kind(key)]
    code, out, err = run(*_command(key), *_args(key, Path("-"), spec), stdin=content)
    assert code == 1, (out, err)
    assert f"<stdin>{located}" in out + err or f"-{located}" in out + err, (out, err)
    assert_clean(err)


#: Standard input twice, where a command takes several files.
TWICE = {
    ("template-capabilities", "choices"): ["-", "-"],
    ("template-capabilities", "find"): ["-c", "a=b", "-", "-"],
    ("template-capabilities", "summary"): ["-", "-"],
    ("template-capabilities", "resolve"): ["-e", "-", "-e", "-"],
    ("component", "validate"): ["-", "-"],
    ("validate", "flavor"): ["-", "--image", "-"],
    ("validate", "fleet"): ["--flavors", "-", "--images", "-"],
    ("validate", "resize"): ["-", "-"],
    ("validate", "rebuild"): ["-", "--from-image", "-", "--image", "-"],
}


def test_twice_covers_every_command_that_takes_several_files():
    several = set()
    for key in STDIN_FILES:
        command = COMMANDS[_command(key)]
        files = [p for p in command.params if (*_command(key), p.name) in STDIN_FILES]
        if len(files) > 1 or any(p.nargs == -1 or getattr(p, "multiple", False) for p in files):
            several.add(_command(key))
    assert several == set(TWICE)


@pytest.mark.parametrize("path", TWICE, ids=[" ".join(p) for p in TWICE])
def test_standard_input_is_read_once(run, path):
    code, out, err = run(*path, *TWICE[path], stdin="a: 1\n")
    assert code == 2, (out, err)
    assert "Error: '-' (standard input) can be given once" in err
    assert_clean(err)


#: Arguments that take source trees as well as files: a directory is what they are for, and
#: an empty Python file is valid Python.
TREES = {("audit", "sources")}
FILES_ONLY = [key for key in READ_FILES if key not in TREES]


@pytest.mark.parametrize("key", FILES_ONLY, ids=[" ".join(k) for k in FILES_ONLY])
def test_a_directory_where_a_file_is_expected_is_a_usage_error(run, tmp_path, spec, key):
    folder = tmp_path / "folder"
    folder.mkdir()
    code, out, err = run(*_command(key), *_args(key, folder, spec))
    assert code == 2, (out, err)
    assert "folder" in err and "director" in err, err
    assert_clean(err)


@pytest.mark.parametrize(
    "content", ["", "\n  \n", "# only a comment\n"], ids=["no bytes", "blank", "comment"]
)
@pytest.mark.parametrize("key", FILES_ONLY, ids=[" ".join(k) for k in FILES_ONLY])
def test_an_empty_file_is_invalid_input(run, tmp_path, spec, key, content):
    empty = tmp_path / "empty.yaml"
    empty.write_text(content)
    code, out, err = run(*_command(key), *_args(key, empty, spec))
    assert code == 1, (out, err)
    assert f"Error: {empty}: is empty" in err, err
    assert_clean(err)


@pytest.mark.parametrize("key", STDIN_FILES, ids=[" ".join(k) for k in STDIN_FILES])
def test_empty_standard_input_is_invalid_input(run, tmp_path, spec, key):
    code, out, err = run(*_command(key), *_args(key, Path("-"), spec), stdin="")
    assert code == 1, (out, err)
    assert "<stdin>: is empty" in out + err or "-: is empty" in out + err, (out, err)


#: Documents that are YAML but not what the command reads (serve would start on them: a
#: policy file of null is no rules, as oslo.policy reads it).
ODD_FILES = [key for key in YAML_FILES if key != ("serve", "policy_file")]


@pytest.mark.parametrize("key", ODD_FILES, ids=[" ".join(k) for k in ODD_FILES])
@pytest.mark.parametrize("value", ["~\n", "42\n", "[1, 2]\n", "text\n"])
def test_messages_name_no_python_type(run, tmp_path, spec, key, value):
    odd = tmp_path / "odd.yaml"
    odd.write_text(value)
    code, out, err = run(*_command(key), *_args(key, odd, spec))
    assert code in (0, 1), (out, err)
    python = re.findall(r"\b(?:NoneType|dict|int|str|float|bool|tuple)\b|<class", out + err)
    assert python == [], (out, err)


def _missing(tmp: Path) -> Path:
    return tmp / "missing.yaml"


def _directory(tmp: Path) -> Path:
    (tmp / "folder").mkdir()
    return tmp / "folder"


def _written(name: str, content: str) -> Callable[[Path], Path]:
    def write(tmp: Path) -> Path:
        (tmp / name).write_text(content)
        return tmp / name

    return write


CASES = {
    "missing": _missing,
    "directory": _directory,
    "empty": _written("empty.yaml", ""),
    "bad content": _written("bad.yaml", "a: 1\nb: [unclosed\n"),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("key", READ_FILES, ids=[" ".join(k) for k in READ_FILES])
def test_json_asked_is_one_json_document_on_bad_input(run, tmp_path, spec, key, case):
    if case == "bad content" and key in PATH_ONLY:
        return
    path = CASES[case](tmp_path)
    code, out, err = run(*_command(key), *_args(key, path, spec), "-f", "json")
    assert code in (1, 2), (out, err)
    document = _json_document(out)
    if "exit_code" in document:  # the command could not report: the error, as a finding
        assert document["valid"] is False and document["exit_code"] == code
        assert {"code", "severity", "message", "file", "line", "path"} <= set(
            document["problems"][0]
        )
    assert "Error: " in err or document, err


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
    code, out, err = run(*_command(key), *_args(key, bad, spec), "--format", "json")
    assert code == 1, (out, err)
    _json_document(out)
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
