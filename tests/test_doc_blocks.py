"""Every command block of the README and the guides runs as written, and prints what it shows.

A command block is a ``console`` block (```` ```console ```` in the README, ``.. code-block::
console`` in a guide): lines that start with ``$ `` are commands (a line ending in ``\\``
continues on the next), and the lines after a command are its output, compared with what it
prints (standard output and standard error, as a terminal shows them). A line ``...`` stands
for any number of lines, and ``...`` inside a line for any text, as in doctest.

Each document runs in a fresh copy of ``examples/``, so commands that write files leave the
checkout alone. Comments in the document say where its commands run (shown in the source, so
a reader of the source sees them too)::

    .. doc-blocks: cwd capabilities                (reST; in the README: <!-- doc-blocks: ... -->)
    .. doc-blocks: link spark sahara-plugin-spark/sahara_plugin_spark/plugins/spark
    .. doc-block: skip needs an OpenStack cloud (openstack flavor show)
    .. doc-block: cloud

``cwd`` is a folder of ``examples/``; ``link NAME PEER/PATH`` puts a peer program's files
(``tests/peers``) in the working folder under NAME; ``service`` starts the real API service
(``onespec serve``, on its own SQLite database) on 127.0.0.1:8386, where the API guide says it
listens, for each following block, and the state directory is a fresh one, so ``onespec db
upgrade`` starts from empty; ``cloud`` runs the next block against the cloud in a box
(``tests/cloud``: real nova-api and glance-api), named ``prod`` in a ``clouds.yaml`` that
``OS_CLIENT_CONFIG_FILE`` names, with the flavor and image the guides read
(:data:`CLOUD_SEED`); ``skip REASON`` skips the next block and says why. A block
with commands in any other form (a literal block) fails the test that finds command blocks,
so none is left unchecked.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests import peers
from tests.conftest import ROOT

EXAMPLES = ROOT / "examples"
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "doc" / "source" / "guides").glob("*.rst"))]
MARK = "@@onespec-doc-block@@"

_MARKER = re.compile(
    r"^\s*(?:\.\.|<!--)\s*doc-blocks?:\s*(?P<what>\w+)\s*(?P<rest>.*?)\s*(?:-->)?$"
)
_RST_BLOCK = re.compile(r"^(?P<indent>\s*)\.\. code-block:: (?P<language>\S+)\s*$")
_MD_FENCE = re.compile(r"^```(?P<language>\S*)\s*$")


@dataclass
class Block:
    """One console block: where it is, its commands with the output each shows, and what the
    comments before it say."""

    document: Path
    line: int
    commands: list[tuple[str, list[str]]]
    cwd: str = ""
    links: dict[str, str] = field(default_factory=dict)
    skip: str | None = None
    service: bool = False
    cloud: bool = False

    @property
    def name(self) -> str:
        return f"{self.document.relative_to(ROOT)}:{self.line}"


def _commands(lines: list[str]) -> list[tuple[str, list[str]]]:
    commands: list[tuple[str, list[str]]] = []
    continued = False
    for line in lines:
        if continued:
            command, shown = commands[-1]
            commands[-1] = (f"{command}\n{line}", shown)
        elif line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
        else:
            raise AssertionError(f"a console block starts with output, not a command: {line!r}")
        continued = line.endswith("\\")
    return commands


def _block_bodies(document: Path) -> list[tuple[int, str, list[str], list[str]]]:
    """(line, language, body lines, comment lines just before) of every code block."""
    lines = document.read_text(encoding="utf-8").splitlines()
    found: list[tuple[int, str, list[str], list[str]]] = []
    markers: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if _MARKER.match(line):
            markers.append(line)
            index += 1
            continue
        if document.suffix == ".md":
            fence = _MD_FENCE.match(line)
            if fence and fence["language"]:
                end = lines.index("```", index + 1)
                found.append((index + 1, fence["language"], lines[index + 1 : end], markers))
                markers, index = [], end + 1
                continue
        else:
            directive = _RST_BLOCK.match(line)
            literal = line.rstrip().endswith("::") and not line.lstrip().startswith("..")
            if directive or literal:
                indent = len(line) - len(line.lstrip())
                body, cursor = [], index + 1
                while cursor < len(lines) and (
                    not lines[cursor].strip()
                    or len(lines[cursor]) - len(lines[cursor].lstrip()) > indent
                ):
                    body.append(lines[cursor])
                    cursor += 1
                if directive:  # its options (:caption:) come first
                    while body and body[0].strip().startswith(":"):
                        body = body[1:]
                language = directive["language"] if directive else "literal"
                found.append((index + 1, language, _dedent(body), markers))
                markers, index = [], cursor
                continue
        if line.strip():
            markers = [m for m in markers if "doc-blocks:" in m]
        index += 1
    return found


def _dedent(lines: list[str]) -> list[str]:
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return [line[indent:] for line in lines]


def console_blocks(document: Path) -> list[Block]:
    blocks: list[Block] = []
    cwd, links, service = "", {}, False
    for line, language, body, markers in _block_bodies(document):
        skip, cloud = None, False
        for marker in markers:
            match = _MARKER.match(marker)
            assert match is not None
            what, rest = match["what"], match["rest"]
            if what == "cwd":
                cwd = rest
            elif what == "link":
                name, _, target = rest.partition(" ")
                links[name] = target.strip()
            elif what == "skip":
                skip = rest
            elif what == "cloud":
                cloud = True
            elif what == "service":
                service = True
            else:
                raise AssertionError(f"{document}:{line}: unknown doc-block marker {what!r}")
        if language == "console":
            blocks.append(
                Block(document, line, _commands(body), cwd, dict(links), skip, service, cloud)
            )
    return blocks


BLOCKS = [block for document in DOCUMENTS for block in console_blocks(document)]


def test_every_block_with_commands_is_a_console_block():
    """A ``$ `` command in a literal or shell block would never run here: none may exist."""
    stray = [
        f"{document.relative_to(ROOT)}:{line} ({language})"
        for document in DOCUMENTS
        for line, language, body, _ in _block_bodies(document)
        if language != "console" and any(row.startswith("$ ") for row in body)
    ]
    assert stray == []


def test_few_blocks_are_skipped():
    """Skips are for what a test machine cannot be or must not do: a cloud, an SSH host, a
    machine changed as root, a package installed, a service left running."""
    skipped = [block for block in BLOCKS if block.skip]
    assert len(BLOCKS) >= 30 and len(skipped) <= 7, [b.name for b in skipped]


def _expected(shown: list[str]) -> re.Pattern[str]:
    parts = []
    for line in shown:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(re.escape(line).replace(re.escape("..."), ".*?") + r"\n")
    return re.compile("".join(parts))


def _workspace(block: Block, tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLES, tmp_path / "examples", symlinks=True)
    venv = ROOT / ".venv"
    if venv.is_dir():
        (tmp_path / ".venv").symlink_to(venv)
    cwd = tmp_path / "examples" / block.cwd if block.cwd else tmp_path
    if block.document.suffix == ".md":
        cwd = tmp_path  # the README's commands run from the top of the checkout
    for name, target in block.links.items():
        peer_name, _, inside = target.partition("/")
        location = peers.require(peer_name)
        (found,) = location.glob(inside) if inside else (location,)  # lib/python3*/...
        (cwd / name).symlink_to(found)
    return cwd


#: Where the API guide's service listens.
SERVICE = ("127.0.0.1", 8386)


@contextlib.contextmanager
def _service(block: Block, tmp_path: Path, env: dict[str, str]) -> Iterator[None]:
    """The real API service for a block of the API guide, stopped when the block has run."""
    if not block.service:
        yield
        return
    with socket.socket() as probe:
        if probe.connect_ex(SERVICE) == 0:
            pytest.skip(f"port {SERVICE[1]} is in use: the API guide's blocks need it")
    database = f"sqlite:///{tmp_path / 'service.db'}"
    onespec = [sys.executable, "-m", "onespec"]
    subprocess.run(
        [*onespec, "db", "upgrade", "--database-url", database],
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    server = subprocess.Popen(
        [
            *onespec,
            "serve",
            "--host",
            SERVICE[0],
            "--port",
            str(SERVICE[1]),
            "--database-url",
            database,
            "--log-level",
            "warning",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(SERVICE) == 0:
                    break
            assert server.poll() is None and time.monotonic() < deadline, (
                "the service did not start"
            )
            time.sleep(0.1)
        yield
    finally:
        server.terminate()
        server.wait(timeout=30)


def _marked(block: Block) -> object:
    """A block that reads a peer program's files, or runs against the cloud in a box (Nova's
    and Glance's peers), needs the peers (and takes seconds)."""
    needs_peers = bool(block.links) or block.cloud
    return pytest.param(block, marks=[pytest.mark.peers] if needs_peers else [], id=block.name)


