"""The generated files, and how to write them or check them for drift.

Each output renders a set of files from the definitions. An output may own a whole directory:
then a file there that the definitions no longer produce is stale, reported by ``--check`` and
removed on write. Writing goes through a temporary file and an atomic rename, so an interrupted
run never leaves half a file.
"""

from __future__ import annotations

import difflib
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from onespec import validators_runtime

#: The checkout the committed outputs live in: this file is ``src/onespec/generator/outputs.py``.
ROOT = Path(__file__).resolve().parents[3]

#: Where the generated runtime modules live: ``validators_runtime/_generated/``, found from the
#: package itself, in a checkout or installed. The one place that says so.
GENERATED = Path(validators_runtime.__file__).parent / "_generated"


def generated_module(name: str) -> Path:
    """The generated runtime module ``name``: ``extra_specs`` -> ``_generated/extra_specs.py``."""
    return GENERATED / f"{name}.py"


@dataclass(frozen=True)
class Output:
    """One kind of generated file(s): a name for humans and a function that renders them."""

    name: str
    render: Callable[[], Mapping[Path, str]]
    owns: Path | None = None
    #: Which files of ``owns`` are this output's: a directory a deployer shares with other
    #: programs (Glance's own metadefs) keeps the files that are not onespec's.
    owned_pattern: str = "*"

    def stale(self, rendered: Mapping[Path, str]) -> list[Path]:
        """Files in the owned directory that ``rendered`` does not produce."""
        if self.owns is None or not self.owns.is_dir():
            return []
        return sorted(
            p for p in self.owns.rglob(self.owned_pattern) if p.is_file() and p not in rendered
        )


def is_checkout() -> bool:
    """Whether :data:`ROOT` is a source checkout, holding the committed generated files.

    An installed onespec has its packages in ``site-packages`` and no ``outputs/``: there is
    nothing committed to compare against there, and nothing a user should write into.
    """
    return all(
        (ROOT / name).exists() for name in ("pyproject.toml", "src/onespec/definitions", "outputs")
    )


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def diff(path: Path, text: str | None) -> Iterator[str]:
    """A unified diff from the file on disk to ``text`` (None: the file should not exist)."""
    try:
        current = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        current = None
    if current == text:
        return
    name = _display(path)
    yield from difflib.unified_diff(
        (current or "").splitlines(keepends=True),
        (text or "").splitlines(keepends=True),
        fromfile=f"{name} (committed)" if current is not None else "/dev/null",
        tofile=f"{name} (generated)" if text is not None else "/dev/null",
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
