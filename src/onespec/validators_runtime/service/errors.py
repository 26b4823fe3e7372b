"""The API's errors, and the JSON shape of every error response.

::

    {"error": {"code": 400, "title": "Bad Request", "message": "...",
               "problems": [{"field": "/plugin_labels/stable", "message": "..."}],
               "findings": [{"key": "hw:cpu_pollicy", "code": "unknown-key", ...}]}}

``problems`` (each member of a request body at fault, as a JSON Pointer) and ``findings`` (every
finding of an extra-spec validation) appear only when there are some. The schema is generated:
``outputs/schemas/error.schema.json``.

The flavor extra-specs endpoints stand in for Nova's, so their errors are in Nova's fault shape
instead, which clients written for Nova read (``outputs/schemas/nova-fault.schema.json``)::

    {"badRequest": {"code": 400, "message": "...", "findings": [...]}}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from http import HTTPStatus
from typing import Any

from flask import Response, has_request_context, jsonify, request

from onespec.errors import OnespecError
from onespec.validators_runtime._generated import api as _generated
from onespec.validators_runtime.plugin_labels.labels import Problem


class ApiError(OnespecError):
    """An error with its HTTP status and a message a user can act on."""

    status: int = 500

    def __init__(
        self,
        message: str,
        *,
        problems: Iterable[Problem] = (),
        findings: Iterable[Mapping[str, Any]] = (),
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.problems = tuple(problems)
        self.findings = tuple(findings)
        self.headers = dict(headers or {})

    def response(self) -> Response:
        return error_response(
            self.status,
            self.message,
            problems=[problem.to_dict() for problem in self.problems],
            findings=list(self.findings),
            headers=self.headers,
        )


class BadRequest(ApiError):
    status = 400


class Unauthorized(ApiError):
    status = 401


class Forbidden(ApiError):
    status = 403


class NotFound(ApiError):
    status = 404


class NotAcceptable(ApiError):
    status = 406


class UnsupportedMediaType(ApiError):
    status = 415


def error_response(
    status: int,
    message: str,
    *,
    problems: list[dict[str, Any]] | None = None,
    findings: list[Mapping[str, Any]] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """A JSON error response: Nova's fault shape on the flavor extra-specs endpoints, the API's
    own shape elsewhere."""
    error: dict[str, Any] = {"code": status}
    nova = answers_as_nova()
    if not nova:
        error["title"] = HTTPStatus(status).phrase
    error["message"] = message
    if problems:
        error["problems"] = problems
    if findings:
        error["findings"] = findings
    name = nova_fault_name(status) if nova else "error"
    response = jsonify({name: error})  # the app's JSON provider, typed as Flask's Response
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def nova_fault_name(status: int) -> str:
    """The name Nova gives the one member of an error body of *status* (``badRequest``)."""
    return _generated.NOVA_FAULT_NAMES.get(status, _generated.NOVA_OTHER_FAULT)


def answers_as_nova() -> bool:
    """True while answering a request to an endpoint that stands in for Nova's (a URL that
    names no endpoint at all is answered in the API's own shape, wherever it points)."""
    if not has_request_context() or request.url_rule is None:
        return False
    return request.url_rule.rule.startswith(_generated.NOVA_PATHS_PREFIX)
