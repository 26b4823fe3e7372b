"""The runtime is importable by services: it pulls in no documentation or generation tooling."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT

FORBIDDEN_ROOTS = {"sphinx", "docutils", "jinja2", "generator", "os_traits", "os_resource_classes"}


def imported_after(code: str) -> set[str]:
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(json.loads(result.stdout.splitlines()[-1]))


def offending(modules: set[str]) -> set[str]:
    bad = {m for m in modules if m.split(".")[0] in FORBIDDEN_ROOTS}
    bad |= {
        m
        for m in modules
        if m.startswith("definitions") and m not in {"definitions", "definitions.model"}
    }
    return bad


def test_importing_the_runtime_imports_no_tooling():
    modules = imported_after("import validators_runtime.extra_specs")
    assert "validators_runtime.extra_specs" in modules
    assert offending(modules) == set()


def test_validating_imports_no_tooling_either():
    modules = imported_after(
        "from validators_runtime.extra_specs import validate, ExtraSpecValidationError\n"
        "validate({'hw:cpu_policy': 'dedicated', 'trait:HW_CPU_X86_AVX2': 'required'})\n"
        "try:\n    validate({'hw:cpu_pollicy': 'x'})\n"
        "except ExtraSpecValidationError:\n    pass\n"
    )
    assert "validators_runtime._generated.extra_specs" in modules
    assert offending(modules) == set()


def test_the_generated_module_imports_nothing():
    import ast

    source = (ROOT / "validators_runtime" / "_generated" / "extra_specs.py").read_text()
    imports = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import | ast.ImportFrom)]
    assert imports == []


def test_the_service_imports_no_tooling_and_only_the_vocabulary_of_definitions():
    modules = imported_after(
        "from validators_runtime.api.app import create_app\n"
        "import validators_runtime.api.flavors, validators_runtime.api.plugins\n"
        "import validators_runtime.api.openapi, validators_runtime.api.cli\n"
        "import validators_runtime.plugins.cli, validators_runtime.plugins.policy\n"
    )
    assert "validators_runtime._generated.plugin_labels" in modules
    assert "validators_runtime._generated.api" in modules
    # Flask imports Jinja2 for its templates, which the service never renders: the one
    # exception, and only in the reference service, never in the validation runtime.
    assert {m for m in offending(modules) if m.split(".")[0] != "jinja2"} == set()


def test_the_label_runtime_needs_nothing_beyond_the_standard_library():
    modules = imported_after(
        "import validators_runtime.plugins.labels, validators_runtime.plugins.spi\n"
        "import validators_runtime.plugins.manager\n"
    )
    heavy = {"flask", "sqlalchemy", "oslo_policy", "oslo_context", "waitress", "alembic"}
    assert heavy & {m.split(".")[0] for m in modules} == {"sqlalchemy"}  # the store, by manager
    assert offending(modules) == set()
