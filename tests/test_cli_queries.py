"""The template-capabilities queries on TripleO's released tree, as an operator runs them.

``tripleo-heat-templates`` 18.0.0 ships environments that Heat itself refuses (an empty
``parameter_defaults``): a scan of the tree exits 1 for them, rightly, and ``--skip-invalid``
lists them on standard error and leaves them out, so that the query answers with exit 0.
"""

from __future__ import annotations

import subprocess

import pytest

from tests import peers
from tests.commands import onespec
from tests.validators_runtime.heat.template_capabilities.test_tripleo import REFUSED, SOURCE

pytestmark = [pytest.mark.peers]


def choices(*options: str) -> subprocess.CompletedProcess[str]:
    return onespec(
        "template-capabilities", "choices", "-r", "--no-cache", *options, "environments",
        cwd=SOURCE.location,
    )  # fmt: skip


def test_skip_invalid_answers_on_the_real_tree_and_lists_what_heat_refuses():
    peers.require("tripleo-heat-templates")
    strict = choices()
    assert strict.returncode == 1
    skipping = choices("--skip-invalid")
    assert skipping.returncode == 0, skipping.stderr
    assert skipping.stdout == strict.stdout and "implementations" in skipping.stdout
    skipped = sorted(
        line.removeprefix("Warning: skipped ").split(":")[0]
        for line in skipping.stderr.splitlines()
    )
    assert skipped == sorted(REFUSED)
    assert [line for line in strict.stderr.splitlines() if line.startswith("Error: ")] == [
        line.replace("Warning: skipped ", "Error: ") for line in skipping.stderr.splitlines()
    ]
