"""Distribution detection, package-manager commands and parsing, the CLI, the rendered script."""

from __future__ import annotations

import json

import pytest

from onespec.validators_runtime.images import Distro, Package
from onespec.validators_runtime.images.packages import Dpkg, Rpm
from tests.validators_runtime.images.helpers import (
    onespec,
    onespec_process,
    run_rendered,
    write_spec,
)
from tests.validators_runtime.images.test_local import IDEMPOTENT, snapshot

# --- Distributions --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "family", "matches", "misses"),
    [
        (
            'ID=ubuntu\nID_LIKE=debian\nVERSION_ID="22.04"\n',
            "ubuntu",
            "debian",
            ["ubuntu", "debian", "ubuntu22"],
            ["redhat"],
        ),
        (
            'ID="centos"\nID_LIKE="rhel fedora"\nVERSION_ID="7"\n',
            "centos",
            "redhat",
            ["centos", "centos7", "redhat"],
            ["debian", "centos8"],
        ),
        (
            'ID="rocky"\nID_LIKE="rhel centos fedora"\nVERSION_ID="9.3"\n',
            "rocky",
            "redhat",
            ["rocky", "redhat", "rocky9"],
            ["ubuntu"],
        ),
        (
            'ID=linuxmint\nID_LIKE="ubuntu debian"\n',
            "ubuntu",
            "debian",
            ["ubuntu", "linuxmint", "debian"],
            ["redhat"],
        ),
        ("ID=alpine\n", "alpine", None, ["alpine"], ["debian", "redhat"]),
        (
            "# comment\nID=debian\nVERSION_ID=12\n",
            "debian",
            "debian",
            ["debian", "debian12"],
            ["ubuntu"],
        ),
    ],
)
def test_os_release_is_mapped_to_image_builder_names_and_families(
    text, name, family, matches, misses
):
    distro = Distro.from_os_release(text)
    assert (distro.name, distro.family) == (name, family)
    assert all(distro.matches(case) for case in matches)
    assert not any(distro.matches(case) for case in misses)


def test_a_named_distribution():
    assert Distro.named("Ubuntu") == Distro("ubuntu", "debian", "ubuntu")
    assert Distro.named("centos").family == "redhat"


# --- Package managers -----------------------------------------------------------------------------


def test_dpkg_commands_quote_and_batch():
    dpkg = Dpkg()
    assert dpkg.query_command(["a", "b+c"]) == (
        "dpkg-query -W -f='${Package}\\t${Status}\\t${Version}\\n' -- a b+c"
    )
    assert dpkg.install_command([Package("a"), Package("b", "1:2.0-1")]) == (
        "DEBIAN_FRONTEND=noninteractive apt-get -y install a b=1:2.0-1"
    )
    parsed = dpkg.parse(
        "a\tinstall ok installed\t1.0\nb\tdeinstall ok config-files\t2.0\n"
        "c\tinstall ok installed\t0:3\nc\tinstall ok installed\t0:3\n"
    )
    assert parsed == {"a": ("1.0",), "c": ("0:3", "0:3")}
    assert dpkg.satisfied(Package("c", "3"), parsed["c"])
    assert not dpkg.satisfied(Package("a", "1.1"), parsed["a"])


def test_rpm_commands_and_exact_pins():
    rpm = Rpm()
    assert rpm.install_command([Package("a"), Package("b", "1.2")]) == (
        "if command -v dnf >/dev/null 2>&1; then dnf install -y a b-1.2; "
        "else yum install -y a b-1.2; fi"
    )
    parsed = rpm.parse(
        "java\t(none)\t1.8.0\t3.el7\npackage lzo is not installed\nntp\t1\t4.2\t10\n"
    )
    assert parsed == {"java": ("1.8.0-3.el7",), "ntp": ("1:4.2-10",)}
    for pin in ("1.8.0", "1.8.0-3.el7"):
        assert rpm.satisfied(Package("java", pin), parsed["java"])
    for pin in ("1:4.2-10", "4.2-10", "4.2"):
        assert rpm.satisfied(Package("ntp", pin), parsed["ntp"])
    assert not rpm.satisfied(Package("java", "1.8"), parsed["java"])
    assert rpm.query_ok(2)


