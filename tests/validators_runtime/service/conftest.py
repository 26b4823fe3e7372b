"""The API under test: a real waitress server on 127.0.0.1, over SQLite or PostgreSQL."""

from __future__ import annotations

from typing import Any

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


def error_of(response) -> dict[str, Any]:
    """The error object of an error response, checked for the API's one error shape."""
    assert response.headers["Content-Type"] == "application/json", response.text
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert error["code"] == response.status_code
    assert error["message"][-1] in ".?", error["message"]  # full sentences
    assert error["message"][0].isupper(), error["message"]
    return error
