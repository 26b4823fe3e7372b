"""``onespec image script`` writes its file only on success, and the README's image commands
say where a spec's scripts are (``--resource-root``), as a spec outside its plugin needs."""

from __future__ import annotations

import json
import re

from tests.conftest import ROOT
from tests.validators_runtime.images.helpers import onespec, write_spec

SPEC = """\
arguments:
  java_distro:
    description: Which Java.
    required: true
validators:
  - package: coreutils
"""


def test_a_failed_script_leaves_no_file(tmp_path):
    spec = write_spec(tmp_path, SPEC)
    output = tmp_path / "pack.sh"
    done = onespec("image", "script", str(spec), "--distro", "ubuntu", "--output", str(output))
    assert done.returncode == 2, done.stderr
    assert not output.exists()


def test_a_failed_script_leaves_an_existing_file_alone(tmp_path):
    spec = write_spec(tmp_path, SPEC)
    output = tmp_path / "pack.sh"
    output.write_text("#!/bin/sh\necho previous\n")
    done = onespec("image", "script", str(spec), "--distro", "nosuch", "--output", str(output))
    assert done.returncode == 2
    assert output.read_text() == "#!/bin/sh\necho previous\n"


def test_a_script_is_written_whole_and_executable(tmp_path):
    spec = write_spec(tmp_path, SPEC)
    output = tmp_path / "pack.sh"
    done = onespec(
        "image",
        "script",
        str(spec),
        "--distro",
        "ubuntu",
        "--arg",
        "java_distro=openjdk",
        "--output",
        str(output),
    )
    assert done.returncode == 0, done.stderr
    assert output.read_text().startswith("#!") and output.stat().st_mode & 0o111
    assert sorted(p.name for p in tmp_path.iterdir()) == ["image.yaml", "pack.sh"]  # no temp


def test_the_readme_runs_image_commands_with_their_resource_root_and_no_redirection():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [
        line
        for line in readme.splitlines()
        if re.match(r"(?:\$ )?onespec image (check|validate|script) ", line)
    ]
    assert lines
    for line in lines:
        command = line.split("#", 1)[0]
        assert "--resource-root" in command, line
        assert ">" not in command, line  # a shell redirection leaves a file behind on failure


def test_check_reports_spec_warnings_and_keys_given_twice_as_located_warnings(tmp_path):
    spec = write_spec(
        tmp_path,
        "validators:\n"
        "  - package: [coreutils, coreutils]\n"
        "arguments:\n"
        "  x:\n"
        "    description: One.\n"
        "    description: Two.\n"
        "    default: a\n",
    )
    done = onespec("image", "check", str(spec), "--format", "json")
    assert done.returncode == 0, done.stderr
    warnings = json.loads(done.stdout)["warnings"]
    found = {(w["code"], w["path"], w["line"], w["severity"]) for w in warnings}
    assert found == {
        ("spec", "validators[0].package", 2, "warning"),
        ("duplicate-key", "arguments.x.description", 6, "warning"),
    }
    assert all(w["file"] == str(spec) for w in warnings)


def test_validate_reports_the_specs_warnings_in_the_one_finding_shape(tmp_path):
    """As ``image check`` does: each warning located by file, line and YAML path in the JSON,
    and said once in the text."""
    spec = write_spec(tmp_path, "validators:\n  - package: [coreutils, coreutils]\n")
    done = onespec("image", "validate", str(spec), "--remote", "local", "--format", "json")
    assert done.returncode == 0, done.stderr
    (warning,) = json.loads(done.stdout)["warnings"]
    assert set(warning) == {
        "code", "severity", "message", "file", "line", "path", "value", "suggestion"
    }  # fmt: skip
    assert (warning["code"], warning["severity"], warning["path"], warning["line"]) == (
        "spec",
        "warning",
        "validators[0].package",
        2,
    )
    assert warning["file"] == str(spec)
    text = onespec("image", "validate", str(spec), "--remote", "local")
    lines = [line for line in text.stdout.splitlines() if line.startswith("warning: ")]
    assert lines == [f"warning: {spec}:2: validators[0].package: {warning['message']}"]
