"""Hostile specs cost little and end in a located error, never a traceback.

Each input runs through ``onespec image check`` in a child process capped at 1 GiB of address
space and 20 seconds, so that a regression fails the test instead of exhausting the machine;
the test then holds it to the budget: under 200 MB, an error naming the file, and no
traceback. The time budget (1 second) is ``make bench``'s (``benchmarks/images.py``), where a
loaded machine does not make it flaky; here the loader's work is bounded by counting calls.
"""

from __future__ import annotations

import cProfile
import pstats
from pathlib import Path

import pytest

from onespec.validators_runtime.images import (
    ImageArgumentError,
    ImageValidationError,
    ImageValidationSpecificationError,
    LocalRemote,
)
from onespec.validators_runtime.images.reading import MAX_SPEC_SIZE
from onespec.validators_runtime.images.root import loads
from tests.commands import ONESPEC
from tests.measure import run_capped

MEGABYTES = 200


def _bomb(levels: int, width: int) -> str:
    lines = ["a0: &a0 [" + ", ".join(["x"] * width) + "]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]" for i in range(1, levels)]
    body = "\n".join("      " + line for line in lines)
    return (
        "arguments:\n  x:\n    description: d\n    default: y\n    bomb:\n"
        f"{body}\nvalidators:\n  - package: curl\n"
    )


def _package_bomb() -> str:
    lines = ["x: &a0 [" + ",".join(["curl"] * 9) + "]"]
    lines += [f"x{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    return "\n".join(lines) + "\nvalidators:\n  - package: *a8\n"


def _deep_all(depth: int) -> str:
    nested = "".join("  " * (i + 1) + "- all:\n" for i in range(depth))
    return "validators:\n" + nested + "  " * (depth + 1) + "- package: curl\n"


def _many_packages(count: int) -> str:
    return "validators:\n  - package:\n" + "".join(f"      - pkg{i}\n" for i in range(count))


HOSTILE = {
    "alias bomb": (_bomb(9, 9), "alias"),
    "alias bomb of packages": (_package_bomb(), "alias"),
    "100-deep all": (_deep_all(100), "nest"),
    "5000-deep lists": ("validators: " + "[" * 5000 + "]" * 5000 + "\n", "nest"),
    "self-referencing alias": ("validators: &v\n  - all: *v\n", "refers to itself"),
    "self-referencing alias elsewhere": ("x: &v [*v]\nvalidators: []\n", "refers to itself"),
    "NUL in a default": (
        'arguments:\n  x:\n    description: d\n    default: "a\\0b"\n'
        'validators:\n  - script: {s: {inline: "true", env_vars: [x]}}\n',
        "NUL",
    ),
    "over the size limit": (
        "validators:\n  - package: curl\n" + "#" * (MAX_SPEC_SIZE + 1) + "\n",
        "over the limit of",
    ),
}


def _check(path: Path) -> tuple[float, float, int, str]:
    """``onespec image check PATH``, capped: CPU seconds, peak MB, exit status, output."""
    measured = run_capped([str(ONESPEC), "image", "check", str(path)])
    return measured.seconds, measured.megabytes, measured.status, measured.output


@pytest.mark.parametrize("label", list(HOSTILE))
def test_a_hostile_spec_is_refused_cheaply_with_a_located_error(tmp_path, label):
    text, words = HOSTILE[label]
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    _, megabytes, status, output = _check(path)
    assert "Traceback" not in output, output[-2000:]
    # A file over the size limit is refused before it is read, as one that cannot be read (2).
    assert status == (2 if label == "over the size limit" else 1), output[-2000:]
    assert str(path) in output
    assert words in output
    assert megabytes < MEGABYTES, f"{label}: {megabytes:.0f} MB"


def _load_calls(count: int) -> int:
    """Python function calls made to load a spec of ``count`` packages: the loader's work,
    the same on any machine however loaded (the time it takes is ``make bench``'s)."""
    text = _many_packages(count)
    profile = cProfile.Profile()
    profile.enable()
    spec = loads(text, file="many.yaml")
    profile.disable()
    assert len(spec.packages()) == count
    return sum(calls for calls, *_ in pstats.Stats(profile).stats.values())


def test_loading_packages_costs_work_linear_in_their_number():
    small, large = _load_calls(2_000), _load_calls(8_000)
    # Four times the packages: about four times the calls (quadratic would be sixteen).
    assert large < 4.5 * small, f"2,000: {small:,} calls, 8,000: {large:,} calls"


def test_forty_thousand_packages_check_within_the_memory_budget(tmp_path):
    path = tmp_path / "many.yaml"
    path.write_text(_many_packages(40_000), encoding="utf-8")
    _, megabytes, status, output = _check(path)
    assert status == 0, output[-2000:]
    assert "valid" in output
    assert megabytes < MEGABYTES, f"{megabytes:.0f} MB"


def test_the_loader_names_the_line_of_an_alias_bomb():
    with pytest.raises(ImageValidationSpecificationError) as caught:
        loads(_bomb(9, 9), file="bomb.yaml")
    assert caught.value.file == "bomb.yaml"
    assert caught.value.line is not None


def test_a_nul_default_is_located():
    with pytest.raises(ImageValidationSpecificationError) as caught:
        loads(HOSTILE["NUL in a default"][0], file="nul.yaml")
    assert caught.value.line == 4
    assert caught.value.path == "arguments.x.default"


def test_a_nul_argument_value_is_an_argument_error():
    spec = loads("validators:\n  - script: {s: {inline: 'true', env_vars: [x]}}\n")
    with pytest.raises(ImageArgumentError, match="NUL"):
        spec.validate(LocalRemote(), reconcile=False, env_map={"x": "a\0b"}, distro="debian")


def test_a_nul_in_a_scripts_output_fails_that_step():
    spec = loads(
        "validators:\n"
        "  - script: {first: {inline: 'printf \"a\\\\0b\"', output: x}}\n"
        "  - script: {second: {inline: 'true', env_vars: [x]}}\n"
    )
    with pytest.raises(ImageValidationError, match="NUL") as caught:
        spec.validate(LocalRemote(), reconcile=False, distro="debian")
    (failed,) = caught.value.report.failures
    assert failed.path == "validators[0].script"
    assert "first printed a NUL" in failed.detail


BROKEN = [
    {"validators": [{"package": ["ok", "not ok", {"x": {"version": 1}}]}]},
    {"validators": [{"all": [{"any": [{"script": {"s": {"env_vars": "X"}}}]}]}]},
    {"validators": [{"os_case": [{"ubuntu": [{"package": []}]}]}], "arguments": []},
    {"validators": [{"argument_set": {"argument_name": 3}}, {"copy_script": None}]},
]


@pytest.mark.parametrize("data", BROKEN)
def test_the_inlined_schema_finds_exactly_what_the_schema_finds(data):
    from jsonschema import Draft202012Validator

    from onespec.validators_runtime._generated.image_validators import SCHEMA
    from onespec.validators_runtime.images.schema_check import inlined_schema

    def found(schema):
        return sorted(
            (list(map(str, e.absolute_path)), e.message)
            for e in Draft202012Validator(schema).iter_errors(data)
        )

    assert found(SCHEMA)
    assert found(inlined_schema()) == found(SCHEMA)
