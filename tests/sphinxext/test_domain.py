"""The ``onespec`` Sphinx domain and its directives, through real Sphinx builds.

Every project here is written into a temporary directory and built in-process by the shared
helper (:mod:`tests.sphinxext.building`, on ``sphinx.testing``); the real documentation is
built with ``sphinx-build``. The builds that several tests inspect are module-scoped fixtures,
so each is built once.
"""

from __future__ import annotations

import html as html_module
import os
import posixpath
import re
import subprocess
import sys
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ConfigError
from sphinx.util.inventory import InventoryFile

import onespec.sphinxext.directives
from onespec.definitions.model import ExtraSpec, Namespace, Parameter, Status, Support, Value
from onespec.definitions.nova_shape import ExtraSpecValidator
from onespec.definitions.registry import IN_TREE, Registry, in_tree, load
from onespec.generator import rst
from onespec.generator.extra_specs import rst as spec_rst
from onespec.sphinxext.domain import OnespecDomain
from tests.conftest import ROOT
from tests.sphinxext.building import (
    CONF,
    EXTRA_SPEC,
    Build,
    build,
    domain_index,
    make,
    page,
    write_project,
)

OBJTYPE = EXTRA_SPEC


# --- Building ------------------------------------------------------------------------------------


def auto(namespace: str, *options: str, title: str | None = None) -> str:
    """A page holding one ``auto-extra-specs`` directive (the directive is on line 4)."""
    argument = namespace or '""'
    lines = [f".. onespec:auto-extra-specs:: {argument}", *(f"   {o}" for o in options)]
    return page(title or f"Namespace {argument}", "\n".join(lines) + "\n")


def line_of(path: Path, text: str) -> int:
    """The 1-based number of the line of ``path`` that contains ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def touch_later(*paths: Path) -> None:
    """Date files a few seconds ahead, so they are newer than any build before, however fast."""
    later = time.time() + 5
    for path in paths:
        os.utime(path, (later, later))


def anchor(uri: str) -> str:
    return uri.partition("#")[2]


def names(namespace: str) -> list[str]:
    return [spec.name for spec in load().by_namespace(namespace)]


def linked_namespaces(namespace: str) -> set[str]:
    """The namespaces whose specs the rendered entries of ``namespace`` link to."""
    registry = load()
    intro = next(ns for ns in registry.namespaces if ns.name == namespace)
    lines = spec_rst.namespace_lines(
        intro, registry.by_namespace(namespace), known=frozenset(registry.sources)
    )
    owner = {spec.name: spec.namespace for spec in registry.definitions}
    return {owner[name] for name in re.findall(r":onespec:extra-spec:`([^`]+)`", "\n".join(lines))}


def pages_for(*namespaces: str) -> dict[str, str]:
    """One page per namespace, plus the pages of every namespace they link to, so links resolve."""
    wanted = list(namespaces)
    for namespace in wanted:
        wanted += sorted(linked_namespaces(namespace) - set(wanted))
    return {namespace or "unnamespaced": auto(namespace) for namespace in wanted}


def doctree_literals(app: Sphinx, docname: str) -> list[str]:
    return [node.astext() for node in app.env.get_doctree(docname).findall(nodes.literal)]


# --- A site that uses everything, and must build clean -------------------------------------------

REFS = """\
References
==========

See :onespec:extra-spec:`hw:cpu_policy` for pinning.

Nodes take :onespec:extra-spec:`text <hw:numa_cpus.{id}>` per node.

Real time is :any:`hw:cpu_realtime`.
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    pages = {
        "hw": auto("hw"),
        "current": auto("", ":deprecated: exclude"),
        "deprecated": auto("", ":deprecated: only"),
        "summary": auto("hw", ":summary:"),
        "refs": REFS,
    }
    return make(tmp_path_factory.mktemp("site"), pages)


def test_the_site_builds_without_warnings(site: Build):
    assert site.warnings == []
    assert set(site.read) == {"index", "hw", "current", "deprecated", "summary", "refs"}


def test_objects_inv_lists_every_described_spec_and_nothing_else(site: Build):
    inventory = site.inventory()
    assert set(inventory) == {*names("hw"), *names("")}
    for name in names("hw"):
        assert inventory[name].startswith("hw.html#"), name
    assert inventory["hide_hypervisor_id"].startswith("deprecated.html#")
    assert inventory["group_policy"].startswith("current.html#")


def test_every_spec_has_its_own_anchor_on_its_page(site: Build):
    inventory = site.inventory()
    assert len(set(inventory.values())) == len(inventory)
    hw = site.html("hw")
    for name in names("hw"):
        assert f'id="{anchor(inventory[name])}"' in hw, name


