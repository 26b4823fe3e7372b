"""The rules between keys that extra specs alone can break, applied by every check of extra specs
without their flavor: ``onespec.validate`` (``Registry.validate``), ``onespec validate
extra-specs`` and the service's check of a write, through one function
(:func:`onespec.validators_runtime.spec_rules.spec_rule_findings`)."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

import onespec
from onespec.definitions.flavor_rule_catalogue import RULES, WARNINGS
from onespec.definitions.flavor_rules import Rule
from onespec.validators_runtime import nova_validators
from onespec.validators_runtime._generated.flavor_rules import SIZED_RULES
from onespec.validators_runtime.cli import cli
from onespec.validators_runtime.extra_specs import (
    ExtraSpecValidationError,
    Finding,
    RuleFinding,
    default_registry,
    validate,
)
from onespec.validators_runtime.flavors import validate_flavor
from onespec.validators_runtime.service import flavor_check
from onespec.validators_runtime.spec_rules import (
    SPEC_RULES,
    reads_a_rule,
    spec_rule_findings,
)

REALTIME_UNPINNED = {"hw:cpu_realtime": "yes", "hw:cpu_thread_policy": "isolate"}


def refusal(specs, **options) -> ExtraSpecValidationError:
    with pytest.raises(ExtraSpecValidationError) as caught:
        validate(specs, **options)
    return caught.value


# --- onespec.validate --------------------------------------------------------------------------


def test_validate_refuses_what_the_extra_specs_break_together():
    error = refusal(REALTIME_UNPINNED)
    assert [(f.code, f.keys, f.nova_exception, f.phase) for f in error.errors] == [
        (
            "thread-policy-needs-pinning",
            ("hw:cpu_thread_policy",),
            "CPUThreadPolicyConfigurationInvalid",
            "api",
        ),
        ("realtime-needs-pinning", ("hw:cpu_realtime",), "RealtimeConfigurationInvalid", "api"),
    ]
    assert str(error).startswith("2 rules between keys broken: When the CPU thread policy")


def test_a_rule_finding_reads_as_every_finding_does():
    """Callers that read key, code, severity, message and suggestion of each finding read a
    rule's finding the same way; its JSON form adds the whole-flavor fields."""
    (finding, _) = refusal(REALTIME_UNPINNED).findings
    assert isinstance(finding, Finding) and isinstance(finding, RuleFinding)
    assert (finding.key, finding.severity, finding.suggestion) == (
        "hw:cpu_thread_policy",
        "error",
        None,
    )
    assert finding.location.path == "hw:cpu_thread_policy"
    document = finding.to_dict()
    assert document["key"] == document["path"] == "hw:cpu_thread_policy"
    assert document["keys"] == ["hw:cpu_thread_policy"]
    assert document["nova_exception"] == "CPUThreadPolicyConfigurationInvalid"
    assert document["phase"] == "api"
    assert json.loads(json.dumps(document)) == document


def test_the_per_key_finding_keeps_its_fields():
    (finding,) = refusal({"hw:cpu_policy": "dedicatd"}).findings
    assert type(finding) is Finding
    assert set(finding.to_dict()) == {
        "code",
        "severity",
        "message",
        "file",
        "line",
        "path",
        "value",
        "suggestion",
        "key",
        "keys",
    }
    assert finding.to_dict()["keys"] == ["hw:cpu_policy"]


def test_pinned_cpus_satisfy_the_rules():
    assert validate({**REALTIME_UNPINNED, "hw:cpu_policy": "dedicated"}) == []
    assert validate({"hw:cpu_realtime": "no"}) == []


def test_what_the_extra_specs_ask_of_an_image_is_a_warning():
    (warning,) = validate({"hw:mem_encryption": "true"})
    assert isinstance(warning, RuleFinding)
    assert (warning.code, warning.severity) == ("mem-encryption-needs-uefi", "warning")


def test_keys_the_rules_spell_otherwise_are_read():
    error = refusal({"resources1:PCPU": "2", "resources:VCPU": "2"})
    (finding,) = error.errors
    assert finding.code == "vcpu-and-pcpu-resources"
    assert set(finding.keys) == {"resources1:PCPU", "resources:VCPU"}


def test_per_key_and_rule_errors_are_reported_at_once():
    error = refusal({**REALTIME_UNPINNED, "hw:cpu_pollicy": "dedicated"})
    codes = [f.code for f in error.errors]
    assert codes == ["unknown-key", "thread-policy-needs-pinning", "realtime-needs-pinning"]
    assert str(error).startswith("1 invalid extra spec and 2 rules between keys broken: ")


