"""The runtime against the shared case file that every engine is checked with."""

from __future__ import annotations

import pytest
import yaml

from onespec.validators_runtime.extra_specs import ExtraSpecValidationError, validate
from tests.conftest import CASES

VERDICTS = {"valid", "deprecated", "invalid-value", "unknown-key", "invalid-key"}


def load_cases() -> list[dict[str, str]]:
    cases = yaml.safe_load((CASES / "extra_specs.yaml").read_text(encoding="utf-8"))
    for number, case in enumerate(cases):
        assert set(case) == {"key", "value", "expect"}, f"case {number} has keys {sorted(case)}"
        assert isinstance(case["key"], str) and isinstance(case["value"], str), case
        assert case["expect"] in VERDICTS, case
    return cases


CASE_LIST = load_cases()


def verdict(key: str, value: str) -> str:
    """The strict-mode verdict on the key on its own (as Nova's validators give it, which the
    case file holds): the first error's code, else the first warning's, else valid."""
    try:
        warnings = validate({key: value}, mode="strict", between_keys=False)
    except ExtraSpecValidationError as exc:
        return exc.errors[0].code
    return warnings[0].code if warnings else "valid"


@pytest.mark.parametrize("case", CASE_LIST, ids=[f"{c['key']}={c['value']}" for c in CASE_LIST])
def test_runtime_agrees_with_the_case_file(case):
    assert verdict(case["key"], case["value"]) == case["expect"]


def test_the_case_file_covers_every_verdict():
    assert {case["expect"] for case in CASE_LIST} == VERDICTS


def test_permissive_mode_only_relaxes_unknown_keys():
    for case in CASE_LIST:
        try:
            validate({case["key"]: case["value"]}, mode="permissive", between_keys=False)
            accepted = True
        except ExtraSpecValidationError:
            accepted = False
        assert accepted == (case["expect"] in {"valid", "deprecated", "unknown-key"}), case


def test_off_mode_accepts_every_case_but_keys_nova_cannot_store():
    for case in CASE_LIST:
        if case["expect"] == "invalid-key":
            with pytest.raises(ExtraSpecValidationError):
                validate({case["key"]: case["value"]}, mode="off")
        else:
            assert validate({case["key"]: case["value"]}, mode="off") == []


def test_one_call_reports_every_case_at_once():
    specs = {}
    expected = {}
    for case in CASE_LIST:
        if case["key"] not in specs:
            specs[case["key"]] = case["value"]
            expected[case["key"]] = case["expect"]
    with pytest.raises(ExtraSpecValidationError) as caught:
        validate(specs, between_keys=False)
    reported = {}
    for finding in caught.value.findings:
        reported.setdefault(finding.key, finding.code)
    for key, expect in expected.items():
        if expect == "valid":
            assert key not in reported
        else:
            assert reported.get(key) == expect, key
