"""``onespec component``, as a user and as heat-config run it: the seed's app server end to end.

The app server of the specification is validated, its deployment config is built for CREATE,
UPDATE, SUSPEND, RESUME and DELETE, and each is fed to the hook, which runs the real bash scripts
of ``data/appserver/scripts`` in a temporary directory (or nothing, for RESUME and
DELETE) and returns their outputs.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests import commands

DATA = Path(__file__).parent / "data"


def onespec(*args: str, stdin: str | None = None, cwd: Path | None = None, env=None):
    return commands.onespec("component", *args, stdin=stdin, cwd=cwd, env=env)


@pytest.fixture
def appserver(tmp_path: Path) -> Path:
    """A copy of the app-server template and its scripts."""
    shutil.copytree(DATA / "appserver", tmp_path / "appserver")
    return tmp_path / "appserver" / "appserver.yaml"


# --- The seed's example, end to end --------------------------------------------------------------


def test_the_appserver_end_to_end(appserver, tmp_path):
    done = onespec("validate", str(appserver))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "appserver-config: valid; runs on CREATE, UPDATE, SUSPEND with script." in done.stdout

    work, out = tmp_path / "server" / "work", tmp_path / "server" / "out"
    hook_args = ("hook", "--working-dir", str(work), "--outputs-dir", str(out), "--timeout", "60")
    conf = work / "appserver" / "server.conf"

    def deploy(action: str, *extra: str) -> dict:
        built = onespec(
            "metadata",
            str(appserver),
            "--resource",
            "appserver-deployment",
            "--action",
            action,
            "--config-id",
            f"appserver-{action.lower()}",
            "--format",
            "json",
            *extra,
        )
        assert built.returncode == 0, built.stderr
        document = json.loads(built.stdout)
        assert document["group"] == "component"
        assert len(document["config"]["configs"]) == 3
        values = {item["name"]: item["value"] for item in document["inputs"]}
        assert values["deploy_action"] == action
        assert values["deploy_status"] == "IN_PROGRESS"
        ran = onespec(*hook_args, stdin=built.stdout)
        answer = json.loads(ran.stdout)
        assert ran.returncode == (0 if answer["deploy_status_code"] == 0 else 1)
        return answer

    created = deploy("CREATE")
    assert created == {
        "admin_url": "https://localhost:8443/admin",
        "root_url": "http://localhost:8080/",
        "deploy_stdout": "installed the application server (action CREATE, status IN_PROGRESS)\n",
        "deploy_stderr": "",
        "deploy_status_code": 0,
    }
    assert conf.read_text() == "http_port=8080\nhttps_port=8443\nconnection_timeout=30\n"

    updated = deploy("UPDATE", "--input", "http_port=9090", "--input", "default_con_timeout=60")
    assert updated == {
        "root_url": "http://localhost:9090/",
        "deploy_stdout": "reconfigured the application server (action UPDATE)\n",
        "deploy_stderr": "",
        "deploy_status_code": 0,
    }
    assert conf.read_text() == "http_port=9090\nhttps_port=8443\nconnection_timeout=60\n"

    suspended = deploy("SUSPEND")
    assert suspended["deploy_status_code"] == 0
    assert suspended["deploy_stdout"] == (
        "drained the sessions of the application server (action SUSPEND)\n"
    )
    assert "root_url" not in suspended
    assert (work / "appserver" / "draining").exists()

    before = sorted(p.name for p in work.rglob("*"))
    for action in ("RESUME", "DELETE"):
        answer = deploy(action)
        assert answer == {
            "deploy_stdout": (
                f"No config of this component handles {action} (they handle CREATE, UPDATE, "
                "SUSPEND); nothing to do.\n"
            ),
            "deploy_stderr": "",
            "deploy_status_code": 0,
        }
    assert sorted(p.name for p in work.rglob("*")) == before  # nothing ran


def test_the_update_script_fails_before_the_install(appserver, tmp_path):
    built = onespec(
        "metadata",
        str(appserver),
        "--resource",
        "appserver-deployment",
        "--action",
        "UPDATE",
        "--format",
        "json",
    )
    ran = onespec(
        "hook",
        "--working-dir",
        str(tmp_path / "w"),
        "--outputs-dir",
        str(tmp_path / "o"),
        stdin=built.stdout,
    )
    assert ran.returncode == 1
    answer = json.loads(ran.stdout)
    assert answer["deploy_status_code"] == 3
    assert answer["deploy_stderr"].startswith("the application server is not installed\n")


# --- validate ------------------------------------------------------------------------------------

BROKEN = """\
heat_template_version: 2015-04-30
resources:
  good:
    type: OS::Heat::SoftwareComponent
    properties:
      configs:
        - {actions: [CREATE, QUIESCE], config: "#!/bin/sh\\n", tool: script}
  bad:
    type: OS::Heat::SoftwareComponent
    properties:
      configs:
        - {actions: [CREATE], config: "#!/bin/sh\\n", tool: script}
        - {config: "#!/bin/sh\\n", tool: script}
      inputs:
        - {name: port, type: Number, default: eighty}
