"""The checks every part of an image spec goes through, each located at its YAML path.

:class:`SpecChecks` is what the loader (:mod:`onespec.validators_runtime.images.spec`) builds
on: an error or a warning at a YAML path (with the file and the line), the shapes a value may
have, names against the package managers' and the shell's grammar, and files found inside the
resource roots and nowhere else. Everything that later reaches a shell passes through here
before anything runs.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from onespec.validators_runtime import inputs
from onespec.validators_runtime._generated import image_validators as grammar
from onespec.validators_runtime.images.errors import ImageValidationSpecificationError
from onespec.validators_runtime.images.model import SpecWarning
from onespec.validators_runtime.problems import closest, key_path_text, shown
from onespec.validators_runtime.yaml_lines import LineIndex, YamlPath

LOG = logging.getLogger(__name__)

_PATTERNS = {name: re.compile(pattern) for name, pattern in grammar.PATTERNS.items()}

#: The largest script or copied file a spec may name, in bytes (the largest shipped: ~20 KB).
MAX_SCRIPT_SIZE = 16 << 20

DUPLICATE_KEY = "this key is given twice; the last wins"


class SpecChecks:
    """Errors and warnings at YAML paths, and the checks of values every kind shares."""

    def __init__(
        self,
        file: str | None,
        *,
        resource_roots: Sequence[str | Path] = (),
        lines: LineIndex | None = None,
    ) -> None:
        self.file = file
        self.roots = [Path(root) for root in resource_roots]
        self.lines = lines if lines is not None else LineIndex()
        self.warnings: list[SpecWarning] = []

    # Reporting ---------------------------------------------------------------------------------

    def _line(self, path: YamlPath) -> int | None:
        return self.lines.line(path)

    def error(self, path: YamlPath, reason: str) -> ImageValidationSpecificationError:
        """An error at ``path``, to raise."""
        return ImageValidationSpecificationError(
            reason, file=self.file, path=key_path_text(path) or None, line=self._line(path)
        )

    def duplicate_keys(self) -> list[SpecWarning]:
        """A warning for each key given twice (PyYAML's loader keeps the last silently)."""
        return [
            SpecWarning(self.file, key_path_text(path), line, DUPLICATE_KEY, code="duplicate-key")
            for path, line in self.lines.duplicates
        ]

    def warn(self, path: YamlPath, message: str) -> None:
        """Note an oddity at ``path``."""
        warning = SpecWarning(self.file or "", key_path_text(path), self._line(path), message)
        self.warnings.append(warning)
        LOG.warning("%s", warning)

    # Values ------------------------------------------------------------------------------------

    def _mapping(self, value: Any, path: YamlPath, what: str) -> dict[Any, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.error(path, f"{what} must be a mapping, not {_kind_of(value)}")
        return value

    def _single(self, value: Any, path: YamlPath, what: str) -> tuple[Any, Any]:
        if not isinstance(value, dict) or len(value) != 1:
            found = f"{len(value)} keys" if isinstance(value, dict) else _kind_of(value)
            raise self.error(path, f"{what} must be a mapping with exactly one key, not {found}")
        ((key, item),) = value.items()
        return key, item

    def _known_keys(
        self, mapping: Mapping[Any, Any], keys: Mapping[str, Any], path: YamlPath, what: str
    ) -> None:
        for key in mapping:
            if key not in keys:
                close = closest(key, keys)
                hint = f"; did you mean {shown(close)}?" if close else ""
                self.warn(
                    (*path, key),
                    f"{what} takes {', '.join(keys)}; {shown(key)} is not one of them and is "
                    f"ignored{hint}",
                )
        for key, (_, required, _) in keys.items():
            if required and key not in mapping:
                raise self.error(path, f"{what} needs {shown(key)}")

    def _text(self, value: Any, path: YamlPath, what: str) -> str:
        if not isinstance(value, str) or not value:
            raise self.error(path, f"{what} must be a non-empty string, not {_kind_of(value)}")
        return value

    def _scalar(self, value: Any, path: YamlPath, what: str) -> str:
        """A string; a number is read as its text, with a warning (YAML may have changed it)."""
        if isinstance(value, str):
            return value
        if isinstance(value, bool) or value is None:
            raise self.error(path, f"{what} must be a string, not {_kind_of(value)}; quote it")
        if isinstance(value, int | float):
            self.warn(
                path,
                f"{what} is the number {shown(value)}, read as the string {shown(str(value))}; "
                "quote it so that YAML keeps it as written",
            )
            return str(value)
        raise self.error(path, f"{what} must be a string, not {_kind_of(value)}")

    def _matches(self, value: str, pattern: str, path: YamlPath, what: str) -> str:
        if not _PATTERNS[pattern].fullmatch(value):
            raise self.error(path, f"{what} {shown(value)} is not {grammar.PATTERN_HINTS[pattern]}")
        return value

    def _env_name(self, value: Any, path: YamlPath, what: str, *, reserved: bool = True) -> str:
        name = self._matches(self._text(value, path, what), "env-name", path, what)
        if reserved and name in grammar.RESERVED_VARIABLES:
            raise self.error(
                path, f"{what} {shown(name)} is reserved: the validation sets it for every script"
            )
        return name

    # Resources ---------------------------------------------------------------------------------

    def resource(self, relative: Any, path: YamlPath, what: str) -> tuple[Path, bytes]:
        """Find ``relative`` in the resource roots and read it, refusing any way out of them.

        Every resource a spec names (a script it runs, a script it copies) is read here and only
        here, through the one bounded reader (:mod:`onespec.validators_runtime.inputs`): after
        the path is resolved (``..`` and symbolic links followed) it must still be inside the
        root, and what it names must be a regular file of at most :data:`MAX_SCRIPT_SIZE`
        bytes, of which no more is read. The roots are searched in order; a path missing from
        one is looked for in the next, but one that is there and cannot be read (a named pipe,
        a device, a directory, an oversize or unreadable file, a name too long) is an error at
        ``path``, not a reason to look elsewhere.
        """
        name = self._text(relative, path, what)
        if "\0" in name:
            raise self.error(path, f"{what} {shown(name)} contains a NUL character")
        if os.path.isabs(name) or name.startswith("~"):
            raise self.error(
                path, f"{what} {shown(name)} is absolute; it must be relative to a resource root"
            )
        if not self.roots:
            raise self.error(
                path, f"{what} {shown(name)} cannot be found: there are no resource roots"
            )
        for root in self.roots:
            base = Path(os.path.realpath(root))
            candidate = Path(os.path.realpath(base / name))
            if candidate != base and base not in candidate.parents:
                raise self.error(
                    path,
                    f"{what} {shown(name)} leads out of the resource root {str(root)!r} (to "
                    f"{str(candidate)!r}, through '..' or a symbolic link); it must stay inside",
                )
            try:
                return candidate, inputs.read_bytes(candidate, limit=MAX_SCRIPT_SIZE)
            except inputs.InputError as exc:
                if exc.code == "missing":
                    continue
                raise self.error(path, f"{what} {shown(name)} {_unreadable(exc)}") from None
        roots = ", ".join(repr(str(root)) for root in self.roots)
        raise self.error(path, f"{what} {shown(name)} is not a file in any resource root ({roots})")

    # The spec ----------------------------------------------------------------------------------


def _unreadable(error: inputs.InputError) -> str:
    """Why a resource cannot be read, from the shared reader's refusal: what the path is, or
    its size, or the system's reason (the reader's hint about standard input left out, since
    a resource is never read from it)."""
    if error.code == "not-a-file":
        return error.reason.split(";")[0]
    return error.reason


def _kind_of(value: Any) -> str:
    names = {
        dict: "a mapping",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        type(None): "nothing (null)",
    }
    return names.get(type(value), type(value).__name__)