@pytest.mark.parametrize(
    ("target", "text"),
    [
        ("hw:cpu_policy", "hw:cpu_policy"),
        ("hw:numa_cpus.{id}", "text"),
        ("hw:cpu_realtime", "hw:cpu_realtime"),
    ],
)
def test_references_link_to_the_anchor_of_the_spec(site: Build, target: str, text: str):
    uri = site.inventory()[target]
    link = re.compile(
        rf'<a class="reference internal" href="{re.escape(uri)}"[^>]*>\s*<code[^>]*>'
        rf'<span class="pre">{re.escape(text)}</span>'
    )
    assert link.search(site.html("refs")), f"no link to {uri} with text {text!r}"


def test_the_general_index_lists_each_spec_and_its_namespace(site: Build):
    genindex = site.html("genindex")
    uri = site.inventory()["hw:cpu_policy"]
    assert f'<a href="{uri}">hw:cpu_policy (extra spec)</a>' in genindex
    assert "hw (namespace)" in genindex
    assert "hide_hypervisor_id (extra spec)" in genindex


def test_the_domain_index_groups_by_namespace_and_marks_deprecated(site: Build):
    inventory = site.inventory()
    groups = domain_index(site.html("onespec-index"))
    assert list(groups) == ["(unnamespaced)", "hw"]
    assert groups["(unnamespaced)"] == [
        ("group_policy", inventory["group_policy"], "extra spec"),
        ("hide_hypervisor_id", inventory["hide_hypervisor_id"], "extra spec, deprecated"),
    ]
    hw = groups["hw"]
    assert [entry[0] for entry in hw] == sorted(names("hw"))
    assert all(extra == "extra spec" for _, _, extra in hw)
    assert all(href == inventory[name] for name, href, _ in hw)


def test_a_deprecated_spec_is_marked_in_its_signature_and_boxed(site: Build):
    html = site.html("deprecated")
    assert "(deprecated)" in html
    assert "admonition warning" in html
    assert "This extra spec is deprecated since 21.0.0 (Ussuri)." in html


def test_deprecated_only_renders_only_the_deprecated_spec(site: Build):
    inventory = site.inventory()
    deprecated = site.html("deprecated")
    assert f'id="{anchor(inventory["hide_hypervisor_id"])}"' in deprecated
    assert f'id="{anchor(inventory["group_policy"])}"' not in deprecated
    # Its replacement, described on another page, is linked.
    assert f'href="{inventory["hw:hide_hypervisor_id"]}"' in deprecated
    current = site.html("current")
    assert f'id="{anchor(inventory["group_policy"])}"' in current
    assert "hide_hypervisor_id" not in current


def test_a_summary_links_every_row_to_the_full_entry_on_another_page(site: Build):
    inventory = site.inventory()
    html = site.html("summary")
    table = html[html.index("<table") : html.index("</table>")]
    assert table.count("<tr") == len(names("hw")) + 1  # the header, then one row per spec
    for name in names("hw"):
        assert f'href="{inventory[name]}"' in table, name
    assert not [uri for uri in inventory.values() if uri.startswith("summary.html")]


def test_the_namespace_introduction_is_rendered(site: Build):
    intro = next(ns for ns in load().namespaces if ns.name == "hw").description
    first_paragraph = intro.strip().split("\n\n")[0].replace("``", "")
    paragraph = next(site.app.env.get_doctree("hw").findall(nodes.paragraph))
    assert paragraph.astext().split() == first_paragraph.split()


def test_a_project_documenting_one_namespace_builds_without_warnings(tmp_path: Path):
    """The guide's example: one namespace, and references to it, in a nitpicky project."""
    result = make(tmp_path, {"hw": auto("hw"), "refs": REFS})
    assert result.warnings == []
    assert set(result.inventory()) == set(names("hw"))


# --- Mistakes are warnings with a location, never crashes ----------------------------------------

TYPO = """\
Typos
=====

A misspelt :onespec:extra-spec:`hw:cpu_pollicy` reference.

Nothing like :onespec:extra-spec:`zzz:nothing_like_it` exists.
"""

UNKNOWN = """\
Unknown namespaces
==================

.. onespec:auto-extra-specs:: hw_rgn

.. onespec:auto-extra-specs:: qqqqqqqq
"""

HAND_WRITTEN_DUPLICATE = """\
Again
=====

.. onespec:extra-spec:: hw:cpu_policy
   :namespace: hw

   Described a second time.
"""


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Build:
    pages = {
        "dup_a": auto("hw_rng", title="First"),
        "dup_b": auto("hw_rng", title="Second"),
        **pages_for("hw"),
        "typo": TYPO,
        "unknown": UNKNOWN,
        "zz_again": HAND_WRITTEN_DUPLICATE,
    }
    return make(tmp_path_factory.mktemp("broken"), pages)


