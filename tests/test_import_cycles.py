"""The layout holds: no import cycle in the generator or the service, shared helpers import no area.

Every import is counted, at the top of a module or inside a function: an import moved into a
function to dodge a cycle is still a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

#: The generator's helpers every area may use; none of them may import an area.
SHARED = (
    "onespec.generator.schema",
    "onespec.generator.text",
    "onespec.generator.literals",
    "onespec.generator.rst",
)
SHARED += ("onespec.generator.outputs",)
AREAS = ("extra_specs", "components", "template_capabilities", "images", "api")


def module_name(path: Path) -> str:
    """The installed name of a module of the checkout: ``onespec.`` and its folder's path."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(("onespec", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def folder(package: str) -> Path:
    """The checkout folder of an installed package name (``onespec.generator`` -> generator/)."""
    return ROOT.joinpath(*package.removeprefix("onespec.").split("."))


def imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of ``package`` it imports."""
    modules = {module_name(p): p for p in folder(package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found |= {f"{node.module}.{alias.name}" for alias in node.names}
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


@pytest.mark.parametrize("package", ["onespec.generator", "onespec.validators_runtime.service"])
def test_no_import_cycle(package):
    assert cycle(imports(package)) is None


def test_a_cycle_is_found():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_the_shared_helpers_import_no_area():
    graph = imports("onespec.generator")
    for name, targets in graph.items():
        if name.startswith(SHARED):
            areas = {t for t in targets if t.split(".")[1] in AREAS}
            assert areas == set(), name


def test_only_the_manifest_lists_the_areas_outputs():
    graph = imports("onespec.generator")
    importers = {
        name for name, targets in graph.items() if "onespec.generator.images.grammar" in targets
    }
    assert importers == {"onespec.generator.manifest"}
