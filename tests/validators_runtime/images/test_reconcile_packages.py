"""The commands that install packages when reconciling, through a remote playing a package manager.

This remote answers dpkg-query and rpm from a dict and "installs" by adding to it, so the exact
commands the validators send can be checked -- for the Red Hat family too, whose dnf and yum a
Debian machine cannot run. ``test_apt_reconcile`` installs a package for real with apt-get.
"""

from __future__ import annotations

import re
import shlex

import pytest

from onespec.validators_runtime.images import ImageValidationError, Outcome
from onespec.validators_runtime.images.packages import Dpkg, Rpm
from onespec.validators_runtime.images.remote import RemoteBase
from onespec.validators_runtime.images.root import loads


class PackageManagerRemote(RemoteBase):
    target = "fake"

    def __init__(self, installed: dict[str, str], *, family: str, installable=()) -> None:
        self.installed = dict(installed)
        self.family = family
        self.installable = dict(installable)
        self.commands: list[str] = []

    def execute_command(self, cmd, run_as_root=False, raise_when_error=True, timeout=None):
        self.commands.append(cmd)
        if cmd in (Dpkg().names_command(), Rpm().names_command()):
            return 0, "".join(f"{name}\n" for name in {*self.installed, *self.installable}), ""
        words = shlex.split(cmd)
        if words[0] == "dpkg-query":
            names = words[words.index("--") + 1 :]
            lines = [
                f"{n}\tinstall ok installed\t{self.installed[n]}\n"
                for n in names
                if n in self.installed
            ]
            return (0 if len(lines) == len(names) else 1), "".join(lines), ""
        if words[0] == "rpm":
            names = words[4:]
            out = "".join(
                f"{n}\t(none)\t{self.installed[n].split('-')[0]}\t{self.installed[n].split('-')[1]}\n"
                if n in self.installed
                else f"package {n} is not installed\n"
                for n in names
            )
            return sum(n not in self.installed for n in names), out, ""
        if "apt-get -y install" in cmd or "dnf install -y" in cmd:
            wanted = re.split(r"install -y |install ", cmd)[1].split(";")[0].split()
            for word in wanted:
                name, _, version = (
                    word.partition("=") if self.family == "debian" else (word, "", "")
                )
                if name not in self.installable:
                    return 100, "", f"E: Unable to locate package {name}"
                self.installed[name] = version or self.installable[name]
            return 0, "", ""
        raise AssertionError(f"unexpected command {cmd!r}")

    def write_file(self, path, data, mode=0o644):
        raise AssertionError("no files here")


SPEC = """
validators:
  - package: [present, absent]
  - package: {pinned: {version: "2.0-1"}}
"""


def test_debian_installs_what_is_missing_at_once_with_exact_pins():
    spec = loads(SPEC)
    remote = PackageManagerRemote(
        {"present": "1.0", "pinned": "1.0-1"},
        family="debian",
        installable={"absent": "3.0", "pinned": "2.0-1"},
    )
    report = spec.validate(remote, reconcile=True, distro="debian")
    assert report.outcome is Outcome.RECONCILED
    installs = [c for c in remote.commands if "apt-get" in c]
    assert installs == [
        "DEBIAN_FRONTEND=noninteractive apt-get -y install absent",
        "DEBIAN_FRONTEND=noninteractive apt-get -y install pinned=2.0-1",
    ]
    assert remote.installed["pinned"] == "2.0-1"
    again = spec.validate(remote, reconcile=True, distro="debian")
    assert again.outcome is Outcome.PASSED
    assert [c.split()[0] for c in again.commands] == ["dpkg-query"]


def test_without_reconcile_nothing_is_installed_and_every_problem_is_named():
    spec = loads(SPEC)
    remote = PackageManagerRemote({"present": "1.0", "pinned": "1.0-1"}, family="debian")
    with pytest.raises(ImageValidationError) as caught:
        spec.validate(remote, reconcile=False, distro="ubuntu")
    message = str(caught.value)
    assert "not installed: absent" in message
    assert "at another version: pinned (1.0-1 installed, 2.0-1 required)" in message
    assert not any("install" in c.split()[0:3] or "apt-get" in c for c in remote.commands)


def test_an_installation_that_fails_fails_the_step():
    spec = loads("validators:\n  - package: nowhere\n")
    remote = PackageManagerRemote({}, family="debian")
    with pytest.raises(ImageValidationError, match="Unable to locate package nowhere"):
        spec.validate(remote, reconcile=True, distro="debian")


def test_a_misspelt_package_that_cannot_be_installed_gets_the_name_it_meant():
    spec = loads("validators:\n  - package: [wgte, nowhere]\n")
    remote = PackageManagerRemote({}, family="redhat", installable={"wget": "1.21-1"})
    with pytest.raises(ImageValidationError) as caught:
        spec.validate(remote, reconcile=True, distro="centos")
    assert str(caught.value).endswith("; did you mean wget for wgte?")
    assert "for nowhere" not in str(caught.value)


def test_redhat_uses_rpm_and_dnf_or_yum():
    spec = loads("validators:\n  - package: [ntp, wget]\n")
    remote = PackageManagerRemote(
        {"ntp": "4.2-10"}, family="redhat", installable={"wget": "1.21-1"}
    )
    report = spec.validate(remote, reconcile=True, distro="centos")
    assert report.outcome is Outcome.RECONCILED
    assert remote.commands[0].startswith("rpm -q --queryformat ")
    assert remote.commands[1] == (
        "if command -v dnf >/dev/null 2>&1; then dnf install -y wget; else yum install -y wget; fi"
    )


def test_an_unknown_family_cannot_check_packages():
    spec = loads("validators:\n  - package: x\n")
    with pytest.raises(ImageValidationError, match="its package manager is unknown"):
        spec.validate(PackageManagerRemote({}, family="?"), reconcile=False, distro="alpine")
