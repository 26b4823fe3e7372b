"""The plugin admin API over HTTP, on SQLite and on PostgreSQL.

Every refusal is checked to change nothing: the plugin's view is read before and after.
"""

from __future__ import annotations

import json
import threading

import pytest

from onespec.validators_runtime._generated import api as generated_api
from tests.validators_runtime.service.conftest import ADMIN, MEMBER, OTHER_PROJECT_ADMIN, error_of

FAKE_PLUGIN_DESCRIPTION = "Indicates that the plugin is switched on"


class ManyVersions:
    """A plugin with enough versions for 20 concurrent changes of 20 different labels."""

    name = "many"
    title = "Many versions"
    description = "A test plugin with eighteen versions."
    versions = tuple(f"1.{n}" for n in range(18))

    def get_labels(self):
        return {"version_labels": {"1.0": {"deprecated": {"status": True}}}}


class Ambari:
    """The seed's example plugin."""

    name = "ambari"
    title = "HDP Plugin"
    description = "HDP plugin with Ambari"
    versions = ("2.3", "2.4")

    def get_labels(self):
        return {
            "plugin_labels": {"enabled": {"status": True}},
            "version_labels": {
                "2.3": {"enabled": {"status": False}, "deprecated": {"status": True}},
                "2.4": {"stable": {"status": True}},
            },
        }


def view(api, name="fake", headers=None):
    response = api.get(f"/plugins/{name}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["plugin"]


# --- GET -----------------------------------------------------------------------------------------


def test_get_plugins_has_the_seeds_shape(serve):
    api = serve(PLUGINS=[Ambari()])
    response = api.get("/plugins", headers=MEMBER)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/json"
    (plugin,) = response.json()["plugins"]
    assert plugin["name"] == "ambari"
    assert plugin["title"] == "HDP Plugin"
    assert plugin["description"] == "HDP plugin with Ambari"
    assert plugin["versions"] == ["2.3", "2.4"]
    assert plugin["plugin_labels"]["enabled"] == {
        "description": FAKE_PLUGIN_DESCRIPTION,
        "mutable": True,
        "status": True,
    }
    version = plugin["version_labels"]["2.3"]
    assert version["enabled"] == {
        "description": "Indicates that the version is switched on",
        "mutable": True,
        "status": False,
    }
    assert version["deprecated"]["mutable"] is False
    assert version["deprecated"]["status"] is True
    assert version["stable"] == {
        "description": "Indicates that the version is stable enough to be used",
        "mutable": False,
        "status": False,
    }
    assert plugin["version_labels"]["2.4"]["stable"]["status"] is True
    for labels in (plugin["plugin_labels"], *plugin["version_labels"].values()):
        for entry in labels.values():
            assert list(entry) == ["description", "mutable", "status"]


def test_hidden_plugins_are_listed(api):
    (plugin,) = api.get("/plugins", headers=MEMBER).json()["plugins"]
    assert plugin["name"] == "fake"
    assert plugin["plugin_labels"]["hidden"]["status"] is True


def test_get_one_plugin_and_one_version(api):
    plugin = view(api, headers=MEMBER)
    assert plugin["versions"] == ["0.1", "0.2"]
    response = api.get("/plugins/fake/0.1", headers=MEMBER)
    assert response.status_code == 200
    body = response.json()["plugin"]
    assert body["version"] == "0.1"
    assert list(body["version_labels"]) == ["0.1"]
    assert body["version_labels"]["0.1"]["deprecated"]["status"] is True


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/plugins/nope", ["'nope'", "'fake'"]),
        ("/plugins/fak", ["'fak'", "Did you mean 'fake'?"]),
        ("/plugins/fake/9.9", ["'9.9'", "'0.1' and '0.2'"]),
        ("/plugins/fake/0.1/x", ["/openapi.json"]),
    ],
)
def test_unknown_plugins_versions_and_urls_are_404_with_a_message(api, path, words):
    response = api.get(path, headers=MEMBER)
    assert response.status_code == 404
    message = error_of(response)["message"]
    for word in words:
        assert word in message


def test_a_request_without_a_project_is_401(api):
    for headers in ({}, {"X-Roles": "admin"}, {**ADMIN, "X-Identity-Status": "Invalid"}):
        response = api.get("/plugins", headers=headers)
        assert response.status_code == 401
        assert "project" in error_of(response)["message"] or "confirmed" in response.text


def test_the_root_and_the_openapi_document_need_no_identity(api):
    root = api.get("/", headers={})
    assert root.status_code == 200
    assert root.json()["microversions"]["validation_version"] == "2.86"
    document = api.get("/openapi.json", headers={})
    assert document.status_code == 200
    assert document.json()["openapi"] == "3.1.0"


def test_responses_carry_the_request_id(api):
    response = api.get("/plugins", headers=MEMBER)
    assert response.headers["X-OpenStack-Request-Id"].startswith("req-")


# --- PATCH ---------------------------------------------------------------------------------------


