"""The Heat packages hold together without tangles: no import cycle between their modules
(imports for type checking only included, as the cycle test counts every import), and no module
importing a sibling's private (underscored) name: what siblings share is public, and what the
template-capabilities modules all need lives in their ``model`` module."""

from __future__ import annotations

import ast

import pytest

from tests.test_import_cycles import cycle, folder, imports, module_name

PACKAGES = (
    "onespec.validators_runtime.heat.template_capabilities",
    "onespec.validators_runtime.heat.components",
)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package):
    assert cycle(imports(package)) is None


@pytest.mark.parametrize("package", PACKAGES)
def test_no_private_name_is_imported_from_a_sibling(package):
    found = []
    for path in folder(package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(package):
                found += [
                    f"{module_name(path)}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_")
                ]
    assert found == []