def test_a_misspelt_reference_warns_with_its_location_and_a_suggestion(broken: Build):
    (warning,) = broken.warnings_with("hw:cpu_pollicy")
    source = broken.srcdir / "typo.rst"
    assert warning.startswith(f"{source}:{line_of(source, 'hw:cpu_pollicy')}: WARNING: ")
    assert "did you mean 'hw:cpu_policy'?" in warning


def test_a_misspelt_reference_does_not_stop_the_build(broken: Build):
    html = broken.html("typo")
    assert "hw:cpu_pollicy" in html
    assert "Nothing like" in html
    assert (broken.outdir / "objects.inv").is_file()
    assert (broken.outdir / "onespec-index.html").is_file()


def test_an_unknown_reference_without_a_close_name_has_no_suggestion(broken: Build):
    (warning,) = broken.warnings_with("zzz:nothing_like_it")
    source = broken.srcdir / "typo.rst"
    assert warning.startswith(f"{source}:{line_of(source, 'zzz:nothing_like_it')}: WARNING: ")
    assert "unknown extra spec 'zzz:nothing_like_it'" in warning
    assert "did you mean" not in warning


def test_an_unknown_namespace_warns_with_a_suggestion(broken: Build):
    (warning,) = broken.warnings_with("'hw_rgn'")
    source = broken.srcdir / "unknown.rst"
    assert warning.startswith(f"{source}:{line_of(source, 'hw_rgn')}: WARNING: ")
    assert "unknown extra-spec namespace 'hw_rgn'; did you mean 'hw_rng'?" in warning
    (far,) = broken.warnings_with("'qqqqqqqq'")
    assert far.startswith(f"{source}:{line_of(source, 'qqqqqqqq')}: WARNING: ")
    assert "did you mean" not in far


def test_a_spec_described_on_two_pages_warns_duplicate_description(broken: Build):
    duplicates = broken.warnings_with("duplicate description")
    generated = [w for w in duplicates if "other instance in dup_a" in w]
    assert sorted(re.search(r"extra spec (\S+),", w)[1] for w in generated) == sorted(
        names("hw_rng")
    )
    (hand_written,) = [w for w in duplicates if "hw:cpu_policy" in w]
    source = broken.srcdir / "zz_again.rst"
    assert hand_written.startswith(f"{source}:{line_of(source, 'hw:cpu_policy')}: WARNING: ")
    assert "duplicate description of extra spec hw:cpu_policy, other instance in hw" in (
        hand_written
    )


def test_the_broken_site_warns_about_its_mistakes_and_nothing_else(broken: Build):
    assert len(broken.warnings) == 2 + 2 + len(names("hw_rng")) + 1, broken.warnings


def test_warnings_in_generated_entries_name_the_document_they_are_in(broken: Build):
    """A duplicate made by ``auto-extra-specs`` must say which page it is on (here dup_b)."""
    generated = [w for w in broken.warnings_with("duplicate description") if "dup_a" in w]
    assert generated
    for warning in generated:
        location = warning.partition(": WARNING:")[0]
        assert "dup_b" in location, warning


# --- Hand-built definitions through the whole pipeline -------------------------------------------

EDGE = Namespace("edge", "Edge cases", "Definitions that use every field.\n\nTwo paragraphs.")


def edge_specs() -> tuple[ExtraSpec, ...]:
    return (
        ExtraSpecValidator(
            name="edge:max_only",
            description="Bounded above only. Second sentence.",
            value={"type": int, "max": 8, "default": 0},
            virt_drivers=["libvirt", "hyperv"],
        ),
        ExtraSpecValidator(
            name="edge:experimental",
            description="Still settling.",
            value=Value(str, enum=(("a``b", "Backquotes."), ("x`", ""), ("plain", "Plain."))),
            status=Status(Support.EXPERIMENTAL, since="31.0.0"),
        ),
        ExtraSpecValidator(
            name="edge:old",
            description="Replaced.",
            value={"type": bool, "default": False},
            status=Status(
                Support.DEPRECATED, since="30.0.0", removal="32.0.0", replacement="edge:max_only"
            ),
        ),
        ExtraSpecValidator(
            name="edge:{slot}.name",
            description="",
            value={"type": str, "pattern": r"[\w.-]+\\", "max_length": 32},
            parameters=[
                Parameter("slot", str, "A slot.", pattern=r"[a-z]\d*", max_length=4),
            ],
        ),
        ExtraSpecValidator(
            name="edge:multi",
            description="First paragraph.\n\nSecond paragraph with ``code``.",
            value={
                "type": str,
                "pattern": "[0-9]+",
                "pattern_hint": "digits, e.g. 42",
                "description": "The value.",
            },
        ),
    )


