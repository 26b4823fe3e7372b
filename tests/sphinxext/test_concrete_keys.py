"""``:onespec:extra-spec:`` with the keys people write: a concrete key links to its definition.

A patterned definition (``hw:numa_cpus.{id}``, ``trait{group}:HW_CPU_X86_AVX2``) is described
once; prose names ``hw:numa_cpus.0`` or ``trait:HW_CPU_X86_AVX2``. Those references must land on
the entry that defines them, and a real typo must still warn with a suggestion.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.sphinxext.building import Build, make, page
from tests.sphinxext.test_domain import auto, line_of, pages_for

CONCRETE = page(
    "Concrete keys",
    """\
A trait: :onespec:extra-spec:`trait:HW_CPU_X86_AVX2`.

A trait of a request group: :onespec:extra-spec:`trait1:HW_CPU_X86_AVX2`.

A resource: :onespec:extra-spec:`resources:VGPU`.

A node's CPUs: :onespec:extra-spec:`hw:numa_cpus.0`.

A custom resource class: :onespec:extra-spec:`resources_gpu:CUSTOM_GOLD`.
""",
)

TYPOS = page(
    "Typos",
    """\
A misspelt trait: :onespec:extra-spec:`trait:HW_CPU_X86_AVX22`.

A misspelt key: :onespec:extra-spec:`hw:numa_cpu.0`.
""",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    pages = {
        **pages_for("hw", "trait", "resources"),
        "concrete": CONCRETE,
        "typos": TYPOS,
    }
    return make(tmp_path_factory.mktemp("concrete"), pages)


def _link(build: Build, docname: str, written: str) -> str:
    """The href of the link whose text is ``written`` on ``docname``'s page."""
    match = re.search(
        rf'<a class="reference internal" href="([^"]+)"[^>]*>\s*<code[^>]*>'
        rf'<span class="pre">{re.escape(written)}</span>',
        build.html(docname),
    )
    assert match, f"{written} is not a link on {docname}"
    return match[1]


@pytest.mark.parametrize(
    ("written", "definition"),
    [
        ("trait:HW_CPU_X86_AVX2", "trait{group}:HW_CPU_X86_AVX2"),
        ("trait1:HW_CPU_X86_AVX2", "trait{group}:HW_CPU_X86_AVX2"),
        ("resources:VGPU", "resources{group}:VGPU"),
        ("hw:numa_cpus.0", "hw:numa_cpus.{id}"),
        ("resources_gpu:CUSTOM_GOLD", "resources{group}:CUSTOM_{resource}"),
    ],
)
def test_a_concrete_key_links_to_the_entry_of_its_definition(
    site: Build, written: str, definition: str
):
    uri = site.inventory()[definition]
    assert _link(site, "concrete", written) == uri
    assert not site.warnings_with(f"extra spec '{written}'")


def test_the_inventory_still_lists_definitions_not_the_keys_written(site: Build):
    inventory = site.inventory()
    assert "trait{group}:HW_CPU_X86_AVX2" in inventory
    assert "trait:HW_CPU_X86_AVX2" not in inventory and "hw:numa_cpus.0" not in inventory


def test_a_misspelt_concrete_key_still_warns_with_the_key_meant(site: Build):
    source = site.srcdir / "typos.rst"
    (trait,) = site.warnings_with("trait:HW_CPU_X86_AVX22")
    assert trait.startswith(f"{source}:{line_of(source, 'AVX22')}: WARNING: ")
    assert "did you mean 'trait:HW_CPU_X86_AVX2'?" in trait
    (key,) = site.warnings_with("hw:numa_cpu.0")
    assert "unknown extra spec 'hw:numa_cpu.0'" in key
    assert "did you mean" in key


def test_only_the_typos_warn(site: Build):
    assert len(site.warnings) == 2, site.warnings


def test_a_name_that_is_a_definition_resolves_as_before(tmp_path: Path):
    built = make(
        tmp_path, {"hw": auto("hw"), "refs": page("R", ":onespec:extra-spec:`hw:mem_page_size`\n")}
    )
    assert built.warnings == []
    assert _link(built, "refs", "hw:mem_page_size") == built.inventory()["hw:mem_page_size"]