def test_a_value_refused_on_its_own_is_reported_once():
    """Nova refuses hw:numa_nodes=0 when it is written; the rule that reads the count at
    server create (numa-nodes-unreadable) sees only counts that were written."""
    assert [f.code for f in refusal({"hw:numa_nodes": "0"}).findings] == ["invalid-value"]
    # A count Nova's validator takes and server create refuses: the rule's alone.
    (finding,) = refusal({"hw:numa_nodes": " 2 "}).findings
    assert finding.code == "numa-nodes-unreadable"


def test_rules_that_need_the_sizes_or_an_image_are_left_out():
    # 2 NUMA nodes and a dedicated mask are judged against the vCPUs, which are unknown here.
    specs = {"hw:cpu_policy": "mixed", "hw:cpu_dedicated_mask": "0-99", "hw:numa_nodes": "2"}
    assert validate(specs) == []
    assert [f.code for f in validate_flavor({"vcpus": 3, "ram": 2048, "extra_specs": specs})]


def test_between_keys_false_checks_each_key_on_its_own():
    assert validate(REALTIME_UNPINNED, between_keys=False) == []
    assert default_registry().validate(REALTIME_UNPINNED, between_keys=False) == []


def test_off_mode_applies_no_rule():
    assert validate(REALTIME_UNPINNED, mode="off") == []


def test_permissive_mode_applies_the_rules():
    error = refusal({**REALTIME_UNPINNED, "hw:cpu_pollicy": "x"}, mode="permissive")
    assert [f.code for f in error.errors] == [
        "thread-policy-needs-pinning",
        "realtime-needs-pinning",
    ]
    assert [f.code for f in error.warnings] == ["unknown-key"]


def test_the_verdict_follows_the_extra_specs_not_a_remembered_call():
    specs = dict(REALTIME_UNPINNED)
    assert len(refusal(specs).errors) == 2
    specs["hw:cpu_policy"] = "dedicated"
    assert validate(specs) == []
    del specs["hw:cpu_policy"]
    assert len(refusal(specs).errors) == 2


def test_numbers_are_read_as_the_text_nova_stores():
    error = refusal({"resources:PCPU": 2, "resources:VCPU": 2})
    assert [f.code for f in error.errors] == ["vcpu-and-pcpu-resources"]


def test_the_nova_drop_in_still_answers_per_key():
    """Nova's API calls its validators per key; the drop-in must answer as they do."""
    assert nova_validators.validate("hw:cpu_realtime", "yes") is None
    assert nova_validators.validate("hw:cpu_thread_policy", "isolate") is None


# --- one code path, held to the catalogue's examples -------------------------------------------


def _extra_specs_alone(rule: Rule) -> bool:
    """Whether the rule's example is extra specs alone: no image, and no flag of the flavor's
    own (a disabled flavor)."""
    example = rule.example
    return example is not None and example.image_document() is None and not example.disabled


SPEC_EXAMPLES = [
    rule
    for rule in (*RULES, *WARNINGS)
    if rule.name in SPEC_RULES and rule.example is not None and _extra_specs_alone(rule)
]


def test_the_rules_applied_are_those_refused_whatever_the_sizes():
    errors = {rule.name for rule in RULES if rule.severity == "error"}
    assert errors - SIZED_RULES == SPEC_RULES
    assert {"realtime-needs-pinning", "thread-policy-needs-pinning"} <= SPEC_RULES
    assert not SPEC_RULES & {"numa-nodes-split-unevenly", "realtime-mask-without-realtime"}


@pytest.mark.parametrize("rule", SPEC_EXAMPLES, ids=lambda rule: rule.name)
def test_each_example_breaks_its_rule_in_every_check_of_extra_specs(rule: Rule):
    assert rule.example is not None
    specs = dict(rule.example.specs)
    found = [f.code for f in spec_rule_findings(specs)]
    assert rule.name in found
    assert any(reads_a_rule(key) for key in specs)
    # The service and onespec.validate answer through the same function.
    assert [f.code for f in flavor_check.findings(specs)] == found
    try:
        reported = validate(specs)
    except ExtraSpecValidationError as error:
        reported = list(error.findings)
    assert [f.code for f in reported if isinstance(f, RuleFinding)] == found


def test_the_examples_judged_are_not_a_handful():
    assert len(SPEC_EXAMPLES) >= 10


