"""Scripts run the way Sahara's contract runs them, and the working directory is never guessed.

Nearly every script the Sahara plugins ship has the shape "if something is missing: fix it when
``test_only`` is 0, else exit 0" -- asked only to check, it exits 0 because it cannot check. A
runner that checks first takes that 0 for "nothing to fix" and never runs the fix; these tests
hold the runner (and the offline script) to one run, in the validation's mode.
"""

from __future__ import annotations

import pytest

from onespec.validators_runtime.images import (
    ImageValidationError,
    LocalRemote,
    Outcome,
    SaharaImageValidator,
)
from onespec.validators_runtime.images.remote import RemoteBase
from tests.validators_runtime.images.helpers import onespec, run_rendered, write_spec

#: A script shaped like the shipped ones (spark's ubuntu/wget_cdh_repo, add_jar...).
SAHARA_SHAPED = """
validators:
  - script:
      add_repo:
        env_vars: [root]
        inline: |
          if [ ! -f "$root/sources.list" ]; then
              if [ $test_only -eq 0 ]; then
                  echo "deb http://example.invalid/ stable main" > "$root/sources.list"
              else
                  exit 0
              fi
          fi
"""


def _spec(tmp_path):
    return SaharaImageValidator.from_yaml(write_spec(tmp_path, SAHARA_SHAPED))


def test_reconciling_runs_a_script_that_cannot_check_in_fix_mode(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    with LocalRemote() as remote:
        report = _spec(tmp_path).validate(remote, reconcile=True, env_map={"root": str(root)})
    assert (root / "sources.list").is_file(), "the fix was skipped"
    runs = [c for c in report.commands if c.startswith("env ")]
    assert len(runs) == 1 and "test_only=0" in runs[0]
    assert report.outcome is Outcome.RECONCILED


def test_checking_runs_it_once_in_check_mode_and_changes_nothing(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    with LocalRemote() as remote:
        report = _spec(tmp_path).validate(remote, reconcile=False, env_map={"root": str(root)})
    assert list(root.iterdir()) == []
    runs = [c for c in report.commands if c.startswith("env ")]
    assert len(runs) == 1 and "test_only=1" in runs[0]
    # The script's own answer: it cannot check, so it says yes. Sahara's runner hears the same.
    assert report.outcome is Outcome.PASSED


def test_the_offline_script_runs_it_in_fix_mode_too(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    spec = write_spec(tmp_path, SAHARA_SHAPED)
    done = onespec("image", "script", str(spec), "--distro", "debian", "--arg", f"root={root}")
    assert done.returncode == 0, done.stderr
    script = tmp_path / "pack.sh"
    script.write_text(done.stdout)

    def run(**env):
        return run_rendered(script, **env)

    assert run(SIV_RECONCILE="0").returncode == 0 and list(root.iterdir()) == []
    assert run().returncode == 0, "reconciling failed"
    assert (root / "sources.list").is_file(), "the offline script skipped the fix"
    refused = run(SIV_RECONCILE="yes")
    assert refused.returncode == 2 and "SIV_RECONCILE must be 0 or 1" in refused.stderr


class AnsweringRemote(RemoteBase):
    """A remote whose ``mktemp -d`` answers what the test says; every command is recorded."""

    target = "answering"

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.commands: list[str] = []
        self.written: list[str] = []

    def execute_command(self, cmd, run_as_root=False, raise_when_error=True, timeout=None):
        self.commands.append(cmd)
        if cmd.startswith("mktemp -d"):
            return 0, self.answer, ""
        return 0, "", ""

    def write_file(self, path, data, mode=0o644):
        self.written.append(path)


@pytest.mark.parametrize("answer", ["", "\n", "relative/dir", "/", "/tmp", "/tmp/x y", "/etc"])
def test_a_mktemp_answer_that_is_not_the_private_directory_is_refused(tmp_path, answer):
    remote = AnsweringRemote(answer)
    with pytest.raises(ImageValidationError, match="refusing to write scripts there"):
        _spec(tmp_path).validate(remote, reconcile=True, distro="ubuntu", env_map={"root": "/r"})
    assert remote.written == []
    assert not any(c.startswith(("chmod", "rm ", "env ")) for c in remote.commands), remote.commands


def test_the_expected_mktemp_answer_is_used_and_removed(tmp_path):
    remote = AnsweringRemote("/tmp/onespec-siv.Ab3_x-9Z\n")
    _spec(tmp_path).validate(remote, reconcile=True, distro="ubuntu", env_map={"root": "/r"})
    assert remote.written == ["/tmp/onespec-siv.Ab3_x-9Z/000-add_repo.sh"]
    assert remote.commands[-1] == "rm -rf -- /tmp/onespec-siv.Ab3_x-9Z"
