"""The flavor extra-specs API over HTTP: Nova's shapes, microversion 2.86 and ``validation``."""

from __future__ import annotations

import pytest

from tests.validators_runtime.service.conftest import ADMIN, MEMBER, error_of

V286 = {**ADMIN, "OpenStack-API-Version": "compute 2.86"}
V285 = {**ADMIN, "OpenStack-API-Version": "compute 2.85"}
SPECS = "/flavors/m1.large/os-extra_specs"


def stored(api, flavor="m1.large"):
    response = api.get(f"/flavors/{flavor}/os-extra_specs", headers=MEMBER)
    assert response.status_code == 200, response.text
    return response.json()["extra_specs"]


# --- Nova's body shapes --------------------------------------------------------------------------


def test_post_merges_put_replaces_and_get_lists(api):
    assert stored(api) == {}
    response = api.post(SPECS, json={"extra_specs": {"hw:cpu_policy": "dedicated", "a": "1"}})
    assert response.status_code == 200
    assert response.json() == {"extra_specs": {"hw:cpu_policy": "dedicated", "a": "1"}}
    api.post(SPECS, json={"extra_specs": {"b": "2"}})
    assert stored(api) == {"a": "1", "b": "2", "hw:cpu_policy": "dedicated"}
    response = api.put(SPECS, json={"extra_specs": {"c": "3"}})
    assert response.status_code == 200
    assert response.json() == {"extra_specs": {"c": "3"}}
    assert stored(api) == {"c": "3"}
    assert stored(api, "other") == {}


def test_one_key_get_put_delete(api):
    key = f"{SPECS}/hw:numa_nodes"
    assert api.get(key).status_code == 404
    response = api.put(key, json={"hw:numa_nodes": "2"})
    assert response.status_code == 200
    assert response.json() == {"hw:numa_nodes": "2"}
    assert api.get(key, headers=MEMBER).json() == {"hw:numa_nodes": "2"}
    response = api.delete(key)
    assert response.status_code == 202
    assert response.content == b""
    response = api.delete(key)
    assert response.status_code == 404
    assert "has no extra spec 'hw:numa_nodes'" in error_of(response)["message"]


def test_numbers_are_stored_as_their_decimal_text(api):
    api.post(SPECS, json={"extra_specs": {"hw:numa_nodes": 2, "ratio": 1.5}})
    assert stored(api) == {"hw:numa_nodes": "2", "ratio": "1.5"}


def test_keys_with_spaces_and_dots_work_in_urls(api):
    key = "aggregate_instance_extra_specs:rack 7.a"
    assert api.put(f"{SPECS}/{key}", json={key: "x"}).status_code == 200
    assert api.get(f"{SPECS}/{key}").json() == {key: "x"}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"specs": {}}, "'specs'"),
        ({}, "needs the member extra_specs"),
        ({"extra_specs": []}, "must be an object"),
        ({"extra_specs": {"a/b": "x"}}, "'a/b' is not valid"),
        ({"extra_specs": {"": "x"}}, "'' is not valid"),
        ({"extra_specs": {"k" * 256: "x"}}, "is not valid"),
        ({"extra_specs": {"a": "x" * 256}}, "256 characters"),
        ({"extra_specs": {"a": 10**300}}, "301 characters"),
        ({"extra_specs": {"a": True}}, "not a boolean"),
        ({"extra_specs": {"a": None}}, "not null"),
        ({"extra_specs": {"a": {"b": "c"}}}, "not an object"),
        ([], "must be an object"),
    ],
)
def test_the_api_layer_limits_apply_at_every_microversion(api, body, words):
    for headers in (ADMIN, V286):
        for method in (api.post, api.put):
            response = method(SPECS, json=body, headers=headers)
            assert response.status_code == 400, response.text
            assert words in error_of(response)["message"]
    assert stored(api) == {}


def test_values_postgresql_cannot_store_are_refused_on_every_database(api):
    response = api.post(SPECS, json={"extra_specs": {"a": "x\u0000y"}})
    assert response.status_code == 400
    assert "NUL" in error_of(response)["message"]
    data = b'{"extra_specs": {"a": "\\ud800"}}'
    response = api.post(SPECS, data=data, headers={**ADMIN, "Content-Type": "application/json"})
    assert response.status_code == 400
    assert "surrogate" in error_of(response)["message"]
    assert stored(api) == {}