def registry_of(*specs: ExtraSpec) -> Registry:
    """A registry of hand-built specs, all in the namespace ``edge``."""
    return Registry(
        definitions=specs,
        namespaces=(EDGE,),
        sources={spec.name: IN_TREE for spec in specs},
        plugins=(),
        problems=(),
    )


@pytest.fixture(scope="module")
def edge(tmp_path_factory: pytest.TempPathFactory) -> Build:
    registry = registry_of(*edge_specs())
    pages = {
        "full": auto("edge"),
        "table": auto("edge", ":summary:"),
        "old": auto("edge", ":summary:", ":deprecated: only"),
    }
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(onespec.sphinxext.directives, "load", lambda: registry)
        return make(tmp_path_factory.mktemp("edge"), pages)


def test_a_dangling_reference_in_generated_entries_names_the_document(tmp_path: Path):
    spec = ExtraSpecValidator(
        name="edge:needy",
        description="Replaced.",
        value={"type": int},
        status=Status(Support.DEPRECATED, since="30.0.0", replacement="edge:absent"),
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(onespec.sphinxext.directives, "load", lambda: registry_of(spec))
        result = make(tmp_path, {"needy": auto("edge")})
    (warning,) = result.warnings
    assert "unknown extra spec 'edge:absent'" in warning
    assert "needy.rst" in warning.partition(": WARNING:")[0], warning


def test_hand_built_definitions_render_to_valid_rst(edge: Build):
    assert edge.warnings == []
    assert set(edge.inventory()) == {spec.name for spec in edge_specs()}


def test_hand_built_definitions_show_every_field(edge: Build):
    html = edge.html("full")
    for text in (
        "at most 8",
        "libvirt, hyperv",
        "admonition note",
        "experimental, since 31.0.0",
        "admonition warning",
        "deprecated since 30.0.0 (2024.2 Dalmatian) and will be removed in 32.0.0 "
        "(2025.2 Flamingo)",
        "digits, e.g. 42",
        "Second paragraph with",
        "Definitions that use every field.",
        "Two paragraphs.",
    ):
        assert text in html, text
    literals = doctree_literals(edge.app, "full")
    for text in ("a``b", "x`", "plain", "0", "false", r"[\w.-]+\\", r"[a-z]\d*", "{slot}"):
        assert text in literals, (text, literals)


def test_a_deprecated_only_summary_has_one_row(edge: Build):
    html = edge.html("old")
    table = html[html.index("<table") : html.index("</table>")]
    assert table.count("<tr") == 2
    assert f'href="{edge.inventory()["edge:old"]}"' in table
    assert "(deprecated)" in table


LITERALS = ("a``b", "a`", "`", "``", "x\\`", "a\\``b", "`a", r"\d+", "\\", "a `b` c", "*x*")
SPACED = (" lead", "trail ", " both ", " ")


def literal_page(texts: tuple[str, ...]) -> str:
    return page("Literals", "\n\n".join(f"{i}: {rst.literal(t)}" for i, t in enumerate(texts)))


def test_literal_renders_backquotes_and_backslashes_exactly(tmp_path: Path):
    result = make(tmp_path, {"literals": literal_page(LITERALS)})
    assert result.warnings == []
    assert doctree_literals(result.app, "literals") == list(LITERALS)


def test_literal_renders_surrounding_whitespace_exactly(tmp_path: Path):
    """literal() promises to be safe for any content; values may begin or end with a space."""
    result = make(tmp_path, {"literals": literal_page(SPACED)})
    assert result.warnings == []
    assert doctree_literals(result.app, "literals") == list(SPACED)


# --- Parallel reading ----------------------------------------------------------------------------

SMALL_NAMESPACES = (
    "hw_rng",
    "hw_video",
    "os",
    "accel",
    "vmware",
    "aggregate_instance_extra_specs",
    "quota",
    "resources",
)


@pytest.fixture(scope="module")
def serial_and_parallel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Build, Build, int]:
    pages = pages_for(*SMALL_NAMESPACES)
    assert len(pages) == len(SMALL_NAMESPACES), "these namespaces must link only among themselves"
    tmp = tmp_path_factory.mktemp("parallel")
    serial = make(tmp / "serial", pages)
    merges: list[frozenset[str]] = []
    original = OnespecDomain.merge_domaindata

    def spy(self: OnespecDomain, docnames: frozenset[str], otherdata: dict) -> None:
        merges.append(frozenset(docnames))
        original(self, docnames, otherdata)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(OnespecDomain, "merge_domaindata", spy)
        parallel = make(tmp / "parallel", pages, parallel=2)
    return serial, parallel, len(merges)


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_a_parallel_build_merges_what_each_reader_found(serial_and_parallel):
    serial, parallel, merges = serial_and_parallel
    assert merges >= 2, "the documents were not read by parallel readers"
    assert serial.warnings == []
    assert parallel.warnings == []


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_a_parallel_build_has_the_inventory_of_a_serial_one(serial_and_parallel):
    serial, parallel, _ = serial_and_parallel
    expected = {name for ns in SMALL_NAMESPACES for name in names(ns)}
    assert set(serial.inventory()) == expected
    assert parallel.inventory() == serial.inventory()


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_a_parallel_build_has_the_domain_index_of_a_serial_one(serial_and_parallel):
    serial, parallel, _ = serial_and_parallel
    groups = domain_index(parallel.html("onespec-index"))
    assert groups == domain_index(serial.html("onespec-index"))
    assert sorted(groups) == sorted(SMALL_NAMESPACES)


