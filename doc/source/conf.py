"""Sphinx configuration for the onespec documentation."""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))  # document the checkout, even without an editable install

project = "onespec"
author = "The onespec authors"
copyright = "The onespec authors"
release = importlib.metadata.version("onespec")
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.graphviz",
    "sphinx.ext.intersphinx",
    "sphinx_click",
    "onespec.sphinxext",
]

nitpicky = True
exclude_patterns = ["_build"]
templates_path: list[str] = []
# Furo: maintained, on PyPI, responsive. Code blocks scroll inside their box instead of being
# clipped at the page edge; on a phone the navigation folds into a drawer that keeps full-size
# text, and each page's own contents stay in a sidebar (the command line reference relies on it).
html_theme = "furo"
html_static_path = ["_static"]
html_css_files = ["onespec.css"]
html_title = f"onespec {release}"
# `--option` must stay two hyphens, not an en dash, and quotes in examples must stay straight.
smartquotes = False
# A key's entry links to the guides that mention it; the reference pages only list keys.
onespec_mentions_exclude = ["reference/*"]
# Single backticks (in the command line's help texts, which sphinx-click renders) are code.
default_role = "literal"
graphviz_output_format = "svg"
autodoc_typehints = "none"
autodoc_member_order = "bysource"

# sphinx-click walks a group's loaded commands; the command line loads most of them lazily.
from onespec.validators_runtime.cli import cli as _cli  # noqa: E402

_cli.load_all()

# Other projects' inventories would need the network at build time; none is referenced yet.
intersphinx_mapping: dict[str, tuple[str, str | None]] = {}


def _examples_as_literal_blocks(_app: object, _ctx: object, lines: list[str]) -> None:
    """Render a help text's ``\\b`` block that opens with a heading (``Example:``) as code.

    click keeps such blocks unwrapped in ``--help``; sphinx-click turns them into line blocks,
    proportional type with the indentation lost. A heading followed by a literal block keeps
    the commands copyable.
    """
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("| ") and line.rstrip().endswith(":"):
            block = []
            index += 1
            while index < len(lines) and lines[index].startswith("|"):
                block.append(lines[index][2:])
                index += 1
            if block:
                indent = min(len(b) - len(b.lstrip()) for b in block if b.strip())
                out += [line[2:].rstrip(), "", ".. code-block:: shell", ""]
                out += [*("    " + b[indent:] for b in block), ""]
                continue
            out.append(line)
            continue
        out.append(line)
        index += 1
    lines[:] = out


def setup(app: object) -> None:
    app.connect("sphinx-click-process-description", _examples_as_literal_blocks)  # type: ignore[attr-defined]
