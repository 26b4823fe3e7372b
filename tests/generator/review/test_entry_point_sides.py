"""An installed plugin's definitions as the audit's catalogue and as a side of a diff."""

from __future__ import annotations

import json
from pathlib import Path

from tests.validators_runtime.test_entry_points import install, onespec


def test_audit_against_an_entry_point(tmp_path: Path) -> None:
    site = install(tmp_path / "site", "acme-filters")
    code = tmp_path / "service"
    code.mkdir()
    (code / "reader.py").write_text(
        "def size(flavor):\n    return flavor.extra_specs.get('acme:sizes')\n", encoding="utf-8"
    )
    done = onespec([site], "audit", str(code), "--catalogue", "acme", "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    undefined = {
        (f["path"], f["file"], f["line"])
        for f in report["findings"]
        if f["code"] == "undefined-read"
    }
    assert undefined == {("acme:sizes", "reader.py", 2)}
    assert "acme:size" in {f["path"] for f in report["findings"] if f["code"] == "never-read"}
    unknown = onespec([site], "audit", str(code), "--catalogue", "no-such-plugin")
    assert unknown.returncode == 2 and "acme" in unknown.stderr


def test_an_installed_distribution_diffed_with_itself_has_no_change(tmp_path: Path) -> None:
    site = install(tmp_path / "site", "acme-filters")
    done = onespec([site], "diff", "acme-filters", "acme-filters", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["changes"] == []
