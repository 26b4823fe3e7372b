"""Reconciling a package for real: apt-get installs it from a local repository, dpkg records it.

The package is one these tests build with ``dpkg-deb`` (it holds a single text file and depends
on nothing); the repository is a directory on this machine that apt reads through ``APT_CONFIG``,
so the machine's own sources, lists and caches are neither read nor changed. The package is
purged before and after. Installing needs root, which the CI machine has.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from onespec.validators_runtime.images import (
    ImageValidationError,
    LocalRemote,
    Outcome,
    SaharaImageValidator,
)
from tests.validators_runtime.images.helpers import write_spec

PACKAGE = "onespec-reconcile-probe"
VERSION = "1.0-1"

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None,
    reason="installing a package needs root, apt-get and dpkg-deb",
)


def run(*command: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=True, timeout=300, env=env)


def installed_version(name: str) -> str | None:
    done = subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}\t${Version}", "--", name],
        capture_output=True,
        text=True,
        check=False,
    )
    status, _, version = done.stdout.partition("\t")
    return version if done.returncode == 0 and status.endswith(" installed") else None


def purge() -> None:
    subprocess.run(["dpkg", "--purge", PACKAGE], capture_output=True, check=False)


def build_package(directory: Path) -> Path:
    root = directory / "root"
    (root / "DEBIAN").mkdir(parents=True)
    (root / "DEBIAN" / "control").write_text(
        f"Package: {PACKAGE}\nVersion: {VERSION}\nArchitecture: all\n"
        "Maintainer: onespec tests <tests@onespec.invalid>\n"
        "Description: a package the image-validation tests install and purge\n",
        encoding="utf-8",
    )
    doc = root / "usr" / "share" / "doc" / PACKAGE
    doc.mkdir(parents=True)
    (doc / "README").write_text("Installed by a reconciling image spec.\n", encoding="utf-8")
    deb = directory / f"{PACKAGE}_{VERSION}_all.deb"
    run("dpkg-deb", "--root-owner-group", "--build", str(root), str(deb))
    return deb


def write_repository(repository: Path, deb: Path) -> None:
    """A flat repository: the .deb and a Packages index naming it, its size and its digest."""
    control = run("dpkg-deb", "--field", str(deb)).stdout.rstrip("\n")
    data = deb.read_bytes()
    (repository / "Packages").write_text(
        f"{control}\nFilename: ./{deb.name}\nSize: {len(data)}\n"
        f"SHA256: {hashlib.sha256(data).hexdigest()}\n\n",
        encoding="utf-8",
    )


@pytest.fixture(scope="module")
def apt_env(tmp_path_factory) -> dict[str, str]:
    """The environment in which apt sees the local repository, and only it."""
    base = tmp_path_factory.mktemp("apt")
    repository = base / "repository"
    repository.mkdir()
    deb = build_package(base)
    shutil.move(deb, repository / deb.name)
    write_repository(repository, repository / deb.name)
    for folder in ("lists/partial", "cache/archives/partial", "parts", "preferences"):
        (base / folder).mkdir(parents=True)
    (base / "sources.list").write_text(f"deb [trusted=yes] file:{repository} ./\n")
    (base / "apt.conf").write_text(
        f'Dir::Etc::SourceList "{base}/sources.list";\n'
        f'Dir::Etc::SourceParts "{base}/parts";\n'
        f'Dir::Etc::PreferencesParts "{base}/preferences";\n'
        f'Dir::State::Lists "{base}/lists";\n'
        f'Dir::Cache "{base}/cache";\n'
        'Acquire::Languages "none";\n'
        'APT::Get::Assume-Yes "true";\n'
    )
    env = {"APT_CONFIG": str(base / "apt.conf")}
    run("apt-get", "update", "-qq", env={**os.environ, **env})
    purge()
    yield env
    purge()


@pytest.fixture
def spec(tmp_path):
    return SaharaImageValidator.from_yaml(
        write_spec(tmp_path, f"validators:\n  - package: {{{PACKAGE}: {{version: '{VERSION}'}}}}\n")
    )


def validate(spec, env, reconcile):
    with LocalRemote(env=env) as remote:
        return spec.validate(remote, reconcile=reconcile)


def test_reconcile_installs_the_pinned_package_once(apt_env, spec):
    purge()
    assert installed_version(PACKAGE) is None

    with pytest.raises(ImageValidationError, match=PACKAGE):
        validate(spec, apt_env, reconcile=False)
    assert installed_version(PACKAGE) is None, "checking must not install"

    first = validate(spec, apt_env, reconcile=True)
    assert first.outcome is Outcome.RECONCILED
    assert installed_version(PACKAGE) == VERSION
    assert any("apt-get -y install" in command for command in first.commands)

    second = validate(spec, apt_env, reconcile=True)
    assert second.outcome is Outcome.PASSED
    assert not any("apt-get" in command for command in second.commands)


def test_a_version_apt_cannot_find_fails_the_step_and_installs_nothing(apt_env, tmp_path):
    purge()
    spec = SaharaImageValidator.from_yaml(
        write_spec(tmp_path, f"validators:\n  - package: {{{PACKAGE}: {{version: '9.9-9'}}}}\n")
    )
    with pytest.raises(ImageValidationError, match=PACKAGE):
        validate(spec, apt_env, reconcile=True)
    assert installed_version(PACKAGE) is None
