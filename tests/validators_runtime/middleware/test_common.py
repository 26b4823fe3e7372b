"""What every onespec paste filter shares: options, bounded bodies, answers, failing open."""

from __future__ import annotations

import io
import json
import logging
import time
from typing import Any

import pytest

from onespec.errors import OnespecError
from onespec.validators_runtime.middleware.common import (
    COMMON_OPTIONS,
    UNREADABLE,
    BodyRefused,
    FilterConfigError,
    Limits,
    fail_open,
    json_answer,
    parse_json,
    read_body,
    read_options,
    sub_request,
    warning_value,
    with_headers,
)


class Chunked(io.RawIOBase):
    """A request body that arrives in small pieces, as a chunked upload does: a read of a
    given size answers at most one piece; a read of everything, everything."""

    def __init__(self, data: bytes, piece: int = 7) -> None:
        super().__init__()
        self.data, self.piece, self.reads = data, piece, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        self.reads += 1
        size = len(self.data) if size is None or size < 0 else min(size, self.piece)
        part, self.data = self.data[:size], self.data[size:]
        return part

    def readline(self, size: int | None = -1) -> bytes:
        end = self.data.find(b"\n") + 1 or len(self.data)
        line, self.data = self.data[:end], self.data[end:]
        return line


def environ_with(body: bytes, **extra: str) -> dict[str, Any]:
    return {"CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body), **extra}


# --- Options ----------------------------------------------------------------------------------


def test_options_take_their_defaults():
    values = read_options("f", {}, COMMON_OPTIONS)
    assert values == {
        "mode": "refuse",
        "max_body_bytes": 256 * 1024,
        "max_json_depth": 32,
        "max_json_members": 10_000,
    }


def test_options_are_read_from_their_text():
    values = read_options("f", {"mode": " warn ", "max_body_bytes": "2048"}, COMMON_OPTIONS)
    assert values["mode"] == "warn" and values["max_body_bytes"] == 2048


def test_an_unknown_option_stops_the_start_naming_it():
    with pytest.raises(FilterConfigError) as caught:
        read_options("onespec_images", {"max_body_byte": "10"}, COMMON_OPTIONS)
    message = str(caught.value)
    assert "onespec_images" in message and "'max_body_byte'" in message
    assert "Did you mean 'max_body_bytes'?" in message
    assert isinstance(caught.value, OnespecError)


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("mode", "refuze", "must be one of refuse, warn. Did you mean 'refuse'?"),
        ("mode", "", "must be one of refuse, warn"),
        ("max_body_bytes", "1e6", "must be a whole number from 1024 to"),
        ("max_body_bytes", "12", "must be a whole number from 1024 to"),
        ("max_json_depth", "-3", "must be a whole number from 2 to 256"),
        ("max_json_members", "١٢", "must be a whole number"),  # Arabic-Indic digits
    ],
)
def test_a_value_the_filter_cannot_use_stops_the_start(name, text, said):
    with pytest.raises(FilterConfigError) as caught:
        read_options("onespec_images", {name: text}, COMMON_OPTIONS)
    assert f"option {name} = {text!r} {said}" in str(caught.value)


# --- The body ---------------------------------------------------------------------------------


def test_the_body_is_read_once_and_handed_on_unchanged():
    environ = environ_with(b'{"a": 1}  ')
    assert read_body(environ, 1024) == b'{"a": 1}  '
    assert environ["wsgi.input"].read() == b'{"a": 1}  '
    assert environ["CONTENT_LENGTH"] == "10"


def test_a_chunked_body_is_read_whole_and_given_its_length():
    stream = Chunked(b"[1, 2, 3]" * 5)
    environ = {"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input": stream}
    assert read_body(environ, 1024) == b"[1, 2, 3]" * 5
    assert environ["CONTENT_LENGTH"] == "45" and environ["wsgi.input"].read() == b"[1, 2, 3]" * 5


def test_a_declared_length_above_the_limit_is_refused_unread():
    stream = Chunked(b"x" * 2000)
    environ = {"CONTENT_LENGTH": "2000", "wsgi.input": stream}
    with pytest.raises(BodyRefused) as caught:
        read_body(environ, 1024)
    assert caught.value.status == 413 and "max_body_bytes" in caught.value.message
    assert stream.reads == 0 and environ["wsgi.input"] is stream


def test_a_chunked_body_above_the_limit_is_refused_and_still_whole_for_the_app():
    environ = {"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input": Chunked(b"0123456789" * 300)}
    with pytest.raises(BodyRefused):
        read_body(environ, 1024)
    rest = environ["wsgi.input"]
    assert rest.read(5) == b"01234"
    assert rest.read() == (b"0123456789" * 300)[5:]


def test_reading_lines_from_a_rejoined_body_crosses_from_what_was_read_to_the_rest():
    environ = {"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input": Chunked(b"a" * 1030 + b"\nb\n")}
    with pytest.raises(BodyRefused):
        read_body(environ, 1024)
    assert environ["wsgi.input"].readline() == b"a" * 1030 + b"\n"
    assert environ["wsgi.input"].readline() == b"b\n"


@pytest.mark.parametrize("length", ["", None])
def test_no_body_is_an_empty_one(length):
    environ: dict[str, Any] = {"wsgi.input": io.BytesIO(b"ignored")}
    if length is not None:
        environ["CONTENT_LENGTH"] = length
    assert read_body(environ, 1024) == b""


def test_a_length_that_is_not_a_number_is_the_servers_to_refuse():
    stream = io.BytesIO(b"{}")
    environ = {"CONTENT_LENGTH": "two", "wsgi.input": stream}
    assert read_body(environ, 1024) is None
    assert environ["wsgi.input"] is stream


