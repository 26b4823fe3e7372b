"""The box's stand-in for Keystone: a token that names its user, project and roles.

Test code only, never shipped: it trusts whatever the token says. A real cloud puts
keystonemiddleware's ``authtoken`` where the box puts this filter; both hand the service the same
request headers (``X-User-Id``, ``X-Project-Id``, ``X-Roles``, ``X-Identity-Status``), from which
Nova's ``keystonecontext`` and Glance's ``context`` middleware build the request context.

A token reads ``box:USER:PROJECT:ROLE,ROLE``. A request without one, or with another, is answered
401 as Keystone's middleware would. Runs inside the services' peer environments: standard library
only.
"""

PREFIX = "box:"

#: Headers a client may not set itself: they are what the token says, or nothing.
_IDENTITY = (
    "HTTP_X_USER_ID",
    "HTTP_X_USER_NAME",
    "HTTP_X_USER",
    "HTTP_X_PROJECT_ID",
    "HTTP_X_PROJECT_NAME",
    "HTTP_X_TENANT_ID",
    "HTTP_X_TENANT",
    "HTTP_X_ROLES",
    "HTTP_X_ROLE",
    "HTTP_X_IDENTITY_STATUS",
    "HTTP_X_SERVICE_CATALOG",
    "HTTP_X_USER_DOMAIN_ID",
    "HTTP_X_PROJECT_DOMAIN_ID",
)


def token(user, project, roles):
    """The token for *user* in *project* with *roles*."""
    return f"{PREFIX}{user}:{project}:{','.join(roles)}"


class TokenAuth:
    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        for name in _IDENTITY:
            environ.pop(name, None)
        parts = environ.get("HTTP_X_AUTH_TOKEN", "").split(":")
        if len(parts) != 4 or f"{parts[0]}:" != PREFIX or not all(parts[1:3]):
            body = b'{"error": {"code": 401, "title": "Unauthorized", "message": "box token"}}'
            start_response(
                "401 Unauthorized",
                [("Content-Type", "application/json"), ("Content-Length", str(len(body)))],
            )
            return [body]
        _, user, project, roles = parts
        environ.update(
            HTTP_X_IDENTITY_STATUS="Confirmed",
            HTTP_X_USER_ID=user,
            HTTP_X_USER_NAME=user,
            HTTP_X_USER_DOMAIN_ID="default",
            HTTP_X_PROJECT_ID=project,
            HTTP_X_PROJECT_NAME=project,
            HTTP_X_PROJECT_DOMAIN_ID="default",
            HTTP_X_ROLES=roles,
        )
        return self.app(environ, start_response)


def filter_factory(global_conf, **local_conf):
    return TokenAuth
