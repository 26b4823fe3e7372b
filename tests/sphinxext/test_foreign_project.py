"""The extension in another project's build: whatever Sphinx hands its hooks, it never crashes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CONF = """\
extensions = ["sphinxext"]
project = "consumer"
"""

INDEX = """\
Consumer
========

An unresolved any-reference: :any:`no-such-thing-anywhere`.

A misspelt key: :onespec:extra-spec:`hw:cpu_pollicy`.

A key the consumer does not document: :onespec:extra-spec:`hw:cpu_policy`.
"""


def build(source: Path, out: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", *options, str(source), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_an_unresolved_any_reference_is_a_warning_not_a_crash(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(CONF)
    (source / "index.rst").write_text(INDEX)
    for options in ((), ("-j", "2")):
        done = build(source, tmp_path / f"html{len(options)}", "-E", *options)
        assert done.returncode == 0, done.stderr
        assert "Extension error" not in done.stderr
        assert "no-such-thing-anywhere" in done.stderr  # Sphinx's own warning
        assert "unknown extra spec 'hw:cpu_pollicy'" in done.stderr
        assert (tmp_path / f"html{len(options)}" / "index.html").is_file()
