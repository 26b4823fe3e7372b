"""Behaviour of the extra-spec runtime beyond single verdicts: findings, modes, suggestions."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest

from onespec.definitions.model import DefinitionError, Parameter, Status
from onespec.definitions.nova_shape import ExtraSpecValidator
from onespec.validators_runtime.extra_specs import (
    ExtraSpecValidationError,
    Finding,
    compile_registry,
    default_registry,
    validate,
)
from tests.conftest import ROOT


@pytest.fixture(autouse=True)
def _fresh_log_memory():
    """Each warning is logged once per process; each test here starts as a new process would."""
    from onespec.validators_runtime import extra_specs

    extra_specs._logged.clear()


def errors_of(specs, mode="strict"):
    with pytest.raises(ExtraSpecValidationError) as caught:
        validate(specs, mode=mode)
    return caught.value


# --- modes -----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["STRICT", "", "lenient", None])
def test_an_unknown_mode_is_a_value_error(mode):
    with pytest.raises(ValueError, match="mode must be one of strict, permissive, off"):
        validate({"hw:cpu_policy": "dedicated"}, mode=mode)


def test_an_unknown_mode_is_refused_even_for_empty_specs():
    with pytest.raises(ValueError):
        validate({}, mode="loose")


def test_specs_must_be_a_mapping():
    with pytest.raises(TypeError, match="mapping"):
        validate([("hw:cpu_policy", "dedicated")])


def test_permissive_logs_unknown_keys_and_returns_them_as_warnings(caplog):
    with caplog.at_level(logging.INFO, logger="onespec.validators_runtime.extra_specs"):
        warnings = validate({"hw:cpu_pollicy": "dedicated"}, mode="permissive")
    assert [w.code for w in warnings] == ["unknown-key"]
    assert warnings[0].severity == "warning"
    assert "hw:cpu_pollicy" in caplog.text


def test_each_warning_is_logged_once_below_the_warning_level(caplog):
    """A service validating the same flavor on every request is not flooded, and a library
    user without logging set up sees nothing on stderr (Python prints WARNING and above)."""
    specs = {"hide_hypervisor_id": "true", "hw:cpu_pollicy_once": "x"}
    with caplog.at_level(logging.DEBUG, logger="onespec.validators_runtime.extra_specs"):
        for _ in range(3):
            assert len(validate(specs, mode="permissive")) == 2
    records = [r for r in caplog.records if r.name == "onespec.validators_runtime.extra_specs"]
    assert len([r for r in records if "hw:cpu_pollicy_once" in r.getMessage()]) == 1
    assert all(r.levelno < logging.WARNING for r in records)


def test_library_use_prints_nothing_on_stderr():
    script = (
        "from onespec.validators_runtime.extra_specs import validate\n"
        "assert validate({'hide_hypervisor_id': 'true'})\n"
        "assert validate({'hw:cpu_pollicy': 'x'}, mode='permissive')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert result.stderr == ""


def test_permissive_still_rejects_invalid_values():
    error = errors_of({"hw:cpu_pollicy": "x", "hw:cpu_policy": "nope"}, mode="permissive")
    assert [f.code for f in error.errors] == ["invalid-value"]
    assert [f.code for f in error.warnings] == ["unknown-key"]


def test_off_checks_no_rule_and_logs_nothing(caplog):
    with caplog.at_level(logging.DEBUG):
        assert validate({"hw:cpu_policy": "nope", "hw:cpu_pollicy": "x"}, mode="off") == []
    assert caplog.text == ""


@pytest.mark.parametrize("mode", ["strict", "permissive", "off"])
@pytest.mark.parametrize("key", ["hw:numa_nodes", "foo:bar", "foo", "hw:cpu_pollicy"])
@pytest.mark.parametrize("value", [True, False, None, ["2"], {"a": "1"}, b"2"])
def test_no_mode_accepts_a_value_that_is_not_a_string(mode, key, value):
    """Nova's API refuses them for every key, foreign or not, so no mode may store one."""
    error = errors_of({key: value}, mode=mode)
    (finding,) = [f for f in error.errors if f.code == "invalid-value"]
    assert "not a string" in finding.message


