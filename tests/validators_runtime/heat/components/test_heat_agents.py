"""onespec's hooks in the agent people run: heat-agents 13.0.0, from its source distribution.

* The stock ``55-heat-config`` (the os-refresh-config step that runs every hook) is run on a
  derived config that ``onespec component metadata`` produced, with its configuration, state and
  hooks directories in a temporary folder and onespec installed as the guide says (the hook
  ``script`` is ``onespec component hook --as script``). The agent handles group ``component``
  itself -- it picks the entry for ``deploy_action`` and calls the hook of that entry's tool --
  so onespec's code runs as the ``script`` hook, and the outputs come back through the agent's
  own notification step.
* heat-agents' own ``tests/test_hook_script.py`` runs against onespec's ``script`` hook: its test
  files copied unchanged, only the hook they run replaced (``hook-script.py`` is a two-line shell
  script that execs onespec).

Deliberate differences from heat-agents' ``hook-script.py`` (none of them is exercised by its
tests, which pass unchanged; each is tested in ``tests/validators_runtime/heat/components``):

1. Number and Boolean inputs become text (``8080``, ``true``); heat-agents crashes with
   ``TypeError: expected str, bytes or os.PathLike object, not int``.
2. ``--timeout`` kills the script's whole process group and answers status code 124;
   heat-agents waits forever.
3. An output file is read up to 1 MiB (the result says when it was cut); heat-agents reads it
   whole.
4. An ``id`` that is not a plain file name (``../x``) is refused with a message; heat-agents
   writes the script wherever the id points.
5. Input values are not logged to the hook's standard error; heat-agents logs every one,
   ``deploy_password`` included.
6. The script's output goes to files, not pipes, so a background process the script leaves
   behind cannot hold the hook open.
7. An output file left by an earlier run (the script did not write it this time) is not
   returned; heat-agents returns it as this run's value
   (``test_an_output_left_by_an_earlier_run_is_returned_by_heat_agents_only``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import peers

ONESPEC = Path(sys.executable).with_name("onespec")

COMPONENT = """\
heat_template_version: 2016-10-14
resources:
  config:
    type: OS::Heat::SoftwareComponent
    properties:
      configs:
        - actions: [CREATE]
          tool: script
          config: |
            #!/bin/sh
            echo "created with port=$port debug=$debug tags=$tags"
            echo "a warning" >&2
            printf '%s' "$port|$debug|$tags|$PWD" > "$heat_outputs_path.summary"
        - actions: [DELETE]
          tool: script
          config: |
            #!/bin/sh
            exit 0
      inputs:
        - name: port
          type: Number
          default: 8080
        - name: debug
          type: Boolean
          default: true
        - name: tags
          type: Json
          default: {"tier": "web"}
      outputs:
        - name: summary
