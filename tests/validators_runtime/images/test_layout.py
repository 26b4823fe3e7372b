"""The image package's layout holds: no import cycle, and one concept per engine module.

The engine was one 1,049-line module holding the SPI, the calling conventions, the run, the
validator kinds and the root; each now has a module of its own, and the loader is handed the
classes it builds (``model.Vocabulary``) instead of importing them.
"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT
from tests.test_import_cycles import cycle, imports

PACKAGE = "onespec.validators_runtime.images"


def test_no_import_cycle_in_the_image_package():
    assert cycle(imports(PACKAGE)) is None


def test_the_model_imports_no_module_that_builds_or_runs():
    graph = imports(PACKAGE)
    assert graph[f"{PACKAGE}.model"] <= {f"{PACKAGE}.remote", f"{PACKAGE}.report"}


@pytest.mark.parametrize("module", ["model", "calling", "run", "kinds", "root"])
def test_each_engine_module_stays_small(module):
    lines = (ROOT / "validators_runtime" / "images" / f"{module}.py").read_text().count("\n")
    assert lines <= 700, f"{module}.py has {lines} lines"


def test_the_spi_spellings_name_the_engine_classes():
    from onespec.validators_runtime import images

    assert images.SaharaImageValidator is images.ImageSpec
    assert images.SaharaImageValidatorBase is images.SpecKind
    assert images.SaharaPackageValidator is images.PackageValidator
    assert images.DEFAULT_VALIDATOR_MAP["script"] is images.SaharaScriptValidator
