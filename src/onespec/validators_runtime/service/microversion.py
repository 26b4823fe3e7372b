"""Microversions of the flavor extra-specs endpoints, read as Nova reads them.

A request selects one with ``OpenStack-API-Version: compute 2.86`` (several services may be
listed, comma-separated; ``latest`` means the newest), or with the older
``X-OpenStack-Nova-API-Version: 2.86``. Without either it gets the oldest, 2.1, under which
extra specs are stored unchecked, as Nova stores them. A malformed version is a 400; a version
outside the supported range, a 406.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

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
_PAIR = re.compile(r"[ \t]*([A-Za-z0-9_.-]+)[ \t]+([^ \t,]+)[ \t]*")


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
    major, _, minor = value.partition(".")
    version = (int(major), int(minor))
    if not MINIMUM <= version <= MAXIMUM:
        raise NotAcceptable(
            f"Microversion {text(version)} of the {SERVICE} API is not supported; this service "
            f"supports {text(MINIMUM)} to {text(MAXIMUM)}."
        )
    return version


def requested(headers: Mapping[str, str] | Headers) -> tuple[int, int]:
    """The microversion a request asks for (the oldest when it asks for none)."""
    value = headers.get(HEADER)
    if value is not None:
        if not _HEADER_VALUE.fullmatch(value):
            raise BadRequest(
                f"The {HEADER} header {value!r} is not a list of 'SERVICE VERSION' pairs, "
                f"such as '{SERVICE} {text(VALIDATION)}'."
            )
        for part in value.split(","):
            match = _PAIR.fullmatch(part)
            if match is not None and match.group(1).lower() == SERVICE:
                return parse(match.group(2), HEADER)
        return MINIMUM
    legacy = headers.get(LEGACY_HEADER)
    if legacy is not None:
        return parse(legacy, LEGACY_HEADER)
    return MINIMUM


def response_headers(version: tuple[int, int]) -> dict[str, str]:
    """The headers a microversioned response carries."""
    return {HEADER: f"{SERVICE} {text(version)}", "Vary": HEADER}
