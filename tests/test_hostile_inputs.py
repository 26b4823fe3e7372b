"""Every file a command reads, fed a table of hostile inputs.

The commands are found by walking the ``onespec`` group (as in ``test_cli_grammar``): every
parameter that names a file or a directory, and every command that reads standard input, must be
in :data:`FED` (how to give it a file) or in :data:`NOT_FED` (why it reads none), so a new
command or option fails :func:`test_the_table_covers_every_file_parameter` until it is added.

Each case runs the real console script in a child, capped and measured (:mod:`tests.measure`):
it must end -- a named pipe must not block it, ``/dev/zero`` must not fill its memory -- with
exit 1 or 2, a message naming the file, no traceback, within its CPU time and peak memory.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import pytest

from onespec.validators_runtime.cli import cli
from tests.commands import walk
from tests.measure import run_capped

ONESPEC = str(Path(sys.executable).with_name("onespec"))

#: The bounds of one case: CPU seconds (start-up included) and peak resident memory.
CPU_SECONDS = 1.0
PEAK_MB = 200.0


# --- How each file parameter is given its file ------------------------------------------------


@dataclass(frozen=True)
class Feed:
    """How a command is given the hostile input: ``args`` with ``@`` for the path given,
    ``language`` the content the command expects, ``place`` where the hostile file goes:

    ``file``: the path given is the hostile file; ``dir``: the path given is a directory that
    holds it; ``nova``: a Nova tree whose validator folder holds it; ``stdin``: it is standard
    input.
    """

    args: tuple[str, ...]
    language: str = "yaml"
    place: str = "file"
    #: Walkers that classify what they find leave a file that is not theirs out, quietly.
    skips_others: bool = False
    #: Where a message may be located otherwise than by the file's name (a finding's key).
    also_located_by: str | None = None
    #: CPU seconds the command takes to start before it reads anything, over :data:`CPU_SECONDS`.
    start_up: float = 0.0


NOVA = "nova:@"

FED: dict[tuple[str, ...], Feed] = {
    ("audit", "sources"): Feed(("@",), "python"),
    ("audit", "sources", "walked"): Feed(("@",), "python", "dir"),
    ("audit", "sources", "nova"): Feed(("--catalogue", "nova", "@"), "python", "nova"),
    ("audit", "idioms_file"): Feed(("@EMPTY", "--idioms", "@")),
    ("template-capabilities", "choices", "paths"): Feed(("@",)),
    ("template-capabilities", "choices", "paths", "walked"): Feed(
        ("-r", "@"), place="dir", skips_others=True
    ),
    ("template-capabilities", "find", "paths"): Feed(("-c", "resource_type=X", "@")),
    ("template-capabilities", "find", "paths", "walked"): Feed(
        ("-r", "-c", "resource_type=X", "@"), place="dir", skips_others=True
    ),
    ("template-capabilities", "resolve", "environments"): Feed(("-e", "@", "--output-dir", "@OUT")),
    ("template-capabilities", "summary", "paths"): Feed(("@",)),
    ("template-capabilities", "summary", "paths", "walked"): Feed(
        ("-r", "@"), place="dir", skips_others=True
    ),
    # The hook answers heat-config in JSON, and calls standard input "the input".
    ("component", "hook", "stdin"): Feed(
        ("--hooks-dir", "@EMPTY"), "json", "stdin", also_located_by="The input"
    ),
    ("component", "metadata", "template_path"): Feed(
        ("--resource", "c", "--action", "CREATE", "@")
    ),
    ("component", "validate", "templates"): Feed(("@",)),
    ("diff", "old"): Feed((NOVA, NOVA), "python", "nova"),
    ("image", "check", "spec"): Feed(("@",)),
    ("image", "script", "spec"): Feed(("@", "--distro", "ubuntu")),
    ("image", "validate", "spec"): Feed(("@", "--remote", "local")),
    ("image", "validate", "identity"): Feed(
        ("@SPEC", "--remote", "local", "--identity", "@"), "text"
    ),
    ("image", "validate", "known_hosts"): Feed(
        ("@SPEC", "--remote", "local", "--known-hosts", "@"), "text"
    ),
    ("import", "glance-metadefs", "directory"): Feed(
        ("@", "--package", "p", "--output", "@OUT"), "json", "dir"
    ),
    ("import", "nova", "path"): Feed(("@", "--package", "p", "--output", "@OUT"), "python", "nova"),
    # The service's start-up (Flask, SQLAlchemy, oslo.policy) costs about 1 s of CPU.
    ("serve", "policy_file"): Feed(
        ("--policy-file", "@", "--port", "0", "--database-url", "x://"), start_up=1.5
    ),
    # Extra specs that were read are reported by key, as their findings always are.
    ("validate", "flavor", "flavor_file"): Feed(("@",), "json"),
    ("validate", "flavor", "flavor_file", "stdin"): Feed(("-",), "json", "stdin"),
    ("validate", "flavor", "image_file"): Feed(("@FLAVOR", "--image", "@"), "json"),
    ("validate", "flavor", "image_file", "stdin"): Feed(
        ("@FLAVOR", "--image", "-"), "json", "stdin"
    ),
    ("validate", "resize", "old_flavor_file"): Feed(("@", "@FLAVOR"), "json"),
    ("validate", "resize", "old_flavor_file", "stdin"): Feed(("-", "@FLAVOR"), "json", "stdin"),
    ("validate", "resize", "new_flavor_file"): Feed(("@FLAVOR", "@"), "json"),
    ("validate", "resize", "new_flavor_file", "stdin"): Feed(("@FLAVOR", "-"), "json", "stdin"),
    ("validate", "resize", "image_file"): Feed(("@FLAVOR", "@FLAVOR", "--image", "@"), "json"),
    ("validate", "resize", "image_file", "stdin"): Feed(
        ("@FLAVOR", "@FLAVOR", "--image", "-"), "json", "stdin"
    ),
    ("validate", "rebuild", "flavor_file"): Feed(
        ("@", "--from-image", "@IMAGE", "--image", "@IMAGE"), "json"
    ),
    ("validate", "rebuild", "flavor_file", "stdin"): Feed(
        ("-", "--from-image", "@IMAGE", "--image", "@IMAGE"), "json", "stdin"
    ),
    ("validate", "rebuild", "old_image_file"): Feed(
        ("@FLAVOR", "--from-image", "@", "--image", "@IMAGE"), "json"
    ),
    ("validate", "rebuild", "old_image_file", "stdin"): Feed(
        ("@FLAVOR", "--from-image", "-", "--image", "@IMAGE"), "json", "stdin"
    ),
    ("validate", "rebuild", "new_image_file"): Feed(
        ("@FLAVOR", "--from-image", "@IMAGE", "--image", "@"), "json"
    ),
    ("validate", "rebuild", "new_image_file", "stdin"): Feed(
        ("@FLAVOR", "--from-image", "@IMAGE", "--image", "-"), "json", "stdin"
    ),
    ("validate", "image-properties", "image_file"): Feed(("@",), "json"),
    ("validate", "image-properties", "image_file", "stdin"): Feed(("-",), "json", "stdin"),
    ("validate", "fleet", "flavors_file"): Feed(("--flavors", "@", "--images", "@FLAVORS"), "json"),
    ("validate", "fleet", "flavors_file", "stdin"): Feed(
        ("--flavors", "-", "--images", "@FLAVORS"), "json", "stdin"
    ),
    ("validate", "fleet", "images_file"): Feed(("--flavors", "@FLAVORS", "--images", "@"), "json"),
    ("validate", "fleet", "images_file", "stdin"): Feed(
        ("--flavors", "@FLAVORS", "--images", "-"), "json", "stdin"
    ),
    # Every file argument reads standard input as '-' (cli_grammar.InputFile).
    ("audit", "idioms_file", "stdin"): Feed(("@EMPTY", "--idioms", "-"), place="stdin"),
    ("template-capabilities", "choices", "paths", "stdin"): Feed(("-",), place="stdin"),
    ("template-capabilities", "find", "paths", "stdin"): Feed(
        ("-c", "resource_type=X", "-"), place="stdin"
    ),
    ("template-capabilities", "summary", "paths", "stdin"): Feed(("-",), place="stdin"),
    ("template-capabilities", "resolve", "environments", "stdin"): Feed(
        ("-e", "-", "--output-dir", "@OUT"), place="stdin"
    ),
    ("component", "metadata", "template_path", "stdin"): Feed(
        ("--resource", "c", "--action", "CREATE", "-"), place="stdin"
    ),
    ("component", "validate", "templates", "stdin"): Feed(("-",), place="stdin"),
    ("image", "check", "spec", "stdin"): Feed(("-",), place="stdin"),
    ("image", "script", "spec", "stdin"): Feed(("-", "--distro", "ubuntu"), place="stdin"),
    ("image", "validate", "spec", "stdin"): Feed(("-", "--remote", "local"), place="stdin"),
    ("validate", "extra-specs", "file_"): Feed(("--file", "@"), also_located_by="Extra spec '"),
    ("validate", "extra-specs", "file_", "stdin"): Feed(
        ("--file", "-"), place="stdin", also_located_by="Extra spec '"
    ),
}

#: Parameters naming a path the command does not read a file from, and why.
NOT_FED: dict[tuple[str, ...], str] = {
    ("template-capabilities", "resolve", "output_dir"): "written",
    ("template-capabilities", "resolve", "root"): "bounds where templates are read from",
    ("component", "hook", "hooks_dir"): "programs run, not read",
    ("component", "hook", "working_dir"): "written",
    ("component", "hook", "outputs_dir"): "written",
    ("component", "metadata", "files_root"): "bounds get_file",
    ("component", "validate", "files_root"): "bounds get_file",
    ("diff", "repository"): "read by git",
    ("generate", "metadefs", "output_dir"): "written",
    ("generate", "schemas", "output_dir"): "written",
    ("image", "script", "output"): "written",
    ("import", "glance-metadefs", "output"): "written",
    ("import", "nova", "output"): "written",
}

#: Commands that read standard input, and parameters that name files without being paths.
READS_STDIN = {("component", "hook")}
FILE_STRINGS = {("diff", "old"), ("diff", "new")}


def file_parameters() -> set[tuple[str, ...]]:
    """Every (command..., parameter) that names a path, every stdin reader, the file strings."""
    found = {(*path, "stdin") for path in READS_STDIN} | FILE_STRINGS
    for path, command in walk():
        for parameter in command.params:
            if isinstance(parameter.type, click.Path) and parameter.name:
                found.add((*path, parameter.name))
                if parameter.type.allow_dash:
                    found.add((*path, parameter.name, "stdin"))
    return found


def test_the_table_covers_every_file_parameter():
    named = {key[:-1] if key[-1] in ("walked", "nova") else key for key in FED}
    missing = file_parameters() - named - set(NOT_FED) - {("diff", "new")}
    assert not missing, (
        f"say how to feed each of these a file (FED) or why not (NOT_FED): {missing}"
    )
    stale = (named | set(NOT_FED)) - file_parameters()
    assert not stale, f"no longer parameters: {stale}"


# --- The hostile inputs ---------------------------------------------------------------------

_DEEP = 100_000
_DIGITS = "9" * 4301


#: Python content starts with a key, so that ``audit`` parses the file rather than skipping it.
_KEY = b'K = "hw:cpu_policy"\n'


def _bomb(language: str) -> bytes:
    if language == "python":  # the exponential constant folding of the Nova readers
        lines = ["A0 = 'x' * 16"] + [f"A{i} = A{i - 1} + A{i - 1}" for i in range(1, 41)]
        lines.append("V = [base.ExtraSpecValidator(name=A40, description='d', value={})]")
        return _KEY + ("\n".join(lines) + "\n").encode()
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]" for n in range(1, 12)]
    return ("\n".join(lines) + "\n").encode()


def _deep(language: str) -> bytes:
    if language == "python":  # the ast module recurses: RecursionError, before
        return _KEY + b"x = " + b"a+" * 3000 + b"a\n"
    if language == "json":
        return b'{"a": ' + b"[" * _DEEP + b"]" * _DEEP + b"}"
    return b"a: " + b"[" * _DEEP + b"]" * _DEEP + b"\n"


def _integer(language: str) -> bytes:
    if language == "python":
        return _KEY + f"A = {_DIGITS}\n".encode()
    if language == "json":
        return f'{{"heat_template_version": 2018-08-31, "a": {_DIGITS}}}'.encode()
    return f"heat_template_version: 2018-08-31\nvalidators:\n  - a: {_DIGITS}\n".encode()


def _nul(language: str) -> bytes:
    return (_KEY if language == "python" else b"") + b"a: b\x00c\n"


def _not_utf8(language: str) -> bytes:
    return (_KEY if language == "python" else b"") + b"a: \xff\xfe\n"


def _content(data: Callable[[str], bytes]) -> Callable[[Path, str], None]:
    def make(path: Path, language: str) -> None:
        path.write_bytes(data(language))

    return make


def _fifo(path: Path, language: str) -> None:
    os.mkfifo(path)


def _directory(path: Path, language: str) -> None:
    path.mkdir()


def _dev_zero(path: Path, language: str) -> None:
    path.symlink_to("/dev/zero")


def _unreadable(path: Path, language: str) -> None:
    path.write_bytes(b"a: b\n")
    path.chmod(0)


def _oversize(path: Path, language: str) -> None:
    with path.open("wb") as stream:  # sparse: 3 GiB on no disk, as a get_file target was
        stream.truncate(3 << 30)


def _outside(path: Path, language: str) -> None:
    path.symlink_to("/etc/passwd")


HOSTILE: dict[str, Callable[[Path, str], None]] = {
    "fifo": _fifo,
    "directory": _directory,
    "dev-zero": _dev_zero,
    "unreadable": _unreadable,
    "empty": _content(lambda language: b""),
    "nul": _content(_nul),
    "not-utf8": _content(_not_utf8),
    "alias-bomb": _content(_bomb),
    "deep": _content(_deep),
    "integer": _content(_integer),
    "oversize": _oversize,
    "outside": _outside,
}

#: Kinds that only a path can be: not given as standard input.
PATH_ONLY = {"fifo", "directory", "unreadable", "outside"}
#: Kinds a command may accept: an empty file or another readable file is an input like any other.
MAY_BE_VALID = {"empty", "outside"}

SUFFIXES = {"yaml": ".yaml", "json": ".json", "python": ".py", "text": ""}

_MINIMAL_SPEC = b"validators:\n  - package: coreutils\n"
_NOVA_BASE = b"class ExtraSpecValidator:\n    pass\n"


#: Kinds about a file's content: they do not apply to files onespec hands to another program.
CONTENT = {"nul", "not-utf8", "alias-bomb", "deep", "integer"}


def _cases() -> Iterator[tuple[tuple[str, ...], str]]:
    for key, feed in FED.items():
        for kind in HOSTILE:
            if feed.place == "stdin" and kind in PATH_ONLY:
                continue
            if feed.language == "text" and kind in CONTENT:
                continue
            yield key, kind


CASES = list(_cases())


@pytest.fixture(scope="module")
def world():
    """A folder every user may enter, so that the unreadable case can run as ``nobody``."""
    base = Path(tempfile.mkdtemp(prefix="onespec-hostile-"))
    base.chmod(0o755)
    yield base
    shutil.rmtree(base, ignore_errors=True)


def _prepare(case: Path, key: tuple[str, ...], kind: str) -> tuple[list[str], Path | None, str]:
    """(arguments, file for standard input, name the message must give)."""
    feed = FED[key]
    name = f"x{SUFFIXES[feed.language]}" if feed.language != "text" else "key"
    given = case
    if feed.place == "file":
        hostile = given = case / name
    elif feed.place == "dir":
        given = case / "tree"
        given.mkdir()
        hostile = given / name
    elif feed.place == "nova":
        given = case / "tree"
        folder = given / "nova" / "api" / "validation" / "extra_specs"
        folder.mkdir(parents=True)
        (folder / "base.py").write_bytes(_NOVA_BASE)
        (folder / "validators.py").write_bytes(b"")
        hostile = folder / name
    else:
        hostile = case / name
    HOSTILE[kind](hostile, feed.language)
    (case / "spec.yaml").write_bytes(_MINIMAL_SPEC)
    (case / "empty").mkdir()
    (case / "flavor.json").write_text('{"name": "m1", "vcpus": 2, "ram": 2048, "extra_specs": {}}')
    (case / "image.json").write_text('{"id": "i1", "name": "i1", "status": "active"}')
    (case / "flavors.json").write_text(
        '[{"Name": "m1", "VCPUs": 2, "RAM": 2048, "Properties": {}}]'
    )
    replaced = {
        "@": str(given),
        "nova:@": f"nova:{given}",
        "@SPEC": str(case / "spec.yaml"),
        "@EMPTY": str(case / "empty"),
        "@OUT": str(case / "out"),
        "@FLAVOR": str(case / "flavor.json"),
        "@FLAVORS": str(case / "flavors.json"),
        "@IMAGE": str(case / "image.json"),
    }
    args = [replaced.get(arg, arg) for arg in feed.args]
    command = [part for part in key if part in _command_names(key)]
    if feed.place == "stdin":
        return [*command, *args], hostile, "<stdin>"
    return [*command, *args], None, name


def _takes_directories(key: tuple[str, ...]) -> bool:
    command: Any = cli
    for part in key:
        if isinstance(command, click.Group):
            command = command.get_command(click.Context(command), part)
        else:
            parameter = next((p for p in command.params if p.name == part), None)
            return isinstance(getattr(parameter, "type", None), click.Path) and bool(
                parameter.type.dir_okay  # type: ignore[union-attr]
            )
    return False


def _command_names(key: tuple[str, ...]) -> set[str]:
    names: set[str] = set()
    command: click.Command = cli
    for part in key:
        if not isinstance(command, click.Group):
            break
        found = command.get_command(click.Context(command), part)
        if found is None:
            break
        names.add(part)
        command = found
    return names


# Each case is a second of a child process; 284 of them are the slow part of the suite.
@pytest.mark.slow
@pytest.mark.parametrize(("key", "kind"), CASES, ids=[f"{' '.join(k)}-{kind}" for k, kind in CASES])
def test_a_hostile_input_is_refused_in_bounds(world, key, kind):
    case = Path(tempfile.mkdtemp(dir=world))
    case.chmod(0o777)
    args, stdin, name = _prepare(case, key, kind)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(case),
        "XDG_CACHE_HOME": str(case / "cache"),
        "XDG_STATE_HOME": str(case / "state"),
        "ONESPEC_URL": "http://127.0.0.1:9",
        "LC_ALL": "C.UTF-8",
    }
    command = [ONESPEC, *args]
    if stdin is not None:  # the shell opens it, as a user's redirection would
        command = ["sh", "-c", 'exec "$@" < "$0"', str(stdin), *command]
    if kind == "unreadable":  # root reads any file: the case runs as nobody
        for path in [case, *case.rglob("*")]:
            if not path.is_symlink() and path.stat().st_mode & 0o777:
                path.chmod(0o777 if path.is_dir() else 0o666)
        command = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command]
    measured = run_capped(command, cwd=case, deadline=10.0, env=env)
    shown = f"{' '.join(args)}\n{measured.output[-3000:]}"
    assert measured.status != -9, f"still running at the deadline (it hangs): {shown}"
    assert "Traceback" not in measured.output, shown
    feed = FED[key]
    valid = (
        kind in MAY_BE_VALID
        # A directory inside a tree that is walked, or where a directory may be given.
        or (kind == "directory" and (feed.place != "file" or _takes_directories(key)))
        or (feed.skips_others and kind in CONTENT)
        # A file handed to another program is checked for what it is, not read.
        or (feed.language == "text" and kind == "oversize")
        # Valid Python: what matters is that reading it stays within its bounds.
        or (feed.language == "python" and kind == "alias-bomb")
    )
    assert measured.status in ({0, 1, 2} if valid else {1, 2}), shown
    if not valid:
        names = [name] + ([feed.also_located_by] if feed.also_located_by else [])
        assert any(n in measured.output for n in names), (
            f"the message names none of {names}: {shown}"
        )
    assert measured.seconds <= CPU_SECONDS + feed.start_up, (measured.seconds, shown)
    assert measured.megabytes <= PEAK_MB, (measured.megabytes, shown)


def test_the_unreadable_case_is_unreadable_to_its_user(world):
    """The table's unreadable file really cannot be read by the user the case runs as."""
    case = Path(tempfile.mkdtemp(dir=world))
    _unreadable(case / "x.yaml", "yaml")
    assert stat.S_IMODE((case / "x.yaml").stat().st_mode) == 0
    case.chmod(0o755)
    done = run_capped(
        [
            "setpriv",
            "--reuid=nobody",
            "--regid=nogroup",
            "--clear-groups",
            "cat",
            str(case / "x.yaml"),
        ],
        deadline=5.0,
    )
    assert done.status == 1 and "Permission denied" in done.output


