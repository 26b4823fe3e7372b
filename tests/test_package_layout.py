"""Each folder is the package its imports name, so every tool that follows imports finds the code.

Editors, jedi, pyright and mypy resolve ``onespec.x.y`` by looking for ``onespec/x/y.py`` on the
search path; they do not run import hooks or read ``package_dir`` tables. The checkout keeps the
package in ``src/onespec/`` and an editable install is a plain path entry for ``src/``, so what
Python imports and what the tools see are the same files, and nothing else of the checkout
(``tests``, ``benchmarks``, ``doc``) is importable as part of onespec.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys
import tomllib
from pathlib import Path

import jedi
import pytest

import onespec
from tests.conftest import PACKAGE, ROOT, SRC


def test_src_holds_the_one_package_and_nothing_else_importable():
    importable = {
        path.name
        for path in SRC.iterdir()
        if (path / "__init__.py").is_file() or path.suffix == ".py"
    }
    assert importable == {"onespec"}


def test_the_package_is_its_folder_and_no_other():
    assert [Path(entry).resolve() for entry in onespec.__path__] == [PACKAGE.resolve()]


@pytest.mark.parametrize("name", ["tests", "benchmarks", "doc", "onespec", "examples", "src"])
def test_nothing_else_of_the_checkout_imports_as_part_of_onespec(name):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"onespec.{name}")


def test_every_module_is_found_where_its_name_says():
    """For each module of the package, the file Python imports is the file its name spells."""
    for module in pkgutil.walk_packages(onespec.__path__, "onespec."):
        spec = importlib.util.find_spec(module.name)
        assert spec is not None and spec.origin is not None, module.name
        expected = SRC.joinpath(*module.name.split("."))
        expected = expected / "__init__.py" if module.ispkg else expected.with_suffix(".py")
        assert Path(spec.origin).resolve() == expected.resolve(), module.name


def test_the_build_maps_no_folder_and_installs_no_hook():
    """No ``package_dir`` table to read, and no import hook in the running interpreter."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = project["tool"]["setuptools"]
    assert "package-dir" not in setuptools
    assert setuptools["packages"]["find"]["where"] == ["src"]
    assert "package_dir" not in (ROOT / "setup.py").read_text(encoding="utf-8")
    hooks = [type(finder).__name__ for finder in sys.meta_path]
    assert not [name for name in hooks if "editable" in name.lower()], hooks


def test_go_to_definition_follows_the_package_imports():
    """An editor's "go to definition" (jedi, which most Python editors use) lands on the def."""
    source_path = PACKAGE / "validators_runtime" / "service" / "routes" / "flavors.py"
    source = source_path.read_text(encoding="utf-8")
    line_number, line = next(
        (number, text)
        for number, text in enumerate(source.splitlines(), start=1)
        if "= validate(" in text
    )
    script = jedi.Script(source, path=source_path, project=jedi.Project(ROOT))
    found = script.goto(line_number, line.index("validate(") + 1, follow_imports=True)
    assert [(Path(d.module_path), d.description) for d in found] == [
        (PACKAGE / "validators_runtime" / "extra_specs.py", "def validate")
    ]


def test_dir_of_the_package_names_its_public_api_and_no_helper():
    """``dir(onespec)`` once offered ``Any``, ``Path``, ``TYPE_CHECKING`` and ``importlib``."""
    names = set(dir(onespec))
    assert set(onespec.__all__) <= names
    assert not names & {"Any", "Path", "TYPE_CHECKING", "importlib", "annotations", "ModuleType"}
    assert not [name for name in names if name.startswith("_") and not name.startswith("__")]
