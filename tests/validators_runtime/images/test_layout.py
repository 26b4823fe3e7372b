"""The image package's layout holds: no import cycle, and one concept per engine module.

The engine was one 1,049-line module holding the SPI, the calling conventions, the run, the
validator kinds and the root; each now has a module of its own, and the loader is handed the
classes it builds (``model.Vocabulary``) instead of importing them.
"""

from __future__ import annotations

import ast

import pytest

from tests.conftest import PACKAGE as SOURCE
from tests.test_import_cycles import cycle, imports

PACKAGE = "onespec.validators_runtime.images"


def test_no_import_cycle_in_the_image_package():
    assert cycle(imports(PACKAGE)) is None


def test_the_model_imports_no_module_that_builds_or_runs():
    graph = imports(PACKAGE)
    assert graph[f"{PACKAGE}.model"] <= {f"{PACKAGE}.remote", f"{PACKAGE}.report"}


PACKAGE_DIR = SOURCE / "validators_runtime" / "images"


@pytest.mark.parametrize(
    "module",
    sorted(p.relative_to(PACKAGE_DIR).as_posix() for p in PACKAGE_DIR.rglob("*.py")),
)
def test_each_module_stays_small(module):
    """The loader (823 lines) and the Sahara interface (788) each held several concepts; split
    by concept, every engine module is under 450 lines and the CLI, the largest, is near 500."""
    lines = (PACKAGE_DIR / module).read_text().count("\n")
    assert lines <= 550, f"{module} has {lines} lines"


def test_sahara_shaped_names_live_in_the_sahara_package_only():
    """The engine's modules define no Sahara-shaped class or function: those are the Sahara
    interface's (``images/sahara/``); the package's ``__init__`` only names the engine's classes
    by the SPI's spellings."""
    for path in PACKAGE_DIR.glob("*.py"):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text())
        defined = [
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef | ast.FunctionDef) and "sahara" in node.name.lower()
        ]
        assert defined == [], f"{path.name} defines {defined}"


def test_the_spi_spellings_name_the_engine_classes():
    from onespec.validators_runtime import images

    assert images.SaharaImageValidator is images.ImageSpec
    assert images.SaharaImageValidatorBase is images.SpecKind
    assert images.SaharaPackageValidator is images.PackageValidator
    assert images.DEFAULT_VALIDATOR_MAP["script"] is images.SaharaScriptValidator
