"""The request's context: the application's services, the caller's identity, and the policy check.

Identity comes from the headers keystonemiddleware sets (``X-Project-Id``, ``X-User-Id``,
``X-Roles``, ``X-Identity-Status``), read through oslo.context; the service itself never checks
tokens, so it must run behind keystonemiddleware (or a proxy that sets those headers from a
checked identity). Every operation but ``GET /`` and ``GET /openapi.json`` needs a request scoped
to a project (else 401) that the policy allows (else 403). The routes import this module, and
the application imports the routes, so nothing imports the application back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from flask import current_app, g, request

from onespec.definitions.entry_points import PluginProblem
from onespec.validators_runtime._generated import api as _generated
from onespec.validators_runtime.plugin_labels.manager import LabelManager
from onespec.validators_runtime.service.db.flavor_store import FlavorSpecStore
from onespec.validators_runtime.service.errors import BadRequest, Forbidden, Unauthorized

if TYPE_CHECKING:
    from oslo_context.context import RequestContext
    from oslo_policy.policy import Enforcer
    from sqlalchemy.engine import Engine

LOGGER = logging.getLogger(__name__)


@dataclass
class Services:
    """What the request handlers use, built once per application."""

    manager: LabelManager
    specs: FlavorSpecStore
    enforcer: Enforcer
    engine: Engine
    problems: tuple[PluginProblem, ...]
    #: How an extra-spec write checks the whole flavor: refuse, warn or per-key
    #: (:mod:`onespec.validators_runtime.service.flavor_check`).
    flavor_check: str = "refuse"


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
    if context.project_id and len(context.project_id) > _generated.PROJECT_ID_MAX_LENGTH:
        raise BadRequest(
            f"The X-Project-Id header is {len(context.project_id)} characters long; a project ID "
            f"is at most {_generated.PROJECT_ID_MAX_LENGTH} characters."
        )
    if not context.project_id:
        raise Unauthorized(
            "The request is not scoped to a project: it must come through keystonemiddleware, "
            "which sets X-Project-Id from a token scoped to one."
        )
    g.context = context
    return context


def authorize(rule: str) -> RequestContext:
    """Check the policy ``rule`` for the caller; 401 without identity, 403 when refused."""
    from onespec.validators_runtime.service.policy import PolicyUndecided
    from onespec.validators_runtime.service.policy import authorize as allowed

    context = request_context()
    try:
        permitted = allowed(services().enforcer, rule, context)
    except PolicyUndecided as undecided:
        LOGGER.warning("refused a request: %s", undecided)
        raise Forbidden(
            f"The policy could not decide on this request ({rule}): one of its checks failed "
            f"({undecided.cause}). The request is refused."
        ) from None
    if not permitted:
        raise Forbidden(
            f"The policy does not allow this request ({rule}); it needs "
            f"{_needs(services().enforcer, rule)}."
        )
    return context


def authorized_project(rule: str) -> str:
    """:func:`authorize`, then the caller's project, which :func:`request_context` has made
    sure is there (the context's type allows None for requests it refuses)."""
    return cast(str, authorize(rule).project_id)


def _needs(enforcer: Enforcer, rule: str) -> str:
    check = enforcer.rules.get(rule)
    return f"'{check}'" if check is not None else "a rule the policy file defines"
