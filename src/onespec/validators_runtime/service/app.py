"""The Flask application: ``create_app(config)``.

It builds the services once (:class:`~onespec.validators_runtime.service.context.Services`),
registers the routes, and turns every error into the service's JSON error shape. Who the caller is
and what the policy allows is the request context's job
(:mod:`onespec.validators_runtime.service.context`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, g, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from onespec.validators_runtime._generated import api as _generated
from onespec.validators_runtime.plugin_labels.manager import LabelManager
from onespec.validators_runtime.plugin_labels.spi import collect, load_plugins
from onespec.validators_runtime.service import flavor_check, microversion
from onespec.validators_runtime.service.context import Services
from onespec.validators_runtime.service.db.engine import create_engine, default_database_url
from onespec.validators_runtime.service.db.flavor_store import FlavorSpecStore
from onespec.validators_runtime.service.db.label_store import PluginStore
from onespec.validators_runtime.service.errors import ApiError, error_response
from onespec.validators_runtime.service.routes import flavors, plugin_labels, root

LOG = logging.getLogger(__name__)
ACCESS_LOG = logging.getLogger("onespec.validators_runtime.service.access")

#: The response header that carries the request's ID, as OpenStack services send it.
REQUEST_ID_HEADER = "X-OpenStack-Request-Id"


def _settings(config: Mapping[str, Any] | None) -> dict[str, Any]:
    settings: dict[str, Any] = {
        "DATABASE_URL": None,
        "POLICY_FILE": None,
        "PLUGINS": None,
        "CHECK_DATABASE": True,
        "POOL_SIZE": 10,
        "FLAVOR_CHECK": flavor_check.DEFAULT_MODE,
    }
    unknown = sorted(set(config or {}) - set(settings))
    if unknown:
        raise ValueError(
            f"create_app() does not know the settings {unknown}; it takes {sorted(settings)}."
        )
    settings.update(config or {})
    if settings["FLAVOR_CHECK"] not in flavor_check.MODES:
        raise ValueError(
            f"The FLAVOR_CHECK setting is {settings['FLAVOR_CHECK']!r}; it takes "
            f"{', '.join(flavor_check.MODES[:-1])} or {flavor_check.MODES[-1]}."
        )
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
        (default: true); raises
        :class:`~onespec.validators_runtime.service.db.migrate.DatabaseNotReady`.
    ``POOL_SIZE``
        Database connections kept open (default: 10).
    ``FLAVOR_CHECK``
        How an extra-spec write checks the flavor's extra specs together: ``refuse`` (the
        default: a write that breaks a rule between keys is a 400), ``warn`` (stored, with
        ``Warning`` headers) or ``per-key`` (each key on its own only, as Nova does); see
        ``onespec.validators_runtime.service.flavor_check`` and the API guide.

    Raises :class:`~onespec.validators_runtime.service.db.engine.StoreError` for an unusable
    database URL and :class:`~onespec.validators_runtime.service.policy.PolicyFileError` for a bad
    policy file.
    """
    from onespec.validators_runtime.service.policy import build_enforcer

    settings = _settings(config)
    enforcer = build_enforcer(settings["POLICY_FILE"])
    engine = create_engine(
        settings["DATABASE_URL"] or default_database_url(), pool_size=settings["POOL_SIZE"]
    )
    if settings["CHECK_DATABASE"]:
        from onespec.validators_runtime.service.db.migrate import ensure_current

        ensure_current(engine)
    if settings["PLUGINS"] is None:
        plugins, problems = load_plugins()
    else:
        plugins, problems = collect(settings["PLUGINS"])
        for problem in problems:
            LOG.warning("Plugin: %s", problem)

    app = Flask(__name__)
    # No redirects: werkzeug would answer "//flavors" or "/plugins/" with a 308 and an HTML
    # page, where every answer of this service is JSON; such a URL is a 404 instead.
    app.url_map.merge_slashes = False
    app.url_map.strict_slashes = False
    app.config["MAX_CONTENT_LENGTH"] = _generated.MAX_BODY_BYTES
    # Flask's default JSON provider has these; app.json is typed as the provider's base class.
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.compact = True  # type: ignore[attr-defined]
    app.extensions["onespec"] = Services(
        manager=LabelManager(plugins.values(), PluginStore(engine)),
        specs=FlavorSpecStore(engine),
        enforcer=enforcer,
        engine=engine,
        problems=problems,
        flavor_check=settings["FLAVOR_CHECK"],
    )

    app.register_blueprint(root.blueprint)
    app.register_blueprint(plugin_labels.blueprint)
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