# --- The command line -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command", [("image",), ("image", "check"), ("image", "validate"), ("image", "script")]
)
def test_help_works_everywhere(command):
    done = onespec(*command, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Usage: onespec {' '.join(command)}")


@pytest.mark.process
def test_validate_exit_codes_and_json(tmp_path):
    good = write_spec(tmp_path, "validators:\n  - package: coreutils\n", "good.yaml")
    bad = write_spec(
        tmp_path, "validators:\n  - package: onespec-no-such-package-7f3a\n", "bad.yaml"
    )
    broken = write_spec(tmp_path, "validators:\n  - pakage: curl\n", "broken.yaml")
    # The console script itself, in a process: the exit codes as a shell sees them.
    done = onespec_process("image", "validate", str(good), "--remote", "local")
    assert done.returncode == 0 and ": passed (" in done.stdout
    done = onespec_process("image", "validate", str(good), "--remote", "ftp://x")
    assert done.returncode == 2
    done = onespec("image", "validate", str(good), "--remote", "local")
    assert done.returncode == 0 and ": passed (" in done.stdout
    done = onespec(
        "image", "validate", str(bad), "--remote", "local", "--format", "json", "--progress"
    )
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["outcome"] == "failed"
    assert report["steps"][1]["detail"] == "not installed: onespec-no-such-package-7f3a"
    assert "failed     validators[0].package" in done.stderr
    done = onespec("image", "validate", str(broken), "--remote", "local")
    assert done.returncode == 1 and "did you mean 'package'?" in done.stderr  # invalid input
    done = onespec("image", "validate", str(good), "--remote", "ftp://x")
    assert done.returncode == 2
    done = onespec("image", "check", str(broken), "--format", "json")
    assert done.returncode == 1
    errors = json.loads(done.stdout)["errors"]
    assert errors and errors[0]["path"] == "validators[0]" and errors[0]["line"] == 2
    # The one JSON shape of a finding (validators_runtime/problems.py), as in every report.
    assert set(errors[0]) == {
        "code", "severity", "message", "file", "line", "path", "value", "suggestion"
    }  # fmt: skip
    assert errors[0]["severity"] == "error" and errors[0]["code"] == "schema"


def test_bad_arguments_are_usage_errors(tmp_path):
    spec = write_spec(tmp_path, IDEMPOTENT)
    done = onespec("image", "validate", str(spec), "--remote", "local")
    assert done.returncode == 2 and "argument target is required" in done.stderr
    done = onespec("image", "validate", str(spec), "--remote", "local", "--arg", "target")
    assert done.returncode == 2 and "is not NAME=VALUE" in done.stderr


def test_the_rendered_script_reconciles_once_then_changes_nothing(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    spec = write_spec(tmp_path, IDEMPOTENT + "  - package: [coreutils, bash]\n")
    done = onespec("image", "script", str(spec), "--distro", "debian", "--arg", f"target={target}")
    assert done.returncode == 0, done.stderr
    script = tmp_path / "pack.sh"
    script.write_text(done.stdout)
    assert "wrong-family" not in done.stdout  # the redhat case is left out for debian

    def run(**env):
        return run_rendered(script, **env)

    checking = run(SIV_RECONCILE="0")
    assert checking.returncode == 1 and snapshot(target) == {}
    first = run()
    assert first.returncode == 0, first.stderr
    assert (target / "config").read_text() == "level=3\n" and (target / "data").is_dir()
    state = snapshot(target)
    second = run()
    assert second.returncode == 0 and snapshot(target) == state
    assert run(SIV_RECONCILE="0").returncode == 0


def test_closest_names_offers_only_close_spellings():
    from onespec.validators_runtime.images.packages import closest_names

    known = ["coreutils", "python3-yaml", "openssh-server", "ssh"]
    assert closest_names(["coreutlis", "python3-yml", "ssh", "zzzzqqq", "gcc"], known) == {
        "coreutlis": "coreutils",
        "python3-yml": "python3-yaml",
    }
