"""The flavor extra-specs API, as Nova's ``/flavors/{flavor_id}/os-extra_specs``.

::

    GET    /flavors/{flavor_id}/os-extra_specs          {"extra_specs": {...}}
    POST   /flavors/{flavor_id}/os-extra_specs          set these, keep the others
    PUT    /flavors/{flavor_id}/os-extra_specs          replace the whole set
    GET    /flavors/{flavor_id}/os-extra_specs/{key}    {"KEY": "VALUE"}
    PUT    /flavors/{flavor_id}/os-extra_specs/{key}    body {"KEY": "VALUE"}
    DELETE /flavors/{flavor_id}/os-extra_specs/{key}    202, no body

Every body is checked against Nova's API-layer limits first (keys of letters, digits and
``_:.-`` or spaces, at most 255 characters; values strings of at most 255 characters, or
numbers, stored as their decimal text). From microversion 2.86 on, the extra specs written are
then validated with :func:`onespec.validators_runtime.extra_specs.validate` in the mode the
``validation`` query parameter names (``strict``, the default; ``permissive``; ``off``), and a
400 lists every finding with its suggestion. Below 2.86 they are stored unchecked, and the
parameter is refused, since it would do nothing.

Where extra specs are validated, the flavor's extra specs *together*, as they will be after the
write, are checked as well (:mod:`onespec.validators_runtime.service.flavor_check`): by default
a write that breaks a rule between keys is refused with a 400 naming the rule, the keys, Nova's
exception and its phase; the ``FLAVOR_CHECK`` setting can make those warnings (``Warning``
response headers) or turn the check off (``per-key``, as Nova does).
"""

from __future__ import annotations

import logging
import math
import re
from typing import Any

from flask import Blueprint, Response, current_app, g, request

from onespec.validators_runtime._generated import api as _generated
from onespec.validators_runtime.plugin_labels.labels import Problem, body_problem, pointer
from onespec.validators_runtime.service import flavor_check, microversion
from onespec.validators_runtime.service.bodies import json_body
from onespec.validators_runtime.service.context import authorize, services
from onespec.validators_runtime.service.db.flavor_store import Vet
from onespec.validators_runtime.service.errors import BadRequest, NotFound

LOG = logging.getLogger(__name__)

blueprint = Blueprint("flavors", __name__)

MAX_LENGTH: int = _generated.EXTRA_SPEC_MAX_LENGTH
MAX_PER_REQUEST: int = _generated.MAX_EXTRA_SPECS_PER_REQUEST
MODES: tuple[str, ...] = _generated.VALIDATION_MODES
KEY = re.compile(f"[{_generated.EXTRA_SPEC_KEY_CHARACTERS}]{{1,{MAX_LENGTH}}}")
FLAVOR_ID = re.compile(_generated.FLAVOR_ID_PATTERN)

_KEY_RULE = (
    f"a key is 1 to {MAX_LENGTH} letters, digits, underscores, colons, dots, dashes or spaces"
)


def _flavor(flavor_id: str) -> str:
    """Check the flavor ID and the microversion, which every operation here does first."""
    g.microversion = microversion.requested(request.headers)
    if not FLAVOR_ID.fullmatch(flavor_id):
        raise BadRequest(
            f"The flavor ID {flavor_id!r} is not valid: it is letters, digits, dots, "
            "underscores, dashes and spaces, at most 255, not starting with a dot or a space "
            "nor ending with a space."
        )
    return flavor_id


def _key(key: str) -> str:
    if not KEY.fullmatch(key):
        raise BadRequest(f"The extra-spec key {key!r} in the URL is not valid: {_KEY_RULE}.")
    return key


def _mode() -> str:
    """The validation mode of a write, or "off" below the validating microversion."""
    requested = request.args.getlist("validation")
    if len(requested) > 1:
        raise BadRequest("The validation query parameter is given more than once; give it once.")
    if g.microversion < microversion.VALIDATION:
        if requested:
            raise BadRequest(
                f"The validation query parameter needs microversion "
                f"{microversion.text(microversion.VALIDATION)} or later, but the request asks "
                f"for {microversion.text(g.microversion)}; send "
                f"'{microversion.HEADER}: {microversion.SERVICE} "
                f"{microversion.text(microversion.VALIDATION)}'."
            )
        return "off"
    mode = requested[0] if requested else MODES[0]
    if mode not in MODES:
        raise BadRequest(
            f"The validation query parameter is {mode!r}; it takes {', '.join(MODES[:-1])} or "
            f"{MODES[-1]}."
        )
    return mode


