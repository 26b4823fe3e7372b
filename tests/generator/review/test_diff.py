"""``onespec diff``: every kind of change on synthetic catalogues, the four formats, the three
kinds of side (git revision, nova:PATH, installed distribution), and real Nova history."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from onespec.definitions.model import ExtraSpec, Status, Support, Value
from onespec.generator.review.compare import compare
from onespec.validators_runtime.cli import cli
from tests.conftest import PACKAGE, ROOT
from tests.generator.review.conftest import write_tree


def spec(name: str, value: Value | None = None, **fields: object) -> ExtraSpec:
    return ExtraSpec(name, "d", value or Value(str), **fields)  # type: ignore[arg-type]


OLD = (
    spec("hw:gone"),
    spec("hw:max_cpu_x", Value(int, min=1)),
    spec("hw:typed", Value(str)),
    spec("hw:bounded", Value(int, min=0, max=10)),
    spec("hw:widened", Value(int, min=1, max=5)),
    spec("hw:mode", Value(str, enum=("a", "b"))),
    spec("hw:patterned", Value(str)),
    spec("hw:long", Value(str, max_length=64)),
    spec("hw:defaulted", Value(bool, default=False)),
    spec("hw:old_name"),
    spec("hw:driven", virt_drivers=("libvirt", "vmware")),
    spec("hw:experiment", status=Status(Support.EXPERIMENTAL)),
)
NEW = (
    spec("hw:cpu_max_x", Value(int, min=1)),
    spec("hw:typed", Value(int)),
    spec("hw:bounded", Value(int, min=0, max=8)),
    spec("hw:widened", Value(int, min=0, max=9)),
    spec("hw:mode", Value(str, enum=("a", "c"))),
    spec("hw:patterned", Value(str, pattern=r"\d+")),
    spec("hw:long", Value(str, max_length=32)),
    spec("hw:defaulted", Value(bool, default=True)),
    spec("hw:old_name", status=Status(Support.DEPRECATED, replacement="hw:new_name")),
    spec("hw:new_name"),
    spec("hw:driven", virt_drivers=("libvirt", "ironic")),
    spec("hw:experiment"),
)

#: (kind, key, breaks existing flavors?) that each difference above must give.
EXPECTED = {
    ("removed", "hw:gone", True),
    ("renamed", "hw:max_cpu_x", True),
    ("type", "hw:typed", True),
    ("bound", "hw:bounded", True),
    ("bound", "hw:widened", False),
    ("enum-member-removed", "hw:mode", True),
    ("enum-member-added", "hw:mode", False),
    ("pattern", "hw:patterned", True),
    ("max-length", "hw:long", True),
    ("default", "hw:defaulted", True),
    ("deprecated", "hw:old_name", False),
    ("added", "hw:new_name", False),
    ("virt-driver", "hw:driven", True),
    ("status", "hw:experiment", False),
}


def test_every_kind_of_change_is_found_with_its_verdict() -> None:
    changes = compare(OLD, NEW)
    assert {(c.kind, c.key, c.breaks) for c in changes} == EXPECTED
    assert all(
        c.verdict.startswith("Breaks existing flavors? " + ("Yes" if c.breaks else "No"))
        for c in changes
    )


def test_breaking_changes_come_first() -> None:
    breaks = [c.breaks for c in compare(OLD, NEW)]
    assert breaks == sorted(breaks, reverse=True)
    assert compare(OLD, NEW)[0].kind == "removed"


def test_identical_catalogues_have_no_changes() -> None:
    assert compare(OLD, OLD) == []


VALIDATORS = "nova/api/validation/extra_specs/"


def _tiny_nova(root: Path, names: dict[str, str]) -> Path:
    calls = "".join(
        f"    base.ExtraSpecValidator(name='{name}', description='d', value={value}),\n"
        for name, value in names.items()
    )
    return write_tree(
        root,
        {VALIDATORS + "hw.py": f"from x import base\nVALIDATORS = [\n{calls}]\n"},
    )


def test_nova_trees_in_every_format(tmp_path: Path) -> None:
    old = _tiny_nova(tmp_path / "old", {"hw:a": "{'type': str, 'enum': ['x', 'y']}"})
    new = _tiny_nova(
        tmp_path / "new",
        {"hw:a": "{'type': str, 'enum': ['x']}", "hw:b": "{'type': int}"},
    )
    args = ["diff", f"nova:{old}", f"nova:{new}"]
    result = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [(c["kind"], c["key"], c["breaks_existing_flavors"]) for c in data["changes"]] == [
        ("enum-member-removed", "hw:a", True),
        ("added", "hw:b", False),
    ]
    note = yaml.safe_load(CliRunner().invoke(cli, [*args, "--format", "reno"]).output)
    assert set(note) == {"upgrade", "features"}
    assert "``hw:a``" in note["upgrade"][0] and "``hw:b``" in note["features"][0]
    table = CliRunner().invoke(cli, [*args, "--format", "rst"]).output
    assert ".. list-table::" in table and "``hw:b``" in table
    text = CliRunner().invoke(cli, [*args]).output
    assert text.index("hw:a") < text.index("hw:b")
    unchanged = CliRunner().invoke(cli, ["diff", f"nova:{old}", f"nova:{old}"])
    assert unchanged.exit_code == 0


def test_a_side_that_cannot_be_loaded_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["diff", "no-such-revision", "HEAD", "--repository", str(ROOT)]
    )
    assert result.exit_code == 2 and "no-such-revision" in result.output
    result = CliRunner().invoke(cli, ["diff", f"nova:{tmp_path}", "HEAD"])
    assert result.exit_code == 2


#: Loading a git revision runs its code: the tests that compare revisions say they trust them.
TRUST = "--trust-revisions"


def _git(repository: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repository), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
    )


@pytest.mark.parametrize("layout", ["src/onespec", "."], ids=["src-layout", "top-level"])
def test_git_revisions_of_a_definitions_tree(tmp_path: Path, layout: str) -> None:
    """Revisions keep ``definitions/`` under ``src/onespec/``, or (older ones) at the top."""
    package = tmp_path / layout / "definitions"
    (package / "extra_specs").mkdir(parents=True)
    # The folders at the top asked onespec._layout (gone since) to refuse a second copy.
    old = 'from onespec._layout import refuse_second_copy\nrefuse_second_copy(__name__, "x")\n'
    (package / "__init__.py").write_text("" if layout != "." else old, encoding="utf-8")
    for module in ("model.py", "key_templates.py"):
        shutil.copy(PACKAGE / "definitions" / module, package / module)
    catalogue = package / "extra_specs" / "__init__.py"

    def commit(body: str, tag: str) -> None:
        catalogue.write_text(
            "from onespec.definitions.model import ExtraSpec, Value\n"
            f"def extra_specs():\n    return ({body},)\n",
            encoding="utf-8",
        )
        _git(tmp_path, "add", "-A")
        _git(tmp_path, "commit", "-qm", tag)
        _git(tmp_path, "tag", tag)

    _git(tmp_path, "init", "-q")
    commit("ExtraSpec('x:n', 'd', Value(int, max=9))", "v1")
    commit("ExtraSpec('x:n', 'd', Value(int, max=4))", "v2")
    result = CliRunner().invoke(
        cli,
        ["diff", "v1", "v2", "--repository", str(tmp_path), "--format", "json", TRUST],
    )
    assert result.exit_code == 1, result.output
    changes = json.loads(result.stdout)["changes"]
    assert [(c["kind"], c["key"], c["breaks_existing_flavors"]) for c in changes] == [
        ("bound", "x:n", True)
    ]


def test_an_installed_distribution_is_a_side(tmp_path: Path) -> None:
    # onespec itself is installed and publishes no onespec.extra_specs entry point: an empty
    # catalogue, so every in-tree key of a revision is "added" against it.
    result = CliRunner().invoke(
        cli, ["diff", "onespec", "HEAD", "--repository", str(ROOT), "--format", "json", TRUST]
    )
    changes = json.loads(result.stdout)["changes"]
    assert result.exit_code == 0 and changes
    assert {c["kind"] for c in changes} == {"added"}


def test_nova_31_to_34_renames_the_cpu_topology_limits(nova_31: Path, nova_34: Path) -> None:
    result = CliRunner().invoke(
        cli, ["diff", f"nova:{nova_31}", f"nova:{nova_34}", "--format", "json"]
    )
    assert result.exit_code == 1
    found = {(c["kind"], c["key"]) for c in json.loads(result.stdout)["changes"]}
    for part in ("sockets", "cores", "threads"):
        assert ("renamed", f"hw:max_cpu_{part}") in found
    assert ("added", "hw:sound_model") in found


@pytest.mark.parametrize(
    "revision",
    [
        "--output={victim}",
        "-o{victim}",
        "--remote=ext::sh -c 'touch {victim}'",
        "HEAD\n--output={victim}",
        "a\x00b",
        "",
    ],
)
def test_a_revision_that_is_not_one_is_refused_before_git_runs(tmp_path, revision):
    """Before, ``--output=FILE`` as a revision made ``git archive`` truncate FILE."""
    victim = tmp_path / "victim"
    victim.write_text("precious", encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["diff", "--repository", str(ROOT), "--", revision.format(victim=victim), "HEAD"]
    )
    assert result.exit_code == 2, result.output
    assert "not a revision" in result.output
    assert victim.read_text(encoding="utf-8") == "precious"


def test_revision_expressions_still_name_revisions():
    from onespec.generator.review.revisions import checked_revision

    for revision in ("HEAD~1", "HEAD^", "v1.0^{commit}", "@{1}", "main", "0a1b2c3", "origin/x-y"):
        assert checked_revision(revision) == revision


def _repository_of(tmp_path: Path, init: str, extra: dict[str, bytes] | None = None) -> Path:
    """A repository whose one commit, tagged ``evil``, holds a definitions package."""
    package = tmp_path / "repo" / "src" / "onespec" / "definitions"
    (package / "extra_specs").mkdir(parents=True)
    (package / "__init__.py").write_text(init, encoding="utf-8")
    (package / "extra_specs" / "__init__.py").write_text(
        "def extra_specs():\n    return ()\n", encoding="utf-8"
    )
    for module in ("model.py", "key_templates.py"):
        shutil.copy(PACKAGE / "definitions" / module, package / module)
    for name, content in (extra or {}).items():
        (package / name).write_bytes(content)
    repository = tmp_path / "repo"
    _git(repository, "init", "-q")
    _git(repository, "add", "-A")
    _git(repository, "commit", "-qm", "evil")
    _git(repository, "tag", "evil")
    return repository


def test_a_revision_is_not_run_unless_the_revisions_are_trusted(tmp_path: Path) -> None:
    """Loading a revision imports its definitions: once, a revision that wrote a file on import
    got it written by a plain ``onespec diff``, which then said "0 change(s)"."""
    victim = tmp_path / "payload-ran"
    repository = _repository_of(
        tmp_path, f"import pathlib\npathlib.Path({str(victim)!r}).touch()\n"
    )
    result = CliRunner().invoke(cli, ["diff", "--repository", str(repository), "evil", "evil"])
    assert result.exit_code == 2, result.output
    assert TRUST in result.output and "runs it with your privileges" in result.output
    assert not victim.exists()
    # Said, it is loaded (and runs): the flag is the user's word that the revisions are safe.
    trusted = CliRunner().invoke(
        cli, ["diff", "--repository", str(repository), "evil", "evil", TRUST]
    )
    assert trusted.exit_code == 0, trusted.output
    assert victim.exists()


def test_a_revision_whose_definitions_tree_is_too_large_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 300 MB blob once cost 596 MB of memory: git's archive was held whole. It is streamed
    now, and a member past the bound is refused from its header (the bound lowered here)."""
    from onespec.generator.review import revisions

    monkeypatch.setattr(revisions, "MAX_ARCHIVE_BYTES", 64 * 1024)
    repository = _repository_of(tmp_path, "", {"blob.bin": b"\0" * (256 * 1024)})
    result = CliRunner().invoke(
        cli, ["diff", "--repository", str(repository), "evil", "evil", TRUST]
    )
    assert result.exit_code == 2, result.output
    assert "blob.bin makes the definitions tree larger than" in result.output
