"""The API under test: a real waitress server on 127.0.0.1, over SQLite or PostgreSQL."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from onespec.validators_runtime.service.app import create_app
from tests.servers import LiveServer

ADMIN = {"X-Project-Id": "project-a", "X-User-Id": "alice", "X-Roles": "admin,member"}
MEMBER = {"X-Project-Id": "project-a", "X-User-Id": "bob", "X-Roles": "member"}
OTHER_PROJECT_ADMIN = {"X-Project-Id": "project-b", "X-User-Id": "carol", "X-Roles": "admin"}


class Api:
    """A client of one live server: ``api.get("/plugins", headers=MEMBER)``."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.url = server.url
        self.session = requests.Session()

    def request(self, method: str, path: str, headers: dict[str, str] | None = None, **kw: Any):
        merged = dict(ADMIN if headers is None else headers)
        return self.session.request(method, self.url + path, headers=merged, timeout=30, **kw)

    def get(self, path: str, **kw: Any):
        return self.request("GET", path, **kw)

    def patch(self, path: str, **kw: Any):
        return self.request("PATCH", path, **kw)

    def post(self, path: str, **kw: Any):
        return self.request("POST", path, **kw)

    def put(self, path: str, **kw: Any):
        return self.request("PUT", path, **kw)

    def delete(self, path: str, **kw: Any):
        return self.request("DELETE", path, **kw)


@pytest.fixture
def serve(database_url):
    """Start servers on the test's database: ``serve(PLUGINS=[...], threads=20)``."""
    servers: list[LiveServer] = []

    def start(threads: int = 8, **config: Any) -> Api:
        config.setdefault("POOL_SIZE", threads)
        server = LiveServer(create_app({"DATABASE_URL": database_url, **config}), threads=threads)
        servers.append(server)
        return Api(server)

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def api(serve) -> Api:
    """A server with the installed plugins (the built-in fake plugin)."""
    return serve()


#: Nova's names of the error bodies of its statuses (nova/api/openstack/wsgi.py, Fault), which
#: the flavor extra-specs endpoints answer with; written out here, not read from onespec.
NOVA_FAULTS = {400: "badRequest", 401: "unauthorized", 403: "forbidden", 404: "itemNotFound"}
NOVA_FAULTS |= {405: "badMethod", 409: "conflictingRequest", 413: "overLimit"}
NOVA_FAULTS |= {415: "badMediaType", 429: "overLimit", 501: "notImplemented"}


#: The endpoints that stand in for Nova's: a flavor's extra specs, and one of them.
NOVA_ENDPOINTS = re.compile(r"/flavors/[^/]+/os-extra_specs(?:/[^/]+)?")


def error_of(response) -> dict[str, Any]:
    """The error object of an error response, checked for its shape: Nova's fault on the flavor
    extra-specs endpoints (``{"badRequest": {"code": 400, "message": ...}}``), the API's own
    (``{"error": {"code": 400, "title": "Bad Request", ...}}``) elsewhere."""
    assert response.headers["Content-Type"] == "application/json", response.text
    body = response.json()
    if NOVA_ENDPOINTS.match(urlsplit(response.url).path):
        name = NOVA_FAULTS.get(response.status_code, "computeFault")
        assert set(body) == {name}, body
        error = body[name]
        assert "title" not in error, error
    else:
        assert set(body) == {"error"}, body
        error = body["error"]
    assert error["code"] == response.status_code
    assert error["message"][-1] in ".?", error["message"]  # full sentences
    assert error["message"][0].isupper(), error["message"]
    return error