def test_an_admin_disables_a_plugin_and_a_version_in_one_request(api):
    body = {
        "plugin_labels": {"enabled": {"status": False}},
        "version_labels": {"0.2": {"enabled": {"status": False}}},
    }
    response = api.patch("/plugins/fake", json=body)
    assert response.status_code == 200
    plugin = response.json()["plugin"]
    assert plugin["plugin_labels"]["enabled"]["status"] is False
    assert plugin["version_labels"]["0.2"]["enabled"]["status"] is False
    assert plugin["version_labels"]["0.1"]["enabled"]["status"] is True
    assert view(api, headers=MEMBER) == plugin


def test_labels_are_per_project(api):
    api.patch("/plugins/fake", json={"plugin_labels": {"hidden": {"status": False}}})
    assert view(api)["plugin_labels"]["hidden"]["status"] is False
    assert view(api, headers=OTHER_PROJECT_ADMIN)["plugin_labels"]["hidden"]["status"] is True


def test_null_returns_a_label_to_the_plugins_default(api):
    api.patch("/plugins/fake", json={"plugin_labels": {"hidden": {"status": False}}})
    response = api.patch("/plugins/fake", json={"plugin_labels": {"hidden": {"status": None}}})
    assert response.status_code == 200
    assert response.json()["plugin"]["plugin_labels"]["hidden"]["status"] is True


def test_an_empty_patch_changes_nothing_and_returns_the_plugin(api):
    before = view(api)
    response = api.patch("/plugins/fake", json={})
    assert response.status_code == 200
    assert response.json()["plugin"] == before


def test_a_non_admin_patch_is_403_and_changes_nothing(api):
    before = view(api)
    response = api.patch(
        "/plugins/fake", json={"plugin_labels": {"enabled": {"status": False}}}, headers=MEMBER
    )
    assert response.status_code == 403
    assert "onespec:plugins:update" in error_of(response)["message"]
    assert view(api) == before


@pytest.mark.parametrize("label", ["stable", "deprecated"])
def test_touching_an_immutable_label_is_400_even_beside_a_valid_change(api, label):
    before = view(api)
    body = {
        "plugin_labels": {"enabled": {"status": False}},
        "version_labels": {
            "0.1": {label: {"status": False}},
            "0.2": {"enabled": {"status": False}},
        },
    }
    response = api.patch("/plugins/fake", json=body)
    assert response.status_code == 400
    error = error_of(response)
    assert error["problems"] == [
        {
            "code": "immutable-label",
            "severity": "error",
            "message": f"Label {label!r} of version '0.1' of plugin 'fake' cannot be changed: it "
            "is immutable, and only the plugin sets it.",
            "file": None,
            "line": None,
            "path": f"/version_labels/0.1/{label}",
            "value": None,
            "suggestion": None,
        }
    ]
    assert view(api) == before


def test_an_unknown_version_is_refused_and_nothing_changes(api):
    before = view(api)
    body = {
        "version_labels": {
            "0.1": {"enabled": {"status": False}},
            "9.9": {"enabled": {"status": False}},
        }
    }
    response = api.patch("/plugins/fake", json=body)
    assert response.status_code == 400
    (problem,) = error_of(response)["problems"]
    assert (problem["code"], problem["path"]) == ("unknown-version", "/version_labels/9.9")
    assert "no version '9.9'" in problem["message"]
    assert view(api) == before


def test_patching_an_unknown_plugin_is_404(api):
    response = api.patch("/plugins/nope", json={"plugin_labels": {"enabled": {"status": False}}})
    assert response.status_code == 404
    assert "'nope'" in error_of(response)["message"]


def test_every_problem_is_reported_with_its_field(api):
    body = {
        "plugin_labels": {
            "enabeld": {"status": False},
            "enabled": {"status": "no"},
            "hidden": {"status": True, "mutable": False},
        },
        "version_labels": {"0.1": {"hidden": {"status": True}}, "0.2": []},
        "labels": {},
    }
    response = api.patch("/plugins/fake", json=body)
    assert response.status_code == 400
    fields = [problem["path"] for problem in error_of(response)["problems"]]
    assert sorted(fields) == sorted(
        [
            "/labels",
            "/plugin_labels/enabeld",
            "/plugin_labels/enabled/status",
            "/plugin_labels/hidden/mutable",
            "/version_labels/0.1/hidden",
            "/version_labels/0.2",
        ]
    )
    messages = " ".join(problem["message"] for problem in error_of(response)["problems"])
    assert "Did you mean 'enabled'?" in messages
    assert "must be true, false or null, not a string" in messages
    assert "only status can" in messages
    assert "applies to plugins only" in messages


