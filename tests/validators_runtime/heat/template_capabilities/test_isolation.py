"""The template-capabilities runtime imports no tooling and no definitions: it reads only the
generated literals."""

from __future__ import annotations

from tests.conftest import ROOT
from tests.validators_runtime.test_isolation import imported_after, offending


def test_the_runtime_imports_no_tooling(tmp_path):
    environment = tmp_path / "env.yaml"
    environment.write_text("resource_registry: {OS::X: OS::Heat::None}\n")
    modules = imported_after(
        "import onespec.validators_runtime.heat.template_capabilities as api\n"
        "import onespec.validators_runtime.heat.template_capabilities.cli\n"
        f"api.find([{str(ROOT / 'tests' / 'heat' / 'data')!r}], {{'a': 'b'}}, recursive=True,"
        " cache=False)\n"
        f"api.resolve([{str(environment)!r}])\n"
    )
    assert "onespec.validators_runtime._generated.template_capabilities" in modules
    assert offending(modules) == set()
    assert "onespec.definitions.template_capabilities" not in modules
