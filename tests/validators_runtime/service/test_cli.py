"""The service's commands as an operator runs them: ``serve``, ``db``, ``policy``, ``plugins``.

``serve`` runs in a process of its own (it serves until a signal stops it, or exits 2 before
serving); the other commands run in-process (:mod:`tests.commands`)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests
import yaml

from tests.commands import ONESPEC, onespec, onespec_process
from tests.conftest import ROOT
from tests.validators_runtime.service.conftest import ADMIN, MEMBER


class Served:
    """``onespec serve`` in a subprocess on a free port."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [str(ONESPEC), "serve", "--port", "0", "--log-level", "warning", *args],
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        line = self.process.stderr.readline()
        match = re.search(r"on (http://127\.0\.0\.1:\d+)/", line)
        if match is None:
            rest = self.process.stderr.read() if self.process.wait(timeout=60) is not None else ""
            raise AssertionError(f"onespec serve did not start: {line}{rest}")
        self.url = match.group(1)
        # Keep reading what the server logs: a full pipe would stall it.
        self.log = threading.Thread(target=self.process.stderr.read, daemon=True)
        self.log.start()

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=30)
        self.log.join(timeout=10)
        return code


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'state' / 'onespec.db'}"


# --- db ------------------------------------------------------------------------------------------


def test_db_upgrade_creates_the_directory_and_is_idempotent(sqlite_url):
    done = onespec("db", "current", "--database-url", sqlite_url)
    assert done.returncode == 1
    assert "has no onespec tables" in done.stdout
    done = onespec("db", "upgrade", "--database-url", sqlite_url)
    assert done.returncode == 0, done.stderr
    assert "from empty to revision 0001" in done.stdout
    done = onespec("db", "upgrade", "--database-url", sqlite_url)
    assert "already at revision 0001" in done.stdout
    done = onespec("db", "current", "--database-url", sqlite_url, "--format", "json")
    assert done.returncode == 0
    assert json.loads(done.stdout)["revision"] == json.loads(done.stdout)["latest"] == "0001"


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_db_current_creates_nothing(tmp_path, output_format):
    """A read-only command: neither the database file nor its directory may appear."""
    missing = tmp_path / "not-yet" / "onespec.sqlite"
    done = onespec(
        "db", "current", "--database-url", f"sqlite:///{missing}", "--format", output_format
    )
    assert done.returncode == 1, done.stderr
    assert not missing.parent.exists()
    if output_format == "json":
        assert json.loads(done.stdout)["revision"] is None
    else:
        assert "does not exist" in done.stdout


def test_db_takes_the_url_from_the_environment(sqlite_url):
    done = onespec("db", "upgrade", env={"ONESPEC_DATABASE_URL": sqlite_url})
    assert done.returncode == 0
    assert sqlite_url.removeprefix("sqlite:///") in done.stdout


def test_a_bad_database_url_is_a_usage_error():
    done = onespec("db", "upgrade", "--database-url", "mysql://h/db")
    assert done.returncode == 2
    assert "supports sqlite and postgresql" in done.stderr


# --- policy --------------------------------------------------------------------------------------


def test_policy_sample_prints_every_default():
    done = onespec("policy", "sample")
    assert done.returncode == 0
    lines = [line[1:] for line in done.stdout.splitlines() if line.startswith('#"')]
    rules = yaml.safe_load("\n".join(lines))
    assert rules["onespec:plugins:update"] == "rule:onespec:admin"
    assert rules["onespec:admin"] == "role:admin"


# --- serve ---------------------------------------------------------------------------------------


@pytest.mark.process
def test_serve_refuses_a_database_that_is_not_upgraded(sqlite_url):
    (Path(sqlite_url.removeprefix("sqlite:///")).parent).mkdir()
    done = onespec_process("serve", "--port", "0", "--database-url", sqlite_url)
    assert done.returncode == 2
    assert "onespec db upgrade" in done.stderr


@pytest.mark.process
def test_serve_refuses_a_missing_policy_file(sqlite_url, tmp_path):
    onespec("db", "upgrade", "--database-url", sqlite_url)
    done = onespec_process(
        "serve", "--database-url", sqlite_url, "--policy-file", str(tmp_path / "no.yaml")
    )
    assert done.returncode == 2
    assert "no.yaml: no such file" in done.stderr


