"""The one reader of Nova's validator modules is bounded: hostile modules cost little.

``onespec import nova``, ``onespec audit --catalogue nova`` and ``onespec diff nova:PATH`` read
modules they are pointed at; a small module must not make them fold exponentially large values,
recurse past Python's limit, or follow a name defined through itself.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from onespec.generator.review import nova_catalogue
from onespec.validators_runtime.cli import cli
from tests.generator.review.conftest import write_tree

PACKAGE = "nova/api/validation/extra_specs"
VALIDATOR = (
    "EXTRA_SPEC_VALIDATORS = [base.ExtraSpecValidator(\n"
    "    name='acme:x', description={description}, value={{'type': str}})]\n"
)


def tree(root: Path, module: str) -> Path:
    return write_tree(
        root,
        {
            f"{PACKAGE}/__init__.py": "",
            f"{PACKAGE}/base.py": "",
            f"{PACKAGE}/validators.py": "",
            # An encoding declaration counts on the first line only.
            f"{PACKAGE}/acme.py": module
            if module.startswith("#")
            else "from nova.api.validation.extra_specs import base\n" + module,
        },
    )


def doubling(steps: int) -> str:
    """``A0 = 16 characters``, each ``A_i = A_{i-1} + A_{i-1}``: 16 * 2**steps characters."""
    lines = ["A0 = 'xxxxxxxxxxxxxxxx'"]
    lines += [f"A{i} = A{i - 1} + A{i - 1}" for i in range(1, steps + 1)]
    return "\n".join(lines) + "\n" + VALIDATOR.format(description=f"A{steps}")


def _peak_bytes(read) -> tuple[object, int]:
    tracemalloc.start()
    try:
        result = read()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_exponential_folding_is_memoised_and_capped(tmp_path):
    root = tree(tmp_path, doubling(40))
    catalogue, peak = _peak_bytes(lambda: nova_catalogue.load(root))
    # Before: MemoryError at 2 GB (import nova), minutes of CPU (audit, diff).
    assert peak < 20 * 1024 * 1024
    (definition,) = catalogue.definitions
    assert definition.description == ""
    (note,) = catalogue.notes
    assert note.location.file.endswith("acme.py") and "more than 100000 characters" in note.message


def test_a_small_doubling_still_folds(tmp_path):
    (definition,) = nova_catalogue.load(tree(tmp_path, doubling(3))).definitions
    assert definition.description == "x" * 128


@pytest.mark.parametrize(
    ("module", "message"),
    [
        ("X = " + " + ".join(["'a'"] * 1500) + "\n" + VALIDATOR.format(description="X"), "nested"),
        ("A = B\nB = A\n" + VALIDATOR.format(description="A"), "defined through itself"),
        (VALIDATOR.format(description="'{:>999999999}'.format('x')"), "format spec"),
    ],
)
def test_hostile_values_are_notes_with_their_file(tmp_path, module, message):
    catalogue, peak = _peak_bytes(lambda: nova_catalogue.load(tree(tmp_path, module)))
    assert peak < 20 * 1024 * 1024
    assert any(
        note.location.file.endswith("acme.py") and message in note.message
        for note in catalogue.notes
    ), catalogue.notes


@pytest.mark.parametrize(
    "module",
    [
        "Y = " + "+".join(["a"] * 3000) + "\n",
        "print 'python 2'\n",
        "# -*- coding: klingon -*-\n",
        "X = 1\x00\n",
    ],
    ids=["nested", "python-2", "encoding", "nul"],
)
def test_a_module_that_is_not_python_stops_the_read_naming_it(tmp_path, module):
    """Its keys would be missing from every verdict: no command goes on without them."""
    with pytest.raises(nova_catalogue.NovaTreeError) as caught:
        _peak_bytes(lambda: nova_catalogue.load(tree(tmp_path, module)))
    assert caught.value.location.file.endswith("acme.py")
    assert "not readable as Python" in str(caught.value)


@pytest.mark.parametrize("command", ["import", "audit", "diff"])
def test_every_command_reading_nova_survives_the_doubling(tmp_path, command):
    root = tree(tmp_path / "src", doubling(40))
    arguments = {
        "import": ["import", "nova", str(root), "--package", "x", "--output", str(tmp_path / "o")],
        "audit": ["audit", "--catalogue", "nova", str(root)],
        "diff": ["diff", f"nova:{root}", f"nova:{root}"],
    }[command]
    result = CliRunner().invoke(cli, arguments)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1), result.output