def test_a_duplicate_between_parallel_readers_warns_once_naming_both_pages(tmp_path: Path):
    # Eight documents in two chunks of four, read at the same time: only the merge sees both.
    pages = pages_for(*SMALL_NAMESPACES[2:7])
    assert len(pages) == 5
    pages = {"a_first": auto("hw_video"), **pages, "z_last": auto("hw_video")}
    result = make(tmp_path, pages, parallel=2)
    (warning,) = result.warnings
    assert warning.startswith(f"{result.srcdir / 'z_last.rst'}: WARNING: ")
    assert (
        "duplicate description of extra spec hw_video:ram_max_mb, other instance in a_first"
        in warning
    )


def test_a_duplicate_added_in_a_parallel_rebuild_is_reported_once(tmp_path: Path):
    """The reader of the new page already knows the old one, and warns; the merge must not again."""
    first = make(tmp_path, {"a_first": auto("hw_video"), "os": auto("os")}, parallel=2)
    assert first.warnings == []
    (first.srcdir / "z_last.rst").write_text(auto("hw_video"), encoding="utf-8")
    toctree = ".. toctree::\n\n   a_first\n   os\n   z_last\n"
    (first.srcdir / "index.rst").write_text(page("Test project", toctree), encoding="utf-8")
    touch_later(first.srcdir / "index.rst", first.srcdir / "z_last.rst")
    second = build(first.srcdir, first.outdir.parent, fresh=False, parallel=2)
    duplicates = second.warnings_with("duplicate description of extra spec hw_video:ram_max_mb")
    assert len(duplicates) == 1, duplicates
    assert second.warnings == duplicates


# --- Incremental builds --------------------------------------------------------------------------


def rebuild(result: Build) -> Build:
    return build(result.srcdir, result.outdir.parent, fresh=False)


def test_an_unchanged_project_reads_nothing_again(tmp_path: Path):
    first = make(tmp_path, pages_for("hw", "quota"))
    assert {"index", "hw", "quota"} <= set(first.read)
    second = rebuild(first)
    assert second.read == []
    assert second.warnings == []
    assert second.inventory() == first.inventory()


