"""The shared case file through Nova's own ``validators.validate``: a fourth engine.

Nova's verdicts are coarser than onespec's -- it accepts, refuses a value, or refuses a key -- so
``valid`` and ``deprecated`` both read as accepted and ``invalid-key`` has no counterpart. Every
case on which the two part ways must be one of ``onespec.definitions.nova_differences``, and every
case listed there must still differ: a fixed difference cannot linger in the docs.
"""

from __future__ import annotations

import pytest

from onespec.definitions.nova_differences import DIFFERENCES, NOVA_VERSION, covered_cases
from tests import peers
from tests.validators_runtime.test_cases import CASE_LIST

#: onespec's verdict, as Nova would say it.
AS_NOVA = {
    "valid": "accepted",
    "deprecated": "accepted",
    "invalid-value": "invalid-value",
    "unknown-key": "unknown-key",
    "invalid-key": "invalid-key",
}


@pytest.fixture(scope="module")
def nova_verdicts() -> dict[tuple[str, str], dict[str, str]]:
    pairs = [[case["key"], case["value"]] for case in CASE_LIST]
    verdicts = peers.run_script("nova", "nova_extra_specs.py", "validate", stdin=pairs)
    return {(key, value): verdict for (key, value), verdict in zip(pairs, verdicts, strict=True)}


def disagreements(nova_verdicts) -> dict[tuple[str, str], tuple[str, str]]:
    found = {}
    for case in CASE_LIST:
        ours = AS_NOVA[case["expect"]]
        theirs = nova_verdicts[(case["key"], case["value"])]["verdict"]
        if ours != theirs:
            found[(case["key"], case["value"])] = (ours, theirs)
    return found


def test_every_disagreement_with_nova_is_a_listed_difference(nova_verdicts):
    unexplained = {
        case: verdicts
        for case, verdicts in disagreements(nova_verdicts).items()
        if case not in covered_cases()
    }
    assert unexplained == {}


def test_every_listed_difference_still_differs(nova_verdicts):
    stale = sorted(set(covered_cases()) - set(disagreements(nova_verdicts)))
    assert stale == []


def test_every_listed_case_is_in_the_case_file():
    cases = {(case["key"], case["value"]) for case in CASE_LIST}
    assert sorted(set(covered_cases()) - cases) == []


def test_nova_agrees_on_most_of_the_case_file(nova_verdicts):
    agree = len(CASE_LIST) - len(disagreements(nova_verdicts))
    # The figure the docs quote: read it from here when the case file grows.
    assert agree / len(CASE_LIST) > 0.9, agree


def test_nova_words_its_refusals_as_its_clients_expect(nova_verdicts):
    refused = [v for v in nova_verdicts.values() if v["verdict"] != "accepted"]
    assert refused
    assert all(v["message"].startswith("Validation failed; ") for v in refused)


def test_differences_are_described():
    assert NOVA_VERSION == "34.0.0"
    for difference in DIFFERENCES:
        assert difference.title and difference.nova and difference.onespec and difference.why
        assert difference.cases, difference.title
