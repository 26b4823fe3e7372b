"""``onespec plugins`` reaching the API through a cloud, as the ``openstack`` client reaches a
service: ``--os-cloud``, ``OS_CLOUD``, ``clouds.yaml`` and the ``OS_*`` variables read by
openstacksdk, a keystoneauth session, the token from Keystone and the endpoint from its
catalogue.

The API is the reference service, live (:class:`tests.servers.LiveServer`). Keystone cannot run
on a CI machine (it is a service with a database and keys of its own), so the ``password``
clouds authenticate with a stand-in that speaks Keystone v3's token API over real HTTP, and the
service checks tokens through a stand-in for keystonemiddleware
(:mod:`tests.validators_runtime.service.keystone_stand_in`); openstacksdk, keystoneauth and the
client are the real ones. The ``admin_token`` clouds (a token and an endpoint, the style of the
cloud in a box) need no Keystone: those tests use no stand-in at all.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml

from onespec.validators_runtime.service.app import create_app
from tests.commands import onespec
from tests.servers import LiveServer, free_port
from tests.validators_runtime.service.keystone_stand_in import CheckedTokens, Keystone

#: A password Keystone refuses, and a token no service knows: values made up for the tests.
WRONG = {"password": "wrong-secret"}
SOME_TOKEN = {"ONESPEC_TOKEN": "t"}

#: The client does not depend on the database; SQLite is enough.
ON_SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


@pytest.fixture
def keystone():
    stand_in = Keystone()
    yield stand_in
    stand_in.stop()


@pytest.fixture
def service(database_url, keystone):
    """The reference service behind the keystonemiddleware stand-in, registered in Keystone's
    catalogue under ``data-processing``."""
    app = create_app({"DATABASE_URL": database_url, "POOL_SIZE": 4})
    checked = CheckedTokens(app.wsgi_app, keystone)
    app.wsgi_app = checked  # type: ignore[method-assign]
    server = LiveServer(app, threads=4)
    server.checked = checked  # type: ignore[attr-defined]
    keystone.catalog["data-processing"] = server.url
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def no_cloud_of_the_machine(monkeypatch):
    """Nothing of the machine's own clouds or onespec settings in sight."""
    for name in list(os.environ):
        if name.startswith(("OS_", "ONESPEC_")):
            monkeypatch.delenv(name)


def password_cloud(keystone: Keystone, user: str = "alice", password: str | None = None) -> dict:
    from tests.validators_runtime.service.keystone_stand_in import USERS

    return {
        "auth_type": "password",
        "auth": {
            "auth_url": f"{keystone.url}/v3",
            "username": user,
            "password": USERS[user][0] if password is None else password,
            "project_name": USERS[user][1],
            "user_domain_name": "Default",
            "project_domain_name": "Default",
        },
        "region_name": "RegionOne",
    }


def clouds_yaml(tmp_path: Path, **clouds: dict[str, Any]) -> Path:
    """A clouds.yaml outside the working folder (openstacksdk searches the folder it was
    first imported in, another test's), named by OS_CLIENT_CONFIG_FILE."""
    folder = tmp_path / "etc"
    folder.mkdir(exist_ok=True)
    path = folder / "clouds.yaml"
    path.write_text(yaml.safe_dump({"clouds": clouds}))
    return path


def run(tmp_path: Path, *args: str, **env: str | None):
    variables = {"OS_CLIENT_CONFIG_FILE": str(tmp_path / "etc" / "clouds.yaml"), **env}
    done = onespec("plugins", *args, cwd=tmp_path, env=variables)
    assert "Traceback" not in done.stderr, done.stderr
    return done


# --- a Keystone with a catalogue ----------------------------------------------------------------


@ON_SQLITE
def test_a_cloud_s_keystone_gives_the_token_and_its_catalogue_the_endpoint(
    tmp_path, keystone, service
):
    clouds_yaml(tmp_path, lab=password_cloud(keystone))
    done = run(tmp_path, "--os-cloud", "lab", "list", "--all")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].startswith("fake  Fake plugin")
    # The one token Keystone gave out is the one the service was sent, and checked.
    (token,) = keystone.issued
    assert set(service.checked.seen) == {token}
    assert token in keystone.validated