@pytest.mark.process
def test_state_survives_a_restart_of_the_real_command(sqlite_url, tmp_path):
    assert onespec("db", "upgrade", "--database-url", sqlite_url).returncode == 0
    policy = tmp_path / "policy.yaml"
    policy.write_text('"onespec:plugins:update": "role:plugin-admin"\n')
    first = Served("--database-url", sqlite_url, "--policy-file", str(policy))
    try:
        body = {"version_labels": {"0.1": {"enabled": {"status": False}}}}
        refused = requests.patch(f"{first.url}/plugins/fake", json=body, headers=ADMIN, timeout=30)
        assert refused.status_code == 403
        allowed = {**MEMBER, "X-Roles": "plugin-admin"}
        response = requests.patch(
            f"{first.url}/plugins/fake", json=body, headers=allowed, timeout=30
        )
        assert response.status_code == 200
    finally:
        assert first.stop() == 0
    second = Served("--database-url", sqlite_url)
    try:
        response = requests.get(f"{second.url}/plugins/fake/0.1", headers=MEMBER, timeout=30)
        assert response.json()["plugin"]["version_labels"]["0.1"]["enabled"]["status"] is False
    finally:
        assert second.stop() == 0


# --- plugins (the client) ------------------------------------------------------------------------


#: The client's behaviour does not depend on the database; SQLite is enough.
ON_SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


@pytest.fixture
def client_env(api):
    return {"ONESPEC_URL": api.url, "ONESPEC_PROJECT_ID": "project-a", "ONESPEC_ROLES": "admin"}


@ON_SQLITE
def test_without_identity_the_401_says_how_to_give_one(client_env):
    done = onespec("plugins", "list", env={"ONESPEC_URL": client_env["ONESPEC_URL"]})
    assert done.returncode == 1
    assert done.stderr.startswith("Error: The API answered 401")
    assert "('--project-id', ONESPEC_PROJECT_ID)" in done.stderr
    assert "('--token', ONESPEC_TOKEN)" in done.stderr


@ON_SQLITE
def test_plugins_list_leaves_hidden_plugins_out_unless_all(client_env):
    done = onespec("plugins", "list", env=client_env)
    assert done.returncode == 0
    assert done.stdout == "No plugins.\n"
    assert "1 hidden plugin not shown; '--all' shows it." in done.stderr
    done = onespec("plugins", "list", "--all", env=client_env)
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["NAME", "TITLE", "VERSIONS", "LABELS"]
    assert lines[1].startswith("fake  Fake plugin  0.1 (deprecated), 0.2 (stable)  enabled, hidden")
    # The table says "deprecated" beside the version: a warning would only repeat it.
    assert "is deprecated" not in done.stderr


@ON_SQLITE
def test_the_deprecated_version_warning_is_said_once_and_never_for_a_disabled_version(
    client_env,
):
    done = onespec("plugins", "show", "fake", env=client_env)
    assert done.stderr.count("warning: Version '0.1' of plugin 'fake' is deprecated") == 1
    done = onespec(
        "plugins", "update", "fake", "--disable", "--plugin-version", "0.1", env=client_env
    )
    assert done.returncode == 0, done.stderr
    assert "deprecated" not in done.stderr
    for command in (("show", "fake"), ("list", "--all"), ("list", "--all", "--format", "json")):
        done = onespec("plugins", *command, env=client_env)
        assert done.returncode == 0, done.stderr
        assert "deprecated" not in done.stderr, command


@ON_SQLITE
def test_plugins_list_json_is_the_api_s_body(client_env):
    done = onespec("plugins", "list", "--all", "--format", "json", env=client_env)
    assert done.returncode == 0
    (plugin,) = json.loads(done.stdout)["plugins"]
    assert plugin["name"] == "fake"
    assert json.loads(onespec("plugins", "list", "--format", "json", env=client_env).stdout) == {
        "plugins": []
    }


