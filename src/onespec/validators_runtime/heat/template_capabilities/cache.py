"""A cache of what each scanned file holds, keyed by its path, size and modification time.

Introspecting a tree of templates means parsing every file; asking again with nothing changed
should not. Each file's facts (its kind, version, capabilities, registry entries, problems) are
stored as JSON under the user's cache directory
(``$XDG_CACHE_HOME/onespec/template-capabilities``, by default
``~/.cache/onespec/template-capabilities``), one small file per scanned directory, and reused
while the file's path, size and modification time (in nanoseconds) are unchanged.

Safety:

* JSON only, never pickle: a cache file that someone else wrote can at worst be wrong, and a
  wrong-shaped entry is ignored;
* a file modified within ``RACY_SECONDS`` (two) before it was read is not cached, since a second
  change in the same timestamp tick would keep its size and time (git's "racy" files);
* writes are atomic (a temporary file renamed into place), so concurrent runs never see half a
  file; a cache that cannot be read or written is skipped, never an error.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

LOG = logging.getLogger(__name__)

#: Raise when the cached facts change shape or meaning, so that old entries are ignored.
FORMAT = 2

#: Files modified this recently when read are not cached.
RACY_SECONDS = 2.0


def cache_directory() -> Path:
    """``$XDG_CACHE_HOME/onespec/template-capabilities``, or
    ``~/.cache/onespec/template-capabilities``."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "onespec" / "template-capabilities"


class FactCache:
    """Facts per file, in shards of one directory each, loaded on first use and saved on demand.

    ``fingerprint`` names everything besides the file that the facts depend on (the format, the
    size limit, the YAML library); entries written under another fingerprint are never seen.
    """

    def __init__(self, fingerprint: str, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else cache_directory()
        self.fingerprint = f"{FORMAT}:{fingerprint}"
        self._shards: dict[str, dict[str, Any]] = {}
        self._dirty: set[str] = set()
        self.hits = 0
        self.misses = 0

    def _shard_file(self, folder: str) -> Path:
        digest = hashlib.sha256(f"{self.fingerprint}\0{folder}".encode()).hexdigest()[:32]
        return self.directory / f"{digest}.json"

    def _shard(self, folder: str) -> dict[str, Any]:
        shard = self._shards.get(folder)
        if shard is None:
            shard = {}
            try:
                with open(self._shard_file(folder), encoding="utf-8") as stream:
                    stored = json.load(stream)
                if (
                    isinstance(stored, dict)
                    and stored.get("fingerprint") == self.fingerprint
                    and stored.get("directory") == folder
                    and isinstance(stored.get("entries"), dict)
                ):
                    shard = stored["entries"]
            except FileNotFoundError:
                pass
            except (OSError, ValueError) as exc:
                LOG.debug("ignoring the capabilities cache for %s: %s", folder, exc)
            self._shards[folder] = shard
        return shard

    def get(self, path: str, stat: os.stat_result) -> dict[str, Any] | None:
        """The facts stored for ``path`` (absolute) if its size and mtime still match."""
        folder, name = os.path.split(path)
        entry = self._shard(folder).get(name)
        if (
            isinstance(entry, list)
            and len(entry) == 3
            and entry[0] == stat.st_size
            and entry[1] == stat.st_mtime_ns
            and isinstance(entry[2], dict)
        ):
            self.hits += 1
            return entry[2]
        self.misses += 1
        return None

    def put(self, path: str, stat: os.stat_result, facts: Mapping[str, Any], read_at: int) -> None:
        """Remember ``facts`` for ``path``, unless it changed just before ``read_at`` (ns)."""
        if read_at - stat.st_mtime_ns < RACY_SECONDS * 1e9:
            return
        folder, name = os.path.split(path)
        self._shard(folder)[name] = [stat.st_size, stat.st_mtime_ns, dict(facts)]
        self._dirty.add(folder)

    def save(self) -> None:
        """Write the shards that changed, dropping entries of files that no longer exist."""
        if not self._dirty:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            LOG.debug("cannot create the capabilities cache %s: %s", self.directory, exc)
            return
        for folder in sorted(self._dirty):
            entries = {
                name: entry
                for name, entry in self._shards[folder].items()
                if os.path.exists(os.path.join(folder, name))
            }
            document = {"fingerprint": self.fingerprint, "directory": folder, "entries": entries}
            self._write(self._shard_file(folder), document)
        self._dirty.clear()

    def _write(self, target: Path, document: Mapping[str, Any]) -> None:
        try:
            handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".tmp")
        except OSError as exc:
            LOG.debug("cannot write the capabilities cache %s: %s", target, exc)
            return
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump(document, stream, separators=(",", ":"))
            os.replace(temporary, target)
        except OSError as exc:
            LOG.debug("cannot write the capabilities cache %s: %s", target, exc)
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def now_ns() -> int:
    """The wall-clock time in nanoseconds, comparable with ``st_mtime_ns``."""
    return time.time_ns()