@ON_SQLITE
def test_the_roles_are_keystone_s(tmp_path, keystone, service):
    clouds_yaml(tmp_path, admin=password_cloud(keystone), member=password_cloud(keystone, "bob"))
    done = run(tmp_path, "--os-cloud", "member", "update", "fake", "--disable")
    assert done.returncode == 1
    assert "The API answered 403: The policy does not allow this request" in done.stderr
    done = run(tmp_path, "--os-cloud", "admin", "update", "fake", "--disable", "-f", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["plugin_labels"]["enabled"]["status"] is False
    # Identity headers sent beside a Keystone token are replaced by what Keystone says.
    done = run(tmp_path, "--os-cloud", "member", "--roles", "admin", "update", "fake", "--enable")
    assert done.returncode == 1
    assert "403" in done.stderr


@ON_SQLITE
def test_os_cloud_and_the_os_variables_name_the_cloud_as_for_the_openstack_client(
    tmp_path, keystone, service
):
    clouds_yaml(tmp_path, lab=password_cloud(keystone))
    done = run(tmp_path, "show", "fake", OS_CLOUD="lab")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("fake: Fake plugin\n")
    auth = password_cloud(keystone)["auth"]
    variables = {f"OS_{key.upper()}": value for key, value in auth.items()}
    done = run(tmp_path, "list", "--all", "-f", "json", OS_REGION_NAME="RegionOne", **variables)
    assert done.returncode == 0, done.stderr
    assert [plugin["name"] for plugin in json.loads(done.stdout)["plugins"]] == ["fake"]
    assert len(keystone.issued) == 2


@ON_SQLITE
def test_url_overrides_the_catalogue(tmp_path, keystone, service):
    closed = f"http://127.0.0.1:{free_port()}"
    keystone.catalog["data-processing"] = closed
    clouds_yaml(tmp_path, lab=password_cloud(keystone))
    done = run(tmp_path, "--os-cloud", "lab", "list")
    assert done.returncode == 2
    assert done.stderr.startswith(f"Error: Cannot reach the onespec API at {closed}: ")
    done = run(tmp_path, "--os-cloud", "lab", "--url", service.url, "list", "--all")
    assert done.returncode == 0, done.stderr
    assert "fake" in done.stdout
    done = run(tmp_path, "--os-cloud", "lab", "list", "--all", ONESPEC_URL=service.url)
    assert done.returncode == 0, done.stderr


@ON_SQLITE
def test_an_api_refusal_through_a_cloud_is_the_api_s_message(tmp_path, keystone, service):
    clouds_yaml(tmp_path, lab=password_cloud(keystone))
    done = run(tmp_path, "--os-cloud", "lab", "show", "nope")
    assert done.returncode == 1
    assert "There is no plugin named 'nope'" in done.stderr


@ON_SQLITE
def test_a_token_of_keystone_s_given_directly_still_works(tmp_path, keystone, service):
    auth = password_cloud(keystone)["auth"]
    request = {
        "auth": {
            "identity": {
                "methods": ["password"],
                "password": {
                    "user": {
                        "name": auth["username"],
                        "password": auth["password"],
                        "domain": {"name": "Default"},
                    }
                },
            }
        }
    }
    sent = urllib.request.Request(  # noqa: S310 (the stand-in's own http URL)
        f"{keystone.url}/v3/auth/tokens",
        data=json.dumps(request).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(sent, timeout=30) as answer:  # noqa: S310
        token = answer.headers["X-Subject-Token"]
    # OS_CLOUD in the environment yields to --token on the command line.
    done = run(tmp_path, "--url", service.url, "--token", token, "list", "--all", OS_CLOUD="x")
    assert done.returncode == 0, done.stderr
    assert service.checked.seen == [token]


# --- what cannot be reached or configured: exit 2, in plain words -------------------------------


def test_wrong_credentials_are_refused_in_plain_words(tmp_path, keystone):
    clouds_yaml(tmp_path, lab=password_cloud(keystone, **WRONG))
    done = run(tmp_path, "--os-cloud", "lab", "list")
    assert done.returncode == 2
    assert "Error: cloud 'lab': cannot find the 'data-processing' service" in done.stderr
    assert "the credentials were refused" in done.stderr
    assert "wrong-secret" not in done.stderr


def test_an_unknown_cloud_says_where_clouds_yaml_was_looked_for(tmp_path, keystone):
    clouds_yaml(tmp_path, lab=password_cloud(keystone))
    done = run(tmp_path, "--os-cloud", "lba", "list")
    assert done.returncode == 2
    assert "Error: cloud 'lba': cannot find the cloud: Cloud lba was not found." in done.stderr
    assert "clouds.yaml looked for in OS_CLIENT_CONFIG_FILE=" in done.stderr


def test_a_service_type_not_in_the_catalogue(tmp_path, keystone):
    clouds_yaml(tmp_path, lab=password_cloud(keystone))
    done = run(tmp_path, "--os-cloud", "lab", "--service-type", "plugin-admin", "list")
    assert done.returncode == 2
    assert "cloud 'lab'" in done.stderr
    assert "'plugin-admin'" in done.stderr
    assert "'--url'" in done.stderr


def test_a_service_type_is_checked_before_anything_is_asked(tmp_path):
    done = run(tmp_path, "--os-cloud", "lab", "--service-type", "Data Processing", "list")
    assert done.returncode == 2
    assert "'Data Processing' is not a service type" in done.stderr


def test_keystone_that_cannot_be_reached(tmp_path):
    cloud = {
        "auth_type": "password",
        "auth": {
            "auth_url": f"http://127.0.0.1:{free_port()}/v3",
            "username": "alice",
            "password": "alice-secret",
            "project_name": "project-a",
            "user_domain_name": "Default",
            "project_domain_name": "Default",
        },
    }
    clouds_yaml(tmp_path, lab=cloud)
    done = run(tmp_path, "--os-cloud", "lab", "list")
    assert done.returncode == 2
    assert "cloud 'lab': cannot find the 'data-processing' service" in done.stderr
    assert "cannot be reached" in done.stderr


def test_without_openstacksdk_the_message_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "openstack", None)  # import openstack raises ImportError
    done = run(tmp_path, "--os-cloud", "lab", "list")
    assert done.returncode == 2
    assert "needs openstacksdk, which is not installed: pip install 'onespec[cloud]'" in (
        done.stderr
    )


def test_a_cloud_and_a_token_of_the_same_rank_are_a_usage_error(tmp_path):
    done = run(tmp_path, "--os-cloud", "lab", "--token", "t", "list")
    assert done.returncode == 2
    assert "'--os-cloud' gets a token from the cloud's Keystone and '--token' gives one" in (
        done.stderr
    )
    done = run(tmp_path, "list", OS_CLOUD="lab", **SOME_TOKEN)
    assert done.returncode == 2
    assert "both OS_CLOUD and ONESPEC_TOKEN are set" in done.stderr
    done = run(tmp_path, "list", OS_AUTH_URL="http://127.0.0.1:9/v3", **SOME_TOKEN)
    assert done.returncode == 2
    assert "both OS_AUTH_URL (the OS_* variables) and ONESPEC_TOKEN are set" in done.stderr


def test_the_command_line_s_cloud_wins_over_the_environment_s_token(tmp_path, keystone):
    clouds_yaml(tmp_path, lab=password_cloud(keystone, **WRONG))
    done = run(tmp_path, "--os-cloud", "lab", "list", **SOME_TOKEN)
    assert done.returncode == 2
    assert "the credentials were refused" in done.stderr  # Keystone was asked, not the token used


# --- admin_token: a token and an endpoint, no Keystone ------------------------------------------


@ON_SQLITE
def test_an_admin_token_cloud_reaches_the_service_at_its_endpoint(tmp_path, api):
    box = {"auth_type": "admin_token", "auth": {"token": "box-token", "endpoint": api.url}}
    clouds_yaml(tmp_path, box=box)
    # The service is reached directly, without keystonemiddleware: the identity is given.
    done = run(tmp_path, "--os-cloud", "box", "--project-id", "project-a", "--roles", "admin",
               "list", "--all")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].startswith("fake  Fake plugin")
    # Without it, the service's 401, and what to do about it.
    done = run(tmp_path, "--os-cloud", "box", "list")
    assert done.returncode == 1
    assert done.stderr.startswith("Error: The API answered 401")
    assert "The service did not accept the token of cloud 'box'" in done.stderr
    assert "('--project-id', ONESPEC_PROJECT_ID)" in done.stderr


