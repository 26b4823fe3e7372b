"""Nothing in a spec or an argument reaches a shell unquoted; hostile specs never load.

Each injection attempt would create a marker file if any shell ran it; the tests assert that
the spec is refused at load time, naming file and YAML path, and that the marker does not exist.
"""

from __future__ import annotations

import json

import pytest

from onespec.validators_runtime.images import (
    ImageValidationSpecificationError,
    LocalRemote,
    Outcome,
    SaharaImageValidator,
)
from tests.validators_runtime.images.helpers import onespec, write_spec

#: (label, spec text with MARKER in it, expected YAML path, words of the reason).
HOSTILE = [
    (
        "package name",
        "validators:\n  - package: 'foo; touch MARKER'\n",
        "validators[0].package",
        "is not a package name",
    ),
    (
        "package name in a list",
        "validators:\n  - package:\n      - curl\n      - '$(touch MARKER)'\n",
        "validators[0].package[1]",
        "is not a package name",
    ),
    (
        "version",
        "validators:\n  - package:\n      lzo:\n        version: '1.0$(touch MARKER)'\n",
        "validators[0].package.lzo.version",
        "is not an exact version",
    ),
    (
        "version with a backtick",
        "validators:\n  - package: {lzo: {version: '`touch MARKER`'}}\n",
        "validators[0].package.lzo.version",
        "is not an exact version",
    ),
    (
        "option-like name",
        "validators:\n  - package: '--force-yes'\n",
        "validators[0].package",
        "is not a package name",
    ),
    (
        "script path with ..",
        "validators:\n  - script: ../../etc/passwd\n",
        "validators[0].script",
        "leads out of the resource root",
    ),
    (
        "absolute script path",
        "validators:\n  - script: /etc/passwd\n",
        "validators[0].script",
        "is absolute",
    ),
    (
        "copy_script path with ..",
        "validators:\n  - copy_script: ../outside.sh\n",
        "validators[0].copy_script",
        "leads out of the resource root",
    ),
    (
        "variable name",
        "validators:\n  - script: {s: {inline: 'true', env_vars: ['X;touch MARKER']}}\n",
        "validators[0].script.s.env_vars[0]",
        "is not a shell variable name",
    ),
    (
        "output name",
        "validators:\n  - script: {s: {inline: 'true', output: '$(touch MARKER)'}}\n",
        "validators[0].script.s.output",
        "is not a shell variable name",
    ),
    (
        "argument name",
        "arguments:\n  'a$(touch MARKER)': {default: x}\nvalidators: []\n",
        "arguments['a$(touch MARKER)']",
        "is not a shell variable name",
    ),
    (
        "reserved output name",
        "validators:\n  - script: {s: {inline: 'touch MARKER', output: SIV_RECONCILE}}\n",
        "validators[0].script.s.output",
        "is reserved",
    ),
    (
        "python tag",
        "validators: !!python/object/apply:os.system ['touch MARKER']\n",
        None,
        "not valid YAML",
    ),
]


@pytest.fixture
def layout(tmp_path):
    """A resource root inside tmp_path, a file outside it, and a marker path."""
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "outside.sh").write_text("touch MARKER\n")
    return root, tmp_path / "marker"


