"""The layout holds: no import cycle in any package, shared helpers import no area.

Every import is counted, at the top of a module, inside a function or under ``TYPE_CHECKING``:
an import moved into a function to dodge a cycle is still a cycle, and a type-only cycle still
ties two modules that should each stand on a small model module of their package. Importing a
module also runs the ``__init__`` of every package above it, so that counts as an import too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import PACKAGE, SRC

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
    """The import name of a module under ``src/``: its path, dotted."""
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def folder(package: str) -> Path:
    """The folder of a package: ``onespec.generator`` -> src/onespec/generator/."""
    return SRC.joinpath(*package.split("."))


def every_package() -> list[str]:
    """Every package of the checkout, subpackages included: each folder with an ``__init__``."""
    return [module_name(init) for init in sorted(PACKAGE.rglob("__init__.py"))]


def imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of ``package`` it imports."""
    modules = {module_name(p): p for p in folder(package).rglob("*.py")}
    return {name: _imports_of(path, set(modules)) - {name} for name, path in modules.items()}


def _imports_of(path: Path, modules: set[str]) -> set[str]:
    """The modules among ``modules`` that the file imports, wherever the import statement is
    (``ast.walk`` enters functions and ``if TYPE_CHECKING:`` blocks alike)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found & modules


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


@pytest.mark.parametrize("package", every_package())
def test_no_import_cycle(package):
    """Within each package and everything under it, no module imports itself round a loop."""
    found = cycle(imports(package))
    assert found is None, " -> ".join(found or ())


def with_package_inits(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """``graph`` with an edge from each module to the packages above what it imports, outside
    its own: importing ``a.b.c`` runs ``a/b/__init__`` first, so a module that imports a leaf of
    a package whose ``__init__`` imports the module back is in a cycle all the same."""
    found = {}
    for name, targets in graph.items():
        parents = {
            ".".join(target.split(".")[:end])
            for target in targets
            for end in range(1, target.count(".") + 1)
        }
        found[name] = targets | {
            parent
            for parent in parents
            if parent in graph and parent != name and not name.startswith(f"{parent}.")
        }
    return found


def test_no_import_cycle_through_a_package_init():
    """The generated flavor rules import the modules they are built from, and the package that
    checks a whole flavor imports the rules: they stay apart only if those modules' package does
    not import the rules too."""
    found = cycle(with_package_inits(imports("onespec")))
    assert found is None, " -> ".join(found or ())


def test_importing_a_leaf_counts_its_package_init():
    graph = {"p": {"p.rules"}, "p.rules": {"p.leaf"}, "p.leaf": set(), "q.user": {"p.leaf"}}
    assert with_package_inits(graph)["q.user"] == {"p.leaf", "p"}
    assert with_package_inits(graph)["p.rules"] == {"p.leaf"}
    assert cycle(with_package_inits({**graph, "p.leaf": set(), "p.rules": {"q.user"}})) == [
        "p",
        "p.rules",
        "q.user",
        "p",
    ]


def test_every_package_is_covered():
    packages = every_package()
    assert {"onespec", "onespec.definitions.extra_specs", "onespec.generator.api"} <= set(packages)
    assert (
        "onespec.validators_runtime.service.db.migrations" in packages
        or not (
            PACKAGE / "validators_runtime" / "service" / "db" / "migrations" / "__init__.py"
        ).exists()
    )


def test_a_type_only_import_and_an_import_inside_a_function_count(tmp_path):
    module = tmp_path / "b.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from onespec.pkg.a import A\n"
        "def later():\n    import onespec.pkg.c\n"
    )
    known = {"onespec.pkg.a", "onespec.pkg.c", "onespec.pkg.d"}
    assert _imports_of(module, known) == {"onespec.pkg.a", "onespec.pkg.c"}


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


#: What the definitions may import of the project besides themselves: the one exception base,
#: which imports nothing of onespec.
DEFINITIONS_MAY_IMPORT = {"onespec.errors"}


def test_the_definitions_import_nothing_of_the_project_but_themselves_and_the_base():
    modules = {module_name(p) for p in PACKAGE.rglob("*.py")}
    for path in sorted(folder("onespec.definitions").rglob("*.py")):
        name = module_name(path)
        outside = {m for m in _imports_of(path, modules) if not m.startswith("onespec.definitions")}
        assert outside <= DEFINITIONS_MAY_IMPORT, name


def test_the_exception_base_imports_nothing_of_the_project():
    modules = {module_name(p) for p in PACKAGE.rglob("*.py")}
    assert _imports_of(PACKAGE / "errors.py", modules) == set()