def test_characters_beyond_the_basic_plane_are_stored(api):
    api.post(SPECS, json={"extra_specs": {"note": "\U0001f600 ok"}})
    assert stored(api) == {"note": "\U0001f600 ok"}


def test_an_infinite_number_is_refused(api):
    data = b'{"extra_specs": {"a": 1e999}}'
    response = api.post(SPECS, data=data, headers={**ADMIN, "Content-Type": "application/json"})
    assert response.status_code == 400
    assert "not a finite number" in error_of(response)["message"]


def test_put_of_one_key_must_name_the_url_key_exactly(api):
    key = f"{SPECS}/hw:numa_nodes"
    for body, words in (
        ({"hw:cpu_policy": "dedicated"}, "URL names 'hw:numa_nodes'"),
        ({"hw:numa_nodes": "1", "x": "y"}, "exactly one member"),
        ({}, "exactly one member"),
        ({"hw:numa_nodes": False}, "not a boolean"),
    ):
        response = api.put(key, json=body)
        assert response.status_code == 400
        assert words in error_of(response)["message"]
    assert stored(api) == {}


def test_invalid_flavor_ids_and_url_keys_are_400(api):
    assert api.get("/flavors/.hidden/os-extra_specs").status_code == 400
    assert api.get("/flavors/trailing%20/os-extra_specs").status_code == 400
    response = api.get(f"{SPECS}/bad%7Bkey%7D")
    assert response.status_code == 400
    assert "'bad{key}'" in error_of(response)["message"]


def test_reads_are_for_any_project_and_writes_for_admins(api):
    response = api.post(SPECS, json={"extra_specs": {"a": "1"}}, headers=MEMBER)
    assert response.status_code == 403
    assert api.put(f"{SPECS}/a", json={"a": "1"}, headers=MEMBER).status_code == 403
    api.post(SPECS, json={"extra_specs": {"a": "1"}})
    assert api.delete(f"{SPECS}/a", headers=MEMBER).status_code == 403
    assert stored(api) == {"a": "1"}
    assert api.get(SPECS, headers={}).status_code == 401


# --- Microversions and validation ----------------------------------------------------------------


def test_strict_refuses_a_typo_with_the_suggestion(api):
    body = {
        "extra_specs": {
            "hw:cpu_pollicy": "dedicated",
            "hw:numa_nodes": "0",
            "hw:mem_page_size": "large",
        }
    }
    for query in ("", "?validation=strict"):
        response = api.post(SPECS + query, json=body, headers=V286)
        assert response.status_code == 400
        error = error_of(response)
        findings = {finding["key"]: finding for finding in error["findings"]}
        assert set(findings) == {"hw:cpu_pollicy", "hw:numa_nodes"}
        assert findings["hw:cpu_pollicy"]["code"] == "unknown-key"
        assert findings["hw:cpu_pollicy"]["suggestion"] == "hw:cpu_policy"
        assert findings["hw:numa_nodes"]["suggestion"] == "1"
        assert "Did you mean 'hw:cpu_policy'?" in error["message"]
    assert stored(api) == {}


def test_strict_applies_to_put_of_the_set_and_of_one_key(api):
    response = api.put(SPECS, json={"extra_specs": {"hw:cpu_policy": "dedicatd"}}, headers=V286)
    assert response.status_code == 400
    assert error_of(response)["findings"][0]["suggestion"] == "dedicated"
    response = api.put(f"{SPECS}/hw:cpu_policy", json={"hw:cpu_policy": "dedicatd"}, headers=V286)
    assert response.status_code == 400
    assert stored(api) == {}


def test_permissive_accepts_an_unknown_key_but_not_an_invalid_value(api):
    response = api.post(
        SPECS + "?validation=permissive",
        json={"extra_specs": {"hw:cpu_pollicy": "x"}},
        headers=V286,
    )
    assert response.status_code == 200
    response = api.post(
        SPECS + "?validation=permissive", json={"extra_specs": {"hw:cpu_policy": "x"}}, headers=V286
    )
    assert response.status_code == 400
    assert stored(api) == {"hw:cpu_pollicy": "x"}


