"""Writing a resolution: the environment and copies of the templates without their
``capabilities`` section.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from onespec.validators_runtime.heat.hot_loader import (
    MAX_TEMPLATE_SIZE,
    HeatFileError,
    Loaded,
    LoadError,
    classify,
    load,
    loads,
)
from onespec.validators_runtime.heat.template_capabilities.model import (
    CAPABILITIES,
    ENVIRONMENT_FILE,
    LIST_KEYS,
    LOADABLE_SUFFIXES,
    TEMPLATE_SUFFIXES,
    OutputError,
)
from onespec.validators_runtime.heat.template_capabilities.paths import (
    display_path,
    local_path,
)
from onespec.validators_runtime.heat.template_capabilities.registry import (
    assign_entry,
)
from onespec.validators_runtime.heat.template_capabilities.resolve import (
    Resolution,
    environment_yaml,
)


@dataclass(frozen=True)
class Written:
    """What :func:`write_resolution` wrote: the environment and the files beside it."""

    directory: str
    environment: str
    files: tuple[str, ...]
    stripped: tuple[str, ...]
    root: str


def strip_capabilities(loaded: Loaded) -> str:
    """The template's text without its ``capabilities`` section, everything else unchanged.

    A block-style YAML template loses exactly the section's lines, keeping comments and
    formatting elsewhere; any other layout is written anew. Either way the result is loaded
    again and must equal the template minus the section.
    """
    data = loaded.data
    if CAPABILITIES not in data:
        return loaded.text
    expected = {k: v for k, v in data.items() if k != CAPABILITIES}
    candidates = []
    line = loaded.lines.get((CAPABILITIES,))
    if loaded.format == "yaml" and line is not None:
        candidates.append(_cut_section(loaded, line))
    if loaded.format == "json":
        candidates.append(json_dumps(expected))
    candidates.append(
        yaml.safe_dump(expected, sort_keys=False, default_flow_style=False, allow_unicode=True)
    )
    for text in candidates:
        if text is None:
            continue
        try:
            if loads(text, loaded.path, max_size=None).data == expected:
                return text
        except HeatFileError:
            continue
    raise OutputError([f"{loaded.path}: cannot remove the capabilities section faithfully"])


def json_dumps(data: Any) -> str:
    """JSON text of a template, as a person would indent it."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _cut_section(loaded: Loaded, line: int) -> str | None:
    lines = loaded.text.splitlines(keepends=True)
    start = line - 1
    if start >= len(lines) or not lines[start].lstrip("'\"").startswith(CAPABILITIES):
        return None
    if lines[start][:1].isspace():
        return None  # not a block mapping at column 0
    later = sorted(n for key, n in loaded.lines.items() if len(key) == 1 and n > line)
    end = later[0] - 1 if later else len(lines)
    # Comments and blank lines at column 0 just before the next key belong to that key.
    while end > start + 1 and (
        not lines[end - 1].strip()
        or lines[end - 1].startswith("#")
        or lines[end - 1].rstrip() in ("...", "---")
    ):
        end -= 1
    if start == 0 or not lines[start - 1].strip():
        while end < len(lines) and not lines[end].strip():
            end += 1  # do not leave two blank lines where the section was
    return "".join(lines[:start] + lines[end:])


def _references(data: Any) -> Iterator[tuple[str, str]]:
    """(kind, value) of every ``get_file`` and nested-template ``type`` in a template."""
    seen: set[int] = set()
    stack = [data]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key == "get_file" and isinstance(value, str):
                    yield "get_file", value
                elif key == "type" and isinstance(value, str) and value.endswith(TEMPLATE_SUFFIXES):
                    yield "type", value
                if isinstance(value, Mapping | list):
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(item for item in node if isinstance(item, Mapping | list))


def _line_of(text: str, needle: str) -> int | None:
    index = text.find(needle)
    return text.count("\n", 0, index) + 1 if index >= 0 else None


