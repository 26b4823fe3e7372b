"""What every onespec filter in a service's paste pipeline needs, whichever service it guards.

A filter sits in front of an OpenStack API (glance-api, nova-api), reads the JSON body of the
writes it knows, and either hands the request on *unchanged* or answers it itself. Everything
here serves that and nothing more:

* options from the paste ``[filter:...]`` section, each parsed once at start-up; a name or
  value the filter does not know stops the service from starting with a message naming the
  option (:class:`FilterConfigError`), rather than running with a check the operator did not
  ask for;
* the request body, read at most once and at most ``max_body_bytes`` of it, and put back so
  the application reads the very bytes the client sent;
* JSON parsed the way the services parse it (Python's :mod:`json`, the last of duplicate
  members winning), with the nesting and the number of members bounded;
* ``Warning`` header values, JSON answers and a log line;
* failing open: an exception inside onespec is logged and the request goes on as if the filter
  were not there. A filter that refuses everything when it has a bug would take the whole API
  down with it; one that fails open only misses a check.

Standard library only, with the onespec runtime: the module runs inside the service's own
virtual environment, which has neither click nor onespec's optional dependencies.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from onespec.errors import OnespecError
from onespec.validators_runtime.problems import did_you_mean

LOG = logging.getLogger(__name__)

#: What a WSGI application looks like, as far as a filter is concerned.
StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
Headers = list[tuple[str, str]]
HeaderItems = Sequence[tuple[str, str]]

Mode = Literal["refuse", "warn"]
MODES: tuple[Mode, ...] = ("refuse", "warn")


class FilterConfigError(OnespecError, ValueError):
    """A paste option of an onespec filter that cannot be used: the service does not start,
    and the message names the filter, the option and what it accepts."""


class BodyRefused(OnespecError, ValueError):
    """A request body onespec will not read (too large, nested too deeply, too many members):
    refused with ``status`` and a message that names the limit and the option that sets it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# --- Options ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One paste option: its default and how its text becomes a value (``parse`` raises
    ``ValueError`` with what it accepts when it cannot)."""

    name: str
    default: Any
    parse: Callable[[str], Any]
    help: str


def parse_mode(text: str) -> Mode:
    value = text.strip()
    for mode in MODES:
        if value == mode:
            return mode
    raise ValueError(f"must be one of {', '.join(MODES)}.{did_you_mean(value, MODES)}")


def positive_int(least: int = 1, most: int = 1 << 40) -> Callable[[str], int]:
    """A parser of whole numbers from ``least`` to ``most``, written in ASCII digits."""

    def parse(text: str) -> int:
        value = text.strip()
        if not (value.isascii() and value.isdigit()) or not least <= int(value) <= most:
            raise ValueError(f"must be a whole number from {least} to {most}")
        return int(value)

    return parse


#: The options every filter takes.
COMMON_OPTIONS = (
    Option("mode", "refuse", parse_mode, "refuse: answer 400; warn: store, log, Warning header"),
    Option(
        "max_body_bytes",
        256 * 1024,
        positive_int(1024, 1 << 30),
        "larger bodies are refused (413) unread",
    ),
    Option("max_json_depth", 32, positive_int(2, 256), "deeper JSON is refused (400)"),
    Option(
        "max_json_members",
        10_000,
        positive_int(1, 1_000_000),
        "JSON with more members and items in all is refused (400)",
    ),
)


def read_options(
    filter_name: str, local_conf: Mapping[str, Any], options: Iterable[Option]
) -> dict[str, Any]:
    """Each option's value from the paste section (``local_conf``), its default when absent.
    Raises :class:`FilterConfigError` for an option the filter does not know or a value it
    cannot use."""
    known = {option.name: option for option in options}
    values = {name: option.default for name, option in known.items()}
    for name, text in local_conf.items():
        option = known.get(name)
        if option is None:
            raise FilterConfigError(
                f"paste filter {filter_name}: unknown option {name!r}; the options are "
                f"{', '.join(sorted(known))}.{did_you_mean(name, known)}"
            )
        try:
            values[name] = option.parse(str(text))
        except ValueError as error:
            raise FilterConfigError(
                f"paste filter {filter_name}: option {name} = {str(text)!r} {error}"
            ) from None
    return values


@dataclass(frozen=True)
class Limits:
    """How much of a request body a filter reads and parses."""

    max_body_bytes: int = 256 * 1024
    max_json_depth: int = 32
    max_json_members: int = 10_000

    @classmethod
    def from_options(cls, values: Mapping[str, Any]) -> Limits:
        return cls(
            max_body_bytes=values["max_body_bytes"],
            max_json_depth=values["max_json_depth"],
            max_json_members=values["max_json_members"],
        )


# --- The body ---------------------------------------------------------------------------------

_CHUNK = 64 * 1024


def read_body(environ: dict[str, Any], limit: int) -> bytes | None:
    """The request body, read once and put back in ``environ`` (``wsgi.input``, with its
    ``CONTENT_LENGTH``) so that the application reads the same bytes. None when the body is
    not for a filter to read: a ``CONTENT_LENGTH`` that is not a number is the server's and the
    application's to refuse. Raises :class:`BodyRefused` (413) when the body is larger than
    ``limit`` bytes: a body the filter has not read could hold anything, and passing it on
    would let any write past the check by padding it."""
    declared = environ.get("CONTENT_LENGTH") or ""
    chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    if declared.strip():
        if not declared.strip().isdigit():
            return None
        length = int(declared)
        if length > limit:
            raise _too_large(limit)
    elif not chunked:
        return b""
    else:
        length = limit + 1
    stream = environ["wsgi.input"]
    parts: list[bytes] = []
    read = 0
    while read < length:
        part = stream.read(min(_CHUNK, length - read))
        if not part:
            break
        parts.append(part)
        read += len(part)
    body = b"".join(parts)
    if len(body) > limit:
        # A chunked body longer than the limit: what was read goes back in front of the rest,
        # so that a filter that lets the request on (warn mode) hands on the whole body.
        environ["wsgi.input"] = _Rejoined(body, stream)
        raise _too_large(limit)
    environ["wsgi.input"] = io.BytesIO(body)
    environ["CONTENT_LENGTH"] = str(len(body))
    return body


class _Rejoined(io.RawIOBase):
    """The bytes already read from a request body, then the rest of it."""

    def __init__(self, head: bytes, rest: Any) -> None:
        super().__init__()
        self._head = io.BytesIO(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            return self._head.read() + self._rest.read()
        data = self._head.read(size)
        if len(data) < size:
            data += self._rest.read(size - len(data))
        return data

    def readline(self, size: int | None = -1) -> bytes:
        line = self._head.readline(-1 if size is None else size)
        if line.endswith(b"\n") or (size is not None and 0 <= size <= len(line)):
            return line
        rest = -1 if size is None or size < 0 else size - len(line)
        return line + self._rest.readline(rest)


def _too_large(limit: int) -> BodyRefused:
    return BodyRefused(
        413,
        f"The request body is larger than {limit} bytes, the most onespec reads "
        "(the max_body_bytes option of its paste filter).",
    )


_UNREADABLE = object()


def parse_json(body: bytes, limits: Limits) -> Any:
    """The JSON ``body`` holds, or :data:`UNREADABLE` when it is not JSON at all (not UTF-8,
    not well-formed): the service answers that with its own error. Raises :class:`BodyRefused`
    (400) when the document is deeper or larger than ``limits`` allow."""
    try:
        text = body.decode("utf-8")
        document = json.loads(text)
    except RecursionError:
        raise _too_deep(limits) from None
    except ValueError:  # UnicodeDecodeError, JSONDecodeError, too many digits
        return UNREADABLE
    measure(document, limits)
    return document


def measure(document: Any, limits: Limits) -> None:
    """Walk ``document`` without recursion, stopping as soon as it is deeper or has more
    members and items than ``limits`` allow."""
    members = 0
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Iterable[Any] = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limits.max_json_depth:
            raise _too_deep(limits)
        members += len(value)
        if members > limits.max_json_members:
            raise BodyRefused(
                400,
                f"The request body holds more than {limits.max_json_members} JSON members "
                "and items, the most onespec reads (the max_json_members option of its "
                "paste filter).",
            )
        stack.extend((child, depth + 1) for child in children)


def _too_deep(limits: Limits) -> BodyRefused:
    return BodyRefused(
        400,
        f"The request body nests JSON more than {limits.max_json_depth} levels deep, the "
        "most onespec reads (the max_json_depth option of its paste filter).",
    )


#: What :func:`parse_json` answers for a body that is not JSON.
UNREADABLE: Any = _UNREADABLE


# --- Answers ----------------------------------------------------------------------------------

#: The reason phrases of the statuses a filter answers with.
REASONS = {
    200: "OK",
    400: "Bad Request",
    413: "Request Entity Too Large",
}

#: At most this many characters of one finding in an answer, a header or a log line.
MAX_TEXT = 600


def status_line(status: int) -> str:
    return f"{status} {REASONS.get(status, 'Error')}"


def bounded(text: str, most: int = MAX_TEXT) -> str:
    """``text`` cut to ``most`` characters, saying so: a finding quotes the value it is about,
    and a value can be 64 KiB long."""
    if len(text) <= most:
        return text
    return text[: most - 30] + f"... ({len(text)} characters)"


def json_answer(
    start_response: StartResponse, status: int, document: Any, headers: HeaderItems = ()
) -> list[bytes]:
    """Answer with ``document`` as JSON."""
    return answer(
        start_response, status, json.dumps(document).encode(), "application/json", headers
    )


def answer(
    start_response: StartResponse,
    status: int,
    body: bytes,
    content_type: str,
    headers: HeaderItems = (),
) -> list[bytes]:
    """Answer with ``body`` as it is."""
    start_response(
        status_line(status),
        [("Content-Type", content_type), ("Content-Length", str(len(body))), *headers],
    )
    return [body]


def warning_value(text: str) -> str:
    """A ``Warning`` header's value (RFC 9110's warn-code 299, agent ``onespec``): ASCII, one
    line, quoted as a header's quoted-string needs."""
    ascii_text = bounded(text).encode("ascii", "backslashreplace").decode("ascii")
    printable = "".join(c if c.isprintable() else " " for c in ascii_text)
    quoted = printable.replace("\\", "\\\\").replace('"', '\\"')
    return f'299 onespec "{quoted}"'


