"""What ``onespec diff`` compares: a git revision, an installed distribution, or ``nova:PATH``.

* ``nova:PATH`` -- Nova's validators in a Nova source tree, read statically;
* the name of an installed distribution -- the definitions its ``onespec.extra_specs`` entry
  points publish;
* anything else -- a git revision of this checkout's ``src/onespec/definitions/`` tree (or
  ``definitions/``, where older revisions kept it; ``HEAD~5``, a tag):
  exported with ``git archive`` and loaded in a child process, so that its modules never meet the
  ones this process has imported.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

import onespec
from onespec.definitions.entry_points import ENTRY_POINT_GROUP
from onespec.definitions.model import ExtraSpec
from onespec.definitions.nova_shape import coerce_definition
from onespec.errors import OnespecError
from onespec.generator.review import nova_catalogue
from onespec.generator.review.serial import from_data
from onespec.validators_runtime.problems import shown


class RevisionError(OnespecError, ValueError):
    """A side of the diff that cannot be loaded; the message says which and why."""


@dataclass(frozen=True)
class Loaded:
    """One side of a diff: how it is named, its definitions, what could not be read."""

    label: str
    definitions: tuple[ExtraSpec, ...]
    notes: tuple[str, ...] = ()


_CHILD = """
import json, sys, types
folder = sys.argv[1]
import onespec
# The revision's definitions/ is onespec.definitions, ahead of this checkout's; a revision from
# before the one namespace imports its own modules as plain ``definitions``, found on sys.path.
onespec.__path__.insert(0, folder)
sys.path.insert(0, folder)
# A revision from when the folders sat at the checkout's top asks onespec._layout to refuse a
# second copy of itself; loaded here once, as onespec.definitions, it has nothing to refuse.
layout = types.ModuleType("onespec._layout")
layout.refuse_second_copy = lambda name, package: None
sys.modules.setdefault("onespec._layout", layout)
from onespec.definitions import extra_specs
from onespec.generator.review.serial import to_data
print(json.dumps([to_data(d) for d in extra_specs.extra_specs()]))
"""

#: Where a revision keeps its ``definitions/`` package, newest layout first: ``src/onespec/``,
#: then the checkout's top (the layout before the packages moved under ``src/``).
_LAYOUTS = ("src/onespec", "")


def load(spec: str, repository: Path, *, trust_revisions: bool = False) -> Loaded:
    """The definitions *spec* names (see the module's docstring).

    A git revision's definitions are Python code that loading them runs: without
    *trust_revisions* a revision is refused, once it is known to exist, before anything of it
    is read or run.
    """
    if spec.startswith("nova:"):
        root = nova_catalogue.find_root([Path(spec[len("nova:") :])])
        if root is None:
            raise RevisionError(f"{spec}: no nova/api/validation/extra_specs/ in or above it")
        try:
            nova = nova_catalogue.load(root)
        except nova_catalogue.NovaTreeError as error:
            raise RevisionError(f"{spec}: {error}") from None
        return Loaded(spec, nova.definitions, tuple(str(note) for note in nova.notes))
    try:
        distribution = importlib.metadata.distribution(checked_revision(spec))
    except importlib.metadata.PackageNotFoundError:
        return _git(spec, repository, trusted=trust_revisions)
    definitions: list[ExtraSpec] = []
    for entry_point in distribution.entry_points:
        if entry_point.group != ENTRY_POINT_GROUP:
            continue
        target = entry_point.load()
        if callable(target) and not isinstance(target, list | tuple):
            target = target()
        definitions.extend(coerce_definition(item) for item in target)
    return Loaded(f"{spec} {distribution.version}", tuple(definitions))


#: What a revision may be spelt with: git's ref-name rules, plus ``~``, ``^``, ``@``, ``{}``
#: and ``:`` for revision expressions (``HEAD~5``, ``v1^{commit}``, ``@{1}``).
_REVISION = re.compile(r"[A-Za-z0-9_@][A-Za-z0-9_./@{}~^:+-]{0,199}")


def checked_revision(revision: str) -> str:
    """*revision* when it can only be a revision or a distribution's name: never an option
    (``--output=FILE``), a line break or a control character; else a :class:`RevisionError`
    saying what a revision is."""
    if not _REVISION.fullmatch(revision):
        raise RevisionError(
            f"{shown(revision)}: not a revision (a git revision starts with a letter, a digit, "
            "'_' or '@' and holds letters, digits and _ . / @ { } ~ ^ : + -)"
        )
    return revision


#: What a revision's exported ``definitions/`` may weigh: the tree is about a megabyte, so this
#: leaves room to grow while a revision holding a huge file is refused from the file's header,
#: before its content is read.
MAX_ARCHIVE_BYTES = 64 * 1024 * 1024

#: The option that says the revisions compared are trusted to run.
TRUST_OPTION = "--trust-revisions"


def _git_command(repository: Path, *arguments: str) -> list[str]:
    # git from PATH, as the user runs it; argv is a list, so a revision is one argument, and
    # --end-of-options keeps git from reading it as an option even if the check above changed.
    return ["git", "-C", str(repository), *arguments]


def _tree(revision: str, repository: Path) -> str:
    """``REVISION:LAYOUT`` of the first layout whose ``definitions/`` the revision has."""
    message = ""
    for layout in _LAYOUTS:
        tree = f"{checked_revision(revision)}:{layout}" if layout else checked_revision(revision)
        package = f"{checked_revision(revision)}:{layout}/definitions".replace(":/", ":")
        found = subprocess.run(  # noqa: S603
            _git_command(repository, "rev-parse", "--verify", "--end-of-options", package),
            capture_output=True,
            text=True,
            check=False,
        )
        if found.returncode == 0:
            return tree
        message = message or found.stderr.strip()
    raise RevisionError(
        f"{revision}: neither nova:PATH, an installed distribution, nor a git revision with "
        f"a src/onespec/definitions/ or definitions/ tree ({message})"
    )


def _export(tree: str, repository: Path, folder: str) -> None:
    """Stream ``git archive`` of *tree*'s ``definitions/`` into *folder*, bounded: a member
    larger than what is left of :data:`MAX_ARCHIVE_BYTES` is refused from its header."""
    with subprocess.Popen(  # noqa: S603
        _git_command(
            repository, "archive", "--format=tar", "--end-of-options", tree, "definitions"
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    ) as archive:
        assert archive.stdout is not None  # noqa: S101 - stdout=PIPE above
        try:
            left = MAX_ARCHIVE_BYTES
            with tarfile.open(fileobj=archive.stdout, mode="r|") as tar:
                for member in tar:
                    if member.size > left:
                        raise RevisionError(
                            f"{tree}: {member.name} makes the definitions tree larger than "
                            f"{MAX_ARCHIVE_BYTES // (1024 * 1024)} MiB; it is not read"
                        )
                    left -= member.size
                    tar.extract(member, folder, filter="data")
        except tarfile.TarError as error:
            raise RevisionError(f"{tree}: git's archive could not be read: {error}") from None
        finally:
            archive.kill()


def _git(revision: str, repository: Path, *, trusted: bool) -> Loaded:
    tree = _tree(revision, repository)
    if not trusted:
        raise RevisionError(
            f"{revision}: a git revision's definitions are Python code, and comparing them runs "
            f"it with your privileges; pass {TRUST_OPTION} if you trust every revision compared "
            "(or compare nova:PATH or an installed distribution)"
        )
    with tempfile.TemporaryDirectory(prefix="onespec-diff-") as folder:
        _export(tree, repository, folder)
        # The folder that holds the ``onespec`` package: a checkout, or site-packages.
        project = str(Path(onespec.__file__).resolve().parents[1])
        child = subprocess.run(  # noqa: S603 - this interpreter, a fixed program
            [sys.executable, "-c", _CHILD, folder],
            capture_output=True,
            text=True,
            check=False,
            env={"PYTHONPATH": project, "PATH": "/usr/bin:/bin"},
        )
    if child.returncode != 0:
        raise RevisionError(f"{revision}: its definitions did not load: {child.stderr[-800:]}")
    return Loaded(revision, tuple(from_data(item) for item in json.loads(child.stdout)))
