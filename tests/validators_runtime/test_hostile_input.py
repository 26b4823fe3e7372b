"""Input built to hurt: what validate() and `onespec validate extra-specs` do with it.

Every case ends in findings or a usage error, never a traceback, and the cost of a request does
not grow with how many unknown keys it holds beyond a small, documented number of suggestions.
"""

from __future__ import annotations

import json
import sys
import time

import pytest
from click.testing import CliRunner

from onespec.validators_runtime import extra_specs
from onespec.validators_runtime.cli import cli
from onespec.validators_runtime.extra_specs import ExtraSpecValidationError, validate

HUGE = 10**5000  # more digits than str() may convert (sys.int_info.str_digits_check_threshold)


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def cpu_seconds(work):
    """The processor time ``work()`` takes, and what it returned.

    Processor time, not wall time: on a loaded machine a test waits for a core for as long as
    the others keep it, which says nothing about the work; the processor time it spends does.
    """
    started = time.process_time()
    result = work()
    return time.process_time() - started, result


def findings_of(specs, mode="strict"):
    with pytest.raises(ExtraSpecValidationError) as raised:
        validate(specs, mode=mode)
    return raised.value.findings


@pytest.mark.parametrize("key", ["hw:numa_nodes", "hw:cpu_policy", "hw:unknown_thing"])
def test_an_integer_too_long_to_print_is_a_finding(key):
    findings = findings_of({key: HUGE})
    assert {finding.key for finding in findings} == {key}
    # The value is refused for every key; an unknown key is reported as well.
    assert "invalid-value" in {finding.code for finding in findings}
    assert {finding.code for finding in findings} <= {"invalid-value", "unknown-key"}
    json.dumps([f.to_dict() for f in findings_of({key: HUGE})])  # printable as JSON too


def test_an_integer_too_long_to_print_is_longer_than_any_value():
    (finding,) = findings_of({"hw:numa_nodes": HUGE})
    assert finding.code == "invalid-value"
    assert "longer than 255 characters" in finding.message
    assert len(finding.message) < 400


def test_a_deeply_nested_value_is_a_finding():
    (finding,) = findings_of({"hw:cpu_policy": nested(sys.getrecursionlimit() * 2)})
    assert finding.code == "invalid-value"
    assert "not a string" in finding.message
    assert len(json.dumps(finding.to_dict())) < 1000


def test_a_deeply_nested_key_is_a_finding():
    key = ()
    for _ in range(sys.getrecursionlimit() * 2):
        key = (key,)
    (finding,) = findings_of({key: "x"})
    assert finding.code == "invalid-key"
    assert len(json.dumps(finding.to_dict())) < 1000


def test_only_the_first_unknown_keys_get_a_searched_suggestion():
    limit = extra_specs.MAX_SUGGESTIONS
    specs = {f"hw:cpu_polic{i:06d}": "dedicated" for i in range(limit + 5)}
    specs["hw:CPU_POLICY"] = "dedicated"
    findings = findings_of(specs)
    searched = [f for f in findings[:limit] if f.suggestion is not None]
    assert len(searched) == limit  # every one of the first N is searched (and finds one)
    # After N, a key still gets the suggestion an index answers at once (case), no search.
    assert [f.suggestion for f in findings[limit:]] == [None] * 5 + ["hw:cpu_policy"]


def test_the_cost_of_unknown_keys_does_not_grow_with_suggestions():
    specs = {f"hw:cpu_thread_polic{i:06d}": "dedicated" for i in range(100_000)}
    spent, findings = cpu_seconds(lambda: findings_of(specs))
    assert len(findings) == 100_000
    # About 0.3 s of processor time on a quiet machine, 0.7-0.9 s on two busy cores; a
    # did-you-mean search per key took about 18 s.
    assert spent < 3.0, spent


# --- The command line ----------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_deeply_nested_file_is_a_usage_error(tmp_path, suffix):
    depth = 100_000
    path = tmp_path / f"specs{suffix}"
    path.write_text('{"hw:cpu_policy": ' + "[" * depth + "]" * depth + "}")
    result = CliRunner().invoke(cli, ["validate", "extra-specs", "--file", str(path)])
    assert result.exit_code == 2, result.output
    # JSON: Python's parser recurses and says so; YAML: the counting loader (or libyaml's own
    # flow limit) refuses the nesting with its line.
    assert "nested too deeply" in result.output or "nesting depth" in result.output
    assert path.name in result.output
    assert not isinstance(result.exception, RecursionError)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("hw:cpu_policy:\n  " + "- " * 3000 + "x\n", "nested more than"),
        (
            "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
            + "".join(
                f"a{n}: &a{n} [" + ",".join([f'{{"k":*a{n - 1}}}'] * 9) + "]\n"
                for n in range(1, 12)
            ),
            "alias bomb",
        ),
    ],
    ids=["deep block nesting", "flow alias bomb"],
)
def test_a_hostile_yaml_file_is_a_located_usage_error(tmp_path, text, words):
    path = tmp_path / "specs.yaml"
    path.write_text(text)
    spent, result = cpu_seconds(
        lambda: CliRunner().invoke(cli, ["validate", "extra-specs", "--file", str(path)])
    )
    assert spent < 1.0, spent
    assert result.exit_code == 2, result.output
    assert words in result.output and f"{path.name}:" in result.output, result.output


def test_a_file_with_a_huge_integer_gives_a_finding(tmp_path):
    path = tmp_path / "specs.json"
    path.write_text('{"hw:numa_nodes": ' + "9" * 5000 + "}")
    result = CliRunner().invoke(
        cli, ["validate", "extra-specs", "--file", str(path), "--format", "json"]
    )
    assert result.exit_code == 1, result.output
    (finding,) = json.loads(result.output)["findings"]
    assert finding["code"] == "invalid-value"
