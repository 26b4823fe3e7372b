"""Validation on this machine through LocalRemote: real dpkg, real bash, nothing installed."""

from __future__ import annotations

import logging
import subprocess

import pytest

from onespec.validators_runtime.images import (
    ImageArgumentError,
    ImageValidationError,
    LocalRemote,
    Outcome,
    SaharaImageValidator,
)
from tests.validators_runtime.images.helpers import installed_packages, write_spec

NO_SUCH_PACKAGE = "onespec-no-such-package-7f3a"

#: Two scripts that each create a file under $target, checking first (as specs must).
IDEMPOTENT = """
arguments:
  target:
    description: The directory the scripts work in.
    required: true
validators:
  - script:
      make_config:
        env_vars: [target]
        inline: |
          if [ -f "$target/config" ]; then exit 0; fi
          [ "$SIV_RECONCILE" = 1 ] || { echo "no $target/config" >&2; exit 1; }
          printf 'level=3\\n' > "$target/config"
  - os_case:
      - redhat:
          - script:
              never:
                inline: touch "$target/wrong-family"
      - debian:
          - script:
              make_dir:
                env_vars: [target]
                inline: |
                  [ -d "$target/data" ] && exit 0
                  [ "$SIV_RECONCILE" = 1 ] || exit 1
                  mkdir "$target/data"
"""


def snapshot(directory) -> dict:
    return {
        str(path.relative_to(directory)): (
            path.stat().st_mtime_ns,
            path.read_bytes() if path.is_file() else None,
        )
        for path in sorted(directory.rglob("*"))
    }


def dpkg_knows(name: str) -> bool:
    done = subprocess.run(["dpkg-query", "-W", name], capture_output=True, check=False)
    return done.returncode == 0


def validate(spec, reconcile, **kwargs):
    with LocalRemote() as remote:
        return spec.validate(remote, reconcile=reconcile, **kwargs)


# --- Must hold -----------------------------------------------------------------------------------


def test_a_spec_requiring_coreutils_passes_without_reconcile(tmp_path):
    spec = SaharaImageValidator.from_yaml(
        write_spec(tmp_path, "validators:\n  - package: coreutils\n")
    )
    report = validate(spec, False)
    assert report.outcome is Outcome.PASSED
    (step,) = [s for s in report.steps if s.kind == "package"]
    assert step.outcome is Outcome.PASSED and step.label == "coreutils"
    assert report.distro.startswith("debian")
    assert not any("apt-get" in command for command in report.commands)


def test_a_missing_package_fails_naming_it_and_nothing_is_installed(tmp_path):
    spec = SaharaImageValidator.from_yaml(
        write_spec(tmp_path, f"validators:\n  - package: [coreutils, {NO_SUCH_PACKAGE}]\n")
    )
    with pytest.raises(ImageValidationError) as caught:
        validate(spec, False)
    assert NO_SUCH_PACKAGE in str(caught.value)
    report = caught.value.report
    assert report.outcome is Outcome.FAILED
    (failure,) = report.failures
    assert failure.path == "validators[0].package"
    assert failure.detail == f"not installed: {NO_SUCH_PACKAGE}"
    assert not any("apt-get" in command for command in report.commands)
    assert not dpkg_knows(NO_SUCH_PACKAGE)


