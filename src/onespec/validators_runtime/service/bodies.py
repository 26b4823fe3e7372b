"""Reading JSON request bodies: every way a body can be wrong is a 4xx with a sentence.

The media type must be JSON (``application/json`` or a ``+json`` type) in UTF-8, else 415. The
body must be at most ``MAX_BODY_BYTES`` (Flask refuses a bigger one with 413 before it is read),
valid UTF-8 and valid JSON without a member twice in one object or a non-finite number, else 400.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Request

from onespec.errors import OnespecError
from onespec.validators_runtime.service.errors import BadRequest, UnsupportedMediaType


class _DuplicateMember(OnespecError, ValueError):
    pass


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateMember(key)
        result[key] = value
    return result


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or (
        mimetype.startswith("application/") and mimetype.endswith("+json")
    )


def json_body(request: Request) -> Any:
    """The request's JSON body, parsed.

    Raises a 4xx :class:`~onespec.validators_runtime.service.errors.ApiError` saying what is wrong.
    """
    mimetype = request.mimetype
    if not mimetype:
        raise UnsupportedMediaType(
            "The request has no Content-Type; send the body as JSON with "
            "Content-Type: application/json."
        )
    if not _is_json(mimetype):
        raise UnsupportedMediaType(
            f"The request body is {mimetype!r}; send it as JSON with "
            "Content-Type: application/json."
        )
    charset = request.mimetype_params.get("charset")
    if charset is not None and charset.lower().replace("_", "-") not in {"utf-8", "utf8"}:
        raise UnsupportedMediaType(
            f"The request body is in {charset!r}; send it in UTF-8, as JSON requires."
        )
    data = request.get_data(cache=False)  # raises 413 beyond MAX_CONTENT_LENGTH
    if not data.strip():
        raise BadRequest("The request body is empty; it must be a JSON object.")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRequest(
            f"The request body is not valid UTF-8 (byte {exc.start} cannot be decoded)."
        ) from None
    try:
        body = json.loads(text, object_pairs_hook=_object, parse_constant=_constant)
    except _DuplicateMember as exc:
        raise BadRequest(
            f"The request body has the member {exc.args[0]!r} twice in one object; give it once."
        ) from None
    except json.JSONDecodeError as exc:
        raise BadRequest(
            f"The request body is not valid JSON: {exc.msg} at line {exc.lineno}, column "
            f"{exc.colno}."
        ) from None
    except RecursionError:
        raise BadRequest("The request body nests arrays or objects too deeply.") from None
    except ValueError as exc:  # NaN, Infinity, or an integer with too many digits
        raise BadRequest(f"The request body is not valid JSON: {exc}.") from None
    try:
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BadRequest(
            "The request body escapes a lone UTF-16 surrogate (such as \\ud800), which is not a "
            "character."
        ) from None
    return body
