"""The real plugins pack the same image on onespec's module as on stock Sahara.

``tests/peers/sahara_reconcile.py`` runs each plugin's own ``pack_image`` with the specs and
scripts it ships, once on stock ``sahara.plugins.images`` and once with onespec's module in its
place, each in fresh throwaway roots where the package tools, the network and the service tools
are played (see the script). Reconciling, both runners must run the same scripts in fix mode, in
the same order, and leave the same files; checking, neither runs a script in fix mode nor
installs anything.
"""

from __future__ import annotations

import pytest

from tests import peers

#: The plugin versions with an Ubuntu image spec (Ambari ships none for Ubuntu).
VERSIONS = {
    "cdh 5.7.0",
    "cdh 5.9.0",
    "cdh 5.11.0",
    "cdh 5.13.0",
    "mapr 5.2.0.mrv2",
    "spark 2.2",
    "spark 2.3",
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("throwaway-roots")
    return {
        mode: peers.run_script("sahara", "sahara_reconcile.py", mode, str(folder), "ubuntu")
        for mode in ("stock", "onespec")
    }


def _fixing(run):
    return [script for script, test_only in run["scripts"] if test_only == "0"]


@pytest.mark.parametrize("key", sorted(VERSIONS))
def test_reconciling_runs_the_scripts_sahara_runs_to_fix(runs, key):
    stock, ours = runs["stock"][key]["reconcile"], runs["onespec"][key]["reconcile"]
    assert stock["error"] is None and ours["error"] is None, (stock["error"], ours["error"])
    assert _fixing(stock), "stock Sahara ran no script to fix: the played root is wrong"
    assert _fixing(ours) == _fixing(stock)
    assert "<not a shipped file>" not in _fixing(ours)


@pytest.mark.parametrize("key", sorted(VERSIONS - {"mapr 5.2.0.mrv2"}))
def test_reconciling_leaves_the_files_sahara_leaves(runs, key):
    stock, ours = runs["stock"][key]["reconcile"], runs["onespec"][key]["reconcile"]
    assert ours["left"] == stock["left"]
    assert "var/lib/played/packages" in ours["left"]  # packages were installed, the same ones


def test_mapr_differs_only_where_sahara_copies_a_file_as_python_bytes(runs, tmp_path):
    """Sahara's copy_script writes ``"%s" % bytes``: the file holds ``b'...'``, and the MapR
    scripts that source it fail quietly, so no MapR repository is configured. onespec copies
    the file itself, and the repository is there."""
    stock = runs["stock"]["mapr 5.2.0.mrv2"]["reconcile"]["left"]
    ours = runs["onespec"]["mapr 5.2.0.mrv2"]["reconcile"]["left"]
    copied = {"tmp/package_utils.sh", "tmp/packages.json", "tmp/versions.py"}
    differing = {path for path in stock.keys() | ours.keys() if stock.get(path) != ours.get(path)}
    assert copied <= differing
    assert {path for path in differing - copied if not path.startswith("tmp/spec_")} == {
        "etc/apt/sources.list.d/mapr_core.list",
        "etc/apt/sources.list.d/mapr_ecosystem.list",
        "opt/mapr-repository/core/binary/Packages.gz",
        "opt/mapr-repository/ecosystem/binary/Packages.gz",
    }
    assert all(path in ours for path in differing)  # onespec only adds; it leaves nothing out


@pytest.mark.parametrize("key", sorted(VERSIONS))
def test_checking_fixes_nothing_and_installs_nothing(runs, key):
    stock, ours = runs["stock"][key]["check"], runs["onespec"][key]["check"]
    assert _fixing(ours) == [] and _fixing(stock) == []
    assert [s for s, _ in ours["scripts"]] == [s for s, _ in stock["scripts"]]
    assert ours["left"].get("var/lib/played/packages") in (None, _EMPTY)
    assert ours["left"] == stock["left"]
    assert ours["error"].startswith("ImageValidationError: ")
    assert ours["error_is_saharas_class"], "code catching Sahara's class would miss it"


_EMPTY = "e3b0c44298fc1c14"  # the first 16 hex digits of the SHA-256 of nothing


def test_a_spec_error_is_saharas_class_too(runs):
    error = runs["onespec"]["spec error"]
    assert error["saharas"], error
    assert "is not a package name" in error["text"]