@pytest.mark.parametrize("mode", ["strict", "permissive", "off"])
def test_no_mode_accepts_a_key_that_cannot_be_stored(mode):
    error = errors_of({"": "x", 7: "x"}, mode=mode)
    assert [f.code for f in error.errors] == ["invalid-key", "invalid-key"]


@pytest.mark.parametrize("mode", ["strict", "permissive", "off"])
@pytest.mark.parametrize("key", ["foo:bar", "foo"])
def test_numbers_of_foreign_keys_become_text_as_nova_reads_them(mode, key):
    assert validate({key: 2, f"{key}2": 1.5}, mode=mode) == []


# --- findings --------------------------------------------------------------------------------


def test_every_problem_is_reported_not_just_the_first():
    error = errors_of(
        {
            "hw:cpu_policy": "dedicatd",
            "hw:numa_nodes": "0",
            "hw:cpu_pollicy": "dedicated",
            "hw:mem_page_size": "huge",
            "hw:cpu_realtime": "maybe",
        }
    )
    assert sorted((f.key, f.code) for f in error.findings) == [
        ("hw:cpu_policy", "invalid-value"),
        ("hw:cpu_pollicy", "unknown-key"),
        ("hw:cpu_realtime", "invalid-value"),
        ("hw:mem_page_size", "invalid-value"),
        ("hw:numa_nodes", "invalid-value"),
    ]
    assert isinstance(error, ValueError)
    assert str(error).startswith("5 invalid extra specs: ")


def test_an_enum_typo_names_key_value_and_rule_and_suggests_the_member():
    (finding,) = errors_of({"hw:cpu_policy": "dedicatd"}).findings
    assert finding == Finding(
        key="hw:cpu_policy",
        code="invalid-value",
        severity="error",
        message=(
            "Extra spec 'hw:cpu_policy' has the value 'dedicatd', which is not one of the "
            "allowed values: dedicated, shared, mixed. Did you mean 'dedicated'?"
        ),
        suggestion="dedicated",
        value="dedicatd",
    )


def test_an_enum_in_the_wrong_case_suggests_the_right_case():
    (finding,) = errors_of({"hw:cpu_policy": "DEDICATED"}).findings
    assert finding.suggestion == "dedicated"


def test_a_key_typo_suggests_the_closest_key_in_the_namespace():
    (finding,) = errors_of({"hw:cpu_pollicy": "dedicated"}).findings
    assert finding.code == "unknown-key"
    assert finding.suggestion == "hw:cpu_policy"
    assert "'hw:cpu_pollicy'" in finding.message and "'hw' namespace" in finding.message


def test_a_trait_typo_keeps_the_group_suffix_in_the_suggestion():
    (finding,) = errors_of({"trait1:HW_CPU_X86_AVX512FF": "required"}).findings
    assert finding.suggestion == "trait1:HW_CPU_X86_AVX512F"


@pytest.mark.parametrize("name", ["boot_option", "profile", "boot_mode"])
def test_a_capability_nova_does_not_list_suggests_its_stats_spelling(name):
    (finding,) = errors_of({f"capabilities:{name}": "x"}).findings
    assert finding.code == "unknown-key"
    assert finding.suggestion == f"capabilities:stats:{name}"
    assert "2.86" in finding.message and "stats" in finding.message
    assert validate({finding.suggestion: "x"}) == []  # the suggestion is itself accepted


def test_a_capability_typo_still_suggests_the_listed_key():
    (finding,) = errors_of({"capabilities:hypervisor_typ": "QEMU"}).findings
    assert finding.suggestion == "capabilities:hypervisor_type"
    assert "stats" not in finding.message


def test_no_stats_spelling_is_suggested_for_a_name_stats_cannot_hold():
    (finding,) = errors_of({"capabilities:a b": "x"}).findings
    assert finding.suggestion is None and "stats" not in finding.message


def test_nothing_is_suggested_when_nothing_is_close():
    (finding,) = errors_of({"hw:zzzzzzzzzzzz": "1"}).findings
    assert finding.suggestion is None
    assert "Did you mean" not in finding.message


def test_integer_bounds_suggest_the_bound():
    (below,) = errors_of({"hw:numa_nodes": "0"}).findings
    assert below.suggestion == "1" and "less than the minimum of 1" in below.message
    (above,) = errors_of({"hw:redirected_usb_ports": "16"}).findings
    assert above.suggestion == "15" and "greater than the maximum of 15" in above.message