# --- the cost and the import -------------------------------------------------------------------


def test_importing_the_runtime_does_not_load_the_rules():
    code = (
        "import sys, onespec.validators_runtime.extra_specs as r\n"
        "assert 'onespec.validators_runtime._generated.flavor_rules' not in sys.modules\n"
        "r.default_registry().validate({'hw:cpu_policy': 'dedicated'}, between_keys=False)\n"
        "assert 'onespec.validators_runtime._generated.flavor_rules' not in sys.modules\n"
        "r.validate({'hw:cpu_policy': 'dedicated'})\n"
        "assert 'onespec.validators_runtime._generated.flavor_rules' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_flavor_no_rule_reads_never_reaches_the_rules(monkeypatch):
    registry = default_registry()
    registry.validate({"hw:cpu_policy": "dedicated"})  # the rule tables are built
    tables = registry._rules
    assert tables is not None
    asked = []
    monkeypatch.setattr(tables, "findings", lambda specs: asked.append(specs) or [])
    usual = {"trait:HW_CPU_X86_AVX2": "required", "quota:cpu_shares": "2048", "foo": "x"}
    for _ in range(2):
        assert registry.validate(usual) == []
    assert asked == []


@pytest.mark.parametrize(
    "specs",
    [
        {f"resources{i}:PCPU": "1" for i in range(1, 100_001)},
        {**{f"hw:numa_mem.{i}": "512" for i in range(100_000)}, "hw:numa_nodes": "2"},
    ],
    ids=["resources groups", "per-node memory"],
)
def test_a_hundred_thousand_keys_the_rules_read_cost_time_linear_in_them(specs):
    """Every key is one some rule reads, and a broken rule names every key involved: that once
    took minutes (each key compared with every key named before it)."""
    started = time.process_time()
    with contextlib.suppress(ExtraSpecValidationError):
        validate(specs)
    spent = time.process_time() - started
    # About 0.7-0.9 s of processor time on two busy cores; the quadratic naming took 80-100 s.
    assert spent < 5.0, spent


# --- the command line --------------------------------------------------------------------------

NOTE = (
    "note: rules between keys that need the flavor's sizes or an image are checked by "
    "'onespec validate flavor'."
)


def test_validate_extra_specs_refuses_the_pair_with_nova_s_exception():
    pairs = [f"{key}={value}" for key, value in REALTIME_UNPINNED.items()]
    result = CliRunner().invoke(cli, ["validate", "extra-specs", *pairs])
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "error: [thread-policy-needs-pinning] (CPUThreadPolicyConfigurationInvalid, api) When "
    )
    assert lines[1].startswith(
        "error: [realtime-needs-pinning] (RealtimeConfigurationInvalid, api) When "
    )
    assert lines[2:] == [
        NOTE,
        "2 extra specs checked in strict mode: invalid (2 errors, 0 warnings).",
    ]


def test_the_note_is_said_once_for_a_file_of_several_flavors(tmp_path):
    path = tmp_path / "flavors.json"
    flavors = [
        {"name": "a", "properties": {"hw:cpu_policy": "dedicated"}},
        {"name": "b", "properties": {"hw:cpu_realtime": "yes"}},
    ]
    path.write_text(json.dumps(flavors))
    result = CliRunner().invoke(cli, ["validate", "extra-specs", "--file", str(path)])
    assert result.exit_code == 1, result.output
    assert result.stdout.count("note: ") == 1
    assert "flavor b: error: [realtime-needs-pinning]" in result.stdout


def test_the_json_report_carries_the_note_and_the_rule_fields():
    pairs = ["hw:cpu_realtime=yes"]
    result = CliRunner().invoke(cli, ["validate", "extra-specs", "--format", "json", *pairs])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["valid"] is False
    assert "'onespec validate flavor'" in report["note"]
    (finding,) = report["findings"]
    assert finding["code"] == "realtime-needs-pinning"
    assert finding["nova_exception"] == "RealtimeConfigurationInvalid"
    assert finding["keys"] == ["hw:cpu_realtime"]


def test_off_mode_says_it_applies_no_rule():
    result = CliRunner().invoke(
        cli, ["validate", "extra-specs", "--mode", "off", "hw:cpu_realtime=yes"]
    )
    assert result.exit_code == 0, result.output
    assert "note: off mode applies no rule between keys" in result.stdout


def test_the_short_api_is_the_same_function():
    assert onespec.validate is validate