MALFORMED = {
    "not JSON": ("application/json", b'{"plugin_labels": ', 400, "not valid JSON"),
    "an array": ("application/json", b"[]", 400, "must be a JSON object"),
    "a string": ("application/json", b'"enabled"', 400, "must be a JSON object"),
    "null": ("application/json", b"null", 400, "must be a JSON object"),
    "empty": ("application/json", b"", 400, "empty"),
    "wrong status type": (
        "application/json",
        b'{"plugin_labels": {"enabled": {"status": 0}}}',
        400,
        "not a number",
    ),
    "unknown field": ("application/json", b'{"plugin_labels": {}, "extra": 1}', 400, "'extra'"),
    "labels not an object": ("application/json", b'{"plugin_labels": [1]}', 400, "an array"),
    "versions not an object": ("application/json", b'{"version_labels": "0.1"}', 400, "a string"),
    "duplicate member": (
        "application/json",
        b'{"plugin_labels": {}, "plugin_labels": {"enabled": {"status": false}}}',
        400,
        "twice",
    ),
    "NaN": ("application/json", b'{"plugin_labels": {"enabled": {"status": NaN}}}', 400, "NaN"),
    "invalid UTF-8": ("application/json", b'{"plugin_labels": "\xff"}', 400, "UTF-8"),
    "deep nesting": ("application/json", b"[" * 200_000 + b"]" * 200_000, 400, "deeply"),
    "huge integer": ("application/json", b'{"a": ' + b"9" * 5000 + b"}", 400, "not valid JSON"),
    "2 MB": ("application/json", b'{"plugin_labels": "' + b"x" * 2_000_000 + b'"}', 413, "limit"),
    "text/plain": ("text/plain", b'{"plugin_labels": {"enabled": {"status": false}}}', 415, "JSON"),
    "no content type": (
        None,
        b'{"plugin_labels": {"enabled": {"status": false}}}',
        415,
        "Content-Type",
    ),
    "latin-1": (
        "application/json; charset=latin-1",
        b'{"plugin_labels": {"enabled": {"status": false}}}',
        415,
        "UTF-8",
    ),
}


def test_malformed_bodies_get_a_4xx_with_a_message_and_change_nothing(api):
    before = view(api)
    for name, (content_type, data, status, words) in MALFORMED.items():
        headers = dict(ADMIN)
        if content_type is not None:
            headers["Content-Type"] = content_type
        response = api.patch("/plugins/fake", data=data, headers=headers)
        assert response.status_code == status, (name, response.text[:300])
        assert words in error_of(response)["message"], (name, response.text[:300])
    assert view(api) == before


def test_a_merge_patch_media_type_is_json_too(api):
    headers = {**ADMIN, "Content-Type": "application/merge-patch+json"}
    body = json.dumps({"plugin_labels": {"hidden": {"status": False}}})
    assert api.patch("/plugins/fake", data=body, headers=headers).status_code == 200


def test_other_methods_are_405_with_allow(api):
    response = api.delete("/plugins/fake")
    assert response.status_code == 405
    assert "PATCH" in response.headers["Allow"]
    assert "does not take DELETE" in error_of(response)["message"]


# --- Concurrency and durability ------------------------------------------------------------------


def test_twenty_concurrent_patches_of_different_labels_lose_no_update(serve):
    api = serve(PLUGINS=[ManyVersions()], threads=20)
    changes = [
        {"plugin_labels": {"enabled": {"status": False}}},
        {"plugin_labels": {"hidden": {"status": True}}},
    ]
    changes += [
        {"version_labels": {v: {"enabled": {"status": False}}}} for v in ManyVersions.versions
    ]
    assert len(changes) == 20
    barrier = threading.Barrier(len(changes))
    statuses: list[int] = []

    def patch(body):
        barrier.wait()
        statuses.append(api.patch("/plugins/many", json=body).status_code)

    threads = [threading.Thread(target=patch, args=(body,)) for body in changes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 20
    plugin = view(api, "many")
    assert plugin["plugin_labels"]["enabled"]["status"] is False
    assert plugin["plugin_labels"]["hidden"]["status"] is True
    assert all(
        plugin["version_labels"][v]["enabled"]["status"] is False for v in ManyVersions.versions
    )


def test_state_survives_a_restart(serve):
    first = serve()
    first.patch("/plugins/fake", json={"version_labels": {"0.1": {"enabled": {"status": False}}}})
    before = view(first)
    first.server.stop()
    second = serve()
    assert view(second) == before
    assert before["version_labels"]["0.1"]["enabled"]["status"] is False


def test_a_label_never_changed_follows_a_new_plugin_default(serve):
    class Before(Ambari):
        pass

    class After(Ambari):
        def get_labels(self):
            labels = super().get_labels()
            labels["version_labels"]["2.4"]["enabled"] = {"status": False}
            return labels

    first = serve(PLUGINS=[Before()])
    first.patch("/plugins/ambari", json={"version_labels": {"2.3": {"enabled": {"status": True}}}})
    first.server.stop()
    second = serve(PLUGINS=[After()])
    plugin = view(second, "ambari")
    assert plugin["version_labels"]["2.3"]["enabled"]["status"] is True  # the project's choice
    assert plugin["version_labels"]["2.4"]["enabled"]["status"] is False  # the new default


def test_the_body_limit_is_the_generated_one(api):
    data = b'{"plugin_labels": "' + b"x" * (generated_api.MAX_BODY_BYTES - 10) + b'"}'
    response = api.patch(
        "/plugins/fake", data=data, headers={**ADMIN, "Content-Type": "application/json"}
    )
    assert response.status_code == 413
