"""Digit strings that are not numbers: ``²`` and ``①`` are digits to ``str.isdigit`` and not to
int(), and a page size of 5,000 digits is past what int() reads. Stored in a flavor (through an
older microversion, or with validation off), each once raised out of the whole-flavor check: a
500 in the service, a traceback in ``validate flavor`` and the end of a ``validate fleet`` run."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onespec.validators_runtime.flavor_parts.cpusets import page_size
from onespec.validators_runtime.flavor_parts.inputs import read_flavor
from onespec.validators_runtime.flavors import validate_flavor
from onespec.validators_runtime.inputs import InputError

HOSTILE = ["²", "①", "½", "9" * 5000, "1" * 30 + "KiB", "٢٠٤٨", "２０４８", "²MiB"]


def _flavor(**specs: str) -> dict:
    return {"name": "x", "vcpus": 2, "ram": 2048, "disk": 10, "extra_specs": specs}


@pytest.mark.parametrize("value", HOSTILE)
def test_a_page_size_of_any_digits_is_judged_never_raised(value):
    findings = validate_flavor(_flavor(**{"hw:mem_page_size": value}))
    assert all(finding.message for finding in findings)
    image = {"properties": {"hw_mem_page_size": value}}
    validate_flavor(_flavor(**{"hw:mem_page_size": "any"}), image)


def test_decimal_digits_of_any_script_are_read_as_int_reads_them():
    """As Nova reads them: int() takes every script's decimal digits."""
    assert page_size("٢٠٤٨") == page_size("２０４８") == page_size("2048") == 2048
    assert page_size("²") is None and page_size("①") is None and page_size("9" * 5000) is None


@given(st.text(alphabet=st.sampled_from("0123456789²①½٣ KMGiBbt-+."), max_size=40))
def test_page_size_never_raises(text):
    size = page_size(text)
    assert size is None or isinstance(size, int | float)


@pytest.mark.parametrize("value", ["²", "①"])
def test_a_size_spelt_with_such_digits_is_a_refusal_naming_the_field(value):
    with pytest.raises(InputError, match=r"flavor\.ram must be a whole number"):
        read_flavor({"vcpus": 2, "ram": value, "disk": 1})