@pytest.fixture
def fake_hw_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make ``hw`` come from a module file of our own, outside the repository."""
    path = tmp_path / "fake_hw.py"
    path.write_text("# stands in for src/onespec/definitions/extra_specs/hw.py\n", encoding="utf-8")
    past = time.time() - 60
    os.utime(path, (past, past))
    fake = types.ModuleType("fake_hw")
    fake.__file__ = str(path)
    real: Callable[[str], types.ModuleType | None] = (
        onespec.sphinxext.directives.catalogue.module_for
    )

    def module_for(namespace: str) -> types.ModuleType | None:
        return fake if namespace == "hw" else real(namespace)

    monkeypatch.setattr(onespec.sphinxext.directives.catalogue, "module_for", module_for)
    return path


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_a_page_is_read_again_when_its_catalogue_module_changes(
    tmp_path: Path, fake_hw_module: Path
):
    first = make(tmp_path / "project", pages_for("hw", "quota"))
    assert first.warnings == []
    dependencies = first.app.env.dependencies
    assert str(fake_hw_module.resolve()) in {str(p) for p in dependencies["hw"]}
    assert str(Path(rst.__file__).resolve()) in {str(p) for p in dependencies["quota"]}
    assert rebuild(first).read == []
    touch_later(fake_hw_module)
    third = rebuild(first)
    assert third.read == ["hw"]
    assert third.warnings == []


def test_a_removed_page_takes_its_specs_out_of_the_inventory_and_index(tmp_path: Path):
    first = make(tmp_path, {"rng": auto("hw_rng"), "video": auto("hw_video")})
    assert set(first.inventory()) == {*names("hw_rng"), *names("hw_video")}
    (first.srcdir / "video.rst").unlink()
    write_project(first.srcdir, {"rng": auto("hw_rng")})
    touch_later(first.srcdir / "index.rst")
    second = rebuild(first)
    assert second.warnings == []
    assert set(second.inventory()) == set(names("hw_rng"))
    domain = second.app.env.domains["onespec"]
    assert {entry[0] for entry in domain.get_objects()} == set(names("hw_rng"))
    assert list(domain_index(second.html("onespec-index"))) == ["hw_rng"]


def test_a_page_that_changes_namespace_replaces_its_specs(tmp_path: Path):
    first = make(tmp_path, {"page": auto("hw_rng")})
    assert set(first.inventory()) == set(names("hw_rng"))
    (first.srcdir / "page.rst").write_text(auto("hw_video"), encoding="utf-8")
    touch_later(first.srcdir / "page.rst")
    second = rebuild(first)
    assert second.read == ["page"]
    assert second.warnings == []
    assert set(second.inventory()) == set(names("hw_video"))


# --- The real documentation ----------------------------------------------------------------------


@dataclass
class RealSite:
    completed: subprocess.CompletedProcess[str]
    outdir: Path


@pytest.fixture(scope="module")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> RealSite:
    out = tmp_path_factory.mktemp("doc") / "html"
    sphinx_build = Path(sys.executable).with_name("sphinx-build")
    completed = subprocess.run(
        [str(sphinx_build), "-n", "-W", "--keep-going", "-b", "html", "doc/source", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return RealSite(completed, out)


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_the_documentation_builds_without_warnings(real_site: RealSite):
    completed = real_site.completed
    assert completed.returncode == 0, completed.stderr + completed.stdout[-2000:]
    assert completed.stderr == ""
    assert (real_site.outdir / "index.html").is_file()
    assert (real_site.outdir / "onespec-index.html").is_file()


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_the_documentation_describes_every_in_tree_spec_once(real_site: RealSite):
    with (real_site.outdir / "objects.inv").open("rb") as stream:
        data = InventoryFile.load(stream, "", posixpath.join)
    entries = {name: item.uri for name, item in data[OBJTYPE].items()}
    assert set(entries) == {spec.name for spec in in_tree()}
    assert len(set(entries.values())) == len(entries), "two specs share an anchor"
    for spec in in_tree():
        page_name = "unnamespaced" if spec.namespace == "" else spec.namespace
        assert entries[spec.name].startswith(f"reference/extra-specs/{page_name}.html#"), spec


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_the_command_line_page_documents_every_command(real_site: RealSite):
    from onespec.validators_runtime.cli import cli

    html = (real_site.outdir / "cli.html").read_text(encoding="utf-8")
    names = cli.list_commands(click.Context(cli))
    assert {"generate", "image", "serve"} <= set(names)  # lazy ones among them
    for name in names:
        assert f'id="onespec-{name}"' in html, name


# --- Families described by table rows ------------------------------------------------------------

TRAIT_REFS = """\
Trait references
================