#: What the guides' cloud blocks read: flavors (vCPUs, RAM MiB, disk GiB, extra specs) and
#: images (properties), by name.
CLOUD_SEED = {
    "flavors": {"m1.rt": (3, 4096, 20, {"hw:numa_nodes": "2"})},
    "images": {"centos-9": {"os_distro": "centos"}},
}


@pytest.fixture(scope="session")
def doc_cloud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cloud in a box (``tests/cloud``) of the guides' own, seeded with :data:`CLOUD_SEED`
    (its names are the guides' names, which no other test's box should hold); the path of a
    clouds.yaml that names it ``prod``."""
    import yaml

    from tests.cloud.box import start

    peers.require("nova")
    peers.require("glance")
    box = start(tmp_path_factory.mktemp("doc-cloud-box"), os.getpid())
    try:
        for name, (vcpus, ram, disk, specs) in CLOUD_SEED["flavors"].items():
            box.create_flavor(vcpus, ram, disk, specs, name=name)
        for name, properties in CLOUD_SEED["images"].items():
            box.create_image(properties, name=name)
        clouds = tmp_path_factory.mktemp("doc-cloud") / "clouds.yaml"
        clouds.write_text(yaml.safe_dump(box.clouds_yaml("prod")))
        yield clouds
    finally:
        box.stop()


@pytest.mark.parametrize("block", [_marked(block) for block in BLOCKS])
def test_the_block_runs_as_written(block: Block, tmp_path: Path, request: pytest.FixtureRequest):
    if block.skip:
        pytest.skip(block.skip)
    cwd = _workspace(block, tmp_path)
    script = "exec 2>&1\n" + "".join(
        f"{command}\n__rc=$?; printf '%s\\n' '{MARK}'; (exit $__rc)\n"
        for command, _ in block.commands
    )
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    for variable in ("ONESPEC_URL", "ONESPEC_DATABASE_URL", "ONESPEC_PROJECT_ID", "ONESPEC_ROLES"):
        env.pop(variable, None)
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    for variable in [name for name in env if name.startswith("OS_")]:
        del env[variable]  # a cloud of the machine's is never the one a block reads
    if block.cloud:
        env["OS_CLIENT_CONFIG_FILE"] = str(request.getfixturevalue("doc_cloud"))
    with _service(block, tmp_path, env):
        result = subprocess.run(
            ["bash", "--noprofile", "--norc"],
            input=script,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )
    outputs = result.stdout.split(f"{MARK}\n")
    assert len(outputs) > len(block.commands), result.stdout
    if block.document.suffix == ".md":
        # Run from the top of a checkout, the README writes only where git ignores it and
        # `make clean` removes it (build/), never beside the tracked files.
        written = {path.name for path in tmp_path.iterdir()} - {"examples", ".venv", "state"}
        assert written <= {"build"}, sorted(written)
    for (command, shown), output in zip(block.commands, outputs, strict=False):
        if shown:
            assert _expected(shown).fullmatch(output), (
                f"{block.name}\n$ {command}\nshown:\n" + "\n".join(shown) + f"\nprinted:\n{output}"
            )
