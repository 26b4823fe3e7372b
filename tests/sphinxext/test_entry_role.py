"""How ``:onespec:KIND-entry:`NAME <GROUP>``` reads its text: the same as the pattern it had, in
linear time (a line of 40,000 spaces once took 16 s through that pattern's backtracking)."""

from __future__ import annotations

import re
import time

from hypothesis import given
from hypothesis import strategies as st

from onespec.sphinxext.domain import entry_name_and_group

#: The pattern the role used to read its text with: the reference for what the text means.
PATTERN = re.compile(r"(?P<name>.+?)\s*<(?P<group>[^<>]*)>")


def by_pattern(text: str) -> tuple[str, str]:
    match = PATTERN.fullmatch(text.strip())
    return (match["name"], match["group"]) if match else (text.strip(), "")


def test_a_name_and_its_group():
    assert entry_name_and_group("HW_CPU_X86_AVX2 <trait>") == ("HW_CPU_X86_AVX2", "trait")
    assert entry_name_and_group("  a<b> <c>  ") == ("a<b>", "c")
    assert entry_name_and_group("name only") == ("name only", "")
    assert entry_name_and_group("<group only>") == ("<group only>", "")
    assert entry_name_and_group("a <b>c") == ("a <b>c", "")


@given(st.text(alphabet=st.sampled_from("ab <>\n\t\u00a0"), max_size=30))
def test_it_reads_every_text_as_the_pattern_did(text):
    assert entry_name_and_group(text) == by_pattern(text)


def test_a_long_run_of_spaces_costs_linear_time():
    hostile = "x" + " " * 40_000 + "y"
    started = time.process_time()
    for _ in range(10):
        assert entry_name_and_group(hostile) == (hostile, "")
    # Ten reads of 40,002 characters: milliseconds in linear time, minutes if quadratic.
    assert time.process_time() - started < 1.0
