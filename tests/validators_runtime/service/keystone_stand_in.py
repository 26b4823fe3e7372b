"""A stand-in for Keystone and for keystonemiddleware, for the tests of ``onespec plugins
--os-cloud``.

Keystone is a service of its own (a database, fernet keys, a WSGI server); it cannot run on a CI
machine. What the client needs of it is small and public: Keystone v3's token API, which
keystoneauth speaks. :class:`Keystone` answers it on 127.0.0.1, with real HTTP: the version
document keystoneauth discovers (``GET /v3``), ``password`` authentication (``POST
/v3/auth/tokens``: a token in ``X-Subject-Token`` and a catalogue in the body) and the token's
validation (``GET /v3/auth/tokens``), which keystonemiddleware asks for.

:class:`CheckedTokens` stands where keystonemiddleware's ``auth_token`` stands in front of a
service: it drops the identity headers a client sent, asks Keystone about the request's token and
sets the headers from Keystone's answer. Test code only: neither is a Keystone, and neither
checks anything a real one would beyond what the tests need.
"""

from __future__ import annotations

import json
import secrets
import threading
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: The users Keystone knows: name -> (password, project, roles).
USERS = {
    "alice": ("alice-secret", "project-a", ("admin", "member")),
    "bob": ("bob-secret", "project-a", ("member",)),
}
#: The media type Keystone's v3 version document names.
IDENTITY_V3_MEDIA_TYPE = "application/vnd.openstack.identity-v3+json"
#: The most bytes of a request body the stand-in reads.
MAX_BODY = 64 * 1024


class Keystone:
    """Keystone v3's token API on a free port of 127.0.0.1, in a thread of this process.

    ``catalog`` maps a service type to its public URL in RegionOne; ``issued`` maps each token
    given out to its user."""

    def __init__(self) -> None:
        self.catalog: dict[str, str] = {}
        self.issued: dict[str, str] = {}
        self.validated: list[str] = []
        keystone = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet: the tests read no log
                return

            def do_GET(self) -> None:
                if self.path.rstrip("/") == "/v3":
                    self.answer(200, keystone.version())
                elif self.path == "/v3/auth/tokens":
                    token = self.headers.get("X-Subject-Token", "")
                    user = keystone.issued.get(token)
                    if user is None:
                        self.answer(404, _error(404, "The token is not known."))
                        return
                    keystone.validated.append(token)
                    self.answer(200, keystone.token_body(user), {"X-Subject-Token": token})
                else:
                    self.answer(404, _error(404, "Not found."))

            def do_POST(self) -> None:
                if self.path != "/v3/auth/tokens":
                    self.answer(404, _error(404, "Not found."))
                    return
                length = int(self.headers.get("Content-Length") or 0)
                if length > MAX_BODY:
                    self.answer(413, _error(413, "Too large."))
                    return
                try:
                    user = keystone.authenticate(json.loads(self.rfile.read(length)))
                except (ValueError, KeyError, TypeError):
                    self.answer(400, _error(400, "Not an auth request."))
                    return
                if user is None:
                    self.answer(401, _error(401, "The credentials are not known."))
                    return
                token = secrets.token_hex(16)
                keystone.issued[token] = user
                self.answer(201, keystone.token_body(user), {"X-Subject-Token": token})

            def answer(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)

    def version(self) -> dict[str, Any]:
        return {
            "version": {
                "id": "v3.14",
                "status": "stable",
                "updated": "2020-04-07T00:00:00Z",
                "links": [{"rel": "self", "href": f"{self.url}/v3/"}],
                "media-types": [{"base": "application/json", "type": IDENTITY_V3_MEDIA_TYPE}],
            }
        }

    def authenticate(self, request: dict[str, Any]) -> str | None:
        """The user a ``password`` auth request names, when its password is right."""
        identity = request["auth"]["identity"]
        if identity["methods"] != ["password"]:
            return None
        user = identity["password"]["user"]
        known = USERS.get(user["name"])
        if known is None or known[0] != user["password"]:
            return None
        if user.get("domain", {}).get("name", "Default") != "Default":
            return None
        return str(user["name"])

    def token_body(self, user: str) -> dict[str, Any]:
        _, project, roles = USERS[user]
        now = datetime.now(UTC)
        domain = {"id": "default", "name": "Default"}
        return {
            "token": {
                "methods": ["password"],
                "issued_at": now.strftime("%Y-%m-%dT%H:%M:%S.000000Z"),
                "expires_at": (now + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%S.000000Z"),
                "user": {"id": f"{user}-id", "name": user, "domain": domain},
                "project": {"id": project, "name": project, "domain": domain},
                "roles": [{"id": f"{role}-id", "name": role} for role in roles],
                "catalog": [
                    {
                        "id": f"{kind}-service",
                        "type": kind,
                        "name": kind,
                        "endpoints": [
                            {
                                "id": f"{kind}-public",
                                "interface": "public",
                                "region": "RegionOne",
                                "region_id": "RegionOne",
                                "url": url,
                            }
                        ],
                    }
                    for kind, url in {"identity": f"{self.url}/v3", **self.catalog}.items()
                ],
            }
        }


def _error(code: int, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "title": "Error", "message": message}}


#: Headers a client may not set itself behind keystonemiddleware.
_IDENTITY = ("HTTP_X_PROJECT_ID", "HTTP_X_USER_ID", "HTTP_X_ROLES", "HTTP_X_IDENTITY_STATUS")


class CheckedTokens:
    """keystonemiddleware's part, as WSGI middleware: a request's identity is what Keystone
    says of its token, or nothing. ``seen`` lists the tokens the service was sent."""

    def __init__(self, app: Any, keystone: Keystone) -> None:
        self.app, self.keystone = app, keystone
        self.seen: list[str] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        for name in _IDENTITY:
            environ.pop(name, None)
        token = environ.get("HTTP_X_AUTH_TOKEN")
        if token:
            self.seen.append(token)
            request = urllib.request.Request(  # noqa: S310 (the stand-in's own http URL)
                f"{self.keystone.url}/v3/auth/tokens", headers={"X-Subject-Token": token}
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
                    body = json.loads(response.read())["token"]
            except urllib.error.HTTPError:
                environ["HTTP_X_IDENTITY_STATUS"] = "Invalid"
            else:
                environ.update(
                    HTTP_X_IDENTITY_STATUS="Confirmed",
                    HTTP_X_PROJECT_ID=body["project"]["id"],
                    HTTP_X_USER_ID=body["user"]["id"],
                    HTTP_X_ROLES=",".join(role["name"] for role in body["roles"]),
                )
        return self.app(environ, start_response)
