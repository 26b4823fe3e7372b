"""The runtime is importable by services: it pulls in no documentation or generation tooling."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import PACKAGE, ROOT

FORBIDDEN_ROOTS = {
    "sphinx",
    "docutils",
    "jinja2",
    "onespec.generator",
    "onespec.sphinxext",
    "os_traits",
    "os_resource_classes",
}


def imported_after(code: str) -> set[str]:
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(json.loads(result.stdout.splitlines()[-1]))


#: The stdlib-only modules of the definitions the runtime may import.
VOCABULARY = {
    "onespec.definitions.model",
    "onespec.definitions.nova_shape",
    "onespec.definitions.entry_points",
    "onespec.definitions.key_templates",
}


def offending(modules: set[str]) -> set[str]:
    bad = {m for m in modules if any(m == r or m.startswith(f"{r}.") for r in FORBIDDEN_ROOTS)}
    bad |= {m for m in modules if m.startswith("onespec.definitions.") and m not in VOCABULARY}
    return bad


def test_importing_the_runtime_imports_no_tooling():
    modules = imported_after("import onespec.validators_runtime.extra_specs")
    assert "onespec.validators_runtime.extra_specs" in modules
    assert offending(modules) == set()


def test_validating_imports_no_tooling_either():
    modules = imported_after(
        "from onespec.validators_runtime.extra_specs import validate, ExtraSpecValidationError\n"
        "validate({'hw:cpu_policy': 'dedicated', 'trait:HW_CPU_X86_AVX2': 'required'})\n"
        "try:\n    validate({'hw:cpu_pollicy': 'x'})\n"
        "except ExtraSpecValidationError:\n    pass\n"
    )
    assert "onespec.validators_runtime._generated.extra_specs" in modules
    assert offending(modules) == set()


def test_the_generated_module_imports_nothing():
    import ast

    source = (PACKAGE / "validators_runtime" / "_generated" / "extra_specs.py").read_text()
    imports = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import | ast.ImportFrom)]
    assert imports == []


def test_the_service_imports_no_tooling_and_only_the_facts_it_serves():
    modules = imported_after(
        "from onespec.validators_runtime.service.app import create_app\n"
        "import onespec.validators_runtime.service.routes.flavors\n"
        "import onespec.validators_runtime.service.routes.plugin_labels\n"
        "import onespec.validators_runtime.service.openapi\n"
        "import onespec.validators_runtime.service.cli\n"
        "import onespec.validators_runtime.service.client\n"
        "import onespec.validators_runtime.service.policy\n"
    )
    assert "onespec.validators_runtime._generated.plugin_labels" in modules
    assert "onespec.validators_runtime._generated.api" in modules
    # The policy rules are facts of src/onespec/definitions/ (stdlib only), read as they are.
    assert "onespec.definitions.policy" in modules
    bad = offending(modules) - {"onespec.definitions.policy"}
    # Flask imports Jinja2 for its templates, which the service never renders: the one
    # exception, and only in the reference service, never in the validation runtime.
    assert {m for m in bad if m.split(".")[0] != "jinja2"} == set()


HEAVY = {"flask", "sqlalchemy", "oslo_policy", "oslo_context", "oslo_config", "waitress"}
HEAVY |= {"alembic", "jinja2", "werkzeug", "psycopg"}


def test_the_label_runtime_needs_nothing_beyond_the_standard_library():
    modules = imported_after(
        "import onespec.validators_runtime.plugin_labels\n"
        "import onespec.validators_runtime.plugin_labels.labels\n"
        "import onespec.validators_runtime.plugin_labels.spi\n"
        "import onespec.validators_runtime.plugin_labels.manager\n"
        "import onespec.validators_runtime.plugin_labels.store\n"
        "from onespec.validators_runtime.plugin_labels.fake import PLUGIN\n"
        "from onespec.validators_runtime.plugin_labels.manager import LabelManager\n"
        "from onespec.validators_runtime.plugin_labels.spi import plugin_info\n"
        "manager = LabelManager([plugin_info(PLUGIN)])\n"
        "manager.check_cluster_operation('p', 'fake', '0.1', 'create')\n"
    )
    assert HEAVY & {m.split(".")[0] for m in modules} == set()
    assert offending(modules) == set()


def test_the_extra_spec_runtime_loads_no_service_library():
    modules = imported_after(
        "import onespec.validators_runtime.extra_specs\n"
        "onespec.validators_runtime.extra_specs.validate({'hw:cpu_policy': 'dedicated'})\n"
    )
    assert HEAVY & {m.split(".")[0] for m in modules} == set()


def test_the_image_filter_runs_on_the_standard_library_alone():
    """The paste filters run inside glance-api's and nova-api's own environments, which have
    neither click nor onespec's extras: loading one and checking a write imports nothing but
    the standard library and the runtime."""
    modules = imported_after(
        "import io, json\n"
        "from onespec.validators_runtime.middleware.images import filter_factory\n"
        "def app(environ, start_response):\n"
        "    start_response('201 Created', [])\n"
        "    return [b'']\n"
        "body = json.dumps({'hw_cpu_policy': 'dedicatd', 'hw_cpu_polcy': 'x'}).encode()\n"
        "environ = {'REQUEST_METHOD': 'POST', 'PATH_INFO': '/v2/images',\n"
        "           'CONTENT_LENGTH': str(len(body)), 'wsgi.input': io.BytesIO(body)}\n"
        "list(filter_factory({})(app)(environ, lambda *args: None))\n"
    )
    assert "onespec.validators_runtime.middleware.images" in modules
    at_start = imported_after("pass")  # what the interpreter itself loads (site, __main__)
    outside = {
        m
        for m in modules - at_start
        if m.split(".")[0] not in sys.stdlib_module_names and m.split(".")[0] != "onespec"
    }
    assert outside == set()
    assert offending(modules) == set()
    # Loading the image filter loads no other filter.
    assert not [
        m
        for m in modules
        if m.startswith("onespec.validators_runtime.middleware.")
        and m.rsplit(".", 1)[1] not in ("common", "images")
    ]
