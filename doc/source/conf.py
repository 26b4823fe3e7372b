"""Sphinx configuration for the onespec documentation."""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # document the checkout, even without an editable install

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
    "sphinxext",
]

nitpicky = True
exclude_patterns = ["_build"]
templates_path: list[str] = []
html_theme = "alabaster"
html_static_path: list[str] = []
html_title = f"onespec {release}"
html_theme_options = {"description": "One definition per fact", "fixed_sidebar": True}
graphviz_output_format = "svg"
autodoc_typehints = "none"
autodoc_member_order = "bysource"

# sphinx-click walks a group's loaded commands; the command line loads most of them lazily.
from validators_runtime.cli import cli as _cli  # noqa: E402

_cli.load_all()

# Other projects' inventories would need the network at build time; none is referenced yet.
intersphinx_mapping: dict[str, tuple[str, str | None]] = {}
