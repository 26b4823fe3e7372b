"""The policy: defaults in code, overrides from a file, the sample."""

from __future__ import annotations

import errno
import os
import socket

import pytest
import yaml
from oslo_context.context import RequestContext

from onespec.definitions.policy import RULES
from onespec.validators_runtime.service.policy import (
    MAX_POLICY_FILE_SIZE,
    REMOTE_CHECK_TIMEOUT,
    PolicyFileError,
    PolicyUndecided,
    authorize,
    build_enforcer,
    rule_defaults,
    sample,
)
from tests.validators_runtime.service.conftest import ADMIN as ADMIN_HEADERS
from tests.validators_runtime.service.conftest import MEMBER as MEMBER_HEADERS

CIRCLE = '"a": "role:admin or rule:b"\n"b": "rule:c and not rule:a"\n"c": "@"\n'
CHAIN = "".join(f'"a{i}": "rule:a{i + 1}"\n' for i in range(3000))
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
        # oslo.policy read an empty value as "allow everyone".
        (
            '"onespec:plugins:update":\n',
            "the rule 'onespec:plugins:update' is empty (null), not a string",
        ),
        ("5: role:x\n", "the rule name 5 is not a string"),
        # oslo.policy evaluates by recursion: each of these failed every request it guarded
        # with a RecursionError (or hung a start-up parsing it).
        (CIRCLE, "refer to each other in a circle (a -> b -> a)"),
        ('"default": "rule:nothing"\n', "in a circle (default -> default)"),
        (CHAIN, "levels deep (rule: references followed); the limit is 50"),
        ('"a": "' + "not " * 60 + 'role:x"\n', "'a' nests 61 levels deep"),
        ('"a": "' + "not " * 50_000 + 'role:x"\n', "'a' is nested too deeply to read"),
    ],
    ids=[
        "missing",
        "bad YAML",
        "misspelt rule",
        "huge integer",
        "deep nesting",
        "not a mapping",
        "empty rule",
        "number as a name",
        "circle",
        "default rule in a circle",
        "chain of rules",
        "deep rule",
        "very deep rule",
    ],
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


# --- The file is read by onespec alone, bounded, over HTTP to a real server ----------------------

ON_SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
LABELS = {"version_labels": {"0.1": {"enabled": {"status": False}}}}
PLUGIN_ADMIN = {**MEMBER_HEADERS, "X-Roles": "plugin-admin"}


def _update_statuses(api) -> tuple[int, int]:
    """What an admin and a plugin-admin get for a label update (5 s at most each)."""
    return tuple(
        api.session.patch(
            f"{api.url}/plugins/fake", headers=headers, json=LABELS, timeout=5
        ).status_code
        for headers in (ADMIN_HEADERS, PLUGIN_ADMIN)
    )


def _swap_in(path, kind: str) -> None:
    """Replace the policy file at ``path`` with something that must never be read whole."""
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "/dev/zero":
        path.symlink_to("/dev/zero")
    else:  # a file one byte over the limit that would let admins in, were it read
        rule = '"onespec:plugins:update": "role:admin"\n'
        path.write_text(rule + "#" * (MAX_POLICY_FILE_SIZE - len(rule)) + "\n")


@ON_SQLITE
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "oversize"])
def test_a_policy_file_swapped_after_start_up_is_never_read(serve, tmp_path, kind):
    path = tmp_path / "policy.yaml"
    path.write_text('"onespec:plugins:update": "role:plugin-admin"\n')
    api = serve(POLICY_FILE=path)
    assert _update_statuses(api) == (403, 200)
    _swap_in(path, kind)
    # Read by oslo.policy, the pipe would hang the request, /dev/zero exhaust memory, and the
    # large file let the admin in; none is read, and the rules read at start-up stay in force.
    assert _update_statuses(api) == (403, 200)
    assert _update_statuses(api) == (403, 200)
    if kind == "fifo":  # nobody holds it open for reading
        with pytest.raises(OSError) as no_reader:
            os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        assert no_reader.value.errno == errno.ENXIO


@ON_SQLITE
def test_a_policy_file_changed_while_serving_takes_effect(serve, tmp_path):
    path = tmp_path / "policy.yaml"
    path.write_text('"onespec:plugins:update": "role:plugin-admin"\n')
    api = serve(POLICY_FILE=path)
    assert _update_statuses(api) == (403, 200)
    changed = tmp_path / "changed.yaml"
    changed.write_text('"onespec:plugins:update": "role:admin"\n')
    changed.replace(path)
    assert _update_statuses(api) == (200, 403)
    path.write_text('"onespec:plugins:updat": "role:nobody"\n')  # a typo: refused, logged
    assert _update_statuses(api) == (200, 403)
    path.write_text(CIRCLE + '"onespec:plugins:update": "rule:a"\n')  # would recurse: refused
    assert _update_statuses(api) == (200, 403)


def test_rules_that_nest_and_refer_within_the_limit_are_evaluated(tmp_path):
    path = tmp_path / "policy.yaml"
    chain = "".join(f'"a{i}": "rule:a{i + 1}"\n' for i in range(40)) + '"a40": "role:admin"\n'
    path.write_text(chain + '"onespec:plugins:update": "not not rule:a0 and (rule:a0 or !)"\n')
    enforcer = build_enforcer(path)
    assert authorize(enforcer, "onespec:plugins:update", ADMIN)
    assert not authorize(enforcer, "onespec:plugins:update", MEMBER)


def _closed_port() -> int:
    """A loopback port nothing listens on: a connection to it is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_check_that_cannot_be_evaluated_refuses_and_says_why(tmp_path):
    """An ``http:`` check whose server is down raised out of oslo.policy: every request the
    rule governed was a 500 with a traceback."""
    path = tmp_path / "policy.yaml"
    url = f"http://127.0.0.1:{_closed_port()}/check"
    path.write_text(f'"onespec:plugins:update": "{url}"\n')
    enforcer = build_enforcer(path)
    with pytest.raises(PolicyUndecided) as undecided:
        authorize(enforcer, "onespec:plugins:update", ADMIN)
    assert undecided.value.rule == "onespec:plugins:update"
    assert "ConnectionError" in undecided.value.cause
    # A remote check is bounded: oslo.policy's own default would keep a request a minute.
    assert enforcer.conf.oslo_policy.remote_timeout == REMOTE_CHECK_TIMEOUT <= 5


@ON_SQLITE
def test_a_request_whose_policy_cannot_be_evaluated_is_a_403_not_a_500(serve, tmp_path):
    path = tmp_path / "policy.yaml"
    url = f"http://127.0.0.1:{_closed_port()}/check"
    path.write_text(f'"onespec:plugins:update": "{url}"\n')
    api = serve(POLICY_FILE=path)
    answer = api.session.patch(
        f"{api.url}/plugins/fake", headers=ADMIN_HEADERS, json=LABELS, timeout=10
    )
    assert answer.status_code == 403, answer.text
    message = answer.json()["error"]["message"]
    assert "could not decide on this request (onespec:plugins:update)" in message
    assert "ConnectionError" in message and "Traceback" not in answer.text
    # The rules that make no remote call are decided as before.
    listed = api.session.get(f"{api.url}/plugins", headers=ADMIN_HEADERS, timeout=10)
    assert listed.status_code == 200