# --- Files a command reads because an input names them ------------------------------------------

_TEMPLATE = """\
heat_template_version: 2018-08-31
resources:
  c:
    type: OS::Heat::SoftwareComponent
    properties:
      configs:
        - actions: [CREATE]
          tool: script
          config: {get_file: target.sh}
"""


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "oversize", "directory"])
def test_a_hostile_get_file_target_is_refused_in_bounds(tmp_path, kind):
    """``get_file`` read a 3 GB target whole, and blocked on a named pipe."""
    (tmp_path / "t.yaml").write_text(_TEMPLATE)
    HOSTILE[kind](tmp_path / "target.sh", "text")
    measured = run_capped([ONESPEC, "component", "validate", "t.yaml"], cwd=tmp_path, deadline=10)
    assert measured.status == 1, measured.output
    # A link to /dev/zero leads out of the files root, and is refused for that first.
    said = ("get_file cannot read 'target.sh'", "is outside the files root")
    assert any(words in measured.output for words in said), measured.output
    assert measured.seconds <= CPU_SECONDS and measured.megabytes <= PEAK_MB


@pytest.mark.slow
@pytest.mark.parametrize("key", ["script", "copy_script"])
@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "oversize", "directory", "outside"])
def test_a_hostile_image_resource_is_refused_in_bounds(tmp_path, key, kind):
    """A script an image spec runs or copies is read as the spec is: through the bounded
    reader, inside its resource root; a pipe or a directory was "not a file" before."""
    (tmp_path / "image.yaml").write_text(f"validators:\n  - {key}: setup.sh\n")
    HOSTILE[kind](tmp_path / "setup.sh", "text")
    measured = run_capped([ONESPEC, "image", "check", "image.yaml"], cwd=tmp_path, deadline=10)
    assert measured.status == 1, measured.output
    assert f"image.yaml:2: validators[0].{key}: {key} 'setup.sh' " in measured.output
    assert "Traceback" not in measured.output
    assert measured.seconds <= CPU_SECONDS and measured.megabytes <= PEAK_MB
