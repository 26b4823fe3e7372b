"""The one way the tests build a Sphinx project: in-process, on :mod:`sphinx.testing`.

A test writes its pages with :func:`write_project` (or :func:`make` does it) and gets a
:class:`Build`: the application, the HTML it wrote, the warnings as lines, and which documents
were read (so incremental builds can be checked). :class:`~sphinx.testing.util.SphinxTestApp`
isolates each build from the others -- the docutils registries and ``sys.path`` it touched are
restored when the build ends -- so many builds can run in one test process.
"""

from __future__ import annotations

import io
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_escape_sequences
from sphinx.util.inventory import InventoryFile

#: The configuration of every test project: the extension, and every reference must resolve.
CONF = 'extensions = ["onespec.sphinxext"]\nnitpicky = True\n'

#: The object type most tests look up in ``objects.inv``.
EXTRA_SPEC = "onespec:extra-spec"


def page(title: str, body: str = "") -> str:
    """A reST page: a title and its body."""
    return f"{title}\n{'=' * len(title)}\n\n{body}"


def write_project(srcdir: Path, pages: dict[str, str], conf: str = CONF) -> None:
    """``conf.py``, an ``index`` whose toctree lists ``pages`` in order, and the pages."""
    srcdir.mkdir(parents=True, exist_ok=True)
    (srcdir / "conf.py").write_text(conf, encoding="utf-8")
    toctree = "".join(f"   {name}\n" for name in pages)
    index = page("Test project", f".. toctree::\n\n{toctree}")
    (srcdir / "index.rst").write_text(index, encoding="utf-8")
    for name, text in pages.items():
        (srcdir / f"{name}.rst").write_text(text, encoding="utf-8")


@dataclass
class Build:
    """A finished build: its application, where it wrote, what it said and what it read."""

    app: SphinxTestApp
    srcdir: Path
    outdir: Path
    warnings: list[str]
    status: str
    read: list[str] = field(default_factory=list)

    def html(self, docname: str) -> str:
        return (self.outdir / f"{docname}.html").read_text(encoding="utf-8")

    def inventory(self, objtype: str = EXTRA_SPEC) -> dict[str, str]:
        """The entries of one object type in ``objects.inv``: name -> URI."""
        with (self.outdir / "objects.inv").open("rb") as stream:
            data = InventoryFile.load(stream, "", posixpath.join)
        return {name: item.uri for name, item in data.get(objtype, {}).items()}

    def warnings_with(self, text: str) -> list[str]:
        return [line for line in self.warnings if text in line]


def build(srcdir: Path, outdir: Path, *, fresh: bool = True, parallel: int = 0) -> Build:
    """Build ``srcdir`` as HTML into ``outdir/html`` (doctrees in ``outdir/doctrees``).

    Fails the test when Sphinx itself fails (a non-zero status code); warnings are returned for
    the test to judge.
    """
    status, warning = io.StringIO(), io.StringIO()
    read: list[str] = []
    app = SphinxTestApp(
        "html",
        srcdir=srcdir,
        builddir=outdir,
        freshenv=fresh,
        status=status,
        warning=warning,
        parallel=parallel,
    )
    try:
        app.connect("source-read", lambda _app, docname, _source: read.append(docname))
        app.build()
    finally:
        app.cleanup()
    warnings = [
        line for line in strip_escape_sequences(warning.getvalue()).splitlines() if line.strip()
    ]
    assert app.statuscode == 0, warnings
    return Build(app, srcdir, Path(app.outdir), warnings, status.getvalue(), read)


def make(tmp: Path, pages: dict[str, str], **options: object) -> Build:
    """Write a project of ``pages`` under ``tmp/src`` and build it into ``tmp/out``."""
    write_project(tmp / "src", pages)
    return build(tmp / "src", tmp / "out", **options)  # type: ignore[arg-type]


_INDEX_ITEM = re.compile(
    r"<strong>(?P<cap>[^<]*)</strong></td>"
    r'|<a href="(?P<href>[^"]*)"><code class="xref">(?P<name>[^<]*)</code></a>\s*'
    r"<em>\((?P<extra>[^)]*)\)</em>"
)


def domain_index(html: str) -> dict[str, list[tuple[str, str, str]]]:
    """The groups of a domain index page: heading -> [(name, link, annotation)]."""
    groups: dict[str, list[tuple[str, str, str]]] = {}
    current = None
    for match in _INDEX_ITEM.finditer(html):
        if match["cap"] is not None:
            current = match["cap"]
            groups[current] = []
        else:
            assert current is not None
            groups[current].append((match["name"], match["href"], match["extra"]))
    return groups