"""


def test_validate_reports_every_problem_with_its_path(tmp_path):
    template = tmp_path / "broken.yaml"
    template.write_text(BROKEN)
    done = onespec("validate", str(template))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == (
        f"{template}: good: valid; runs on CREATE, QUIESCE with script; extended actions "
        "QUIESCE run only when a deployment passes them by name."
    )
    assert lines[1] == f"{template}: bad: invalid (2 problems)"
    assert lines[2].startswith("  error: [duplicate-action] configs[1].actions: This config leaves")
    assert lines[3].startswith("  error: [invalid-value] inputs[0].default: The default 'eighty'")
    assert lines[4] == "2 components checked in 1 template: 1 invalid, 0 unreadable."


def test_validate_json(tmp_path, appserver):
    template = tmp_path / "broken.yaml"
    template.write_text(BROKEN)
    done = onespec("validate", "--format", "json", str(appserver), str(template))
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["valid"] is False
    first, second = report["templates"]
    assert first["valid"] is True
    assert first["components"][0]["actions"] == ["CREATE", "UPDATE", "SUSPEND"]
    good, bad = second["components"]
    assert good["extended_actions"] == ["QUIESCE"]
    assert [p["path"] for p in bad["problems"]] == ["configs[1].actions", "inputs[0].default"]
    # The one JSON shape of a finding, as every area's --format json writes it.
    assert set(bad["problems"][0]) == {
        "code",
        "severity",
        "message",
        "file",
        "line",
        "path",
        "value",
        "suggestion",
    }
    assert bad["problems"][0]["severity"] == "error"


def test_validate_an_unreadable_template(tmp_path):
    template = tmp_path / "t.yaml"
    template.write_text("heat_template_version: 2015-04-30\nresources: [\n")
    done = onespec("validate", str(template))
    assert done.returncode == 1
    assert done.stdout.startswith(f"error: {template}:")
    assert f"{template}:3: not valid YAML: " in done.stdout
    assert "1 unreadable" in done.stdout


def test_validate_a_template_without_components(tmp_path):
    template = tmp_path / "t.yaml"
    template.write_text("heat_template_version: 2015-04-30\nresources: {}\n")
    done = onespec("validate", str(template))
    assert done.returncode == 0
    assert "no OS::Heat::SoftwareComponent resources" in done.stdout


def test_validate_with_parameters_and_files_root(tmp_path):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "s.sh").write_text("#!/bin/sh\n")
    (tmp_path / "t").mkdir()
    template = tmp_path / "t" / "t.yaml"
    template.write_text(
        "heat_template_version: 2015-04-30\nparameters:\n  port: {type: number}\n"
        "resources:\n  c:\n    type: OS::Heat::SoftwareComponent\n    properties:\n"
        "      configs: [{config: {get_file: ../scripts/s.sh}, tool: script}]\n"
        "      inputs: [{name: port, type: Number, default: {get_param: port}}]\n"
    )
    assert onespec("validate", str(template)).returncode == 1  # outside the template's directory
    done = onespec("validate", "--files-root", str(tmp_path), "-P", "port=x", str(template))
    assert done.returncode == 1
    assert "inputs[0].default" in done.stdout
    done = onespec("validate", "--files-root", str(tmp_path), "-P", "port=80", str(template))
    assert done.returncode == 0, done.stdout
    done = onespec("validate", "-P", "port", str(template))
    assert done.returncode == 2
    assert "'port' is not NAME=VALUE" in done.stderr


def test_validate_usage_errors_exit_two():
    assert onespec("validate").returncode == 2
    assert onespec("validate", "--format", "xml", "t.yaml").returncode == 2


# --- metadata ------------------------------------------------------------------------------------


def test_metadata_text(appserver):
    done = onespec(
        "metadata", str(appserver), "--resource", "appserver-deployment", "--action", "UPDATE"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:4] == [
        "appserver-deployment deploys appserver-config (OS::Heat::SoftwareComponent) for UPDATE "
        "(IN_PROGRESS).",
        "The hook runs configs[1] with the tool script.",
        "The deployment runs for CREATE, UPDATE, SUSPEND; not for DELETE, RESUME.",
        "Inputs:",
    ]
    assert "  http_port = 8080" in lines
    assert '  deploy_server_id = "appserver"' in lines
    assert '  deploy_signal_transport = "HEAT_SIGNAL"' in lines
    assert lines[-1] == "Outputs: admin_url, root_url"


def test_metadata_for_an_action_without_config(appserver):
    done = onespec(
        "metadata", str(appserver), "--resource", "appserver-deployment", "--action", "RESUME"
    )
    assert done.returncode == 0
    assert "No config handles RESUME: Heat does not run the deployment for it" in done.stdout


def test_metadata_of_a_component_with_status_and_inputs(appserver):
    done = onespec(
        "metadata",
        str(appserver),
        "--resource",
        "appserver-config",
        "--action",
        "DELETE",
        "--status",
        "COMPLETE",
        "--input",
        "https_port=443",
        "--server-id",
        "9f1c",
        "--stack-id",
        "s/1",
        "--format",
        "json",
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    values = {item["name"]: item["value"] for item in document["inputs"]}
    assert values["https_port"] == "443"
    assert values["http_port"] is None
    assert values["deploy_status"] == "COMPLETE"
    assert values["deploy_server_id"] == "9f1c"
    assert values["deploy_stack_id"] == "s/1"
    assert values["deploy_resource_name"] == "appserver-config"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--resource", "appserver", "--action", "CREATE"), "is a OS::Nova::Server"),
        (("--resource", "nothing", "--action", "CREATE"), "is not a resource"),
        (("--resource", "appserver-config", "--action", "create"), "is not an action"),
        (("--resource", "appserver-config", "--action", "CREATE", "--status", "DONE"), "DONE"),
        (("--resource", "appserver-config", "--action", "CREATE", "--input", "x"), "NAME=VALUE"),
        (("--action", "CREATE"), "Missing option '--resource'"),
    ],
)
def test_metadata_usage_errors_exit_two(appserver, args, message):
    done = onespec("metadata", str(appserver), *args)
    assert done.returncode == 2
    assert message in done.stderr


def test_metadata_of_an_invalid_component_exits_one(appserver):
    done = onespec(
        "metadata",
        str(appserver),
        "--resource",
        "appserver-deployment",
        "--action",
        "CREATE",
        "--input",
        "deploy_action=x",
    )
    assert done.returncode == 1
    assert "[reserved-name] input_values.deploy_action" in done.stderr


# --- hook ----------------------------------------------------------------------------------------


def test_the_hook_answers_json_to_garbage(tmp_path):
    done = onespec("hook", "--working-dir", str(tmp_path), stdin="not json")
    assert done.returncode == 1
    answer = json.loads(done.stdout)
    assert answer["deploy_status_code"] == 1
    assert "The input is not JSON" in answer["deploy_stderr"]


def test_the_hook_answers_json_to_bad_options_too():
    done = onespec("hook", "--timeout", "-1", stdin="{}")
    assert done.returncode == 2
    answer = json.loads(done.stdout)
    assert answer["deploy_status_code"] == 2
    assert "--timeout" in answer["deploy_stderr"]
    assert "Usage:" in done.stderr


def test_the_hooks_dir_comes_from_heat_config_hooks(tmp_path):
    import os

    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "salt").write_text(
        '#!/bin/sh\necho \'{"deploy_stdout": "salted", "deploy_stderr": "", '
        '"deploy_status_code": 0}\'\n'
    )
    (hooks / "salt").chmod(0o755)
    document = {
        "id": "x1",
        "group": "component",
        "config": {"configs": [{"actions": ["CREATE"], "config": "", "tool": "salt"}]},
        "inputs": [{"name": "deploy_action", "value": "CREATE"}],
    }
    env = {**os.environ, "HEAT_CONFIG_HOOKS": str(hooks)}
    done = onespec("hook", stdin=json.dumps(document), env=env)
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout)["deploy_stdout"] == "salted"


# --- actions and help ----------------------------------------------------------------------------


def test_actions_lists_when_each_fires():
    done = onespec("actions")
    assert done.returncode == 0
    assert done.stdout.startswith("CREATE (default): Install")
    for action in ("UPDATE", "DELETE", "SUSPEND", "RESUME"):
        assert f"\n{action}" in done.stdout
    report = json.loads(onespec("actions", "--format", "json").stdout)
    assert [a["name"] for a in report["actions"]] == [
        "CREATE",
        "UPDATE",
        "DELETE",
        "SUSPEND",
        "RESUME",
    ]
    assert {"fires", "hook_receives", "summary"} <= set(report["actions"][0])
    assert report["default_actions"] == ["CREATE", "UPDATE"]


@pytest.mark.parametrize("command", [(), ("validate",), ("metadata",), ("hook",), ("actions",)])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_every_command_has_help(command, flag):
    done = onespec(*command, flag)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: onespec component")


def test_component_is_listed_in_the_root_help():
    done = commands.onespec("--help")
    assert "component" in done.stdout


def test_a_huge_integer_is_a_located_error_in_process(tmp_path):
    """A YAML integer Python will not read (4,301+ digits): the file and line, exit 1."""
    from click.testing import CliRunner

    from onespec.validators_runtime.heat.components.cli import component

    path = tmp_path / "t.yaml"
    path.write_text(
        "heat_template_version: 2016-10-14\nparameters:\n  n:\n    default: 1\n"
        "resources:\n  c:\n    type: OS::Heat::SoftwareComponent\n"
        f"    properties: {{configs: [], x: {'9' * 5000}}}\n"
    )
    result = CliRunner().invoke(component, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{path}:8:" in result.output and "digits" in result.output
