"""The one shape of a problem, its JSON form, bounded quoting and the one "did you mean"."""

from __future__ import annotations

import difflib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onespec.validators_runtime.problems import (
    CUTOFF,
    NOWHERE,
    Location,
    Problem,
    Suggestions,
    closest,
    did_you_mean,
    folded,
    key_path_text,
    plain,
    shown,
)

POLICIES = ["cpu_policy", "cpu_thread_policy", "mem_page_size", "numa_nodes"]


# --- Location and Problem ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("location", "text"),
    [
        (Location("spec.yaml", 3, "packages[0].name"), "spec.yaml:3: packages[0].name"),
        (Location("spec.yaml", 3), "spec.yaml:3"),
        (Location("spec.yaml", path="a.b"), "spec.yaml: a.b"),
        (Location(line=7), "line 7"),
        (Location(line=7, path="/plugin_labels/x"), "line 7: /plugin_labels/x"),
        (Location(path="hw:cpu_policy"), "hw:cpu_policy"),
        (NOWHERE, ""),
    ],
)
def test_a_location_says_file_line_and_path_in_that_order(location, text):
    assert str(location) == text


def test_a_problem_is_shown_after_its_location_or_alone():
    where = Location("env.yaml", 2, "parameters.x")
    assert str(Problem("unknown-key", "No such key.", location=where)) == (
        "env.yaml:2: parameters.x: No such key."
    )
    assert str(Problem("unknown-key", "No such key.")) == "No such key."


def test_the_json_shape_has_every_member_in_the_documented_order():
    problem = Problem(
        "invalid-value",
        "Not a number.",
        severity="warning",
        location=Location("f.yaml", 4, "a[0]"),
        value="x",
        suggestion="1",
    )
    assert list(problem.to_dict().items()) == [
        ("code", "invalid-value"),
        ("severity", "warning"),
        ("message", "Not a number."),
        ("file", "f.yaml"),
        ("line", 4),
        ("path", "a[0]"),
        ("value", "x"),
        ("suggestion", "1"),
    ]


def test_an_unknown_part_of_the_location_is_null_in_json():
    data = Problem("c", "m").to_dict()
    assert (data["file"], data["line"], data["path"], data["value"]) == (None, None, None, None)


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(), st.lists, max_leaves=8))
def test_every_value_can_be_written_as_json(value):
    json.dumps(Problem("c", "m", value=value).to_dict())


# --- Bounded quoting -----------------------------------------------------------------------------


def test_a_short_string_is_quoted_whole_and_a_long_one_is_cut_with_its_length():
    assert shown("abc") == "'abc'"
    long = "x" * 10_000
    text = shown(long)
    assert len(text) < 400
    assert "10000 characters" in text


def test_a_huge_integer_is_never_turned_into_text():
    assert shown(10**5000) == "<an integer of more than 255 digits>"
    assert plain(10**5000) == "<an integer of more than 255 digits>"
    assert shown(-(10**300)).startswith("<an integer")


def test_deep_nesting_is_elided():
    value: list = []
    for _ in range(1000):
        value = [value]
    assert len(shown(value)) < 50


def test_plain_keeps_short_scalars_and_quotes_the_rest():
    assert [plain(v) for v in (None, True, 1.5, "a", 7)] == [None, True, 1.5, "a", 7]
    assert plain(["a"]) == "['a']"
    assert plain("y" * 1000).endswith("(1000 characters)")


# --- Did you mean --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("cpu_pollicy", "cpu_policy"),
        ("CPU_POLICY", "cpu_policy"),
        ("cpu-policy", "cpu_policy"),
        ("cpupolicy", "cpu_policy"),
        ("mem_page_sise", "mem_page_size"),
        ("quite_unrelated", None),
    ],
)
def test_closest_folds_case_and_separators_then_asks_difflib(word, expected):
    assert closest(word, POLICIES) == expected


def test_closest_ignores_what_is_not_a_string():
    assert closest(3, POLICIES) is None
    assert closest("cpu_policy", [3, None, "cpu_policy"]) == "cpu_policy"


def test_did_you_mean_is_a_sentence_or_nothing():
    assert did_you_mean("numa_node", POLICIES) == " Did you mean 'numa_nodes'?"
    assert did_you_mean("zzz", POLICIES) == ""


def test_folding_ignores_case_underscores_and_dashes():
    assert folded("HW_cpu-Policy") == "hwcpupolicy"


def test_suggestions_answer_as_closest_does_on_the_same_choices():
    index = Suggestions(POLICIES)
    for word in ("cpu_pollicy", "CPU-POLICY", "mem_page_sise", "numa_node", "quite_unrelated"):
        assert index.closest(word) == closest(word, POLICIES), word


def test_suggestions_find_the_same_folded_name_without_searching():
    index = Suggestions(POLICIES)
    assert index.same_folded("CPU-Thread-Policy") == "cpu_thread_policy"
    assert index.same_folded("cpu_pollicy") is None


def test_among_many_choices_the_first_of_two_folded_twins_wins():
    index = Suggestions(["foo_bar", "foobar", *(f"name_{n}" for n in range(5000))])
    assert index.closest("FOOBAR") == "foo_bar"


@given(st.text(alphabet="abcdefgh_", min_size=1, max_size=12))
def test_what_suggestions_propose_is_close_enough(word):
    choices = ["abc_def", "bad_cafe", "head_fed", "gab", "ef_gh_ab"]
    suggestion = Suggestions(choices).closest(word)
    if suggestion is not None and folded(suggestion) != folded(word):
        ratio = difflib.SequenceMatcher(None, suggestion, word, autojunk=False).ratio()
        assert ratio >= CUTOFF


@pytest.mark.parametrize(
    ("key_path", "text"),
    [
        (("configs", 1, "actions"), "configs[1].actions"),
        (("resource_registry", "OS::Nova::Server"), "resource_registry['OS::Nova::Server']"),
        ((0, "name"), "[0].name"),
        ((), ""),
        (("a", True, None), "a[True][None]"),
        (("x" * 400,), "['" + "x" * 300 + "'... (400 characters)]"),
    ],
)
def test_a_key_path_is_written_as_every_location_writes_it(key_path, text):
    assert key_path_text(key_path) == text
