"""The generated files, and how to write them or check them for drift.

Each output is a path and a function that renders its text from the definitions. Writing goes
through a temporary file and an atomic rename, so an interrupted run never leaves half a file.
"""

from __future__ import annotations

import difflib
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Output:
    """One generated file."""

    name: str
    path: Path
    render: Callable[[], str]


def runtime_output() -> Output:
    from definitions.registry import in_tree
    from generator import runtime_module

    return Output(
        "runtime",
        runtime_module.OUTPUT,
        lambda: runtime_module.render(in_tree(), runtime_module.source_versions()),
    )


def all_outputs() -> tuple[Output, ...]:
    """Every generated file, in the order ``onespec generate all`` writes them."""
    return (runtime_output(),)


def diff(output: Output, text: str) -> Iterator[str]:
    """A unified diff from the file on disk to ``text``; nothing when they are equal."""
    try:
        current = output.path.read_text(encoding="utf-8")
    except FileNotFoundError:
        current = ""
    if current == text:
        return
    yield from difflib.unified_diff(
        current.splitlines(keepends=True),
        text.splitlines(keepends=True),
        fromfile=f"{output.path} (committed)",
        tofile=f"{output.path} (generated)",
    )


def write_atomically(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` unless it already holds it; True when the file changed."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return True
