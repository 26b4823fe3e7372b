"""Which test functions reach a peer program, found from the test suite's own source.

A test needs the peers (``make peers``) when it, or a fixture it uses, calls into
:mod:`tests.peers` -- directly, or through a helper: a function of its own module, or of a helper
module of ``tests/`` it imports (``from tests.servers import ...``, ``from tests import helpers``),
however many helpers deep. Reading only a test's own text misses the helpers, and a test that
needs a peer then runs in the fast loop and fails (or skips) there.

Every module under ``tests/`` is parsed once (:mod:`ast`, nothing is imported or run); each
function and class is linked to the functions and classes it names, and to the peers when it
calls :func:`tests.peers.require`, :func:`~tests.peers.run_script` or
:func:`~tests.peers.provide`. A function reaches a peer when any
link leads there. A class counts as a whole: naming it reaches what any of its methods reach,
since which method a call ends in cannot be read from the source.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PEERS_MODULE = "tests.peers"
#: The calls of :mod:`tests.peers` that need a peer provided; the rest (``peer``, ``Source``,
#: ``source_keys``...) only describe the peers, and a test of those runs anywhere.
ENTRY_POINTS = frozenset({"require", "run_script", "provide"})

#: (module, qualified name) of a function or class of the test suite.
Name = tuple[str, str]


def _module_name(path: Path, root: Path) -> str:
    relative = path.relative_to(root.parent).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return ".".join(parts)


def _is_peers(module: str) -> bool:
    return module == PEERS_MODULE or module.startswith(PEERS_MODULE + ".")


def _enters(target: Name) -> bool:
    """True for a call of :mod:`tests.peers` that needs a peer provided."""
    return target[0] == PEERS_MODULE and target[1] in ENTRY_POINTS


class _Module:
    """One module's imports of test-suite names, and its functions and classes."""

    def __init__(self, name: str, tree: ast.Module) -> None:
        self.name = name
        #: Local name -> the test-suite module it is bound to (``from tests import peers``).
        self.modules: dict[str, str] = {}
        #: Local name -> (module, name) it was imported as (``from tests.servers import X``).
        self.imported: dict[str, Name] = {}
        self.defined: dict[str, ast.AST] = {}
        for node in tree.body:
            self._bind(node)

    def _bind(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "tests":
                    local = alias.asname or alias.name.split(".")[0]
                    self.modules[local] = alias.name if alias.asname else "tests"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] != "tests":
                return
            for alias in node.names:
                local = alias.asname or alias.name
                # ``from tests import peers`` binds a module; ``from tests.x import f`` a name.
                self.modules[local] = f"{node.module}.{alias.name}"
                self.imported[local] = (node.module, alias.name)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self.defined[node.name] = node

    def resolve(self, local: str, attribute: str | None) -> Iterator[Name]:
        """What ``local`` (or ``local.attribute``) names in the test suite, if anything."""
        if local in self.defined:
            yield (self.name, local)
        if local in self.imported:
            yield self.imported[local]
        if local in self.modules:
            module = self.modules[local]
            yield (module, attribute or "")
            if module == "tests" and attribute:  # ``import tests`` then ``tests.peers.x``
                yield (f"tests.{attribute}", "")


def _named(node: ast.AST) -> Iterator[tuple[str, str | None]]:
    """Every (name, attribute) a function or class body mentions: ``f`` and ``m.f``.

    A name the body binds itself -- a parameter, an assignment -- is its own, not the module's:
    a test's parameter ``nova`` is a fixture's value or a parametrized one, never the module's
    function of that name (pytest's fixtures are followed by the caller, from the item).
    """
    inner_nodes = list(ast.walk(node))
    own = {inner.arg for inner in inner_nodes if isinstance(inner, ast.arg)}
    own |= {
        inner.id
        for inner in inner_nodes
        if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store)
    }
    for inner in inner_nodes:
        if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name):
            if inner.value.id not in own:
                yield inner.value.id, inner.attr
        elif isinstance(inner, ast.Name) and inner.id not in own:
            yield inner.id, None


def _definitions(name: str, node: ast.AST) -> Iterator[tuple[str, ast.AST]]:
    """The qualified names of a top-level function or class and of its methods."""
    yield name, node
    if isinstance(node, ast.ClassDef):
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                yield f"{name}.{item.name}", item


def source_digest(root: Path = TESTS) -> str:
    """A digest of every module the answer of :func:`reaching_peers` is read from: equal
    digests, equal answers (a few milliseconds, where parsing them takes a second)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@functools.cache
def reaching_peers(root: Path = TESTS) -> frozenset[Name]:
    """Every (module, qualified name) of the test suite at ``root`` whose code reaches a peer."""
    links: dict[Name, set[Name]] = {}
    for path in sorted(root.rglob("*.py")):
        module = _module_name(path, root)
        if _is_peers(module):
            continue
        parsed = _Module(module, ast.parse(path.read_bytes(), filename=str(path)))
        for local, node in parsed.defined.items():
            for qualified, body in _definitions(local, node):
                targets = links.setdefault((module, qualified), set())
                for name, attribute in _named(body):
                    targets.update(parsed.resolve(name, attribute))
    reached: set[Name] = set()
    changed = True
    while changed:  # until no link leads anywhere new
        changed = False
        for name, targets in links.items():
            if name in reached:
                continue
            if any(_enters(target) or target in reached for target in targets):
                reached.add(name)
                changed = True
    return frozenset(reached)
