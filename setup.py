"""The parts of the build that ``pyproject.toml`` cannot say.

1. One import namespace. The checkout keeps ``definitions/``, ``generator/``, ``sphinxext/`` and
   ``validators_runtime/`` at its top; the distribution installs them as ``onespec.definitions``
   and so on (the table in ``onespec/_layout.py``), so the wheel's only top-level name is
   ``onespec``. ``package_dir`` maps each package to its folder; editable installs follow the
   same mapping.
2. The committed JSON Schemas and Glance metadefs. They live in ``outputs/`` at the top of the
   checkout, where deployers and reviewers find them; an installed onespec has no checkout, so
   ``build_py`` places a copy under ``onespec/validators_runtime/data/``, where
   :mod:`onespec.validators_runtime.resources` loads them through ``importlib.resources``.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent

#: Directory under ``outputs/`` -> directory under ``validators_runtime/data/`` in the wheel.
PUBLISHED = {"schemas": "schemas", "glance-metadefs": "glance-metadefs"}


def _folders() -> dict[str, str]:
    """``FOLDERS`` of onespec/_layout.py, read without importing the package being built."""
    tree = ast.parse((HERE / "onespec" / "_layout.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "FOLDERS":
            folders: dict[str, str] = ast.literal_eval(node.value)
            return folders
    raise SystemExit("onespec/_layout.py defines no FOLDERS table")


def _packages() -> tuple[list[str], dict[str, str]]:
    """Every package under the one namespace, and the folder each comes from."""
    packages = ["onespec"]
    package_dir = {"onespec": "onespec"}
    for folder, package in _folders().items():
        package_dir[package] = folder
        for init in sorted((HERE / folder).rglob("__init__.py")):
            relative = init.parent.relative_to(HERE / folder)
            packages.append(".".join((package, *relative.parts)))
    return packages, package_dir


class BuildWithOutputs(build_py):
    """``build_py`` that also copies ``outputs/*/*.json`` into the package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            # An editable install reads outputs/ in the checkout directly.
            return
        data = Path(self.build_lib) / "onespec" / "validators_runtime" / "data"
        for source, target in PUBLISHED.items():
            destination = data / target
            destination.mkdir(parents=True, exist_ok=True)
            files = sorted((HERE / "outputs" / source).glob("*.json"))
            if not files:
                raise SystemExit(f"outputs/{source}/ holds no JSON file: run `make outputs`")
            for path in files:
                shutil.copyfile(path, destination / path.name)


PACKAGES, PACKAGE_DIR = _packages()

setup(packages=PACKAGES, package_dir=PACKAGE_DIR, cmdclass={"build_py": BuildWithOutputs})
