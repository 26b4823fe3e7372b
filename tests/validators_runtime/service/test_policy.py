"""The policy: defaults in code, overrides from a file, the sample."""

from __future__ import annotations

import pytest
import yaml
from oslo_context.context import RequestContext

from onespec.definitions.policy import RULES
from onespec.validators_runtime.service.policy import (
    PolicyFileError,
    authorize,
    build_enforcer,
    rule_defaults,
    sample,
)

MEMBER = RequestContext(project_id="p", user_id="u", roles=["member"])
ADMIN = RequestContext(project_id="p", user_id="a", roles=["admin"])
READS = [rule.name for rule in RULES if rule.operations and rule.operations[0][0] == "GET"]
WRITES = [rule.name for rule in RULES if rule.operations and rule.operations[0][0] != "GET"]


def test_reads_are_for_any_project_writes_for_admins():
    enforcer = build_enforcer()
    assert READS and WRITES
    for rule in READS:
        assert authorize(enforcer, rule, MEMBER)
        assert authorize(enforcer, rule, ADMIN)
    for rule in WRITES:
        assert not authorize(enforcer, rule, MEMBER)
        assert authorize(enforcer, rule, ADMIN)


def test_every_api_operation_has_exactly_one_rule():
    from onespec.validators_runtime.service import openapi

    operations = [
        (method.upper(), path)
        for path, item in openapi.document()["paths"].items()
        for method in item
        if path not in {"/", "/openapi.json"}
    ]
    guarded = [operation for rule in RULES for operation in rule.operations]
    assert sorted(operations) == sorted(guarded)


def test_a_policy_file_overrides_a_default(tmp_path):
    path = tmp_path / "policy.yaml"
    path.write_text(
        '"onespec:plugins:update": "role:plugin-admin"\n"is_auditor": "role:auditor"\n'
        '"onespec:plugins:list": "rule:is_auditor"\n'
    )
    enforcer = build_enforcer(path)
    assert not authorize(enforcer, "onespec:plugins:update", ADMIN)
    plugin_admin = RequestContext(project_id="p", roles=["plugin-admin"])
    assert authorize(enforcer, "onespec:plugins:update", plugin_admin)
    assert not authorize(enforcer, "onespec:plugins:list", MEMBER)
    assert authorize(
        enforcer, "onespec:plugins:list", RequestContext(project_id="p", roles=["auditor"])
    )
    assert authorize(enforcer, "onespec:flavor_extra_specs:delete", ADMIN)  # still the default


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (None, "does not exist"),
        ("[unclosed", ":1: not valid YAML: "),  # located, as every command reports bad YAML
        ('"onespec:plugins:updat": "role:x"\n', "did you mean 'onespec:plugins:update'?"),
        # A traceback (ValueError, RecursionError) before.
        ("a: " + "9" * 4301 + "\n", "not a policy file: Exceeds the limit (4300 digits)"),
        ("a: " + "[" * 5000 + "]" * 5000 + "\n", ":1: not valid YAML: exceeded maximum nesting"),
        ("just text\n", ":1: not a policy file: a policy file is a mapping"),
    ],
    ids=["missing", "bad YAML", "misspelt rule", "huge integer", "deep nesting", "not a mapping"],
)
def test_a_bad_policy_file_stops_the_start(tmp_path, text, words):
    path = tmp_path / "policy.yaml"
    if text is not None:
        path.write_text(text)
    with pytest.raises(PolicyFileError) as caught:
        build_enforcer(path)
    assert words in str(caught.value)
    assert str(path) in str(caught.value) or "policy.yaml" in str(caught.value)


def test_no_policy_file_means_the_defaults_even_with_one_in_the_usual_places(tmp_path, monkeypatch):
    (tmp_path / "policy.yaml").write_text('"onespec:plugins:list": "!"\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert authorize(build_enforcer(), "onespec:plugins:list", MEMBER)


def test_the_sample_uncommented_is_the_defaults():
    lines = [line[1:] for line in sample().splitlines() if line.startswith('#"')]
    assert yaml.safe_load("\n".join(lines)) == {rule.name: rule.check_str for rule in RULES}
    assert "# PATCH  /plugins/{name}" in sample()


def test_oslo_policy_tools_see_the_same_rules():
    assert [(d.name, d.check_str) for d in rule_defaults()] == [
        (r.name, r.check_str) for r in RULES
    ]
