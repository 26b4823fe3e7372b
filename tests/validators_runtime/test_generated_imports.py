"""Every generated runtime module can be the first thing a program imports.

Generated modules import the hand-written runtime (the rule code imports the flavor checks'
helpers), so a package that imported generated code from its ``__init__`` would hand a
half-built module to whoever imported the generated one first. Each module is imported first
in a fresh interpreter, then the package that uses it, and then its checks are run."""

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
    """The package loads its names on first use, each from its own module."""
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
