"""Which extra-spec keys a Python source tree reads, found statically.

A key is *read* where the code spells it: a string literal in a namespace the catalogue knows
(``'hw:cpu_policy'``, ``f'hw:numa_cpus.{i}'``, ``'hw:numa_mem.%d'`` -- the variable part becomes
a wildcard), or a call of a reader idiom (:mod:`onespec.generator.review.idioms`). ``.startswith()``
on a literal prefix reads every key under it. Where a read's value is bound to a name and that name
is compared with string literals in the same function, the literals are kept, so the audit can
check them against the key's enum. Files are pre-filtered by their bytes, so most of a tree is
never parsed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from onespec.generator.review.idioms import ReaderIdiom
from onespec.generator.review.static import (
    ModuleScope,
    Unresolved,
    evaluate,
    parse,
    read_source,
)
from onespec.validators_runtime.inputs import InputError

#: Stands for the part of a key computed at run time.
WILDCARD = "{}"

_FORMAT_HOLES = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdirf]|\{[^{}]*\}")
_KEYLIKE = re.compile(r"[A-Za-z_][\w.{}-]*:[\w.:{}%()-]*")


@dataclass(frozen=True)
class KeyRead:
    """One place a key is read: the key (with ``{}`` for computed parts), where, and how."""

    key: str
    file: str
    line: int
    via: str
    compared: tuple[str, ...] = ()
    compared_lines: tuple[int, ...] = ()


@dataclass(frozen=True)
class PrefixRead:
    """Code that reads every key starting with *prefix*."""

    prefix: str
    file: str
    line: int


@dataclass
class ReadsFound:
    """Everything found in a tree; mutable while scanning, read-only after."""

    reads: list[KeyRead] = field(default_factory=list)
    prefixes: list[PrefixRead] = field(default_factory=list)
    image_properties: list[KeyRead] = field(default_factory=list)
    files_parsed: int = 0
    files_seen: int = 0
    #: Files that hold a needle but are not Python the audit reads: (file, line, why).
    unparsable: list[tuple[str, int | None, str]] = field(default_factory=list)


def python_files(
    sources: Iterable[Path], exclude: Sequence[str], skip: Iterable[Path] = ()
) -> Iterator[Path]:
    """Every ``.py`` file of *sources*, but folders named in *exclude* and the files *skip*."""
    excluded = set(exclude)
    skipped = {path.resolve() for path in skip}
    for source in sources:
        if not source.is_dir():  # a file named, whatever it is: the reader says what is wrong
            yield source
            continue
        for path in sorted(source.rglob("*.py")):
            if excluded.intersection(path.relative_to(source).parts[:-1]):
                continue
            if path.resolve() not in skipped:
                yield path


def _template(text: str) -> str:
    return _FORMAT_HOLES.sub(WILDCARD, text)


class _Scanner:
    def __init__(
        self,
        namespaces: re.Pattern[str],
        idioms: Sequence[ReaderIdiom],
        file: str,
        found: ReadsFound,
    ) -> None:
        self.namespaces = namespaces
        self.idioms = {idiom.function: idiom for idiom in idioms}
        self.file = file
        self.found = found
        #: Where names of this file come from, to read ``fields.CPUAllocationPolicy.DEDICATED``.
        self.scope: ModuleScope | None = None
        self.bare_names: frozenset[str] = frozenset()
        self.not_keys: frozenset[str] = frozenset()
        self.constants: dict[str, str] = {}

    def key_of(self, node: ast.AST) -> str | None:
        """The key template a string node spells, if it is a key in a known namespace."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = _template(node.value)
        elif isinstance(node, ast.JoinedStr):
            text = "".join(
                _template(v.value)
                if isinstance(v, ast.Constant) and isinstance(v.value, str)
                else WILDCARD
                for v in node.values
            )
        else:
            return None
        if not _KEYLIKE.fullmatch(text):
            return None
        namespace = text.partition(":")[0]
        return text if self.namespaces.fullmatch(namespace) else None

    def idiom_reads(self, call: ast.Call) -> tuple[str, str] | None:
        """(extra spec, image property) a reader-idiom call reads; None if not one."""
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        idiom = self.idioms.get(name)
        if idiom is None:
            return None
        argument: ast.AST | None = None
        if len(call.args) > idiom.argument:
            argument = call.args[idiom.argument]
        prefix = idiom.prefix
        for keyword in call.keywords:
            if keyword.arg == idiom.keyword:
                argument = keyword.value
            elif idiom.prefix_keyword and keyword.arg == idiom.prefix_keyword:
                if isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value, str):
                    prefix = keyword.value.value
                else:
                    prefix = WILDCARD
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            key = argument.value
        elif isinstance(argument, ast.Name) and argument.id in self.constants:
            key = self.constants[argument.id]
        else:
            key = WILDCARD
        spec = idiom.extra_spec.format(prefix=prefix, key=key) if idiom.extra_spec else ""
        image = idiom.image_property.format(prefix=prefix, key=key) if idiom.image_property else ""
        return spec, image

    def read_of(self, node: ast.AST) -> str | None:
        """The key an expression reads, when it is itself a read: ``x.get(K)``, ``x[K]``, idiom."""
        if isinstance(node, ast.Call):
            spelled = self.idiom_reads(node)
            if spelled is not None:
                return spelled[0] or None
            if (
                isinstance(node.func, ast.Attribute)
                and node.func.attr in ("get", "pop")
                and node.args
            ):
                return self.key_of(node.args[0])
        if isinstance(node, ast.Subscript):
            return self.key_of(node.slice)
        return None

    def scan(self, tree: ast.Module) -> None:
        # One traversal; every pass below reads this list. Each node is paired with the
        # innermost function holding it (or the module), which bounds the comparisons.
        indexed: list[tuple[ast.AST, ast.AST]] = []
        stack: list[tuple[ast.AST, ast.AST]] = [(tree, tree)]
        while stack:
            node, scope = stack.pop()
            indexed.append((node, scope))
            inner = node if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else scope
            stack.extend((child, inner) for child in ast.iter_child_nodes(node))
        all_nodes = [node for node, _ in indexed]
        assigned: dict[str, list[object]] = {}
        for node in all_nodes:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    value = node.value.value if isinstance(node.value, ast.Constant) else None
                    assigned.setdefault(target.id, []).append(value)
        # A name bound once, to a string, in this file: ``key_value = 'virtio_packed_ring'``.
        self.constants = {
            name: values[0]
            for name, values in assigned.items()
            if len(values) == 1 and isinstance(values[0], str)
        }
        docstrings = {
            id(body[0].value)
            for scope in all_nodes
            if isinstance(scope, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and (body := scope.body)
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        }
        inside_fstrings = {
            id(value)
            for node in all_nodes
            if isinstance(node, ast.JoinedStr)
            for value in node.values
        }
        idiom_arguments = {
            id(argument)
            for node in all_nodes
            if isinstance(node, ast.Call) and self.idiom_reads(node) is not None
            for argument in (*node.args, *(k.value for k in node.keywords))
        }
        skipped = docstrings | inside_fstrings | idiom_arguments
        reads_before = len(self.found.reads)
        for node in all_nodes:
            if isinstance(node, ast.Call):
                self._call(node)
            elif isinstance(node, ast.Constant | ast.JoinedStr):
                if id(node) in skipped:
                    continue
                if isinstance(node, ast.Constant) and node.value in self.bare_names:
                    self.found.reads.append(KeyRead(node.value, self.file, node.lineno, "literal"))
                    continue
                key = self.key_of(node)
                if key in self.not_keys:
                    continue
                if key is not None and key[-1] in "_.:":
                    # 'quota:cpu_' + name: a prefix the code completes at run time.
                    self.found.prefixes.append(PrefixRead(key, self.file, node.lineno))
                elif key is not None:
                    self.found.reads.append(KeyRead(key, self.file, node.lineno, "literal"))
        if len(self.found.reads) == reads_before:
            return  # no key read in this file: no comparison to check
        by_scope: dict[int, list[ast.AST]] = {}
        for node, scope in indexed:
            if isinstance(node, ast.Assign | ast.Compare):
                by_scope.setdefault(id(scope), []).append(node)
        for nodes in by_scope.values():
            self._comparisons(nodes)

    def _call(self, call: ast.Call) -> None:
        spelled = self.idiom_reads(call)
        if spelled is not None:
            spec, image = spelled
            # idiom_reads matches only a call of a name or of an attribute.
            via = (
                f"idiom {call.func.attr if isinstance(call.func, ast.Attribute) else call.func.id}"  # type: ignore[attr-defined]
            )
            if spec and self.namespaces.fullmatch(spec.partition(":")[0]):
                self.found.reads.append(KeyRead(spec, self.file, call.lineno, via))
            if image:
                self.found.image_properties.append(KeyRead(image, self.file, call.lineno, via))
            return
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "startswith"
            and len(call.args) == 1
            and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)
        ):
            prefix = call.args[0].value
            if self.namespaces.fullmatch(prefix.partition(":")[0].rstrip(":")) and prefix:
                self.found.prefixes.append(PrefixRead(prefix, self.file, call.lineno))

    def _constant_strings(self, node: ast.AST) -> tuple[str, ...]:
        if self.scope is None or not isinstance(node, ast.Attribute | ast.Name):
            return ()
        return _evaluated_strings(node, self.scope)

    def _comparisons(self, nodes: Sequence[ast.AST]) -> None:
        """Literals compared with a read's value: *nodes* are one function's assignments and
        comparisons (or the module's, outside functions)."""
        bound: dict[str, tuple[str, int]] = {}
        for node in nodes:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    key = self.read_of(node.value)
                    if key:
                        bound[target.id] = (key, node.lineno)
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Call):
                    spelled = self.idiom_reads(node.value)
                    if (
                        spelled
                        and spelled[0]
                        and target.elts
                        and isinstance(target.elts[0], ast.Name)
                    ):
                        bound[target.elts[0].id] = (spelled[0], node.lineno)
        for node in nodes:
            if not isinstance(node, ast.Compare) or len(node.ops) != 1:
                continue
            if not isinstance(node.ops[0], ast.Eq | ast.NotEq | ast.In | ast.NotIn):
                continue
            sides = (node.left, node.comparators[0])
            for subject, other in (sides, sides[::-1]):
                key = (
                    bound[subject.id][0]
                    if isinstance(subject, ast.Name) and subject.id in bound
                    else self.read_of(subject)
                )
                literals = _string_literals(other) or self._constant_strings(other)
                if key and literals:
                    self.found.reads.append(
                        KeyRead(key, self.file, node.lineno, "comparison", literals, (node.lineno,))
                    )
                    break