def test_reconcile_is_idempotent(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    spec = SaharaImageValidator.from_yaml(write_spec(tmp_path, IDEMPOTENT))
    env = {"target": str(target)}

    with pytest.raises(ImageValidationError):
        validate(spec, False, env_map=env)
    assert snapshot(target) == {}, "checking without reconcile changed something"

    first = validate(spec, True, env_map=env)
    assert first.outcome is Outcome.RECONCILED
    scripts = {s.label: s.outcome for s in first.steps if s.kind == "script"}
    assert scripts == {"make_config": Outcome.RECONCILED, "make_dir": Outcome.RECONCILED}
    assert (target / "config").read_text() == "level=3\n" and (target / "data").is_dir()
    assert not (target / "wrong-family").exists()
    before = snapshot(target)

    second = validate(spec, True, env_map=env)
    # Reconciling runs each script once, in fix mode, as Sahara's contract does; a script that
    # tests before it acts changes nothing the second time.
    scripts = [s for s in second.steps if s.kind == "script"]
    assert {s.label: s.outcome for s in scripts} == {
        "make_config": Outcome.RECONCILED,
        "make_dir": Outcome.RECONCILED,
    }
    runs = [[c for c in s.commands if c.startswith("env ")] for s in scripts]
    assert [len(r) for r in runs] == [1, 1]
    assert all("SIV_RECONCILE=1" in r[0] for r in runs)
    assert not any("SIV_RECONCILE=0" in command for command in second.commands)
    assert snapshot(target) == before


def test_package_checks_cost_one_query_however_many_packages(tmp_path):
    counts = {}
    for size in (5, 50):
        lines = "".join(f"  - package: {name}\n" for name in installed_packages(size))
        spec = SaharaImageValidator.from_yaml(
            write_spec(tmp_path, f"validators:\n{lines}", f"p{size}.yaml")
        )
        report = validate(spec, False)
        assert report.outcome is Outcome.PASSED
        assert len([s for s in report.steps if s.kind == "package"]) == size
        assert [c.split()[0] for c in report.commands] == ["cat", "dpkg-query"]
        counts[size] = len(report.commands)
    assert counts[5] == counts[50] == 2


# --- Semantics ------------------------------------------------------------------------------------


def test_all_checks_everything_without_reconcile_and_stops_at_a_failure_with_it(tmp_path):
    text = """
    validators:
      - script: {first: {inline: exit 1}}
      - package: coreutils
    """
    spec = SaharaImageValidator.from_yaml(write_spec(tmp_path, text))
    with pytest.raises(ImageValidationError) as checking:
        validate(spec, False)
    steps = {s.path: s.outcome for s in checking.value.report.steps}
    assert steps["validators[1].package"] is Outcome.PASSED
    with pytest.raises(ImageValidationError) as fixing:
        validate(spec, True)
    steps = {s.path: s for s in fixing.value.report.steps}
    assert steps["validators[1].package"].outcome is Outcome.SKIPPED
    assert "earlier validator failed" in steps["validators[1].package"].detail


def test_any_reconciles_each_alternative_in_turn_with_a_warning(tmp_path, caplog):
    marker = tmp_path / "marker"
    text = f"""
    validators:
      - any:
          - package: {NO_SUCH_PACKAGE}-never-installed-by-a-check
          - script:
              fixable:
                inline: |
                  [ -f {marker} ] && exit 0
                  [ "$SIV_RECONCILE" = 1 ] && touch {marker}
    """
    spec = SaharaImageValidator.from_yaml(write_spec(tmp_path, text))
    with pytest.raises(ImageValidationError, match="fixable exited 1") as caught:
        validate(spec, False)
    any_step = next(s for s in caught.value.report.steps if s.kind == "any")
    assert any_step.detail == "none of the 2 alternatives passed"
    assert not marker.exists()

    class NoInstall(LocalRemote):
        """Refuses installations, as a machine without a package mirror would."""

        def execute_command(self, cmd, run_as_root=False, raise_when_error=True, timeout=None):
            if "apt-get" in cmd:
                return 100, "", "E: no mirror in tests"
            return super().execute_command(cmd, run_as_root, raise_when_error, timeout)

    with (
        caplog.at_level(logging.WARNING, logger="onespec.validators_runtime.images"),
        NoInstall() as remote,
    ):
        report = spec.validate(remote, reconcile=True)
    assert report.outcome is Outcome.RECONCILED and marker.exists()
    assert "reconciling each in turn" in caplog.text
    any_step = next(s for s in report.steps if s.kind == "any")
    assert any_step.outcome is Outcome.RECONCILED
    phases = [(s.kind, s.reconcile, s.outcome) for s in report.steps if s.depth == 2]
    assert phases == [
        ("package", False, Outcome.FAILED),
        ("script", False, Outcome.FAILED),
        ("package", True, Outcome.FAILED),
        ("script", True, Outcome.RECONCILED),
    ]
    assert report.failures == []


def test_os_case_without_a_matching_case_is_skipped(tmp_path):
    spec = SaharaImageValidator.from_yaml(
        write_spec(tmp_path, "validators:\n  - os_case:\n      - redhat:\n          - package: x\n")
    )
    report = validate(spec, False)
    (step,) = [s for s in report.steps if s.kind == "os_case"]
    assert step.outcome is Outcome.SKIPPED and "no case for debian" in step.detail
    assert not any(c.startswith("dpkg-query") for c in report.commands)


def test_arguments_cases_outputs_and_variables(tmp_path):
    text = """
    arguments:
      flavour:
        description: Which flavour.
        default: plain
        choices: [plain, fancy]
    validators:
      - script:
          say:
            output: GREETING
            inline: echo "hello $SIV_DISTRO"
      - argument_set:
          argument_name: flavour
          value: fancy
      - argument_case:
          argument_name: flavour
          cases:
            plain:
              - script: {never: {inline: exit 1}}
            fancy:
              - script:
                  check:
                    env_vars: [GREETING, flavour, UNSET_ONE]
                    inline: |
                      [ "$GREETING" = "hello debian" ] && [ "$flavour" = fancy ] &&
                      [ -z "${UNSET_ONE+set}" ] && [ "$test_only" = 1 ] && [ "$distro" = debian ]
    """
    spec = SaharaImageValidator.from_yaml(write_spec(tmp_path, text))
    report = validate(spec, False)
    assert report.outcome is Outcome.PASSED
    check = next(s for s in report.steps if s.label == "check")
    assert "not set (no value given): UNSET_ONE" in check.detail
    case = next(s for s in report.steps if s.kind == "argument_case")
    assert "case flavour=fancy" in case.detail
    with pytest.raises(ImageArgumentError, match="must be one of plain, fancy"):
        spec.validate(LocalRemote(), env_map={"flavour": "odd"})


def test_a_required_argument_must_be_given(tmp_path):
    spec = SaharaImageValidator.from_yaml(write_spec(tmp_path, IDEMPOTENT))
    with pytest.raises(ImageArgumentError, match="argument target is required"):
        validate(spec, False)
    with pytest.raises(ImageArgumentError, match="set by the validation itself"):
        validate(spec, False, env_map={"target": "x", "SIV_DISTRO": "centos"})


def test_copy_script_stages_a_file_once(tmp_path):
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "utils.sh").write_text("UTIL=1\n")
    text = """
    validators:
      - copy_script: common/utils.sh
      - script:
          reads_it:
            inline: grep -qx UTIL=1 "$STAGE/utils.sh"
            env_vars: [STAGE]
    """
    stage = tmp_path / "stage"
    stage.mkdir()
    spec = SaharaImageValidator.from_yaml(write_spec(tmp_path, text))
    env = {"STAGE": str(stage)}
    first = validate(spec, True, env_map=env, copy_destination=str(stage))
    copy = next(s for s in first.steps if s.kind == "copy_script")
    assert copy.outcome is Outcome.RECONCILED and (stage / "utils.sh").read_text() == "UTIL=1\n"
    second = validate(spec, True, env_map=env, copy_destination=str(stage))
    copy = next(s for s in second.steps if s.kind == "copy_script")
    assert copy.outcome is Outcome.PASSED and not any("write_file" in c for c in copy.commands)


def test_the_working_directory_is_removed(tmp_path):
    spec = SaharaImageValidator.from_yaml(
        write_spec(tmp_path, "validators:\n  - script: {s: {inline: 'echo \"$0\"'}}\n")
    )
    report = validate(spec, False)
    assert report.setup[-1] == "rm -rf -- <workdir>"
    assert "mktemp -d /tmp/onespec-siv.XXXXXXXX" in report.commands


def test_a_misspelt_package_is_named_with_the_one_it_probably_meant(tmp_path):
    spec = SaharaImageValidator.from_yaml(
        write_spec(tmp_path, f"validators:\n  - package: [coreutlis, {NO_SUCH_PACKAGE}]\n")
    )
    with pytest.raises(ImageValidationError) as caught:
        validate(spec, False)
    (failure,) = caught.value.report.failures
    # A close spelling of an installed package is offered; a name like no other gets nothing.
    assert (
        failure.detail == f"not installed: coreutlis (did you mean coreutils?), {NO_SUCH_PACKAGE}"
    )
