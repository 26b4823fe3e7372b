"""Every generated runtime module can be the first thing a program imports.

Generated modules import the hand-written runtime (the rule code imports the modules of
``flavor_parts``), so a package that imported generated code from its ``__init__`` and also held
what that code imports would hand a half-built module to whoever imported the generated one
first. Each module is imported first in a fresh interpreter, then the package that uses it, and
then its checks are run."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import PACKAGE, ROOT

GENERATED = sorted(
    path.stem for path in (PACKAGE / "validators_runtime" / "_generated").glob("*.py")
)

#: Run after the generated module: the packages built on the generated tables, exercised.
AFTERWARDS = (
    "from onespec.validators_runtime.flavors import validate_flavor\n"
    "assert validate_flavor({'vcpus': 3, 'ram': 1024, 'extra_specs': {'hw:numa_nodes': '2'}})\n"
    "from onespec.validators_runtime.extra_specs import validate\n"
)


def test_the_generated_modules_are_all_found():
    assert {"flavor_rules", "image_properties", "extra_specs"} <= set(GENERATED)


@pytest.mark.parametrize("module", GENERATED)
def test_a_generated_module_imports_first_in_a_fresh_interpreter(module):
    name = "onespec.validators_runtime._generated"
    script = f"import {name if module == '__init__' else f'{name}.{module}'}\n{AFTERWARDS}"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr


def test_every_name_the_flavors_package_lists_loads():
    script = (
        "import onespec.validators_runtime.flavors as flavors\n"
        "missing = [n for n in flavors.__all__ if getattr(flavors, n, None) is None]\n"
        "assert not missing, missing\n"
        "assert not hasattr(flavors, 'no_such_name')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr


def test_reading_a_flavor_loads_no_rules():
    """The modules the rules are built from import neither the rules nor the package that
    imports them: reading a flavor and an image, or naming a finding's type, stays cheap."""
    script = (
        "import sys\n"
        "from onespec.validators_runtime.flavor_parts.inputs import read_flavor, read_image\n"
        "from onespec.validators_runtime.flavor_parts.findings import FlavorFinding\n"
        "assert read_flavor({'vcpus': 1, 'ram': 512}).vcpus == 1\n"
        "loaded = [m for m in ('onespec.validators_runtime._generated.flavor_rules',\n"
        "                      'onespec.validators_runtime.flavors') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