@ON_SQLITE
def test_plugins_show_and_update(client_env):
    done = onespec("plugins", "show", "fake", env=client_env)
    assert done.returncode == 0
    assert done.stdout.startswith("fake: Fake plugin\n")
    assert "Version 0.1 labels:" in done.stdout
    assert re.search(r"^  deprecated\s+yes\s+immutable\s+Indicates", done.stdout, re.M)
    done = onespec(
        "plugins", "update", "fake", "--disable", "--plugin-version", "0.2", env=client_env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Plugin 'fake': version 0.2 disabled.\n")
    listed = onespec("plugins", "list", "--all", env=client_env).stdout
    assert "0.2 (disabled, stable)" in listed
    done = onespec("plugins", "update", "fake", "--disable", "--format", "json", env=client_env)
    assert json.loads(done.stdout)["plugin_labels"]["enabled"]["status"] is False
    assert "disabled" in onespec("plugins", "list", "--all", env=client_env).stdout.splitlines()[1]


@ON_SQLITE
def test_plugins_errors_exit_one_with_the_api_s_message(client_env):
    member = {**client_env, "ONESPEC_ROLES": "member"}
    done = onespec("plugins", "update", "fake", "--enable", env=member)
    assert done.returncode == 1
    assert "The API answered 403: The policy does not allow this request" in done.stderr
    done = onespec("plugins", "update", "fake", "--enable", "--plugin-version", "9", env=client_env)
    assert done.returncode == 1
    assert "no version '9'" in done.stderr
    done = onespec("plugins", "show", "nope", env=client_env)
    assert done.returncode == 1
    assert "There is no plugin named 'nope'" in done.stderr
    done = onespec("plugins", "update", "fake", env=client_env)
    assert done.returncode == 2
    assert "give '--enable' or '--disable'" in done.stderr


def test_plugins_says_when_the_api_cannot_be_reached():
    done = onespec("plugins", "--url", "http://127.0.0.1:9", "list")
    assert done.returncode == 2  # a remote that cannot be reached, as the CLI page says (was 1)
    assert "Cannot reach the onespec API at http://127.0.0.1:9" in done.stderr
    done = onespec("plugins", "--url", "file:///etc/passwd", "list")
    assert done.returncode == 2


@pytest.mark.process
def test_the_runtime_commands_stay_fast_to_start():
    started = time.perf_counter()
    done = onespec_process("validate", "extra-specs", "hw:cpu_policy=dedicated")
    assert done.returncode == 0
    code = "import onespec.validators_runtime.cli, sys; print(sorted(sys.modules))"
    modules = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    for heavy in ("flask", "sqlalchemy", "oslo_policy", "waitress", "alembic"):
        assert f"'{heavy}'" not in modules.stdout, heavy
    assert time.perf_counter() - started < 30


@pytest.mark.process
def test_serve_says_when_the_database_cannot_be_reached(tmp_path):
    closed = "postgresql://onespec@127.0.0.1:9/onespec"
    done = onespec_process("serve", "--port", "0", "--database-url", closed)
    assert done.returncode == 2
    assert (
        "Cannot read the database postgresql+psycopg://onespec@127.0.0.1:9/onespec" in done.stderr
    )
    missing = f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.db'}"
    done = onespec_process("serve", "--port", "0", "--database-url", missing)
    assert done.returncode == 2
    assert "does not exist yet; create it with `onespec db upgrade --database-url" in done.stderr
    assert not (tmp_path / "no").exists()


@pytest.mark.process
def test_serve_on_the_embedded_default_creates_and_migrates_its_database(tmp_path, monkeypatch):
    monkeypatch.delenv("ONESPEC_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    database = tmp_path / "state" / "onespec" / "onespec.db"
    served = Served()
    try:
        response = requests.get(served.url + "/plugins", headers=MEMBER, timeout=30)
        assert response.status_code == 200
        assert [plugin["name"] for plugin in response.json()["plugins"]] == ["fake"]
    finally:
        assert served.stop() == 0
    assert database.exists()
    done = onespec("db", "current", "--database-url", f"sqlite:///{database}")
    assert done.returncode == 0, done.stdout


@pytest.mark.process
def test_serve_flavor_check_chooses_how_a_write_checks_the_whole_flavor(sqlite_url):
    from onespec.validators_runtime.service import flavor_check

    onespec("db", "upgrade", "--database-url", sqlite_url)
    done = onespec_process("serve", "--database-url", sqlite_url, "--flavor-check", "strict")
    assert done.returncode == 2
    assert "'strict' is not one of 'refuse', 'warn', 'per-key'" in done.stderr
    choices = done.stderr.split("is not one of ", 1)[1]
    assert tuple(re.findall(r"'([a-z-]+)'", choices)) == flavor_check.MODES
    headers = {**ADMIN, "OpenStack-API-Version": "compute 2.86"}
    body = {"extra_specs": {"hw:cpu_policy": "mixed"}}
    for args, status in (((), 400), (("--flavor-check", "warn"), 200)):
        served = Served("--database-url", sqlite_url, *args)
        try:
            url = served.url + "/flavors/m1/os-extra_specs"
            response = requests.post(url, json=body, headers=headers, timeout=30)
            assert response.status_code == status, response.text
        finally:
            assert served.stop() == 0
    assert "mixed-needs-a-mask" in response.headers["Warning"]
