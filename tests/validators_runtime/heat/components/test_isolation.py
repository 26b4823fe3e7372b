"""The software-component runtime imports no tooling and no definitions: it reads only the
generated literals."""

from __future__ import annotations

import pytest

from tests.validators_runtime.test_isolation import imported_after, offending


@pytest.mark.parametrize(
    "module",
    [
        "onespec.validators_runtime.heat.components",
        "onespec.validators_runtime.heat.components.hook",
        "onespec.validators_runtime.heat.components.template",
        "onespec.validators_runtime.heat.components.cli",
    ],
)
def test_the_runtime_imports_no_tooling_and_no_definitions(module):
    modules = imported_after(f"import {module}")
    assert module in modules
    assert offending(modules) == set()
    assert "onespec.definitions.components" not in modules


def test_running_the_hook_imports_no_tooling():
    modules = imported_after(
        "from onespec.validators_runtime.heat.components.hook import run_hook\n"
        'run_hook(\'{"config": {"configs": []}, '
        '"inputs": [{"name": "deploy_action", "value": "CREATE"}]}\')\n'
    )
    assert offending(modules) == set()