def _value(key: str, value: Any, where: str, problems: list[Problem]) -> str | None:
    """An extra-spec value as stored: a string, or a number's decimal text."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        kind = (
            "a boolean"
            if isinstance(value, bool)
            else "null"
            if value is None
            else ("an array" if isinstance(value, list) else "an object")
        )
        problems.append(
            body_problem(
                where, f"The value of extra spec {key!r} must be a string or a number, not {kind}."
            )
        )
        return None
    if isinstance(value, float) and not math.isfinite(value):
        problems.append(
            body_problem(where, f"The value of extra spec {key!r} is not a finite number.")
        )
        return None
    text = value if isinstance(value, str) else str(value)
    if "\x00" in text:
        problems.append(
            body_problem(where, f"The value of extra spec {key!r} holds the NUL character.")
        )
        return None
    if len(text) > MAX_LENGTH:
        problems.append(
            body_problem(
                where,
                f"The value of extra spec {key!r} is {len(text)} characters long; the limit is "
                f"{MAX_LENGTH}.",
            )
        )
        return None
    return text


def _specs(raw: Any, where: tuple[str, ...], problems: list[Problem]) -> dict[str, str]:
    """Check a mapping of extra specs against the API-layer limits."""
    field = pointer(*where) or None
    if not isinstance(raw, dict):
        problems.append(
            body_problem(
                field,
                f"{'Field ' + field if field else 'The body'} must be an object of extra specs.",
            )
        )
        return {}
    if len(raw) > MAX_PER_REQUEST:
        # Refused whole and at once: checking (and answering for) every key is the cost to bound.
        raise BadRequest(
            f"The request sets {len(raw)} extra specs; a request may set at most "
            f"{MAX_PER_REQUEST} extra specs. Send them in several POST requests."
        )
    specs: dict[str, str] = {}
    for key, value in raw.items():
        at = pointer(*where, key)
        if not KEY.fullmatch(key):
            problems.append(
                body_problem(at, f"The extra-spec key {key!r} is not valid: {_KEY_RULE}.")
            )
            continue
        text = _value(key, value, at, problems)
        if text is not None:
            specs[key] = text
    return specs


def _validate(specs: dict[str, str], mode: str) -> None:
    """Validate extra specs against the definitions; 400 with every finding."""
    if mode == "off":
        return
    from onespec.validators_runtime.extra_specs import ExtraSpecValidationError, validate

    try:
        # Each key on its own: the rules between keys judge the flavor after the write below.
        warnings = validate(specs, mode=mode, between_keys=False)
    except ExtraSpecValidationError as exc:
        errors = exc.errors
        # Nova's clients look for this prefix; the sentences after it are onespec's own.
        message = f"Validation failed; validation in {mode} mode refused {len(errors)} extra spec"
        message += "s: " if len(errors) != 1 else ": "
        message += " ".join(finding.message for finding in errors)
        raise BadRequest(
            message, findings=[finding.to_dict() for finding in exc.findings]
        ) from None
    for warning in warnings:
        LOG.info("Extra spec accepted with a warning (%s): %s", warning.code, warning.message)


class _WholeFlavor:
    """The whole-flavor check of one write: its ``vet`` runs inside the store's write, and
    what it found to warn about becomes the response's ``Warning`` headers."""

    def __init__(self, mode: str) -> None:
        self.applies = mode != "off" and services().flavor_check != "per-key"
        self.warnings: list[Any] = []

    @property
    def vet(self) -> Vet | None:
        return self._vet if self.applies else None

    def _vet(self, before: Any, after: Any) -> None:
        broken, self.warnings = flavor_check.judge(before, after)
        if services().flavor_check == "warn":
            broken, self.warnings = [], broken + self.warnings
        if broken:
            message = (
                f"The flavor's extra specs together break {len(broken)} rule"
                f"{'s' if len(broken) != 1 else ''} Nova applies when a server is created, "
                "scheduled or spawned: " + " ".join(f.message for f in broken)
            )
            raise BadRequest(message, findings=[f.to_dict() for f in broken + self.warnings])
        for warning in self.warnings:
            LOG.info(
                "Flavor extra specs accepted with a warning (%s): %s", warning.code, warning.message
            )

    def answer(self, body: dict[str, Any]) -> Response:
        return self.warn(current_app.make_response(body))

    def warn(self, response: Response) -> Response:
        """``response`` with one ``Warning`` header per warning (added, never merged)."""
        for name, value in flavor_check.warning_headers(self.warnings):
            response.headers.add(name, value)
        return response