def _inside(path: str, root: str) -> bool:
    return os.path.commonpath([path, root]) == root


def _behind_link(target: Path, directory: Path) -> bool:
    """Whether an existing folder between ``directory`` and ``target`` leads out of it."""
    if not directory.exists():
        return False
    real = os.path.realpath(directory)
    folder = target.parent
    while True:
        if folder.exists() or folder.is_symlink():
            return not _inside(os.path.realpath(folder), real)
        if folder == directory or folder == folder.parent:
            return False
        folder = folder.parent


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_resolution(
    resolution: Resolution,
    output_dir: str | os.PathLike[str],
    *,
    root: str | os.PathLike[str] | None = None,
    overwrite: bool = False,
    max_size: int | None = MAX_TEMPLATE_SIZE,
) -> Written:
    """Write ``output_dir/environment.yaml`` beside copies of every template it uses.

    The copies keep their layout relative to ``root`` (by default
    :func:`~onespec.validators_runtime.heat.template_capabilities.write.default_root`, the
    directory of the environments; nothing outside it is copied), lose their ``capabilities``
    section, and bring along the files they reference (``get_file`` and nested ``type``
    templates), so the directory is complete. A reference that leaves the root, or names a
    missing file, is reported and nothing is written. The directory must be new or empty unless
    ``overwrite``; files are never written through a symbolic link out of it, and a copy never
    gets a wider mode than its source.
    Raises :class:`OutputError`.
    """
    registry = resolution.environment.get("resource_registry", {})
    registry_files: list[tuple[tuple[str, ...], str]] = []

    def collect(node: Mapping[Any, Any], prefix: tuple[str, ...]) -> None:
        for key, value in node.items():
            if key in LIST_KEYS:
                continue
            path = (*prefix, str(key))
            if isinstance(value, Mapping):
                collect(value, path)
            elif isinstance(value, str) and local_path(value) is not None:
                registry_files.append((path, os.path.abspath(value)))

    collect(registry, ())
    base = os.path.realpath(root if root is not None else default_root(resolution.environments))
    problems: list[str] = []
    contents: dict[str, bytes] = {}
    modes: dict[str, int] = {}
    stripped: list[str] = []
    # (file, where it was named -- None for the registry --, how it was named)
    pending: list[tuple[str, str | None, str]] = [
        (path, None, "resource_registry " + "/".join(key)) for key, path in registry_files
    ]
    while pending:
        path, referrer, how = pending.pop(0)
        real = os.path.realpath(path)
        if not _inside(real, base):
            via = f" (a symbolic link to {real})" if real != os.path.abspath(path) else ""
            problems.append(
                f"{referrer or resolution.environments[-1]}: {how} names {path}{via}, which lies "
                f"outside {base}; refusing to copy it (give --root a directory that holds it, "
                "if it belongs in the output)"
            )
            continue
        path = real
        relative = os.path.relpath(path, base)
        if relative in contents:
            continue
        if not os.path.isfile(path):
            problems.append(
                f"{referrer or resolution.environments[-1]}: {how} names {path}, "
                "which does not exist"
            )
            continue
        if relative == ENVIRONMENT_FILE:
            problems.append(
                f"{path} would be copied to {ENVIRONMENT_FILE}, where the resolved environment "
                "goes; give --root another directory"
            )
            continue
        modes[relative] = os.stat(path).st_mode & 0o777
        if not path.endswith(LOADABLE_SUFFIXES):
            contents[relative] = Path(path).read_bytes()
            continue
        try:
            loaded = load(path, max_size=max_size)
        except LoadError as exc:
            if how.startswith("get_file"):
                contents[relative] = Path(path).read_bytes()
            else:
                problems.append(str(exc))
            continue
        if classify(loaded.data)[0] != "template":
            contents[relative] = Path(path).read_bytes()
            continue
        try:
            text = strip_capabilities(loaded)
        except OutputError as exc:
            problems.extend(exc.problems)
            continue
        if text is not loaded.text:
            stripped.append(relative)
            contents[relative] = text.encode("utf-8")
        else:
            contents[relative] = Path(path).read_bytes()
        folder = os.path.dirname(path)
        for kind, value in _references(loaded.data):
            local = local_path(value)
            if local is None or os.path.isabs(local):
                continue
            target = os.path.normpath(os.path.join(folder, local))
            line = _line_of(loaded.text, value)
            where = f"{display_path(path)}:{line}" if line else display_path(path)
            pending.append((target, where, f"{kind} {value!r}"))
    if problems:
        raise OutputError(problems)
    environment = copy.deepcopy(resolution.environment)
    out_registry = environment.get("resource_registry", {})
    for key, path in registry_files:
        assign_entry(
            out_registry, key, os.path.relpath(os.path.realpath(path), base).replace(os.sep, "/")
        )
    return _write_directory(
        Path(output_dir),
        base,
        contents,
        environment_yaml(environment, resolution.environments),
        stripped,
        overwrite,
        modes,
    )


