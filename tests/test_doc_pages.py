"""The hand-written parts of the documentation stay in step with the catalogue."""

from __future__ import annotations

from onespec.definitions.extra_specs import namespaces
from tests.conftest import ROOT

REFERENCE = ROOT / "doc" / "source" / "reference" / "extra-specs"


def test_every_namespace_has_a_reference_page_listed_in_the_index():
    index = (REFERENCE / "index.rst").read_text(encoding="utf-8")
    pages = {path.stem for path in REFERENCE.glob("*.rst")} - {"index"}
    expected = set()
    for namespace in namespaces():
        slug = namespace.name or "unnamespaced"
        expected.add(slug)
        page = (REFERENCE / f"{slug}.rst").read_text(encoding="utf-8")
        argument = namespace.name or '""'
        assert f".. onespec:auto-extra-specs:: {argument}\n" in page, slug
        assert f"\n   {slug}\n" in index, f"{slug} is missing from the reference toctree"
    assert pages == expected, "a reference page exists for a namespace the catalogue lacks"


def test_the_front_page_example_prints_what_it_shows():
    import re
    import shlex
    import subprocess
    import sys
    from pathlib import Path

    index = (ROOT / "doc" / "source" / "index.rst").read_text(encoding="utf-8")
    (block,) = re.findall(r".. code-block:: console\n\n((?:   .*\n)+)", index)
    lines = [line[3:] for line in block.splitlines()]
    command = next(line[2:] for line in lines if line.startswith("$ onespec "))
    shown = lines[lines.index(f"$ {command}") + 1 :]
    onespec = Path(sys.executable).with_name("onespec")
    result = subprocess.run(
        [str(onespec), *shlex.split(command)[1:]], capture_output=True, text=True, check=False
    )
    assert (result.stdout + result.stderr).splitlines() == shown