def test_off_accepts_anything_the_api_layer_accepts(api):
    body = {"extra_specs": {"hw:cpu_pollicy": "x", "hw:numa_nodes": "many"}}
    response = api.post(SPECS + "?validation=off", json=body, headers=V286)
    assert response.status_code == 200
    assert stored(api) == {"hw:cpu_pollicy": "x", "hw:numa_nodes": "many"}


def test_an_older_microversion_skips_validation(api):
    body = {"extra_specs": {"hw:cpu_pollicy": "x"}}
    assert api.post(SPECS, json=body, headers=V285).status_code == 200
    assert api.post(SPECS, json={"extra_specs": {"hw:numa_nodes": "0"}}).status_code == 200
    legacy = {**ADMIN, "X-OpenStack-Nova-API-Version": "2.60"}
    assert (
        api.put(f"{SPECS}/hw:cpu_policy", json={"hw:cpu_policy": "no"}, headers=legacy).status_code
        == 200
    )
    assert stored(api) == {"hw:cpu_policy": "no", "hw:cpu_pollicy": "x", "hw:numa_nodes": "0"}


def test_valid_specs_pass_strict_and_deprecated_ones_are_accepted(api):
    body = {
        "extra_specs": {"hw:cpu_policy": "dedicated", "hide_hypervisor_id": "true", "foo:bar": "x"}
    }
    assert api.post(SPECS, json=body, headers=V286).status_code == 200
    assert len(stored(api)) == 3


@pytest.mark.parametrize(
    ("headers", "query", "status", "words"),
    [
        ({"OpenStack-API-Version": "compute 2.86"}, "?validation=lenient", 400, "'lenient'"),
        (
            {"OpenStack-API-Version": "compute 2.86"},
            "?validation=off&validation=strict",
            400,
            "once",
        ),
        ({}, "?validation=strict", 400, "needs microversion 2.86"),
        ({"OpenStack-API-Version": "compute 2.87"}, "", 406, "2.1 to 2.86"),
        ({"OpenStack-API-Version": "compute 2.0"}, "", 406, "2.1 to 2.86"),
        ({"OpenStack-API-Version": "compute two"}, "", 400, "MAJOR.MINOR"),
        ({"OpenStack-API-Version": "compute"}, "", 400, "'SERVICE VERSION'"),
        ({"OpenStack-API-Version": "compute 2.86,"}, "", 400, "'SERVICE VERSION'"),
        ({"OpenStack-API-Version": "compute Latest"}, "", 400, "MAJOR.MINOR"),
        ({"OpenStack-API-Version": "compute 02.86"}, "", 400, "MAJOR.MINOR"),
        ({"OpenStack-API-Version": "bogus"}, "", 400, "'SERVICE VERSION'"),
        ({"X-OpenStack-Nova-API-Version": "3.0"}, "", 406, "not supported"),
    ],
)
def test_bad_microversions_and_validation_modes(api, headers, query, status, words):
    response = api.post(
        SPECS + query, json={"extra_specs": {"a": "1"}}, headers={**ADMIN, **headers}
    )
    assert response.status_code == status
    assert words in error_of(response)["message"]
    assert stored(api) == {}


@pytest.mark.parametrize(
    ("headers", "version"),
    [
        ({"OpenStack-API-Version": "compute 2.60, compute 2.86"}, "2.86"),
        ({"OpenStack-API-Version": "volume 3.0", "X-OpenStack-Nova-API-Version": "2.86"}, "2.86"),
    ],
    ids=["the last compute entry", "the older header when the header names no compute"],
)
def test_the_headers_are_read_as_nova_reads_them(api, headers, version):
    response = api.get(SPECS, headers={**MEMBER, **headers})
    assert response.headers["OpenStack-API-Version"] == f"compute {version}"


def test_responses_name_their_microversion(api):
    response = api.get(
        SPECS, headers={**MEMBER, "OpenStack-API-Version": "volume 3.0,\tcompute  latest "}
    )
    assert response.headers["OpenStack-API-Version"] == "compute 2.86"
    assert response.headers["Vary"] == "OpenStack-API-Version"
    assert api.get(SPECS, headers=MEMBER).headers["OpenStack-API-Version"] == "compute 2.1"
