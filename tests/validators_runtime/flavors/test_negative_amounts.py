"""Negative ``resources`` amounts: Nova stores them and its scheduler skips them. onespec takes
them, as Nova's API does, and ``validate flavor`` warns, saying what is asked for instead; both
halves are checked against Nova 34.0.0's own code."""

from __future__ import annotations

import pytest

from onespec import validate
from onespec.validators_runtime.flavors import validate_flavor
from tests import peers

FLAVOR = {"vcpus": 2, "ram": 1024, "disk": 1}


def flavor(**specs: str) -> dict:
    return {**FLAVOR, "extra_specs": specs}


@pytest.mark.parametrize("key", ["resources:CUSTOM_FOO", "resources:VCPU", "resources1:VGPU"])
def test_the_per_key_check_takes_a_negative_amount_as_novas_api_does(key):
    assert validate({key: "-1"}) == []


def test_novas_scheduler_skips_a_negative_amount_as_the_warnings_say():
    cases = [
        flavor(**{"resources:CUSTOM_FOO": "-1"}),
        flavor(**{"resources:VCPU": "-1"}),
        flavor(**{"resources1:MEMORY_MB": "-5"}),
        flavor(**{"resources:CUSTOM_FOO": "3"}),
    ]
    asked = peers.run_script("nova", "nova_flavor_checks.py", "--resources", stdin=cases)
    assert "CUSTOM_FOO" not in asked[0]
    assert asked[1]["VCPU"] == 2  # the flavor's vcpus, as the warning says
    assert asked[2]["MEMORY_MB"] == 1024  # the flavor's ram
    assert asked[3]["CUSTOM_FOO"] == 3  # a positive amount is asked for as written
    messages = [
        [f.message for f in validate_flavor(case) if f.code == "negative-resource-amount"]
        for case in cases
    ]
    assert "no CUSTOM_FOO is asked for" in messages[0][0]
    assert "the flavor's vcpus (2) is asked for" in messages[1][0]
    assert "the flavor's ram (1024) is asked for" in messages[2][0]
    assert messages[3] == []


def test_the_warning_is_not_a_refusal_and_names_the_key():
    (finding,) = validate_flavor(flavor(**{"resources:CUSTOM_FOO": "-1"}))
    assert (finding.severity, finding.phase, finding.keys) == (
        "warning",
        "scheduler",
        ("resources:CUSTOM_FOO",),
    )
    assert finding.to_dict()["path"] == "resources:CUSTOM_FOO"


@pytest.mark.parametrize("value", ["-0", "0", "2", "-", "--1", "-" + "9" * 300, "-\u0663"])
def test_only_a_negative_integer_is_warned_about(value):
    codes = [f.code for f in validate_flavor(flavor(**{"resources:CUSTOM_FOO": value}))]
    assert ("negative-resource-amount" in codes) == (value == "-\u0663")
