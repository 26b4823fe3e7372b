"""onespec.generator.review reads input (sources, git); no other area of the generator may import
it,
and the runtime reaches it only through the lazily attached ``audit`` and ``diff`` commands."""

from __future__ import annotations

import subprocess
import sys

from tests.test_import_cycles import imports


def test_no_other_generator_module_imports_review() -> None:
    graph = imports("onespec.generator")
    importers = {
        name
        for name, targets in graph.items()
        if not name.startswith("onespec.generator.review")
        and any(t.startswith("onespec.generator.review") for t in targets)
    }
    assert importers == set()


def test_the_cli_imports_review_only_when_a_review_command_runs() -> None:
    code = (
        "import sys, onespec.validators_runtime.cli, onespec.validators_runtime.extra_specs;"
        "print(any(m.startswith('onespec.generator.review') for m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
