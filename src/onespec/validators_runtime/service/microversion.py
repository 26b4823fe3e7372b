"""Microversions of the flavor extra-specs endpoints, read as Nova reads them.

A request selects one with ``OpenStack-API-Version: compute 2.86`` (several services may be
listed, comma-separated; ``latest`` means the newest), or with the older
``X-OpenStack-Nova-API-Version: 2.86``. Without either it gets the oldest, 2.1, under which
extra specs are stored unchecked, as Nova stores them. A malformed version is a 400; a version
outside the supported range, a 406.

The headers are read by OpenStack's own reader, microversion-parse, which Nova reads them with:
the last ``compute`` entry of the header counts, and the older header is read when the header
names no ``compute`` version. What the reader lets pass is checked here first, against the
spellings the API publishes (:mod:`onespec.validators_runtime._generated.api`): a header that
is not a list of ``SERVICE VERSION`` pairs, which the reader would skip, and a version such as
``02.86`` or ``Latest``, which it would read, are a 400.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

import microversion_parse

from onespec.validators_runtime._generated import api as _generated
from onespec.validators_runtime.service.errors import BadRequest, NotAcceptable

if TYPE_CHECKING:
    from werkzeug.datastructures import Headers

HEADER: str = _generated.MICROVERSION_HEADER
LEGACY_HEADER: str = _generated.LEGACY_MICROVERSION_HEADER
SERVICE: str = _generated.MICROVERSION_SERVICE
MINIMUM: tuple[int, int] = _generated.MIN_MICROVERSION
MAXIMUM: tuple[int, int] = _generated.MAX_MICROVERSION
VALIDATION: tuple[int, int] = _generated.VALIDATION_MICROVERSION

_VERSION = re.compile(_generated.MICROVERSION_PATTERN)
_HEADER_VALUE = re.compile(_generated.MICROVERSION_HEADER_PATTERN)


def text(version: tuple[int, int]) -> str:
    """``(2, 86)`` as ``2.86``."""
    return f"{version[0]}.{version[1]}"


def parse(value: str, header: str) -> tuple[int, int]:
    """A version from a header's text: ``MAJOR.MINOR`` or ``latest``."""
    value = value.strip(" \t")
    if not _VERSION.fullmatch(value):
        raise BadRequest(
            f"The microversion {value!r} in the {header} header is not MAJOR.MINOR (such as "
            f"{text(VALIDATION)}) or 'latest'."
        )
    if value == "latest":
        return MAXIMUM
    version = microversion_parse.parse_version_string(value)
    if not version.matches(MINIMUM, MAXIMUM):
        raise NotAcceptable(
            f"Microversion {version} of the {SERVICE} API is not supported; this service "
            f"supports {text(MINIMUM)} to {text(MAXIMUM)}."
        )
    return (version.major, version.minor)


def requested(headers: Mapping[str, str] | Headers) -> tuple[int, int]:
    """The microversion a request asks for (the oldest when it asks for none)."""
    value = headers.get(HEADER)
    if value is not None and not _HEADER_VALUE.fullmatch(value):
        raise BadRequest(
            f"The {HEADER} header {value!r} is not a list of 'SERVICE VERSION' pairs, "
            f"such as '{SERVICE} {text(VALIDATION)}'."
        )
    fields = list(headers.items())  # the library reads (name, value) pairs of any mapping
    found = microversion_parse.get_version(fields, SERVICE)
    if found is not None:
        return parse(found, HEADER)
    legacy = microversion_parse.get_version(fields, SERVICE, legacy_headers=[LEGACY_HEADER])
    if legacy is not None:
        return parse(legacy, LEGACY_HEADER)
    return MINIMUM


def response_headers(version: tuple[int, int]) -> dict[str, str]:
    """The headers a microversioned response carries."""
    return {HEADER: f"{SERVICE} {text(version)}", "Vary": HEADER}
