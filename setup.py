"""The part of the build that ``pyproject.toml`` cannot say: the committed outputs as package data.

The JSON Schemas and Glance metadefs live in ``outputs/`` at the top of the checkout, where
deployers and reviewers find them; an installed onespec has no checkout, so ``build_py`` places a
copy under ``onespec/validators_runtime/data/``, where :mod:`onespec.validators_runtime.resources`
loads them through ``importlib.resources``. The packages themselves are found in ``src/``
(``pyproject.toml``): each folder there is the package its imports name.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent

#: Directory under ``outputs/`` -> directory under ``validators_runtime/data/`` in the wheel.
PUBLISHED = {"schemas": "schemas", "glance-metadefs": "glance-metadefs"}


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


setup(cmdclass={"build_py": BuildWithOutputs})