Ask for :onespec:extra-spec:`trait{group}:HW_CPU_X86_AVX2`, or :any:`trait{group}:HW_CPU_X86_SSE42`,
or a custom one, :onespec:extra-spec:`trait{group}:CUSTOM_{trait}`.
"""


@pytest.fixture(scope="module")
def traits(tmp_path_factory: pytest.TempPathFactory) -> Build:
    return make(tmp_path_factory.mktemp("traits"), {"trait": auto("trait"), "refs": TRAIT_REFS})


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_a_trait_row_is_a_target_indexed_and_in_the_inventory(traits: Build):
    assert traits.warnings == []
    inventory = traits.inventory()
    assert set(inventory) == set(names("trait"))
    html = traits.html("trait")
    for name in names("trait"):
        assert inventory[name].startswith("trait.html#"), name
        assert f'id="{anchor(inventory[name])}"' in html, name
    refs = traits.html("refs")
    for name in ("trait{group}:HW_CPU_X86_AVX2", "trait{group}:HW_CPU_X86_SSE42"):
        assert f'href="{inventory[name]}"' in refs, name
    genindex = (traits.outdir / "genindex.html").read_text(encoding="utf-8")
    assert "trait{group}:HW_CPU_X86_AVX2 (extra spec)" in genindex


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_the_trait_page_opens_with_its_table_and_stays_small(traits: Build):
    html = traits.html("trait")
    assert html.index("<table") < html.index('<dl class="onespec extra-spec')
    assert html.count('<dl class="onespec extra-spec') == 1  # only CUSTOM_{trait} in full
    # It was 820 KB with one entry per trait; a row per trait keeps it a few hundred.
    assert len(html.encode()) < 300_000


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_a_trait_row_described_twice_is_a_duplicate_warning(tmp_path: Path):
    twice = make(tmp_path, {"a": auto("trait"), "b": auto("trait", title="Again")})
    assert twice.warnings_with("duplicate description of extra spec trait{group}:HW_CPU_X86_AVX2")


# --- Pages people scan --------------------------------------------------------------------------


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_the_front_page_says_who_it_is_for_before_the_contents(real_site: RealSite):
    html = (real_site.outdir / "index.html").read_text(encoding="utf-8")
    order = [
        html.index(text)
        for text in (
            'id="start-here"',
            "Operators validating flavors",
            "Service developers importing the runtime",
            "Documentation writers linking keys",
            "Sahara and Heat users",
            'id="a-short-example"',
            'id="contents"',
        )
    ]
    assert order == sorted(order)
    assert 'class="highlight-console' in html


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_the_overview_diagram_covers_every_area(real_site: RealSite):
    html = (real_site.outdir / "overview.html").read_text(encoding="utf-8")
    (svg,) = re.findall(r'(?:src|data)="(_images/graphviz-[^"]+\.svg)"', html)
    text = html_module.unescape((real_site.outdir / svg).read_text(encoding="utf-8"))
    for area in (
        "extra specs",
        "plugin labels",
        "Heat components",
        "image-spec",
        "Glance",
        "JSON",
        "HTTP service",
        "Heat tools",
        "image",
        "out-of-tree",
    ):
        assert area in text, area
    sizes = {float(size) for size in re.findall(r'font-size="([\d.]+)"', text)}
    assert min(sizes) >= 16, sizes  # legible once the diagram is scaled to the page


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_the_command_line_page_has_no_smart_dashes_and_code_examples(real_site: RealSite):
    html = (real_site.outdir / "cli.html").read_text(encoding="utf-8")
    assert "\u2013" not in html and "\u2014" not in html  # -- never becomes a dash
    assert "<cite>" not in html  # `name` in help texts is code
    assert "--format" in html
    example = re.search(
        r'<div class="highlight-shell[^"]*"><div class="highlight"><pre>(.*?)</pre>', html, re.S
    )
    assert example and "validate" in example.group(1)
    assert 'class="line-block"' not in html
    positions = [
        html.index(f'id="onespec-{group}"') for group in ("validate", "generate", "serve", "image")
    ]
    assert positions == sorted(positions), "the everyday commands come first"


def test_every_command_group_has_its_own_section_in_the_source():
    from onespec.validators_runtime.cli import cli

    source = (ROOT / "doc" / "source" / "cli.rst").read_text(encoding="utf-8")
    for name in cli.list_commands(click.Context(cli)):
        assert f":prog: onespec {name}\n" in source, f"onespec {name} has no section in cli.rst"


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_the_by_purpose_index_reaches_every_spec(real_site: RealSite):
    html = (real_site.outdir / "reference/extra-specs-by-purpose.html").read_text(encoding="utf-8")
    for title in ("Placement: resources and traits", "Scheduler filters", "Virt driver features"):
        assert title in html
    assert "more like it" in html  # the standard traits: one row
    with (real_site.outdir / "objects.inv").open("rb") as stream:
        data = InventoryFile.load(stream, "", posixpath.join)
    families = spec_rst.repeated(in_tree())
    for spec in in_tree():
        if spec.name not in families:
            uri = data[OBJTYPE][spec.name].uri
            assert f'href="{posixpath.relpath(uri, "reference")}' in html, spec.name


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_the_trait_page_is_a_table_a_few_hundred_kilobytes(real_site: RealSite):
    html = (real_site.outdir / "reference/extra-specs/trait.html").read_bytes()
    assert len(html) < 300_000  # 835,963 bytes with one full entry per trait
    for name in ("hw", "resources", "capabilities", "quota"):
        text = (real_site.outdir / f"reference/extra-specs/{name}.html").read_text("utf-8")
        assert text.index("<table") < text.index('<dl class="onespec extra-spec'), name


@pytest.mark.slow  # a real build of many pages: seconds of its own
def test_the_theme_wraps_tables_and_keeps_straight_quotes(real_site: RealSite):
    html = (real_site.outdir / "index.html").read_text(encoding="utf-8")
    assert "furo" in html and "_static/onespec.css" in html
    assert "\u201c" not in html and "\u2019" not in html


# --- The consuming project of the Sphinx guide ----------------------------------------------------


def _guide_conf() -> str:
    guide = (ROOT / "doc" / "source" / "guides" / "sphinx.rst").read_text(encoding="utf-8")
    (block,) = re.findall(r"   :caption: conf.py\n\n((?:   .*\n|\n)+)", guide)
    return "\n".join(line[3:] for line in block.splitlines()) + "\n"


@pytest.mark.slow  # reads the inventory of the real documentation: a build of many pages
def test_the_guide_conf_py_builds_a_consumer_that_links_and_suggests(
    real_site: RealSite, tmp_path: Path
):
    src = tmp_path / "src"
    (src / "_inventories").mkdir(parents=True)
    (src / "_inventories" / "onespec-objects.inv").write_bytes(
        (real_site.outdir / "objects.inv").read_bytes()
    )
    (src / "conf.py").write_text(_guide_conf(), encoding="utf-8")
    (src / "index.rst").write_text(
        page(
            "Consumer",
            "Pin with :onespec:extra-spec:`hw:cpu_policy`, or\n"
            ":external+onespec:onespec:extra-spec:`hw:numa_nodes`.\n\n"
            "Misspelt: :onespec:extra-spec:`hw:cpu_pollicy`.\n",
        ),
        encoding="utf-8",
    )
    site = build(src, tmp_path / "out")
    html = site.html("index")
    assert 'href="https://docs.example.org/onespec/reference/extra-specs/hw.html#' in html
    assert html.count("docs.example.org/onespec/reference/extra-specs/hw.html#") == 2
    (warning,) = site.warnings_with("hw:cpu_pollicy")
    assert "did you mean 'hw:cpu_policy'?" in warning
    assert "index.rst:7" in warning


# --- Where a key is mentioned --------------------------------------------------------------------

GUIDE = page("Pinning guide", "Set ``hw:cpu_policy`` to ``dedicated``.\n")
API = page(
    "Python",
    ".. py:function:: onespec.validators_runtime.extra_specs.validate(specs)\n\n   Validate.\n",
)


def _entry(html: str, inventory: dict[str, str], name: str) -> str:
    start = html.index(f'id="{anchor(inventory[name])}"')
    end = html.find('<dl class="onespec extra-spec', start)
    return html[start : end if end != -1 else len(html)]


@pytest.mark.parametrize("parallel", [0, 2])
def test_an_entry_links_the_guides_that_mention_it_and_the_validate_function(
    tmp_path: Path, parallel: int
):
    site = make(tmp_path, {"hw": auto("hw"), "guide": GUIDE, "api": API}, parallel=parallel)
    assert site.warnings == []
    inventory = site.inventory()
    html = site.html("hw")
    policy = _entry(html, inventory, "hw:cpu_policy")
    assert 'href="guide.html">Pinning guide</a>' in policy
    realtime = _entry(html, inventory, "hw:cpu_realtime")
    assert "guide.html" not in realtime
    validate = 'href="api.html#onespec.validators_runtime.extra_specs.validate"'
    assert validate not in policy and validate not in realtime  # not under every key
    assert html.count(validate) == 1  # once, before the first key
    assert html.index(validate) < html.index('<dl class="onespec extra-spec')


def test_the_mentions_follow_an_edited_guide(tmp_path: Path):
    first = make(tmp_path, {"hw": auto("hw"), "guide": GUIDE})
    assert 'href="guide.html">Pinning guide</a>.' in first.html("hw")
    (tmp_path / "src" / "guide.rst").write_text(page("Pinning guide", "Nothing.\n"))
    touch_later(tmp_path / "src" / "guide.rst")
    again = build(tmp_path / "src", tmp_path / "out", fresh=False)
    assert 'href="guide.html">Pinning guide</a>.' not in again.html("hw")


# --- Duplicates counted the same in a parallel build, and the mentions option checked ------------

_TWICE = (
    ".. onespec:extra-spec:: hw:cpu_policy\n\n   Described here.\n\n"
    ".. onespec:extra-spec:: hw:cpu_policy\n\n   And again.\n"
)


def _six_descriptions_in_three_documents() -> dict[str, str]:
    # More documents than Sphinx's threshold for reading in parallel (five), named so that its
    # two chunks of five hold the first document and the other two.
    pages = {name: page(name, _TWICE) for name in ("a_one", "m_two", "z_three")}
    pages.update({f"f{i}": page(f"Filler {i}") for i in range(6)})
    return pages


@pytest.mark.parametrize("parallel", [0, 2], ids=["serial", "parallel"])
def test_a_parallel_build_counts_every_duplicate_as_a_serial_one(tmp_path: Path, parallel: int):
    built = make(tmp_path, _six_descriptions_in_three_documents(), parallel=parallel)
    # Six descriptions of one key: every one but the first is a duplicate (it was 4 with -j 2).
    assert len(built.warnings_with("duplicate description")) == 5, built.warnings


@pytest.mark.parametrize("value", ["None", "5", "[5]", "'reference/*'"])
def test_a_wrong_mentions_exclude_is_a_configuration_error_naming_it(tmp_path: Path, value: str):
    conf = CONF + f"onespec_mentions_exclude = {value}\n"
    write_project(tmp_path / "src", {"one": page("One")}, conf=conf)
    with pytest.raises(ConfigError) as raised:
        build(tmp_path / "src", tmp_path / "out")
    assert "onespec_mentions_exclude must be a list of glob patterns" in str(raised.value)