@pytest.mark.parametrize(("label", "text", "path", "words"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_specs_are_refused_at_load_time(layout, label, text, path, words):
    root, marker = layout
    spec_file = write_spec(root, text.replace("MARKER", str(marker)))
    with pytest.raises(ImageValidationSpecificationError) as caught:
        SaharaImageValidator.from_yaml(spec_file)
    error = caught.value
    assert error.file == str(spec_file)
    assert error.path == (path.replace("MARKER", str(marker)) if path else None)
    assert words in error.reason
    assert error.line is not None
    assert str(error).startswith(f"{spec_file}:{error.line}")
    assert not marker.exists()


@pytest.mark.parametrize(
    "text",
    [
        "validators:\n  - package: 'foo; touch MARKER'\n",
        "validators:\n  - package: {lzo: {version: '$(touch MARKER)'}}\n",
        "validators:\n  - script: ../../etc/passwd\n",
    ],
    ids=["package", "version", "path"],
)
def test_the_cli_refuses_them_as_invalid_input_and_runs_nothing(layout, text):
    root, marker = layout
    spec_file = write_spec(root, text.replace("MARKER", str(marker)))
    done = onespec("image", "validate", str(spec_file), "--remote", "local", "--reconcile")
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"Error: {spec_file}:" in done.stderr
    assert done.stdout == ""
    assert not marker.exists()


def test_a_symbolic_link_out_of_the_root_is_refused(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "etc").symlink_to("/etc")
    (root / "inside.sh").write_text("exit 0\n")
    (root / "alias.sh").symlink_to(root / "inside.sh")
    spec_file = write_spec(root, "validators:\n  - script: etc/passwd\n")
    with pytest.raises(ImageValidationSpecificationError, match="symbolic link"):
        SaharaImageValidator.from_yaml(spec_file)
    inside = write_spec(root, "validators:\n  - script: alias.sh\n  - script: a/../inside.sh\n")
    (root / "a").mkdir()
    assert len(SaharaImageValidator.from_yaml(inside).validators) == 2


def test_resource_roots_are_searched_in_order(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    for root, text in ((first, "echo first"), (second, "echo second")):
        (root / "common").mkdir(parents=True)
        (root / "common" / "s").write_text(text)
    (second / "common" / "only").write_text("echo only")
    spec_file = write_spec(tmp_path, "validators:\n  - script: common/s\n  - script: common/only\n")
    spec = SaharaImageValidator.from_yaml(spec_file, resource_roots=[first, second])
    assert [v.script_contents for v in spec.validators] == [b"echo first", b"echo only"]


HOSTILE_VALUES = ["$(touch MARKER)", "'; touch MARKER; '", '"; touch MARKER #', "`touch MARKER`"]


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_argument_values_reach_scripts_verbatim(tmp_path, value):
    marker = tmp_path / "marker"
    hostile = value.replace("MARKER", str(marker))
    text = """
    arguments:
      name:
        description: Anything at all.
        default: x
    validators:
      - script:
          echo_it:
            env_vars: [name]
            output: ECHOED
            inline: printf '%s' "$name"
      - script:
          compare:
            env_vars: [ECHOED, name]
            inline: '[ "$ECHOED" = "$name" ]'
    """
    spec = SaharaImageValidator.from_yaml(write_spec(tmp_path, text))
    with LocalRemote() as remote:
        report = spec.validate(remote, reconcile=True, env_map={"name": hostile})
    # Reconciling, each script ran once, to fix; "compare" exited 0, so the values matched.
    assert report.outcome is Outcome.RECONCILED
    assert not report.failures
    assert not marker.exists()


def test_script_bodies_are_files_never_pasted_into_shell_text(tmp_path):
    marker = tmp_path / "marker"
    body = f"cat <<'EOF'\n_SIV_\nEOF\necho '$(touch {marker})' \"literal\" '$HOME'\n: _SIV_\n"
    text = "validators:\n  - script: {body: {output: OUT, inline: " + json.dumps(body) + "}}\n"
    spec = SaharaImageValidator.from_yaml(write_spec(tmp_path, text))
    with LocalRemote() as remote:
        report = spec.validate(remote, reconcile=False)
    command = next(c for c in report.commands if c.startswith("env "))
    assert command.endswith("bash <workdir>/000-body.sh")
    assert "touch" not in command
    assert not marker.exists()
    expected = tmp_path / "expected"
    expected.write_text(f"_SIV_\n$(touch {marker}) literal $HOME")
    compare = f'[ "$OUT" = "$(cat {expected})" ]'
    spec_with_check = write_spec(
        tmp_path,
        text + "  - script: {same: {env_vars: [OUT], inline: " + json.dumps(compare) + "}}\n",
        "second.yaml",
    )
    with LocalRemote() as remote:
        report = SaharaImageValidator.from_yaml(spec_with_check).validate(remote, reconcile=False)
    assert report.outcome is Outcome.PASSED
    assert not marker.exists()
