"""onespec.generator.review reads input (sources, git); no area of the generator that writes
outputs from the definitions may import it -- only ``onespec import``, which reads input too and
shares review's one reader of Nova's validator modules -- and the runtime reaches it only through
the lazily attached ``audit``, ``diff`` and ``import`` commands."""

from __future__ import annotations

import subprocess
import sys

from tests.test_import_cycles import imports


def test_no_other_generator_module_imports_review() -> None:
    graph = imports("onespec.generator")
    importers = {
        name
        for name, targets in graph.items()
        if not name.startswith(("onespec.generator.review", "onespec.generator.importer"))
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
