"""The hook for group ``component``: real programs, real process groups, always a JSON answer."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from onespec.validators_runtime.heat.components import build_deployment_config
from onespec.validators_runtime.heat.components import hook as hook_module
from onespec.validators_runtime.heat.components.hook import (
    HookInputError,
    HookSettings,
    environment_text,
    parse_request,
    run_hook,
    run_script_hook,
)

RESULT_KEYS = {"deploy_stdout", "deploy_stderr", "deploy_status_code"}


@pytest.fixture
def dirs(tmp_path: Path) -> HookSettings:
    return HookSettings(
        hooks_dir=tmp_path / "hooks",
        working_dir=tmp_path / "work",
        outputs_dir=tmp_path / "out",
        kill_grace=1.0,
    )


def derived(
    configs: list[dict],
    action: str = "CREATE",
    inputs: list[dict] | None = None,
    outputs: list[dict] | None = None,
    options: Any = None,
    values: dict | None = None,
    config_id: str = "cfg-1",
) -> str:
    properties: dict[str, Any] = {"configs": configs}
    if inputs is not None:
        properties["inputs"] = inputs
    if outputs is not None:
        properties["outputs"] = outputs
    if options is not None:
        properties["options"] = options
    return build_deployment_config(
        properties,
        action=action,
        server_id="server-1",
        input_values=values or {},
        config_id=config_id,
        name="deployment",
    ).to_json()


def script(body: str, actions: tuple[str, ...] = ("CREATE",)) -> dict:
    return {"actions": list(actions), "config": f"#!/bin/bash\n{body}\n", "tool": "script"}


def hook(stdin: str | bytes, settings: HookSettings) -> dict:
    answer = run_hook(stdin, settings)
    assert set(answer) >= RESULT_KEYS
    json.loads(json.dumps(answer))
    return answer


# --- The script tool -----------------------------------------------------------------------------


def test_inputs_become_environment_variables_numbers_and_booleans_as_text(dirs):
    body = "\n".join(
        f'printf "%s=[%s]\\n" {name} "${name}"'
        for name in (
            "port",
            "ratio",
            "flag",
            "off",
            "name",
            "hosts",
            "settings",
            "unset",
            "deploy_action",
            "deploy_status",
            "deploy_server_id",
        )
    )
    answer = hook(
        derived(
            [script(body)],
            inputs=[
                {"name": "port", "type": "Number"},
                {"name": "ratio", "type": "Number"},
                {"name": "flag", "type": "Boolean"},
                {"name": "off", "type": "Boolean"},
                {"name": "name"},
                {"name": "hosts", "type": "CommaDelimitedList"},
                {"name": "settings", "type": "Json"},
                {"name": "unset"},
            ],
            values={
                "port": 8080,
                "ratio": 0.5,
                "flag": True,
                "off": False,
                "name": "app $HOME `x`",
                "hosts": ["a", "b"],
                "settings": {"k": [1, "v"]},
            },
        ),
        dirs,
    )
    assert answer["deploy_status_code"] == 0, answer
    assert answer["deploy_stdout"].splitlines() == [
        "port=[8080]",
        "ratio=[0.5]",
        "flag=[true]",
        "off=[false]",
        "name=[app $HOME `x`]",
        'hosts=[["a", "b"]]',
        'settings=[{"k": [1, "v"]}]',
        "unset=[]",
        "deploy_action=[CREATE]",
        "deploy_status=[IN_PROGRESS]",
        "deploy_server_id=[server-1]",
    ]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, ""),
        ("x", "x"),
        (3, "3"),
        (-2.5, "-2.5"),
        (True, "true"),
        (False, "false"),
        ([1, "a"], '[1, "a"]'),
        ({"a": None}, '{"a": null}'),
    ],
)
def test_environment_text(value, text):
    assert environment_text(value) == text


def test_the_script_runs_in_the_working_dir_as_an_owner_only_program(dirs):
    answer = hook(derived([script('pwd; echo "$0"')]), dirs)
    assert answer["deploy_stdout"].splitlines() == [
        str(dirs.working_dir),
        str(dirs.working_dir / "cfg-1"),
    ]
    mode = stat.S_IMODE((dirs.working_dir / "cfg-1").stat().st_mode)
    assert mode == 0o700


def test_outputs_are_read_from_heat_outputs_path(dirs):
    body = (
        'echo -n "http://localhost/" > "$heat_outputs_path.root_url"\n'
        'printf "two\\nlines" > "$heat_outputs_path.notes"'
    )
    answer = hook(
        derived(
            [script(body)],
            outputs=[{"name": "root_url"}, {"name": "notes"}, {"name": "never_written"}],
        ),
        dirs,
    )
    assert answer == {
        "root_url": "http://localhost/",
        "notes": "two\nlines",
        "deploy_stdout": "",
        "deploy_stderr": "",
        "deploy_status_code": 0,
    }
    assert "heat_outputs_path" not in os.environ  # set for the script only


def test_outputs_of_an_earlier_run_are_not_reported_again(dirs):
    outputs = [{"name": "root_url"}]
    writes = script('echo -n "url" > "$heat_outputs_path.root_url"', ("CREATE", "UPDATE"))
    assert hook(derived([writes], outputs=outputs), dirs)["root_url"] == "url"
    quiet = script("true", ("CREATE", "UPDATE"))
    assert "root_url" not in hook(derived([quiet], outputs=outputs), dirs)


def test_a_failing_script_returns_its_stderr_and_exit_code(dirs):
    answer = hook(derived([script('echo "working"; echo "disk full" >&2; exit 3')]), dirs)
    assert answer["deploy_status_code"] == 3
    assert answer["deploy_stdout"] == "working\n"
    assert answer["deploy_stderr"].startswith("disk full\n")
    assert "configs[0] exited with status 3" in answer["deploy_stderr"]


def test_a_script_killed_by_a_signal_reports_128_plus_the_signal(dirs):
    answer = hook(derived([script("kill -KILL $$")]), dirs)
    assert answer["deploy_status_code"] == 128 + 9


def test_an_error_output_with_a_value_fails_the_run(dirs):
    body = 'echo -n "license server unreachable" > "$heat_outputs_path.failure"'
    answer = hook(
        derived([script(body)], outputs=[{"name": "failure", "error_output": True}]), dirs
    )
    assert answer["failure"] == "license server unreachable"
    assert answer["deploy_status_code"] == 1
    assert "the error output 'failure' has a value" in answer["deploy_stderr"]


def test_an_error_output_keeps_a_non_zero_status(dirs):
    body = 'echo -n x > "$heat_outputs_path.failure"; exit 4'
    answer = hook(
        derived([script(body)], outputs=[{"name": "failure", "error_output": True}]), dirs
    )
    assert answer["deploy_status_code"] == 4


def test_a_config_that_cannot_be_executed_is_reported(dirs):
    document = json.loads(derived([script("true")]))
    document["config"]["configs"][0]["config"] = "echo no shebang"
    answer = hook(json.dumps(document), dirs)
    assert answer["deploy_status_code"] == 1
    assert "cannot run" in answer["deploy_stderr"]
    assert "Exec format error" in answer["deploy_stderr"]


def test_an_unwritable_working_dir_is_reported(dirs, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    answer = hook(derived([script("true")]), HookSettings(working_dir=blocker / "work"))
    assert answer["deploy_status_code"] == 1
    assert "cannot write" in answer["deploy_stderr"]


def _alive(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return False
    return fields[0] not in ("Z", "X")


def _wait_dead(pids: list[int], seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        living = [pid for pid in pids if _alive(pid)]
        if not living:
            return []
        time.sleep(0.05)
    return living


def test_a_timeout_kills_the_scripts_whole_process_group(dirs):
    body = (
        'sleep 300 &\necho $! > "$PWD/child.pid"\necho $$ > "$PWD/main.pid"\n'
        'echo "started"\nsleep 300'
    )
    settings = HookSettings(dirs.hooks_dir, dirs.working_dir, dirs.outputs_dir, timeout=1.0)
    started = time.monotonic()
    answer = hook(derived([script(body)]), settings)
    assert time.monotonic() - started < 30
    assert answer["deploy_status_code"] == 124
    assert answer["deploy_stdout"] == "started\n"
    assert "did not finish in time; its process group was killed" in answer["deploy_stderr"]
    pids = [int((dirs.working_dir / f"{n}.pid").read_text()) for n in ("main", "child")]
    assert _wait_dead(pids) == []


def test_a_script_that_ignores_sigterm_is_killed(dirs):
    body = "trap '' TERM\necho $$ > \"$PWD/main.pid\"\nwhile true; do sleep 0.1; done"
    settings = HookSettings(
        dirs.hooks_dir, dirs.working_dir, dirs.outputs_dir, timeout=0.5, kill_grace=0.5
    )
    answer = hook(derived([script(body)]), settings)
    assert answer["deploy_status_code"] == 124
    assert _wait_dead([int((dirs.working_dir / "main.pid").read_text())]) == []


def test_a_background_process_does_not_hold_the_hook(dirs):
    # The run ends when the program does, even when a child keeps its output open.
    body = 'sleep 300 &\necho $! > "$PWD/child.pid"\necho done'
    started = time.monotonic()
    answer = hook(derived([script(body)]), dirs)
    assert time.monotonic() - started < 30
    assert answer["deploy_status_code"] == 0
    assert answer["deploy_stdout"] == "done\n"
    child = int((dirs.working_dir / "child.pid").read_text())
    os.kill(child, 9)


def test_long_output_keeps_its_end(dirs, monkeypatch):
    from onespec.validators_runtime.heat.components import hook as component_hook

    monkeypatch.setattr(component_hook, "MAX_OUTPUT", 100)
    answer = hook(derived([script("seq 1 1000")]), dirs)
    assert answer["deploy_stdout"].startswith("[")
    assert "bytes cut]\n" in answer["deploy_stdout"]
    assert answer["deploy_stdout"].endswith("999\n1000\n")


# --- Choosing the config -------------------------------------------------------------------------


def test_the_config_of_the_action_runs(dirs):
    configs = [
        script("echo install", ("CREATE",)),
        script("echo reconfigure", ("UPDATE",)),
        script("echo quiesce", ("QUIESCE",)),
    ]
    for action, said in (("CREATE", "install"), ("UPDATE", "reconfigure"), ("QUIESCE", "quiesce")):
        answer = hook(derived(configs, action), dirs)
        assert answer["deploy_stdout"] == f"{said}\n"


def test_no_config_for_the_action_is_success_with_a_note(dirs):
    answer = hook(derived([script("exit 9", ("CREATE", "SUSPEND"))], "DELETE"), dirs)
    assert answer == {
        "deploy_stdout": (
            "No config of this component handles DELETE (they handle CREATE, SUSPEND); nothing "
            "to do.\n"
        ),
        "deploy_stderr": "",
        "deploy_status_code": 0,
    }


def test_two_configs_for_one_action_are_refused(dirs):
    document = json.loads(derived([script("true", ("CREATE",)), script("true", ("UPDATE",))]))
    document["config"]["configs"][1]["actions"] = ["CREATE"]
    answer = hook(json.dumps(document), dirs)
    assert answer["deploy_status_code"] == 1
    assert "configs[0] and configs[1] all handle CREATE" in answer["deploy_stderr"]


def test_entries_without_actions_default_to_create_and_update(dirs):
    document = json.loads(derived([script("echo default", ("CREATE",))], "UPDATE"))
    del document["config"]["configs"][0]["actions"]
    assert hook(json.dumps(document), dirs)["deploy_stdout"] == "default\n"


# --- Other tools ---------------------------------------------------------------------------------


def install_hook(directory: Path, name: str, body: str, executable: bool = True) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(f"#!/bin/bash\n{body}\n")
    path.chmod(0o755 if executable else 0o644)
    return path


def test_another_tool_gets_the_narrowed_json_from_its_hook(dirs, tmp_path):
    capture = tmp_path / "stdin.json"
    install_hook(
        dirs.hooks_dir,
        "puppet",
        f'cat > "{capture}"\n'
        'printf \'%s\' \'{"root_url": "http://x/", "extra": 1, "deploy_stdout": "applied",'
        ' "deploy_stderr": "", "deploy_status_code": 0}\'',
    )
    configs = [
        {"actions": ["CREATE"], "config": "class { 'appserver': }", "tool": "puppet"},
        script("echo drain", ("SUSPEND",)),
    ]
    options = {"puppet": {"modulepath": "/etc/puppet"}, "script": {"unused": True}}
    answer = hook(
        derived(
            configs,
            outputs=[{"name": "root_url"}],
            options=options,
            inputs=[{"name": "port"}],
            values={"port": 80},
        ),
        dirs,
    )
    assert answer == {
        "root_url": "http://x/",
        "deploy_stdout": "applied",
        "deploy_stderr": "",
        "deploy_status_code": 0,
    }
    given = json.loads(capture.read_text())
    assert given["id"] == "cfg-1"
    assert given["group"] == "puppet"
    assert given["config"] == "class { 'appserver': }"
    assert given["options"] == options  # whole, as Heat and heat-agents pass them
    assert given["outputs"] == [
        {"name": "root_url", "description": None, "type": "String", "error_output": False}
    ]
    values = {item["name"]: item["value"] for item in given["inputs"]}
    assert values["port"] == 80
    assert values["deploy_action"] == "CREATE"


def test_a_missing_hook_is_a_clear_json_error(dirs):
    configs = [{"actions": ["CREATE"], "config": "x", "tool": "salt"}]
    answer = hook(derived(configs), dirs)
    assert answer["deploy_status_code"] == 1
    hook_path = dirs.hooks_dir / "salt"
    assert f"no hook for the tool 'salt': {hook_path} does not exist" in answer["deploy_stderr"]
    assert "Traceback" not in answer["deploy_stderr"]


def test_a_hook_that_is_not_executable_is_a_clear_json_error(dirs):
    install_hook(dirs.hooks_dir, "salt", "exit 0", executable=False)
    answer = hook(derived([{"actions": ["CREATE"], "config": "x", "tool": "salt"}]), dirs)
    assert answer["deploy_status_code"] == 1
    assert "is not executable" in answer["deploy_stderr"]


def test_a_hook_that_does_not_answer_json_fails_the_run(dirs):
    install_hook(dirs.hooks_dir, "salt", "echo 'not json'; echo oops >&2")
    answer = hook(derived([{"actions": ["CREATE"], "config": "x", "tool": "salt"}]), dirs)
    assert answer["deploy_status_code"] == 1
    assert answer["deploy_stdout"] == "not json\n"
    assert answer["deploy_stderr"].startswith("oops\n")
    assert "did not answer with a JSON object" in answer["deploy_stderr"]


def test_a_hook_that_exits_non_zero_fails_the_run(dirs):
    install_hook(
        dirs.hooks_dir,
        "salt",
        'echo \'{"deploy_stdout": "", "deploy_stderr": "", "deploy_status_code": 0}\'\nexit 6',
    )
    answer = hook(derived([{"actions": ["CREATE"], "config": "x", "tool": "salt"}]), dirs)
    assert answer["deploy_status_code"] == 6
    assert "exited with status 6" in answer["deploy_stderr"]


def test_a_hooks_own_failure_and_error_outputs_count(dirs):
    install_hook(
        dirs.hooks_dir,
        "salt",
        'echo \'{"failure": "bad", "deploy_stdout": "", "deploy_stderr": "x",'
        ' "deploy_status_code": "0"}\'',
    )
    answer = hook(
        derived(
            [{"actions": ["CREATE"], "config": "x", "tool": "salt"}],
            outputs=[{"name": "failure", "error_output": True}],
        ),
        dirs,
    )
    assert answer["failure"] == "bad"
    assert answer["deploy_status_code"] == 1


def test_a_hook_timeout_kills_it(dirs):
    install_hook(dirs.hooks_dir, "salt", "sleep 300")
    settings = HookSettings(dirs.hooks_dir, dirs.working_dir, dirs.outputs_dir, timeout=0.5)
    answer = hook(derived([{"actions": ["CREATE"], "config": "x", "tool": "salt"}]), settings)
    assert answer["deploy_status_code"] == 124
    assert "did not finish in time" in answer["deploy_stderr"]


# --- Input that is not a derived config ----------------------------------------------------------


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b"", "not JSON"),
        (b"{", "not JSON"),
        (b"\xff\xfe", "not UTF-8"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("[]", "must be a JSON object"),
        ('{"group": "script", "config": {"configs": []}}', "not 'script'"),
        ('{"id": "../../etc/x", "config": {"configs": []}}', "cannot name a file"),
        ('{"config": "#!/bin/sh"}', "holding the list configs"),
        ('{"config": {"configs": []}, "inputs": []}', "deploy_action must name an action"),
        ('{"config": {"configs": []}, "inputs": {}}', "inputs must be a list"),
        ('{"config": {"configs": [3]}, "inputs": []}', "configs[0] must be a mapping"),
        ('{"config": {"configs": [{"tool": "../sh"}]}}', "configs[0].tool must name a tool"),
        ('{"config": {"configs": [{"tool": "component"}]}}', "configs[0].tool must name a tool"),
        ('{"config": {"configs": [{"tool": "x", "actions": "CREATE"}]}}', "list of action"),
        ('{"config": {"configs": [{"tool": "x", "config": 3}]}}', "config must be a string"),
        ('{"config": {"configs": []}, "inputs": [{"value": 1}]}', "inputs[0] must be a mapping"),
    ],
)
def test_bad_input_is_answered_with_json(dirs, stdin, message):
    answer = hook(stdin, dirs)
    assert answer["deploy_status_code"] == 1
    assert answer["deploy_stdout"] == ""
    assert answer["deploy_stderr"].startswith("onespec component hook: ")
    assert message in answer["deploy_stderr"]


def test_a_nul_in_an_input_value_is_refused(dirs):
    answer = hook(derived([script("true")], inputs=[{"name": "a"}], values={"a": "x\0y"}), dirs)
    assert answer["deploy_status_code"] == 1
    assert "cannot be an environment variable" in answer["deploy_stderr"]


def test_parse_request_reads_what_the_hook_needs():
    request = parse_request(
        json.loads(
            derived([script("true")], "CREATE", outputs=[{"name": "f", "error_output": True}])
        )
    )
    assert request.action == "CREATE"
    assert request.config_id == "cfg-1"
    assert request.outputs == (("f", True),)
    assert request.select().index == 0


# --- Properties: always a JSON answer ------------------------------------------------------------

_json = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=10,
)


_actions = st.sampled_from(["CREATE", "UPDATE", "QUIESCE", "create"])
_entries = st.fixed_dictionaries(
    {
        "tool": st.sampled_from(["script", "script", "puppet"]),
        "actions": st.lists(_actions, max_size=2),
        # Never a program that does anything but exit: these are run.
        "config": st.sampled_from(["#!/bin/sh\nexit 0\n", "#!/bin/sh\nexit 3\n", "plain", ""]),
    }
)
_junk = st.one_of(
    _json,
    st.sampled_from(["../x", "component", "", "a=b", "x\0", "deploy_stdout", "a/b"]),
)


@st.composite
def _documents(draw: st.DrawFn) -> dict:
    """A well-formed derived config, then a few of its values replaced by anything at all."""
    document: dict[str, Any] = {
        "id": "cfg-2",
        "group": "component",
        "config": {"configs": draw(st.lists(_entries, min_size=1, max_size=3))},
        "inputs": [
            {"name": "deploy_action", "value": draw(_actions)},
            *draw(
                st.lists(
                    st.fixed_dictionaries({"name": st.sampled_from(["a", "b_1"]), "value": _json}),
                    max_size=2,
                )
            ),
        ],
        "outputs": draw(
            st.lists(
                st.fixed_dictionaries(
                    {"name": st.sampled_from(["o", "a/b"]), "error_output": st.booleans()}
                ),
                max_size=2,
            )
        ),
        "options": draw(_json),
    }
    for _ in range(draw(st.integers(0, 2))):
        site = draw(st.sampled_from(["top", "entry", "input", "output"]))
        if site == "top":
            document[draw(st.sampled_from(sorted(document)))] = draw(_junk)
        elif site == "entry" and isinstance(document["config"], dict):
            entries = document["config"].get("configs")
            if isinstance(entries, list) and entries and isinstance(entries[0], dict):
                entries[0][draw(st.sampled_from(["tool", "actions", "config"]))] = draw(_junk)
        elif site in ("input", "output") and isinstance(document.get(f"{site}s"), list):
            items = document[f"{site}s"]
            if items and isinstance(items[-1], dict):
                items[-1][draw(st.sampled_from(["name", "value", "error_output"]))] = draw(_junk)
    return document


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=150)
@given(document=_documents())
def test_the_hook_always_answers_with_its_json(dirs, document):
    answer = hook(json.dumps(document), dirs)
    assert isinstance(answer["deploy_stdout"], str)
    assert isinstance(answer["deploy_stderr"], str)
    assert isinstance(answer["deploy_status_code"], int)
    assert not isinstance(answer["deploy_status_code"], bool)
    if answer["deploy_status_code"]:
        assert answer["deploy_stderr"]
    assert "Traceback" not in answer["deploy_stderr"]
    assert "internal error" not in answer["deploy_stderr"]


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stdin=st.binary(max_size=64))
def test_the_hook_answers_json_to_any_bytes(dirs, stdin):
    answer = hook(stdin, dirs)
    assert set(answer) >= RESULT_KEYS


@given(document=st.one_of(_documents(), _json))
def test_parse_request_raises_only_the_documented_error(document):
    try:
        request = parse_request(document)
    except HookInputError as error:
        assert str(error).endswith(".")
        return
    assert request.action in {value for name, value in request.inputs if name == "deploy_action"}
    for entry in request.entries:
        assert entry.tool and "/" not in entry.tool


# --- --as script: heat-agents' script-hook contract, minus its crashes --------------------------


def script_config(body: str, inputs: list[dict] | None = None, config_id: str = "1234") -> str:
    return json.dumps(
        {
            "id": config_id,
            "group": "script",
            "inputs": inputs or [],
            "outputs": [{"name": "result"}],
            "config": f"#!/bin/bash\n{body}\n",
        }
    )


def script_settings(dirs: HookSettings, **changes: Any) -> HookSettings:
    values = {
        "hooks_dir": dirs.hooks_dir,
        "working_dir": dirs.working_dir,
        "outputs_dir": dirs.outputs_dir,
        "kill_grace": 1.0,
        "mode": "script",
        **changes,
    }
    return HookSettings(**values)


def test_the_script_hook_passes_numbers_booleans_maps_and_lists_as_text(dirs):
    inputs = [
        {"name": "n", "type": "Number", "value": 8080},
        {"name": "f", "type": "Number", "value": 1.5},
        {"name": "b", "type": "Boolean", "value": True},
        {"name": "m", "type": "Json", "value": {"k": ["v", 1]}},
        {"name": "l", "type": "CommaDelimitedList", "value": ["a", "b"]},
    ]
    answer = run_script_hook(
        script_config('printf "%s|%s|%s|%s|%s" "$n" "$f" "$b" "$m" "$l"', inputs),
        script_settings(dirs),
    )
    assert answer["deploy_status_code"] == 0, answer
    assert answer["deploy_stdout"] == '8080|1.5|true|{"k": ["v", 1]}|["a", "b"]'


def test_the_script_hook_keeps_the_scripts_stderr_as_written_when_it_fails(dirs):
    answer = run_script_hook(
        script_config("echo -n 'bad thing' >&2; exit 3"), script_settings(dirs)
    )
    assert answer == {"deploy_stdout": "", "deploy_stderr": "bad thing", "deploy_status_code": 3}


def test_the_script_hook_kills_the_process_group_on_timeout(dirs):
    started = time.monotonic()
    answer = run_script_hook(
        script_config("sleep 300 & echo $! > child.pid; sleep 300"),
        script_settings(dirs, timeout=1.0),
    )
    assert time.monotonic() - started < 30
    assert answer["deploy_status_code"] == 124
    assert "process group was killed" in answer["deploy_stderr"]
    assert _wait_dead([int((dirs.working_dir / "child.pid").read_text())]) == []


def test_the_script_hook_reads_an_output_file_with_a_size_cap(dirs, monkeypatch):
    monkeypatch.setattr(hook_module, "MAX_OUTPUT_VALUE", 1000)
    answer = run_script_hook(
        script_config('head -c 5000 /dev/zero | tr "\\0" x > "$heat_outputs_path.result"'),
        script_settings(dirs),
    )
    assert answer["result"] == "x" * 1000
    assert "more than 1000 bytes" in answer["deploy_stderr"]


def test_the_script_hook_refuses_an_id_that_is_not_a_file_name(dirs):
    answer = run_script_hook(script_config("true", config_id="../escape"), script_settings(dirs))
    assert answer["deploy_status_code"] == 1
    assert "cannot name a file" in answer["deploy_stderr"]
    assert not (dirs.working_dir.parent / "escape").exists()


def test_the_script_hook_cli_exits_0_with_the_failure_in_the_status_code(tmp_path):
    import subprocess
    import sys

    onespec = Path(sys.executable).with_name("onespec")
    env = {
        **os.environ,
        "HEAT_SCRIPT_WORKING": str(tmp_path / "w"),
        "HEAT_SCRIPT_OUTPUTS": str(tmp_path / "o"),
    }
    run = subprocess.run(
        [str(onespec), "component", "hook", "--as", "script"],
        input=script_config("echo out; exit 5"),
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["deploy_status_code"] == 5
    assert (tmp_path / "w" / "1234").is_file()


# --- Bounded input and output (issue 22) ---------------------------------------------------------


def test_the_outputs_together_are_capped_and_the_answer_says_which_were_left(dirs, monkeypatch):
    monkeypatch.setattr(hook_module, "MAX_OUTPUTS_TOTAL", 3000)
    outputs = [{"name": f"o{index}"} for index in range(5)]
    body = "\n".join(
        f'head -c 1000 /dev/zero | tr "\\0" x > "$heat_outputs_path.o{index}"' for index in range(5)
    )
    answer = hook(derived([script(body)], outputs=outputs), dirs)
    assert [len(answer.get(f"o{index}", "")) for index in range(5)] == [1000, 1000, 1000, 0, 0]
    assert "'o3' was not read" in answer["deploy_stderr"]
    assert "'o4' was not read" in answer["deploy_stderr"]
