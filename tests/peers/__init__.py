"""The peer programs the tests run against, provided from the package index.

onespec stands in for, or hands its output to, programs other projects publish: Nova's own
extra-spec validators, Glance's metadef loader, Heat's template parsers, heat-agents' hooks,
Sahara's plugins and their image specs, TripleO's templates. The tests check onespec against
those programs themselves rather than against notes about them, and get them where a user gets
them: the package index, at pinned versions.

Two kinds of peer:

* a **program** that must run gets a virtual environment of its own under ``venvs/``, built from
  a requirement file in this folder that pins it and everything it needs (``nova.txt``, ...), so
  its heavy dependencies never meet the project's;
* a **source** whose files are only read (templates, image specs, the agent's scripts) is a
  source distribution, downloaded with ``pip download --require-hashes`` from ``sources.txt``
  and unpacked under ``sources/``.

Everything lives in one folder, ``.peers/`` at the top of the checkout unless
``ONESPEC_PEERS_DIR`` names another (several checkouts can share one). ``make peers``, which
``make test`` runs first, provides what is missing and leaves the rest alone: each peer records
the hash of the requirement line it was built from, and is rebuilt only when that changes.

A test asks for a peer with :func:`require`; a peer that could not be provided (no package index
reachable) skips the test with the command to run, unless ``ONESPEC_REQUIRE_PEERS=1`` (set by
``.ci/run``) turns that into a failure.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
#: The make target that provides every peer.
MAKE_TARGET = "make peers"


def peers_dir() -> Path:
    """Where peers live: ``$ONESPEC_PEERS_DIR``, else ``.peers/`` in the checkout."""
    configured = os.environ.get("ONESPEC_PEERS_DIR")
    return Path(configured).expanduser().resolve() if configured else ROOT / ".peers"


def required() -> bool:
    """True where a missing peer must fail the run instead of skipping its tests (CI)."""
    return os.environ.get("ONESPEC_REQUIRE_PEERS", "") not in ("", "0")


class PeerError(RuntimeError):
    """A peer could not be provided; the message says which and why."""


# --- What the peers are ----------------------------------------------------------------------


@dataclass(frozen=True)
class Program:
    """A peer program that runs in a virtual environment of its own."""

    name: str
    #: The file in this folder that pins it and its dependencies.
    requirements: str
    summary: str

    @property
    def location(self) -> Path:
        return peers_dir() / "venvs" / self.name

    @property
    def python(self) -> Path:
        return self.location / "bin" / "python"

    def fingerprint(self) -> str:
        """The hash of the pins (comments aside): the environment is rebuilt when it changes.

        A ``-r FILE`` line is replaced by FILE's pins, so an environment that extends another
        (``nova-tests.txt`` reads ``nova.txt``) is rebuilt when either changes.
        """
        return _sha256("\n".join(_pins(HERE / self.requirements)).encode())


@dataclass(frozen=True)
class Source:
    """A peer source distribution, only read, pinned by name, version and hash."""

    name: str
    version: str
    sha256: str
    summary: str

    @property
    def location(self) -> Path:
        return peers_dir() / "sources" / f"{self.name}-{self.version}"

    def fingerprint(self) -> str:
        return self.sha256


def _pins(path: Path) -> list[str]:
    """The requirement lines of *path*, comments and blanks aside, with ``-r`` files inlined."""
    pins = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line[:1] in ("", "#"):
            continue
        option, _, included = line.partition(" ")
        if option in ("-r", "--requirement"):
            pins += _pins(path.parent / included.strip())
        else:
            pins.append(line)
    return pins


_SOURCE_LINE = re.compile(
    r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>\S+)\s+--hash=sha256:(?P<sha>[0-9a-f]{64})"
    r"\s*(?:#\s*(?P<summary>.*))?$"
)


def source_keys(sources: Sequence[Source], taken: Sequence[str] = ()) -> dict[str, Source]:
    """Name each source: its distribution name, or ``NAME-VERSION`` where that is ambiguous.

    Two versions of one distribution (Nova before and after a fix) cannot share a name, and a
    source must not shadow the program of the same name (``nova``), so those are keyed by name
    and version (``nova-31.0.0``); every other source keeps its plain name.
    """
    names = [source.name for source in sources]
    keyed: dict[str, Source] = {}
    for source in sources:
        plain = names.count(source.name) == 1 and source.name not in taken
        keyed[source.name if plain else f"{source.name}-{source.version}"] = source
    return keyed


def _read_sources(taken: Sequence[str] = ()) -> dict[str, Source]:
    """The pinned source distributions of ``sources.txt``, keyed by :func:`source_keys`."""
    sources = []
    lines = (HERE / "sources.txt").read_text(encoding="utf-8").splitlines()
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _SOURCE_LINE.match(line)
        if match is None:
            expected = "NAME==VERSION --hash=sha256:HEX  # what for"
            raise PeerError(f"sources.txt:{number}: expected {expected!r}")
        sources.append(
            Source(match["name"], match["version"], match["sha"], match["summary"] or "")
        )
    return source_keys(sources, taken)


PROGRAMS: dict[str, Program] = {
    program.name: program
    for program in (
        Program("nova", "nova.txt", "Nova 34.0.0: its own extra-spec validators and verdicts"),
        Program(
            "nova-tests",
            "nova-tests.txt",
            "Nova 34.0.0 with its test harness: its own tests, run against the Nova adapter",
        ),
        Program("glance", "glance.txt", "Glance 33.0.0: metadef loader, API read-back, catalogue"),
        Program("heat", "heat.txt", "Heat 27.0.1: template and environment parsers, validation"),
        Program("sahara", "sahara.txt", "Sahara 19.0.0 and its plugins 10.0.0: image code"),
        Program(
            "sahara-tests",
            "sahara-tests.txt",
            "Sahara 19.0.0, its plugins and oslotest: Sahara's own tests of its image module",
        ),
    )
}
SOURCES: dict[str, Source] = _read_sources(tuple(PROGRAMS))


def peer(name: str) -> Program | Source:
    """The peer called *name*, a program or a source."""
    found = PROGRAMS.get(name) or SOURCES.get(name)
    if found is None:
        known = ", ".join(sorted([*PROGRAMS, *SOURCES]))
        raise KeyError(f"no peer is called {name!r}; the peers are {known}")
    return found


# --- Is it there? ----------------------------------------------------------------------------

_STAMP = ".onespec-peer"


def is_provided(item: Program | Source) -> bool:
    """True when *item* was completely provided from what is pinned now."""
    stamp = item.location / _STAMP
    try:
        return stamp.read_text(encoding="utf-8").strip() == item.fingerprint()
    except OSError:
        return False


def require(name: str) -> Path:
    """The location of peer *name* for a test: skips (or fails under CI) when it is missing."""
    import pytest

    item = peer(name)
    if is_provided(item):
        return item.location
    reason = f"peer {name!r} ({item.summary}) is not provided: run `{MAKE_TARGET}`"
    if required():
        pytest.fail(f"{reason} (ONESPEC_REQUIRE_PEERS is set)", pytrace=False)
    pytest.skip(reason)
    raise AssertionError("unreachable")  # pragma: no cover - pytest.skip raises


def run_script(
    program: str, script: str, *args: str, stdin: Any = None, timeout: float = 600
) -> Any:
    """Run ``tests/peers/<script>`` in *program*'s environment; its JSON output, parsed.

    *stdin*, if given, is sent as JSON. A script that fails raises an ``AssertionError`` with
    its standard error, so the test shows what the peer said.
    """
    require(program)
    result = subprocess.run(
        [str(PROGRAMS[program].python), str(HERE / script), *args],
        input=None if stdin is None else json.dumps(stdin),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**_quiet_env(), "PYTHONPATH": ""},
    )
    if result.returncode != 0:
        raise AssertionError(f"{script} failed in the {program} environment:\n{result.stderr}")
    return json.loads(result.stdout)


def _quiet_env() -> dict[str, str]:
    # The peers import eventlet, which warns on import; the warnings say nothing about onespec.
    return {**os.environ, "PYTHONWARNINGS": "ignore"}


# --- Providing them --------------------------------------------------------------------------


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    """One provider at a time per peers folder: two checkouts may share it."""
    folder = peers_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _pip(python: Path | str, *args: str, log: Any) -> None:
    command = [str(python), "-m", "pip", "--disable-pip-version-check", "--quiet", *args]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        tail = "\n".join(result.stderr.strip().splitlines()[-15:])
        raise PeerError(f"pip {args[0]} failed (exit {result.returncode}):\n{tail}")
    print(".", end="", file=log, flush=True)


def _provide_program(program: Program, log: Any) -> None:
    target = program.location
    building = target.with_name(target.name + ".building")
    shutil.rmtree(building, ignore_errors=True)
    venv.EnvBuilder(with_pip=True, symlinks=True).create(building)
    python = building / "bin" / "python"
    _pip(python, "install", "--requirement", str(HERE / program.requirements), log=log)
    # A virtual environment records its own path in its scripts: build it where it will live.
    shutil.rmtree(target, ignore_errors=True)
    building.rename(target)
    _repoint(building, target)
    (target / _STAMP).write_text(program.fingerprint() + "\n", encoding="utf-8")


def _repoint(old: Path, new: Path) -> None:
    """Rewrite the environment's own path in its scripts after moving it into place."""
    old_text, new_text = str(old).encode(), str(new).encode()
    for path in [new / "pyvenv.cfg", *(new / "bin").iterdir()]:
        if path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        if old_text in data:
            path.write_bytes(data.replace(old_text, new_text))