def test_a_float_that_is_an_integer_suggests_the_integer():
    (finding,) = errors_of({"hw:numa_nodes": "2.0"}).findings
    assert "is not an integer" in finding.message and finding.suggestion == "2"


def test_a_pattern_failure_describes_the_format_in_words():
    (finding,) = errors_of({"hw:cpu_realtime_mask": "abc"}).findings
    hint = default_registry()._specs[default_registry()._exact["hw:cpu_realtime_mask"]].pattern_hint
    assert hint and hint in finding.message


def test_a_boolean_typo_suggests_a_spelling():
    (finding,) = errors_of({"hw:cpu_realtime": "ture"}).findings
    assert finding.suggestion == "true"


# --- values ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "1",
        "0",
        "t",
        "f",
        "true",
        "false",
        "on",
        "off",
        "y",
        "n",
        "yes",
        "no",
        "TRUE",
        "False",
        " Yes ",
        "\tON\n",
        "N",
    ],
)
def test_boolean_spellings_nova_accepts(value):
    # On its own: with hw:cpu_realtime on, Nova also needs pinned CPUs (a rule between keys).
    assert validate({"hw:cpu_realtime": value}, between_keys=False) == []


@pytest.mark.parametrize(
    "value", ["2", "00", "tru", "enabled", "none", "", " ", "yes please", "1.0", "nope"]
)
def test_boolean_spellings_nova_refuses(value):
    (finding,) = errors_of({"hw:cpu_realtime": value}).findings
    assert finding.code == "invalid-value"


@pytest.mark.parametrize("value", ["1", " 2 ", "+3", "1_000", "٣", "0010"])
def test_integers_parse_as_python_int_does(value):
    # On its own, as Nova's validator reads it (server create reads the count more strictly).
    assert validate({"hw:numa_nodes": value}, between_keys=False) == []
    assert int(value) >= 1


@pytest.mark.parametrize("value", ["1.0", "0x10", "1e3", "", "one", "1 000", "--1"])
def test_integers_refuse_what_int_refuses(value):
    with pytest.raises(ValueError):
        int(value)
    (finding,) = errors_of({"hw:numa_nodes": value}).findings
    assert finding.code == "invalid-value"


def test_numbers_are_read_as_nova_reads_json_numbers():
    assert validate({"hw:numa_nodes": 2}) == []
    (finding,) = errors_of({"hw:numa_nodes": 1.5}).findings
    assert finding.value == "1.5" and "'1.5'" in finding.message  # the value as it was read


@pytest.mark.parametrize("value", [True, None, b"2", ["2"], {"a": 1}])
def test_values_that_are_not_strings_are_invalid(value):
    (finding,) = errors_of({"hw:numa_nodes": value}).findings
    assert finding.code == "invalid-value" and "not a string" in finding.message


def test_values_longer_than_255_characters_are_invalid():
    assert validate({"accel:device_profile": "x" * 255}) == []
    (finding,) = errors_of({"accel:device_profile": "x" * 256}).findings
    assert "longer than 255" in finding.message


def test_long_values_of_foreign_keys_are_not_ours_to_judge():
    assert validate({"foo:bar": "x" * 1000}) == []


def test_keys_that_cannot_be_keys():
    error = errors_of({"": "x", "k" * 256: "x", 5: "x"}, mode="permissive")
    assert [f.code for f in error.findings] == ["invalid-key"] * 3
    assert validate({"k" * 255: "x"}) == []


# --- names -----------------------------------------------------------------------------------


def test_the_dot_in_a_patterned_name_is_literal():
    assert validate({"hw:numa_cpus.0": "0-3", "hw:numa_mem.1": "1024"}) == []
    for key in ("hw:numa_cpus_0", "hw:numa_cpusX0", "hw:numa_cpus-1", "hw:numa_cpus."):
        (finding,) = errors_of({key: "0"}).findings
        assert finding.code == "unknown-key", key


