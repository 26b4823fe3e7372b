"""The extension in another project's build: whatever Sphinx hands its hooks, it never crashes."""

from __future__ import annotations

import posixpath
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sphinx.util.inventory import InventoryFile

#: Seconds each, on their own (each runs sphinx-build in a child process): out of the fast loop.
pytestmark = pytest.mark.slow

CONF = """\
extensions = ["onespec.sphinxext"]
project = "consumer"
"""

INDEX = """\
Consumer
========

An unresolved any-reference: :any:`no-such-thing-anywhere`.

A misspelt key: :onespec:extra-spec:`hw:cpu_pollicy`.

A key the consumer does not document: :onespec:extra-spec:`hw:cpu_policy`.
"""


def build(source: Path, out: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """sphinx-build, run as a foreign project runs it: from its own folder, not this checkout."""
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", *options, str(source), str(out)],
        cwd=source.parent,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_an_unresolved_any_reference_is_a_warning_not_a_crash(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(CONF)
    (source / "index.rst").write_text(INDEX)
    for options in ((), ("-j", "2")):
        done = build(source, tmp_path / f"html{len(options)}", "-E", *options)
        assert done.returncode == 0, done.stderr
        assert "Extension error" not in done.stderr
        assert "no-such-thing-anywhere" in done.stderr  # Sphinx's own warning
        assert "unknown extra spec 'hw:cpu_pollicy'" in done.stderr
        assert (tmp_path / f"html{len(options)}" / "index.html").is_file()


PROVIDER_CONF = """\
extensions = ["onespec.sphinxext"]
project = "provider"
"""

PROVIDER_INDEX = """\
Provider
========

Locally: :onespec:image-property:`hw_cpu_policy` and
:onespec:flavor-rule:`numa-nodes-split-unevenly`.

.. onespec:auto-extra-specs:: hw

Image properties
----------------

.. onespec:image-properties::

Rules between keys
------------------

.. onespec:flavor-rules::
"""

CONSUMER_CONF = """\
extensions = ["onespec.sphinxext", "sphinx.ext.intersphinx"]
project = "consumer"
nitpicky = True
intersphinx_mapping = {{"onespec": ({uri!r}, {inventory!r})}}
"""

CONSUMER_INDEX = """\
Consumer
========

A key documented elsewhere: :onespec:extra-spec:`hw:cpu_policy`.

A concrete key of a patterned definition documented elsewhere: :onespec:extra-spec:`hw:numa_cpus.1`.

The same key misspelt: :onespec:extra-spec:`hw:cpu_pollicy`.

An image property and a rule: :onespec:image-property:`hw_cpu_policy`,
:onespec:flavor-rule:`numa-nodes-split-unevenly`; misspelt: :onespec:image-property:`hw_cpu_polcy`,
:onespec:flavor-rule:`numa-nodes-split-unevnly`.

An unresolved any-reference: :any:`no-such-thing-anywhere`.
"""


def test_a_consumer_links_through_intersphinx_and_hears_did_you_mean(tmp_path):
    """A project that documents no key links to a provider's through its objects.inv; a
    misspelt key is a warning naming the closest key of that inventory, in parallel builds too."""
    provider = tmp_path / "provider"
    provider.mkdir()
    (provider / "conf.py").write_text(PROVIDER_CONF)
    (provider / "index.rst").write_text(PROVIDER_INDEX)
    provided = tmp_path / "provided"
    done = build(provider, provided, "-E")
    assert done.returncode == 0, done.stderr
    inventory = provided / "objects.inv"
    assert inventory.is_file()
    with inventory.open("rb") as stream:
        loaded = InventoryFile.load(stream, "", posixpath.join)
    published = {name: item.uri for name, item in loaded["onespec:extra-spec"].items()}
    # The image properties and the rules are objects of the inventory, each with its anchor,
    # and the provider's own references to them resolve.
    image_property = loaded["onespec:image-property"]["hw_cpu_policy"].uri
    rule = loaded["onespec:flavor-rule"]["numa-nodes-split-unevenly"].uri
    assert image_property.endswith("#onespec-image-property-hw_cpu_policy"), image_property
    assert rule.endswith("#onespec-flavor-rule-numa-nodes-split-unevenly"), rule
    provider_html = (provided / "index.html").read_text(encoding="utf-8")
    assert 'href="#onespec-image-property-hw_cpu_policy"' in provider_html
    assert 'href="#onespec-flavor-rule-numa-nodes-split-unevenly"' in provider_html
    assert 'id="onespec-image-property-hw_cpu_policy"' in provider_html

    consumer = tmp_path / "consumer"
    consumer.mkdir()
    uri = "https://docs.example.org/onespec/"
    (consumer / "conf.py").write_text(CONSUMER_CONF.format(uri=uri, inventory=str(inventory)))
    (consumer / "index.rst").write_text(CONSUMER_INDEX)
    for options in ((), ("-j", "2")):
        out = tmp_path / f"consumer-html{len(options)}"
        done = build(consumer, out, "-E", *options)
        assert done.returncode == 0, done.stderr
        assert "Extension error" not in done.stderr and "Traceback" not in done.stderr
        html = (out / "index.html").read_text(encoding="utf-8")
        assert f'href="{uri}index.html#' in html  # hw:cpu_policy, resolved through intersphinx
        concrete = re.search(
            r'<a class="reference external" href="([^"]+)"[^>]*>'
            r'<code[^>]*><span class="pre">hw:numa_cpus.1</span>',
            html,
        )
        assert concrete and concrete[1] == f"{uri}{published['hw:numa_cpus.{id}']}", html
        assert "hw:numa_cpus.1" not in done.stderr  # resolved, so no warning
        warnings = [line for line in done.stderr.splitlines() if "hw:cpu_pollicy" in line]
        assert len(warnings) == 1, done.stderr
        assert "did you mean 'hw:cpu_policy'?" in warnings[0]
        assert f'href="{uri}{image_property}"' in html and f'href="{uri}{rule}"' in html
        for misspelt, meant in (
            ("hw_cpu_polcy", "hw_cpu_policy"),
            ("numa-nodes-split-unevnly", "numa-nodes-split-unevenly"),
        ):
            (warning,) = [line for line in done.stderr.splitlines() if misspelt in line]
            assert f"did you mean {meant!r}?" in warning, warning
        assert "no-such-thing-anywhere" in done.stderr


NEIGHBOUR_CONF = """\
extensions = ["sphinxext.opengraph", "onespec.sphinxext"]
project = "neighbour"
ogp_site_url = "https://docs.example.org/neighbour/"
nitpicky = True
"""


def test_an_other_sphinxext_distribution_does_not_hide_the_extension(tmp_path):
    """sphinxext-opengraph owns a ``sphinxext`` package; onespec's extension is elsewhere.

    Under the old name (a top-level ``sphinxext``) both shared one namespace package, Sphinx
    found no ``setup()`` in it, every ``:onespec:`` role was unknown, and the build still
    exited 0.
    """
    neighbour = subprocess.run(
        [sys.executable, "-c", "import sphinxext.opengraph, sphinxext; print(sphinxext.__path__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert neighbour.returncode == 0, neighbour.stderr  # the neighbour is really installed here
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(NEIGHBOUR_CONF)
    (source / "index.rst").write_text(
        "Neighbour\n=========\n\n"
        ".. onespec:auto-extra-specs:: hw\n\n"
        "Pin the CPUs with :onespec:extra-spec:`hw:cpu_policy`.\n"
    )
    done = build(source, tmp_path / "html", "-E", "-W")
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert 'property="og:title"' in page  # opengraph ran
    assert 'href="#onespec-extra-spec-hw-cpu_policy"' in page  # the role resolved

    (source / "index.rst").write_text("Neighbour\n=========\n\n:onespec:no-such-role:`x`\n")
    failed = build(source, tmp_path / "html-bad", "-E", "-W")
    assert failed.returncode != 0
    assert "no-such-role" in failed.stderr