def _provide_sources(sources: Sequence[Source], log: Any) -> None:
    downloads = peers_dir() / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    by_hash = {_file_sha256(path): path for path in downloads.iterdir() if path.is_file()}
    missing = [source for source in sources if source.sha256 not in by_hash]
    if missing:
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as pins:
            for source in missing:
                pins.write(f"{source.name}=={source.version} --hash=sha256:{source.sha256}\n")
        try:
            _pip(
                sys.executable,
                "download",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--require-hashes",
                "--requirement",
                pins.name,
                "--dest",
                str(downloads),
                log=log,
            )
        finally:
            os.unlink(pins.name)
        by_hash = {_file_sha256(path): path for path in downloads.iterdir() if path.is_file()}
    for source in sources:
        archive = by_hash.get(source.sha256)
        if archive is None:
            raise PeerError(f"pip downloaded no file with the pinned hash of {source.name}")
        _unpack(archive, source.location)
        (source.location / _STAMP).write_text(source.sha256 + "\n", encoding="utf-8")
        print(".", end="", file=log, flush=True)


def _unpack(archive: Path, target: Path) -> None:
    """Unpack a source distribution's single top folder into *target*, safely."""
    unpacking = target.with_name(target.name + ".unpacking")
    shutil.rmtree(unpacking, ignore_errors=True)
    unpacking.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        # The "data" filter refuses absolute paths, links out of the folder and devices.
        tar.extractall(unpacking, filter="data")
    tops = list(unpacking.iterdir())
    if len(tops) != 1 or not tops[0].is_dir():
        raise PeerError(f"{archive.name}: expected one top folder, found {len(tops)} entries")
    shutil.rmtree(target, ignore_errors=True)
    tops[0].rename(target)
    unpacking.rmdir()


def provide(names: Sequence[str] = (), log: Any = sys.stderr) -> list[str]:
    """Provide the peers called *names* (all by default); the names of those that failed."""
    wanted = [peer(name) for name in names] or [*PROGRAMS.values(), *SOURCES.values()]
    failed = []
    with _locked():
        todo = [item for item in wanted if not is_provided(item)]
        if not todo:
            return []
        print(f"Providing peers under {peers_dir()}: ", end="", file=log, flush=True)
        print(", ".join(item.name for item in todo), file=log, flush=True)
        sources = [item for item in todo if isinstance(item, Source)]
        if sources:
            print(f"  sources ({len(sources)} source distributions) ", end="", file=log, flush=True)
            try:
                _provide_sources(sources, log)
                print(" done", file=log)
            except (PeerError, OSError, tarfile.TarError) as error:
                print(f" failed\n{error}", file=log)
                failed += [item.name for item in sources]
        for program in (item for item in todo if isinstance(item, Program)):
            print(f"  {program.name} (virtual environment) ", end="", file=log, flush=True)
            try:
                _provide_program(program, log)
                print(" done", file=log)
            except (PeerError, OSError) as error:
                print(f" failed\n{error}", file=log)
                failed.append(program.name)
    return failed