def with_headers(start_response: StartResponse, extra: HeaderItems) -> StartResponse:
    """``start_response`` that adds ``extra`` to a successful (2xx) answer: a warning about a
    write the service then refused for its own reasons would only confuse."""

    def start(status: str, headers: Headers, *args: Any) -> Any:
        if status[:1] == "2":
            headers = [*headers, *extra]
        return start_response(status, headers, *args)

    return start


# --- Sub-requests -----------------------------------------------------------------------------


@dataclass
class Reply:
    """What an application answered a sub-request."""

    status: int
    headers: Headers = field(default_factory=list)
    body: bytes = b""


def sub_request(app: WSGIApp, environ: Mapping[str, Any], method: str, limit: int) -> Reply:
    """Ask ``app`` for ``method`` on the request's own path, with the caller's own environ (its
    credentials, its request context) and no body. At most ``limit`` bytes of the answer are
    kept."""
    sub = dict(environ)
    sub["REQUEST_METHOD"] = method
    sub["wsgi.input"] = io.BytesIO(b"")
    sub["CONTENT_LENGTH"] = "0"
    sub["QUERY_STRING"] = ""
    for name in ("CONTENT_TYPE", "HTTP_TRANSFER_ENCODING", "HTTP_EXPECT"):
        sub.pop(name, None)
    sub["HTTP_ACCEPT"] = "application/json"
    reply = Reply(0)

    def start(status: str, headers: Headers, exc_info: Any = None) -> Callable[[bytes], None]:
        reply.status = int(status.split(" ", 1)[0])
        reply.headers = list(headers)
        return lambda data: None

    result = app(sub, start)
    parts: list[bytes] = []
    size = 0
    try:
        for part in _chunks(result):
            size += len(part)
            if size > limit:
                raise BodyRefused(
                    413,
                    f"The stored resource is larger than {limit} bytes, the most onespec reads "
                    "back to check a change to it (four times the max_body_bytes option of "
                    "its paste filter).",
                )
            parts.append(part)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    reply.body = b"".join(parts)
    return reply


def _chunks(result: Iterable[bytes]) -> Iterator[bytes]:
    yield from result


# --- Failing open -----------------------------------------------------------------------------


def fail_open(
    filter_name: str, app: WSGIApp, environ: dict[str, Any], start_response: StartResponse
) -> Iterable[bytes]:
    """Log the exception being handled and hand the request on unchanged: onespec is never the
    cause of a 500."""
    LOG.exception(
        "paste filter %s failed while checking %s %s; the request goes on unchecked",
        filter_name,
        environ.get("REQUEST_METHOD"),
        environ.get("PATH_INFO"),
    )
    return app(environ, start_response)