@ON_SQLITE
def test_a_cloud_s_endpoint_override_for_the_service_type_is_used(tmp_path, api):
    closed = f"http://127.0.0.1:{free_port()}"
    box = {
        "auth_type": "admin_token",
        "auth": {"token": "box-token", "endpoint": closed},
        "data_processing_endpoint_override": api.url,
    }
    clouds_yaml(tmp_path, box=box)
    done = run(tmp_path, "--os-cloud", "box", "list", "--all", "-f", "json",
               ONESPEC_PROJECT_ID="project-a")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["plugins"][0]["name"] == "fake"
    # --url beats clouds.yaml's override.
    done = run(tmp_path, "--os-cloud", "box", "--url", closed, "list",
               ONESPEC_PROJECT_ID="project-a")  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith(f"Error: Cannot reach the onespec API at {closed}: ")


@ON_SQLITE
def test_a_shell_set_up_for_a_cloud_still_reaches_a_service_directly(tmp_path, api):
    """OS_CLOUD exported for the openstack client, and onespec's own settings of a service
    reached directly: the service is reached directly, as before there were clouds."""
    done = run(tmp_path, "list", "--all", OS_CLOUD="prod", OS_AUTH_URL="http://127.0.0.1:9/v3",
               ONESPEC_URL=api.url, ONESPEC_PROJECT_ID="project-a")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "fake" in done.stdout
    done = run(tmp_path, "--project-id", "project-a", "--url", api.url, "list", OS_CLOUD="prod")
    assert done.returncode == 0, done.stderr