def test_a_parameter_out_of_bounds_explains_which_part():
    registry = compile_registry(
        [
            ExtraSpecValidator(
                name="x:slot.{n}",
                parameters=[{"name": "n", "type": int, "min": 1, "max": 4}],
                value={"type": int},
            )
        ]
    )
    assert registry.validate({"x:slot.1": "1", "x:slot.4": "1"}) == []
    with pytest.raises(ExtraSpecValidationError) as caught:
        registry.validate({"x:slot.5": "1"})
    (finding,) = caught.value.findings
    assert finding.code == "unknown-key"
    assert "'x:slot.{n}'" in finding.message and "'5' is greater than 4" in finding.message


def test_an_over_long_group_suffix_stays_in_the_namespace():
    key = "trait" + "a" * 65 + ":HW_CPU_X86_AVX2"
    (finding,) = errors_of({key: "required"}).findings
    assert "longer than 64 characters" in finding.message


def test_lookup_names_the_governing_definition():
    registry = default_registry()
    assert registry.lookup("hw:numa_cpus.3") == "hw:numa_cpus.{id}"
    assert registry.lookup("trait7:CUSTOM_X") == "trait{group}:CUSTOM_{trait}"
    assert registry.lookup("capabilities:cpu_info:arch") == "capabilities:cpu_info{filter}"
    assert registry.lookup("hw:cpu_policy") == "hw:cpu_policy"
    assert registry.lookup("foo:bar") is None


# --- deprecation -----------------------------------------------------------------------------


def test_a_deprecated_key_validates_with_a_warning_naming_its_replacement(caplog):
    with caplog.at_level(logging.INFO, logger="onespec.validators_runtime.extra_specs"):
        (warning,) = validate({"hide_hypervisor_id": "true"})
    assert warning.code == "deprecated" and warning.severity == "warning"
    assert warning.suggestion == "hw:hide_hypervisor_id"
    assert "'hw:hide_hypervisor_id'" in warning.message
    assert "hide_hypervisor_id" in caplog.text


def test_a_deprecated_key_with_a_bad_value_reports_both():
    error = errors_of({"hide_hypervisor_id": "maybe"})
    assert [f.code for f in error.findings] == ["invalid-value", "deprecated"]


def test_deprecation_carries_release_and_removal_when_known():
    registry = compile_registry(
        [
            ExtraSpecValidator(name="x:new", value={"type": int}),
            ExtraSpecValidator(
                name="x:old",
                value={"type": int},
                status=Status("deprecated", since="31.0.0", replacement="x:new", removal="33.0.0"),
            ),
        ]
    )
    (warning,) = registry.validate({"x:old": "1"})
    assert warning.message == (
        "Extra spec 'x:old' is deprecated since 31.0.0 (2025.1 Epoxy) and will be removed in "
        "33.0.0 (2026.1 Gazpacho). Use 'x:new' instead."
    )


# --- compiling -------------------------------------------------------------------------------


def test_compile_registry_accepts_the_seed_shape_and_validates_alike():
    registry = compile_registry(
        [
            {"name": "foo:bar", "description": "x", "value": {"type": bool}},
            ExtraSpecValidator(name="foo:level", value={"type": str, "enum": ["low", "high"]}),
        ]
    )
    assert registry.validate({"foo:bar": "yes", "foo:level": "low", "other:x": "1"}) == []
    with pytest.raises(ExtraSpecValidationError) as caught:
        registry.validate({"foo:baz": "1", "foo:level": "mid"})
    assert sorted(f.code for f in caught.value.findings) == ["invalid-value", "unknown-key"]


def test_compile_registry_refuses_a_name_given_twice():
    spec = ExtraSpecValidator(name="foo:bar", value={"type": bool})
    with pytest.raises(DefinitionError, match="foo:bar"):
        compile_registry([spec, spec])


def test_compile_registry_refuses_an_exact_key_a_pattern_already_governs():
    with pytest.raises(DefinitionError, match=r"'foo:slot\.1' is already governed by"):
        compile_registry(
            [
                ExtraSpecValidator(
                    name="foo:slot.{n}",
                    parameters=[{"name": "n", "type": int}],
                    value={"type": int},
                ),
                ExtraSpecValidator(name="foo:slot.1", value={"type": int}),
            ]
        )


