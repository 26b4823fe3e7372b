"""The service under abuse: bounded work per request, 4xx not 500, one JSON error shape."""

from __future__ import annotations

import json
import time

import pytest
import requests

from onespec.validators_runtime._generated import api as _generated
from tests.validators_runtime.service.conftest import ADMIN, MEMBER, error_of

V286 = {**ADMIN, "OpenStack-API-Version": "compute 2.86"}
SPECS = "/flavors/m1/os-extra_specs"


def hostile_body(size: int = 1024 * 1024) -> bytes:
    """About ``size`` bytes of unknown ``hw:`` keys, just under the body limit."""
    specs: dict[str, str] = {}
    text = b""
    count = 0
    while True:
        specs[f"hw:cpu_polic{count:07d}"] = "dedicated"
        count += 1
        if count % 1000 == 0:
            text = json.dumps({"extra_specs": specs}).encode()
            if len(text) > size - 30_000:
                return text


def test_a_request_holds_at_most_the_documented_number_of_extra_specs(api):
    limit = _generated.MAX_EXTRA_SPECS_PER_REQUEST
    body = {"extra_specs": {f"hw:key_{i}": "x" for i in range(limit + 1)}}
    for method in (api.post, api.put):
        response = method(SPECS + "?validation=off", json=body, headers=V286)
        assert response.status_code == 400
        assert f"at most {limit} extra specs" in error_of(response)["message"]
    fits = {"extra_specs": {f"hw:key_{i}": "x" for i in range(limit)}}
    assert api.post(SPECS + "?validation=off", json=fits, headers=V286).status_code == 200


def test_a_megabyte_of_unknown_keys_is_answered_quickly_and_briefly(api):
    body = hostile_body()
    assert len(body) > 900_000
    headers = {**V286, "Content-Type": "application/json"}
    api.post(SPECS, data=b"{}", headers=headers)  # warm up the connection
    started = time.perf_counter()
    response = api.post(SPECS, data=body, headers=headers)
    elapsed = time.perf_counter() - started
    assert response.status_code == 400
    assert len(response.content) < 10_000
    # About 20 ms on an idle machine (make bench holds the 200 ms target); the did-you-mean
    # search per key took 8.75 s. The margin is for a loaded machine, not for the code.
    assert elapsed < 3.0, elapsed


def test_a_project_id_the_database_cannot_store_is_a_4xx(api):
    for length in (256, 1000):
        headers = {**ADMIN, "X-Project-Id": "p" * length}
        patch = {"plugin_labels": {"hidden": {"status": True}}}
        for response in (
            api.get("/plugins", headers=headers),
            api.patch("/plugins/fake", json=patch, headers=headers),
        ):
            assert response.status_code == 400, response.text
            assert "X-Project-Id" in error_of(response)["message"]
    headers = {**ADMIN, "X-Project-Id": "p" * 255}
    assert api.get("/plugins", headers=headers).status_code == 200


@pytest.mark.parametrize(
    "path",
    ["//flavors//m1//os-extra_specs", "/flavors/m1//os-extra_specs", "/plugins//fake"],
)
def test_doubled_slashes_are_a_json_404_not_a_redirect(api, path):
    response = requests.get(api.url + path, headers=MEMBER, timeout=30, allow_redirects=False)
    assert response.status_code == 404
    error_of(response)


def test_a_trailing_slash_is_served_not_redirected(api):
    response = requests.get(
        api.url + "/plugins/", headers=MEMBER, timeout=30, allow_redirects=False
    )
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/json"
    assert [p["name"] for p in response.json()["plugins"]] == ["fake"]


def test_a_refusal_of_invalid_extra_specs_starts_as_novas_does(api):
    response = api.post(SPECS, json={"extra_specs": {"hw:cpu_policy": "dedicatd"}}, headers=V286)
    assert response.status_code == 400
    message = error_of(response)["message"]
    assert message.startswith("Validation failed; ")
    assert "'dedicatd'" in message
