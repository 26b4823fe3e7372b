"""The software-component reference: the Sphinx directives in a real build, and the pages."""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path

import pytest
from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace

from onespec.definitions import components as vocabulary
from onespec.generator.components import rst as component_rst
from tests.conftest import ROOT

DOC = ROOT / "doc" / "source"
RUNTIME = ROOT / "validators_runtime" / "heat" / "components"


def build(srcdir: Path, pages: dict[str, str]) -> tuple[Sphinx, str]:
    srcdir.mkdir(parents=True, exist_ok=True)
    (srcdir / "conf.py").write_text('extensions = ["onespec.sphinxext"]\nnitpicky = True\n')
    toctree = "".join(f"   {name}\n" for name in pages)
    (srcdir / "index.rst").write_text(f"Test\n====\n\n.. toctree::\n\n{toctree}")
    for name, text in pages.items():
        (srcdir / f"{name}.rst").write_text(text)
    warnings = io.StringIO()
    with docutils_namespace():
        app = Sphinx(
            srcdir,
            srcdir,
            srcdir / "_build",
            srcdir / "_doctrees",
            "html",
            status=io.StringIO(),
            warning=warnings,
            freshenv=True,
        )
        app.build()
    return app, warnings.getvalue()


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    srcdir = tmp_path_factory.mktemp("components")
    sections = "\n\n".join(
        f".. onespec:auto-component-grammar:: {section}" for section in component_rst.SECTIONS
    )
    app, warnings = build(
        srcdir,
        {
            "actions": "Actions\n=======\n\n.. onespec:auto-component-actions::\n",
            "grammar": f"Grammar\n=======\n\n{sections}\n",
            "links": "Links\n=====\n\nSee :onespec:component-action:`SUSPEND` and "
            ":onespec:component-action:`RESUME`.\n",
        },
    )
    return app, warnings, srcdir


def test_the_build_is_clean(project):
    _, warnings, _ = project
    assert warnings == ""


def test_every_action_is_an_object_of_the_domain(project):
    app, _, _ = project
    objects = app.env.domains["onespec"].objects
    for action in vocabulary.ACTIONS:
        entry = objects["component-action", action.name]
        assert entry.docname == "actions"
        assert entry.group == vocabulary.RESOURCE_TYPE


def test_actions_render_when_they_fire_and_what_the_hook_receives(project):
    _, _, srcdir = project
    html = (srcdir / "_build" / "actions.html").read_text()
    assert 'id="onespec-component-action-SUSPEND"' in html
    assert "The hook receives" in html
    assert "Fires" in html
    assert "extended action" in html


def test_references_to_actions_resolve(project):
    _, _, srcdir = project
    html = (srcdir / "_build" / "links.html").read_text()
    assert re.search(r'href="actions.html#onespec-component-action-SUSPEND"', html)


def test_the_domain_index_lists_actions_under_the_resource_type(project):
    _, _, srcdir = project
    html = (srcdir / "_build" / "onespec-index.html").read_text()
    assert vocabulary.RESOURCE_TYPE in html
    assert "component action" in html


def test_every_section_renders(project):
    _, _, srcdir = project
    html = (srcdir / "_build" / "grammar.html").read_text()
    for needle in (
        "replace_on_change",
        "CommaDelimitedList",
        "deploy_status",
        "deploy_status_code",
        "IN_PROGRESS",
        "one-config-per-action",
        "built in",
    ):
        assert needle in html


def test_an_unknown_section_is_a_warning_with_a_suggestion(tmp_path):
    _, warnings = build(
        tmp_path, {"page": "Page\n====\n\n.. onespec:auto-component-grammar:: imputs\n"}
    )
    assert "page.rst:4: WARNING: unknown software-component section 'imputs'" in warnings
    assert "did you mean 'input'?" in warnings


def test_an_unknown_action_reference_is_a_warning(tmp_path):
    _, warnings = build(
        tmp_path,
        {
            "actions": "Actions\n=======\n\n.. onespec:auto-component-actions::\n",
            "page": "Page\n====\n\n:onespec:component-action:`SUSPEN`\n",
        },
    )
    assert "unknown component action 'SUSPEN'" in warnings
    assert "did you mean 'SUSPEND'?" in warnings


def _problem_codes() -> set[str]:
    codes = set()
    for name in ("validation.py", "deployment.py", "template.py"):
        for node in ast.walk(ast.parse((RUNTIME / name).read_text())):
            if not isinstance(node, ast.Call) or len(node.args) < 2:
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            code = node.args[1]
            if called in ("add", "Problem") and isinstance(code, ast.Constant):
                codes.add(code.value)
    return codes


def test_the_reference_lists_every_problem_code():
    codes = _problem_codes()
    assert {"duplicate-action", "invalid-value", "unresolvable"} <= codes
    page = (DOC / "reference" / "software-component.rst").read_text()
    listed = set(re.findall(r"^``([a-z-]+)``  ", page, re.M))
    assert listed == codes


def test_the_pages_are_in_the_toctree():
    index = (DOC / "index.rst").read_text()
    assert "\n   reference/software-component\n" in index
    assert "\n   guides/software-components\n" in index


def test_the_guide_shows_the_tested_example():
    guide = (DOC / "guides" / "software-components.rst").read_text()
    for included in re.findall(r"literalinclude:: (\S+)", guide):
        assert (DOC / "guides" / included).resolve().is_file(), included
    assert "appserver/appserver.yaml" in guide
    for action in ("CREATE", "UPDATE", "SUSPEND"):
        assert f"({action})" in guide
