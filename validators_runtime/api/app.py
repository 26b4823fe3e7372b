"""The Flask application: ``create_app(config)``.

Identity comes from the headers keystonemiddleware sets (``X-Project-Id``, ``X-User-Id``,
``X-Roles``, ``X-Identity-Status``), read through oslo.context; the service itself never checks
tokens, so it must run behind keystonemiddleware (or a proxy that sets those headers from a
checked identity). Every operation but ``GET /`` and ``GET /openapi.json`` needs a request scoped
to a project (else 401) that the policy allows (else 403).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, current_app, g, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from definitions.model import PluginProblem
from validators_runtime._generated import api as _generated
from validators_runtime.api import microversion
from validators_runtime.api.errors import ApiError, Forbidden, Unauthorized, error_response
from validators_runtime.api.flavor_store import FlavorSpecStore
from validators_runtime.plugins.manager import LabelManager
from validators_runtime.plugins.spi import collect, load_plugins
from validators_runtime.plugins.store import PluginStore, create_engine, default_database_url

if TYPE_CHECKING:
    from oslo_context.context import RequestContext
    from oslo_policy.policy import Enforcer
    from sqlalchemy.engine import Engine

LOG = logging.getLogger(__name__)
ACCESS_LOG = logging.getLogger("validators_runtime.api.access")

#: The response header that carries the request's ID, as OpenStack services send it.
REQUEST_ID_HEADER = "X-OpenStack-Request-Id"


@dataclass
class Services:
    """What the request handlers use, built once per application."""

    manager: LabelManager
    specs: FlavorSpecStore
    enforcer: Enforcer
    engine: Engine
    problems: tuple[PluginProblem, ...]


def services() -> Services:
    """The services of the application handling the current request."""
    return current_app.extensions["onespec"]


def request_context() -> RequestContext:
    """The caller's identity, from keystonemiddleware's headers; 401 without a project."""
    context = g.get("context")
    if context is not None:
        return context
    environ = request.environ
    status = environ.get("HTTP_X_IDENTITY_STATUS")
    if status is not None and status.strip().lower() != "confirmed":
        raise Unauthorized(
            f"The request's identity was not confirmed (X-Identity-Status: {status}); "
            "authenticate again."
        )
    from oslo_context.context import RequestContext

    context = RequestContext.from_environ(environ)
    if not context.project_id:
        raise Unauthorized(
            "The request is not scoped to a project: it must come through keystonemiddleware, "
            "which sets X-Project-Id from a token scoped to one."
        )
    g.context = context
    return context


def authorize(rule: str) -> RequestContext:
    """Check the policy ``rule`` for the caller; 401 without identity, 403 when refused."""
    from validators_runtime.plugins.policy import authorize as allowed

    context = request_context()
    if not allowed(services().enforcer, rule, context):
        raise Forbidden(
            f"The policy does not allow this request ({rule}); it needs "
            f"{_needs(services().enforcer, rule)}."
        )
    return context


def _needs(enforcer: Enforcer, rule: str) -> str:
    check = enforcer.rules.get(rule)
    return f"'{check}'" if check is not None else "a rule the policy file defines"


def _settings(config: Mapping[str, Any] | None) -> dict[str, Any]:
    settings: dict[str, Any] = {
        "DATABASE_URL": None,
        "POLICY_FILE": None,
        "PLUGINS": None,
        "CHECK_DATABASE": True,
        "POOL_SIZE": 10,
    }
    unknown = sorted(set(config or {}) - set(settings))
    if unknown:
        raise ValueError(
            f"create_app() does not know the settings {unknown}; it takes {sorted(settings)}."
        )
    settings.update(config or {})
    return settings


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the service's WSGI application.

    ``config`` may set:

    ``DATABASE_URL``
        The database (default: ``$ONESPEC_DATABASE_URL``, else a SQLite file in
        ``$XDG_STATE_HOME/onespec/``).
    ``POLICY_FILE``
        A policy file overriding the default rules (default: none, the defaults only).
    ``PLUGINS``
        The plugin objects to serve (default: those of the ``onespec.plugins`` entry points).
    ``CHECK_DATABASE``
        Refuse to build the application unless the database is at the latest migration
        (default: true); raises :class:`~validators_runtime.api.database.DatabaseNotReady`.
    ``POOL_SIZE``
        Database connections kept open (default: 10).

    Raises :class:`~validators_runtime.plugins.store.StoreError` for an unusable database URL
    and :class:`~validators_runtime.plugins.policy.PolicyFileError` for a bad policy file.
    """
    from validators_runtime.plugins.policy import build_enforcer

    settings = _settings(config)
    enforcer = build_enforcer(settings["POLICY_FILE"])
    engine = create_engine(
        settings["DATABASE_URL"] or default_database_url(), pool_size=settings["POOL_SIZE"]
    )
    if settings["CHECK_DATABASE"]:
        from validators_runtime.api.database import ensure_current

        ensure_current(engine)
    if settings["PLUGINS"] is None:
        plugins, problems = load_plugins()
    else:
        plugins, problems = collect(settings["PLUGINS"])
        for problem in problems:
            LOG.warning("Plugin: %s", problem)

    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = _generated.MAX_BODY_BYTES
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.compact = True  # type: ignore[attr-defined]
    app.extensions["onespec"] = Services(
        manager=LabelManager(plugins.values(), PluginStore(engine)),
        specs=FlavorSpecStore(engine),
        enforcer=enforcer,
        engine=engine,
        problems=problems,
    )

    from validators_runtime.api import flavors, root
    from validators_runtime.api import plugins as plugin_routes

    app.register_blueprint(root.blueprint)
    app.register_blueprint(plugin_routes.blueprint)
    app.register_blueprint(flavors.blueprint)
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected_error)
    app.before_request(_started)
    app.after_request(_finished)
    return app


def _started() -> None:
    g.started = time.perf_counter()


def _finished(response: Response) -> Response:
    context = g.get("context")
    if context is not None:
        response.headers[REQUEST_ID_HEADER] = context.request_id
    version = g.get("microversion")
    if version is not None:
        response.headers.update(microversion.response_headers(version))
    if ACCESS_LOG.isEnabledFor(logging.INFO):
        elapsed = (time.perf_counter() - g.get("started", time.perf_counter())) * 1000
        ACCESS_LOG.info(
            "%s %s %s %d %.1f ms",
            request.remote_addr,
            request.method,
            request.full_path.rstrip("?"),
            response.status_code,
            elapsed,
        )
    return response


def _api_error(error: ApiError) -> Response:
    return error.response()


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    headers: dict[str, str] = {}
    if status == 404:
        message = (
            f"There is no {request.path} in this API; /openapi.json describes every operation."
        )
    elif status == 405:
        allowed = sorted(getattr(error, "valid_methods", None) or [])
        headers["Allow"] = ", ".join(allowed)
        message = (
            f"The URL {request.path} does not take {request.method}; it takes {', '.join(allowed)}."
        )
    elif isinstance(error, RequestEntityTooLarge):
        message = f"The request body is larger than the limit of {_generated.MAX_BODY_BYTES} bytes."
    else:
        message = error.description or error.name
        if not message.endswith("."):
            message += "."
    return error_response(status, message, headers=headers)


def _unexpected_error(error: Exception) -> Response:
    LOG.exception("Unexpected error while handling %s %s", request.method, request.path)
    return error_response(
        500, "The server failed to handle the request; the error has been logged."
    )
