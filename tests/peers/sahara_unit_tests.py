"""Sahara's own unit tests of its image module, run against onespec's compatibility module.

Runs in the ``sahara-tests`` environment (Sahara with oslotest, which its test base imports).
``sahara.plugins.images`` is pointed at ``onespec.validators_runtime.images.sahara`` (a
``sys.modules`` swap: no file of Sahara changes), then
``sahara/tests/unit/plugins/test_images.py`` -- the installed file, imports unchanged -- is
loaded and run with unittest. Prints ``{"tests": {NAME: {"outcome": ..., "detail": ...}}}``;
with ``--original`` the swap is left out, to show the same tests pass on Sahara's own module.
"""

import io
import json
import sys
import unittest
import warnings
from pathlib import Path

warnings.simplefilter("ignore")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))  # onespec, from this checkout

import sahara.plugins  # noqa: E402


def swap() -> None:
    """Make ``from sahara.plugins import images`` give onespec's compatibility module."""
    from onespec.validators_runtime.images import sahara as compat

    sys.modules["sahara.plugins.images"] = compat
    sahara.plugins.images = compat


def _flatten(suite):
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from _flatten(item)
        else:
            yield item


def main() -> None:
    if "--original" not in sys.argv:
        swap()
    from sahara.tests.unit.plugins import test_images

    tests = list(_flatten(unittest.defaultTestLoader.loadTestsFromModule(test_images)))
    outcomes = {test.id().rsplit(".", 1)[-1]: {"outcome": "passed", "detail": ""} for test in tests}
    runner = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0)
    result = runner.run(unittest.TestSuite(tests))
    for kind, items in (("failed", result.failures), ("error", result.errors)):
        for test, trace in items:
            last = [line for line in trace.strip().splitlines() if line.strip()][-1]
            outcomes[test.id().rsplit(".", 1)[-1]] = {"outcome": kind, "detail": last}
    json.dump({"module": test_images.images.__name__, "tests": outcomes}, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