def _evaluated_strings(node: ast.AST, scope: ModuleScope) -> tuple[str, ...]:
    """The strings a name or attribute stands for (an enum constant), if known statically."""
    try:
        value = evaluate(node, scope)
    except (Unresolved, OSError, SyntaxError, RecursionError):
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, tuple | list) and value and all(isinstance(v, str) for v in value):
        return tuple(value)
    return ()


def _string_literals(node: ast.AST) -> tuple[str, ...]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value,)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        strings = [
            e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
        if strings and len(strings) == len(node.elts):
            return tuple(strings)
    return ()


def _needle(namespace: str) -> bytes:
    """Bytes every file reading that namespace contains: ``hw:`` (or the literal head)."""
    head = re.sub(r"[^\w].*", "", namespace.replace("\\_", "_"))
    return f"{head}:".encode() if re.escape(head) == namespace else head.encode()


def scan(
    files: Iterable[Path],
    namespaces: Sequence[str],
    idioms: Sequence[ReaderIdiom],
    relative_to: Path | None = None,
    bare_names: Iterable[str] = (),
    not_keys: Iterable[str] = (),
) -> ReadsFound:
    """Scan *files* for reads of keys whose namespace matches one of *namespaces* (regexes).

    *bare_names* are defined keys without a namespace (``group_policy``): only a literal equal
    to one of them is a read. *not_keys* are literals that look like keys and are not.
    """
    bare = frozenset(bare_names)
    ignored = frozenset(not_keys)
    pattern = re.compile("|".join(f"(?:{n})" for n in namespaces) or "(?!)")
    needles = (
        sorted({_needle(n) for n in namespaces} - {b""})
        + [idiom.function.encode() for idiom in idioms]
        + [name.encode() for name in bare]
    )
    found = ReadsFound()
    for path in files:
        found.files_seen += 1
        name = (
            str(path.relative_to(relative_to))
            if relative_to and path.is_relative_to(relative_to)
            else str(path)
        )
        try:
            data = read_source(path)
        except InputError as error:
            found.unparsable.append((name, None, error.reason))
            continue
        if not any(needle in data for needle in needles):
            continue
        try:
            tree = parse(path)  # shared with the static evaluator, which may read it again
        except SyntaxError as error:
            found.unparsable.append((name, error.lineno or None, error.msg))
            continue
        found.files_parsed += 1
        scanner = _Scanner(pattern, idioms, name, found)
        if relative_to is not None:
            scanner.scope = ModuleScope(path, (relative_to,))
        scanner.bare_names, scanner.not_keys = bare, ignored
        scanner.scan(tree)
    return found