def default_root(environments: Sequence[str]) -> str:
    """The root the copies keep their layout from, without ``--root``: the deepest directory
    holding every environment file (for one environment, its directory). Nothing outside it is
    copied: a registry entry or reference that leaves it is refused."""
    folders = [os.path.dirname(os.path.realpath(e)) for e in environments]
    return os.path.commonpath(folders)


def _write_directory(
    directory: Path,
    root: str,
    contents: Mapping[str, bytes],
    environment_text: str,
    stripped: Sequence[str],
    overwrite: bool,
    modes: Mapping[str, int],
) -> Written:
    if directory.exists() and not directory.is_dir():
        raise OutputError([f"{directory} exists and is not a directory"], usage=True)
    if directory.is_dir() and any(directory.iterdir()) and not overwrite:
        raise OutputError(
            [f"{directory} is not empty; choose a new or empty directory, or overwrite"],
            usage=True,
        )
    files = {ENVIRONMENT_FILE: environment_text.encode("utf-8"), **contents}
    # Every target is checked before anything is written: a refusal writes nothing.
    real = os.path.realpath(directory) if directory.exists() else None
    problems = []
    for relative in sorted(files):
        target = directory / relative
        if target.is_symlink() or _behind_link(target, directory):
            problems.append(
                f"{target} lies behind a symbolic link out of {directory}; refusing to write"
            )
        elif target.exists() and not target.is_file():
            problems.append(f"{target} exists and is not a file; refusing to write")
    if problems:
        raise OutputError(problems)
    directory.mkdir(parents=True, exist_ok=True)
    real = os.path.realpath(directory)
    umask = _umask()
    written: list[tuple[str, Path]] = []
    try:
        for relative in sorted(files):
            target = directory / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            if not _inside(os.path.realpath(target.parent), real):
                raise OutputError(
                    [f"{target} lies behind a symbolic link out of {directory}; refusing to write"]
                )
            # mkstemp: O_CREAT | O_EXCL and mode 0600, in the target's own directory, so a
            # planted file or link at a guessable name is never written through.
            handle, temporary = tempfile.mkstemp(
                prefix=f".{target.name}.", suffix=".onespec-tmp", dir=target.parent
            )
            written.append((temporary, target))
            with os.fdopen(handle, "wb") as stream:
                stream.write(files[relative])
                # A copy never gets more permission than its source had (nor than the umask
                # gives a new file); the environment gets what a new file gets.
                source = modes.get(relative, 0o666) if relative != ENVIRONMENT_FILE else 0o666
                os.fchmod(stream.fileno(), source & 0o777 & ~umask)
        for temporary, target in written:
            os.replace(temporary, target)
    except BaseException:
        for temporary, _ in written:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise
    return Written(
        str(directory),
        str(directory / ENVIRONMENT_FILE),
        tuple(sorted(contents)),
        tuple(sorted(stripped)),
        root,
    )