def _set_body() -> dict[str, str]:
    body = json_body(request)
    problems: list[Problem] = []
    if not isinstance(body, dict):
        raise BadRequest('The request body must be an object of the form {"extra_specs": {...}}.')
    for member in body:
        if member != "extra_specs":
            problems.append(
                body_problem(
                    pointer(member),
                    f"Field {member!r} is not part of the body, which holds extra_specs only.",
                )
            )
    if "extra_specs" not in body:
        problems.append(
            body_problem(
                None, "The request body needs the member extra_specs, an object of extra specs."
            )
        )
        specs: dict[str, str] = {}
    else:
        specs = _specs(body["extra_specs"], ("extra_specs",), problems)
    if problems:
        raise BadRequest(_summary(problems), problems=problems)
    return specs


def _summary(problems: list[Problem]) -> str:
    if len(problems) == 1:
        return problems[0].message
    return f"The request body has {len(problems)} problems: " + " ".join(
        p.message for p in problems
    )


@blueprint.get("/flavors/<flavor_id>/os-extra_specs")
def index(flavor_id: str) -> dict[str, Any]:
    authorize("onespec:flavor_extra_specs:index")
    _flavor(flavor_id)
    return {"extra_specs": services().specs.all(flavor_id)}


@blueprint.post("/flavors/<flavor_id>/os-extra_specs")
def create(flavor_id: str) -> Response:
    authorize("onespec:flavor_extra_specs:create")
    _flavor(flavor_id)
    mode = _mode()
    specs = _set_body()
    _validate(specs, mode)
    whole = _WholeFlavor(mode)
    services().specs.merge(flavor_id, specs, whole.vet)
    return whole.answer({"extra_specs": specs})


@blueprint.put("/flavors/<flavor_id>/os-extra_specs")
def replace(flavor_id: str) -> Response:
    authorize("onespec:flavor_extra_specs:replace")
    _flavor(flavor_id)
    mode = _mode()
    specs = _set_body()
    _validate(specs, mode)
    whole = _WholeFlavor(mode)
    services().specs.replace(flavor_id, specs, whole.vet)
    return whole.answer({"extra_specs": specs})


@blueprint.get("/flavors/<flavor_id>/os-extra_specs/<key>")
def show(flavor_id: str, key: str) -> dict[str, Any]:
    authorize("onespec:flavor_extra_specs:show")
    _flavor(flavor_id)
    _key(key)
    value = services().specs.get(flavor_id, key)
    if value is None:
        raise NotFound(f"Flavor {flavor_id!r} has no extra spec {key!r}.")
    return {key: value}


@blueprint.put("/flavors/<flavor_id>/os-extra_specs/<key>")
def update(flavor_id: str, key: str) -> Response:
    authorize("onespec:flavor_extra_specs:update")
    _flavor(flavor_id)
    _key(key)
    mode = _mode()
    body = json_body(request)
    problems: list[Problem] = []
    if not isinstance(body, dict) or len(body) != 1:
        raise BadRequest(
            f"The request body must be an object with exactly one member, the key in the URL, "
            f'as in {{"{key}": "VALUE"}}.'
        )
    ((given, value),) = body.items()
    if given != key:
        raise BadRequest(
            f"The request body sets {given!r}, but the URL names {key!r}; they must be the same.",
            problems=[
                body_problem(pointer(given), f"The body's key {given!r} is not the URL's {key!r}.")
            ],
        )
    text = _value(key, value, pointer(key), problems)
    if problems or text is None:
        raise BadRequest(_summary(problems), problems=problems)
    _validate({key: text}, mode)
    whole = _WholeFlavor(mode)
    services().specs.merge(flavor_id, {key: text}, whole.vet)
    return whole.answer({key: text})


@blueprint.delete("/flavors/<flavor_id>/os-extra_specs/<key>")
def delete(flavor_id: str, key: str) -> Response:
    authorize("onespec:flavor_extra_specs:delete")
    _flavor(flavor_id)
    _key(key)
    # A deletion takes no validation parameter; from 2.86 on it is checked as a strict write.
    whole = _WholeFlavor("strict" if g.microversion >= microversion.VALIDATION else "off")
    if not services().specs.delete(flavor_id, key, whole.vet):
        raise NotFound(f"Flavor {flavor_id!r} has no extra spec {key!r}.")
    response = Response(status=202)
    del response.headers["Content-Type"]  # no body, so no media type
    return whole.warn(response)