# --- JSON -------------------------------------------------------------------------------------


def test_json_is_parsed_as_the_services_parse_it():
    assert parse_json(b'{"a": "1", "a": "2"}', Limits()) == {"a": "2"}  # the last one wins


@pytest.mark.parametrize("body", [b"{", b"\xff\xfe{}", b"[1e5, " + b"9" * 5000 + b"]"])
def test_what_is_not_json_is_the_services_to_answer(body):
    assert parse_json(body, Limits()) is UNREADABLE


def test_json_deeper_than_the_limit_is_refused():
    limits = Limits(max_json_depth=4)
    assert parse_json(b'{"a": [[[1]]]}', limits) == {"a": [[[1]]]}  # four levels
    with pytest.raises(BodyRefused) as caught:
        parse_json(b'{"a": [[[[1]]]]}', limits)
    assert caught.value.status == 400 and "max_json_depth" in caught.value.message


def test_json_deeper_than_python_parses_is_refused_quickly():
    started = time.perf_counter()
    with pytest.raises(BodyRefused) as caught:
        parse_json(b"[" * 200_000 + b"]" * 200_000, Limits())
    assert time.perf_counter() - started < 1.0
    assert "more than 32 levels" in caught.value.message


def test_json_with_more_members_than_the_limit_is_refused():
    limits = Limits(max_json_members=10)
    assert parse_json(json.dumps({str(i): [1] for i in range(5)}).encode(), limits)
    with pytest.raises(BodyRefused) as caught:
        parse_json(json.dumps({str(i): [1] for i in range(6)}).encode(), limits)
    assert "more than 10 JSON members" in caught.value.message


# --- Answers ----------------------------------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.status = ""
        self.headers: list[tuple[str, str]] = []

    def __call__(self, status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        self.status, self.headers = status, headers
        return lambda data: None


def test_a_json_answer_says_its_type_and_length():
    start = Recorder()
    body = b"".join(json_answer(start, 400, {"m": "é"}, [("X-A", "1")]))
    assert start.status == "400 Bad Request" and json.loads(body) == {"m": "é"}
    assert start.headers == [
        ("Content-Type", "application/json"),
        ("Content-Length", str(len(body))),
        ("X-A", "1"),
    ]


def test_a_warning_value_is_one_quoted_ascii_line():
    value = warning_value('Property "x" is\nnot ünicode \\ safe')
    assert value == '299 onespec "Property \\"x\\" is not \\\\xfcnicode \\\\ safe"'
    assert value.isascii() and "\n" not in value


def test_a_warning_value_is_bounded():
    assert len(warning_value("x" * 100_000)) < 700


def test_warning_headers_go_on_successful_answers_only():
    start = Recorder()
    with_headers(start, [("Warning", "w")])("201 Created", [("A", "1")])
    assert start.headers == [("A", "1"), ("Warning", "w")]
    with_headers(start, [("Warning", "w")])("409 Conflict", [("A", "1")])
    assert start.headers == [("A", "1")]


# --- Sub-requests and failing open ------------------------------------------------------------


class Answering:
    """A small WSGI application that answers with its own body and records each request."""

    def __init__(self, body: bytes = b'{"id": "1"}', status: str = "200 OK") -> None:
        self.body, self.status = body, status
        self.seen: list[dict[str, Any]] = []
        self.closed = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.seen.append({**environ, "body": environ["wsgi.input"].read()})
        start_response(self.status, [("Content-Type", "application/json")])
        return self

    def __iter__(self) -> Any:
        return iter([self.body[:3], self.body[3:]])

    def close(self) -> None:
        self.closed += 1


#: The caller's credentials, as an auth filter leaves them in the environ.
CALLER = "box:alice:demo:member"


def test_a_sub_request_carries_the_callers_credentials_and_no_body():
    app = Answering()
    caller = {
        "REQUEST_METHOD": "PATCH",
        "PATH_INFO": "/v2/images/1",
        "QUERY_STRING": "x=1",
        "CONTENT_TYPE": "application/openstack-images-v2.1-json-patch",
        "CONTENT_LENGTH": "12",
        "HTTP_X_AUTH_TOKEN": CALLER,
        "glance.context": "the caller's context",
        "wsgi.input": io.BytesIO(b"not for you!"),
    }
    reply = sub_request(app, caller, "GET", 1000)
    assert (reply.status, reply.body) == (200, b'{"id": "1"}')
    seen = app.seen[0]
    assert seen["REQUEST_METHOD"] == "GET" and seen["body"] == b"" and seen["QUERY_STRING"] == ""
    assert seen["HTTP_X_AUTH_TOKEN"] == CALLER and seen["glance.context"] == "the caller's context"
    assert "CONTENT_TYPE" not in seen and app.closed == 1
    assert caller["REQUEST_METHOD"] == "PATCH" and caller["wsgi.input"].read() == b"not for you!"


def test_a_sub_request_reads_a_bounded_answer():
    app = Answering(body=b"x" * 100)
    with pytest.raises(BodyRefused) as caught:
        sub_request(app, {"wsgi.input": io.BytesIO()}, "GET", 50)
    assert caught.value.status == 413 and app.closed == 1


def test_failing_open_logs_and_hands_the_request_on(caplog):
    app = Answering()
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/v2/images", "wsgi.input": io.BytesIO(b"{}")}
    caplog.set_level(logging.ERROR)
    try:
        raise KeyError("a bug")
    except KeyError:
        result = fail_open("onespec_images", app, environ, Recorder())
    assert b"".join(result) == b'{"id": "1"}' and app.seen[0]["body"] == b"{}"
    assert "onespec_images failed while checking POST /v2/images" in caplog.text
    assert "KeyError: 'a bug'" in caplog.text
