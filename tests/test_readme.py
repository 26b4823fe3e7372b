"""The README's Python session runs as shown (its commands: tests/test_doc_blocks.py)."""

from __future__ import annotations

import doctest
import re

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
#: Printed after each command where a runner splits a session into the outputs of commands.
MARK = "@@onespec-readme@@"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def test_the_python_tour_runs_as_shown():
    (block,) = blocks("pycon")
    test = doctest.DocTestParser().get_doctest(block, {}, "README.md", str(ROOT / "README.md"), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0