"""


@pytest.fixture(scope="module")
def heat_agents() -> Path:
    return peers.require("heat-agents")


def _derived(tmp_path: Path) -> dict:
    template = tmp_path / "component.yaml"
    template.write_text(COMPONENT)
    printed = subprocess.run(
        [
            *(str(ONESPEC), "component", "metadata", str(template), "--resource", "config"),
            *("--action", "CREATE", "--config-id", "c0ffee", "--format", "json"),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(printed)


def _run_agent(agent: Path, tmp_path: Path, hook: str) -> tuple[dict, str, Path]:
    """Run the stock 55-heat-config on the derived config with ``hook`` as hooks/script."""
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "script").write_text(hook)
    (hooks / "script").chmod(0o755)
    conf = tmp_path / "heat-config"
    conf.write_text(json.dumps([_derived(tmp_path)]))
    notified = tmp_path / "notified.json"
    notify = tmp_path / "notify"
    notify.write_text(f"#!/bin/sh\ncat > {notified}\n")
    notify.chmod(0o755)
    env = {
        **os.environ,
        "HEAT_CONFIG_HOOKS": str(hooks),
        "HEAT_SHELL_CONFIG": str(conf),
        "HEAT_CONFIG_DEPLOYED": str(tmp_path / "deployed"),
        "HEAT_CONFIG_DEPLOYED_OLD": str(tmp_path / "deployed-old"),
        "HEAT_CONFIG_NOTIFY": str(notify),
        "HEAT_SCRIPT_WORKING": str(tmp_path / "working"),
        "HEAT_SCRIPT_OUTPUTS": str(tmp_path / "outputs"),
    }
    script = agent / "heat-config/os-refresh-config/configure.d/55-heat-config"
    run = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    signal = json.loads(notified.read_text()) if notified.exists() else {}
    return signal, run.stderr, tmp_path / "deployed"


def test_the_stock_agent_runs_onespecs_script_hook_for_a_component(heat_agents, tmp_path):
    hook = f"#!/bin/sh\nexec {ONESPEC} component hook --as script --timeout 600\n"
    signal, log, deployed = _run_agent(heat_agents, tmp_path, hook)
    # The agent chose configs[0] for CREATE and handed it to hooks/script: onespec.
    handed = json.loads((deployed / "c0ffee.json").read_text())
    assert handed["group"] == "script"
    assert handed["config"].startswith('#!/bin/sh\necho "created')
    # onespec's code ran: a Number, a Boolean and a Json input reached the script as text
    # (heat-agents' own hook crashes on the first), and the output came back to the agent.
    working = tmp_path / "working"
    assert signal == {
        "summary": f'8080|true|{{"tier": "web"}}|{working}',
        "deploy_stdout": 'created with port=8080 debug=true tags={"tier": "web"}\n',
        "deploy_stderr": "a warning\n",
        "deploy_status_code": 0,
    }, log
    assert (working / "c0ffee").read_text() == handed["config"]


def test_the_stock_script_hook_crashes_on_the_same_component(heat_agents, tmp_path):
    """What onespec's hook replaces: heat-agents' own hook-script.py on the same config."""
    stock = heat_agents / "heat-config-script/install.d/hook-script.py"
    hook = f"#!/bin/sh\nexec {sys.executable} {stock}\n"
    signal, _, _ = _run_agent(heat_agents, tmp_path, hook)
    assert signal["deploy_status_code"] != 0
    assert "TypeError" in signal["deploy_stderr"]
    assert "summary" not in signal


def test_heat_agents_own_script_hook_tests_pass_against_onespec(heat_agents, tmp_path):
    pytest.importorskip("testtools")
    pytest.importorskip("fixtures")
    shutil.copytree(heat_agents / "tests", tmp_path / "tests")
    hook = tmp_path / "heat-config-script" / "install.d" / "hook-script.py"
    hook.parent.mkdir(parents=True)
    hook.write_text(f"#!/bin/sh\nexec {ONESPEC} component hook --as script\n")
    hook.chmod(0o755)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "-rA",
            "tests/test_hook_script.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout, run.stdout
    assert "PASSED tests/test_hook_script.py::HookScriptTest::test_hook" in run.stdout
    assert "PASSED tests/test_hook_script.py::HookScriptTest::test_hook_failed" in run.stdout


def _script_hook_answer(command: list[str], tmp_path: Path) -> dict:
    """A script hook's answer to a config that declares the output ``left`` but never writes
    it, run where an earlier run left ``ID.left`` behind."""
    outputs = tmp_path / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "c0ffee.left").write_text("from an earlier run")
    config = {
        "id": "c0ffee",
        "group": "script",
        "config": "#!/bin/sh\nexit 0\n",
        "inputs": [],
        "outputs": [{"name": "left"}],
        "options": {},
    }
    env = {
        **os.environ,
        "HEAT_SCRIPT_WORKING": str(tmp_path / "working"),
        "HEAT_SCRIPT_OUTPUTS": str(outputs),
    }
    run = subprocess.run(
        command,
        input=json.dumps(config),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_an_output_left_by_an_earlier_run_is_returned_by_heat_agents_only(heat_agents, tmp_path):
    """Deliberate difference 7: a value the script did not write this time is not its value."""
    stock = heat_agents / "heat-config-script/install.d/hook-script.py"
    theirs = _script_hook_answer([sys.executable, str(stock)], tmp_path / "stock")
    assert theirs["deploy_status_code"] == 0
    assert theirs["left"] == "from an earlier run"
    ours = _script_hook_answer(
        [str(ONESPEC), "component", "hook", "--as", "script"], tmp_path / "onespec"
    )
    assert ours["deploy_status_code"] == 0
    assert "left" not in ours