def test_earlier_patterns_take_precedence_over_later_overlapping_ones():
    registry = compile_registry(
        [
            ExtraSpecValidator(
                name="foo:a{x}", parameters=[Parameter("x", int)], value={"type": int}
            ),
            ExtraSpecValidator(
                name="foo:{y}",
                parameters=[Parameter("y", str, pattern=".+")],
                value={"type": str},
            ),
        ]
    )
    assert registry.lookup("foo:a1") == "foo:a{x}"
    assert registry.lookup("foo:b") == "foo:{y}"
    with pytest.raises(ExtraSpecValidationError):
        registry.validate({"foo:a1": "not an int"})


@pytest.mark.parametrize(
    ("parameter", "accepted", "refused"),
    [
        (Parameter("n", int), ["foo:n0", "foo:n99999999999999999999"], []),
        (Parameter("n", int, min=0), ["foo:n0", "foo:n7"], []),
        (Parameter("n", int, min=1), ["foo:n1", "foo:n42"], ["foo:n0"]),
        (Parameter("n", int, min=0, max=3), ["foo:n0", "foo:n3"], ["foo:n4", "foo:n10"]),
        (Parameter("n", int, min=-2, pattern="-?[0-9]+"), ["foo:n-2", "foo:n5"], ["foo:n-3"]),
        (Parameter("n", str, max_length=3), ["foo:nabc"], ["foo:nabcd"]),
    ],
)
def test_parameter_bounds_hold_on_every_path(parameter, accepted, refused):
    """Bounds a pattern already implies are not checked again; every other one is."""
    registry = compile_registry(
        [ExtraSpecValidator(name="foo:n{n}", parameters=[parameter], value={"type": str})]
    )
    for key in accepted:
        assert registry.validate({key: "x"}) == [], key
    for key in refused:
        with pytest.raises(ExtraSpecValidationError) as caught:
            registry.validate({key: "x"})
        (finding,) = caught.value.findings
        assert finding.code == "unknown-key", key


def test_the_in_tree_catalogue_has_no_shadowed_keys():
    from onespec.definitions.registry import in_tree

    assert len(compile_registry(in_tree())) == len(in_tree())


def test_a_key_a_pattern_governs_keeps_its_verdicts_once_remembered():
    from onespec.validators_runtime.extra_specs import default_registry

    registry = default_registry()
    assert registry.validate({"trait:CUSTOM_ONCE": "required"}) == []
    assert registry.validate({"trait:CUSTOM_ONCE": "required"}) == []
    with pytest.raises(ExtraSpecValidationError) as raised:
        registry.validate({"trait:CUSTOM_ONCE": "requird"})
    assert [f.suggestion for f in raised.value.findings] == ["required"]


def test_the_keys_a_registry_remembers_are_bounded():
    from onespec.validators_runtime.extra_specs import GOVERNED_LIMIT, default_registry

    registry = default_registry()
    for number in range(GOVERNED_LIMIT + 100):
        registry.validate({f"trait:CUSTOM_K{number}": "required"})
    assert 0 < len(registry._governed) <= GOVERNED_LIMIT


def test_the_words_of_a_pattern_are_the_values_accepted_at_once():
    """A key whose pattern offers words (``large``, ``small``) accepts them in one look-up;
    alternatives inside nested groups and those with pattern syntax are left to the pattern."""
    from onespec.validators_runtime.extra_spec_values import _words_of
    from onespec.validators_runtime.extra_specs import default_registry

    assert _words_of(r"(large|small|any|\d+([kKMGT]i?)?(b|bit|B)?)") == ("large", "small", "any")
    assert _words_of("(a|b(c|d)|e.f|g)") == ("a", "g")
    assert _words_of(r"\d+") == ()
    page_size = default_registry()._plain["hw:mem_page_size"]
    assert {"large", "small", "any"} <= page_size.accepted


def test_one_bad_value_among_usual_ones_is_still_found():
    """The whole-flavor look-up answers only when every value is accepted at once; otherwise
    each key is checked, and only the bad one is reported."""
    usual = {
        "hw:cpu_policy": "dedicated",
        "hw:mem_page_size": "large",
        "hw:pmu": "false",
        "trait:HW_CPU_X86_AVX2": "required",
    }
    assert validate(usual) == []
    for key, bad in [("hw:mem_page_size", "huge"), ("hw:pmu", "maybe"), ("hw:numa_nodes", ["2"])]:
        error = errors_of({**usual, key: bad})
        assert [finding.key for finding in error.findings] == [key]
