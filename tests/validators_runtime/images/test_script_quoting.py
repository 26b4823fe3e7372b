"""Nothing reaches a rendered script unquoted, comments included; --distro is a known name.

A newline in the spec's file name or in ``--distro`` used to end the preamble's comment line
and start a command. Each attempt below would create a marker file if any shell ran it.
"""

from __future__ import annotations

import subprocess

import pytest

from onespec.validators_runtime.images.distro import Distro, known_distro
from onespec.validators_runtime.images.root import load
from onespec.validators_runtime.images.script import render_script
from tests.validators_runtime.images.helpers import onespec, write_spec

SPEC = "validators:\n  - script: {check: {inline: 'true'}}\n"


def test_a_newline_in_the_spec_file_name_stays_in_the_comment(tmp_path):
    marker = tmp_path / "marker"
    spec = write_spec(tmp_path, SPEC, name="x\ntouch marker\n.yaml")
    text = render_script(load(spec), "ubuntu")
    assert all(line.startswith("#") for line in text.splitlines() if "touch" in line)
    done = subprocess.run(
        ["bash", "-c", text],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert not marker.exists()


def test_the_cli_refuses_an_unknown_distro(tmp_path):
    marker = tmp_path / "marker"
    spec = write_spec(tmp_path, SPEC)
    done = onespec("image", "script", str(spec), "--distro", f"ubuntu\ntouch {marker}")
    assert done.returncode == 2
    assert "--distro" in done.stderr and "ubuntu" in done.stderr
    assert "touch" not in done.stdout
    assert not marker.exists()


def test_render_script_refuses_an_unknown_distro(tmp_path):
    spec = load(write_spec(tmp_path, SPEC))
    with pytest.raises(ValueError, match="not a known distribution"):
        render_script(spec, "ubuntu\nrm -rf /")


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("redhat", "redhat"),
        ("centos7", "redhat"),
        ("rhel", "redhat"),
        ("rhel8", "redhat"),
        ("fedora", "redhat"),
        ("rocky", "redhat"),
        ("almalinux", "redhat"),
        ("ubuntu22.04", "debian"),
        ("debian", "debian"),
    ],
)
def test_distribution_names_map_to_their_family(name, family):
    assert Distro.named(name).family == family
    assert known_distro(name).family == family


def test_a_versioned_name_keeps_its_version_for_os_case():
    distro = Distro.named("centos7")
    assert distro.name == "centos"
    assert distro.matches("centos7") and distro.matches("centos") and distro.matches("redhat")
    assert not distro.matches("centos8")


def test_the_cli_renders_for_redhat_with_rpm(tmp_path):
    spec = write_spec(tmp_path, "validators:\n  - package: wget\n")
    done = onespec("image", "script", str(spec), "--distro", "redhat")
    assert done.returncode == 0, done.stderr
    assert "rpm -q" in done.stdout
