"""The software-component reference: the Sphinx directives in a real build, and the pages."""

from __future__ import annotations

import ast
import re

import pytest

from onespec.definitions import components as vocabulary
from onespec.generator.components import rst as component_rst
from tests.conftest import PACKAGE, ROOT
from tests.sphinxext.building import Build, make, page

DOC = ROOT / "doc" / "source"
RUNTIME = PACKAGE / "validators_runtime" / "heat" / "components"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Build:
    sections = "\n\n".join(
        f".. onespec:auto-component-grammar:: {section}" for section in component_rst.SECTIONS
    )
    return make(
        tmp_path_factory.mktemp("components"),
        {
            "actions": page("Actions", ".. onespec:auto-component-actions::\n"),
            "grammar": page("Grammar", f"{sections}\n"),
            "links": page(
                "Links",
                "See :onespec:component-action:`SUSPEND` and :onespec:component-action:`RESUME`.\n",
            ),
        },
    )


def test_the_build_is_clean(project):
    assert project.warnings == []


def test_every_action_is_an_object_of_the_domain(project):
    objects = project.app.env.domains["onespec"].objects
    for action in vocabulary.ACTIONS:
        entry = objects["component-action", action.name]
        assert entry.docname == "actions"
        assert entry.group == vocabulary.RESOURCE_TYPE


def test_actions_render_when_they_fire_and_what_the_hook_receives(project):
    html = project.html("actions")
    assert 'id="onespec-component-action-SUSPEND"' in html
    assert "The hook receives" in html
    assert "Fires" in html
    assert "extended action" in html


def test_references_to_actions_resolve(project):
    html = project.html("links")
    assert re.search(r'href="actions.html#onespec-component-action-SUSPEND"', html)


def test_the_domain_index_lists_actions_under_the_resource_type(project):
    html = project.html("onespec-index")
    assert vocabulary.RESOURCE_TYPE in html
    assert "component action" in html


def test_every_section_renders(project):
    html = project.html("grammar")
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
    built = make(tmp_path, {"page": page("Page", ".. onespec:auto-component-grammar:: imputs\n")})
    (warning,) = built.warnings_with("unknown software-component section")
    assert "page.rst:4: WARNING: unknown software-component section 'imputs'" in warning
    assert "did you mean 'input'?" in warning


def test_an_unknown_action_reference_is_a_warning(tmp_path):
    built = make(
        tmp_path,
        {
            "actions": page("Actions", ".. onespec:auto-component-actions::\n"),
            "page": page("Page", ":onespec:component-action:`SUSPEN`\n"),
        },
    )
    (warning,) = built.warnings_with("unknown component action 'SUSPEN'")
    assert "did you mean 'SUSPEND'?" in warning


def _problem_codes() -> set[str]:
    codes = set()
    for name in ("validation.py", "deployment.py", "template.py"):
        for node in ast.walk(ast.parse((RUNTIME / name).read_text())):
            if not isinstance(node, ast.Call) or len(node.args) < 2:
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            code = node.args[1]
            if called in ("add", "problem_at") and isinstance(code, ast.Constant):
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
