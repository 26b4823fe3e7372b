"""Facts of onespec's HTTP API: its microversions, its limits and the shapes it accepts.

The service, its generated JSON Schemas and OpenAPI document, and its reference all read these,
so a limit is stated once. The flavor extra-specs endpoints follow Nova's
``/flavors/{flavor_id}/os-extra_specs`` API: the same body shapes, the same key and value limits,
and the microversion (Nova's 2.86) from which the extra specs written are validated.
"""

from __future__ import annotations

from onespec.definitions.model import KEY_CHARACTERS, MAX_LENGTH

#: The request header that selects a microversion, as in ``OpenStack-API-Version: compute 2.86``.
MICROVERSION_HEADER = "OpenStack-API-Version"

#: The header Nova read before ``OpenStack-API-Version``; a version alone, as in ``2.86``.
LEGACY_MICROVERSION_HEADER = "X-OpenStack-Nova-API-Version"

#: The service type named in the microversion header.
MICROVERSION_SERVICE = "compute"

#: The whole header value: comma-separated ``SERVICE VERSION`` pairs, spaces or tabs around them.
#: A value that does not match is refused (400); the version of another service is not read.
MICROVERSION_HEADER_PATTERN = (
    r"[ \t]*[A-Za-z0-9_.-]+[ \t]+[^ \t,]+[ \t]*(?:,[ \t]*[A-Za-z0-9_.-]+[ \t]+[^ \t,]+[ \t]*)*"
)

#: A microversion: ``MAJOR.MINOR`` in decimal digits, or ``latest``.
MICROVERSION_PATTERN = r"latest|[1-9][0-9]{0,5}\.(?:0|[1-9][0-9]{0,5})"

#: The oldest microversion, which a request without the header gets (as from Nova).
MIN_MICROVERSION = (2, 1)

#: The newest microversion: ``latest`` selects it. It is the last that changed these endpoints.
MAX_MICROVERSION = (2, 86)

#: From this microversion on, extra specs written are validated against the definitions, and
#: the ``validation`` query parameter applies; below it they are stored unchecked (Nova's 2.86).
VALIDATION_MICROVERSION = (2, 86)

#: The values of the ``validation`` query parameter, the default first.
VALIDATION_MODES = ("strict", "permissive", "off")

#: The characters Nova's API allows in an extra-spec key, as a regular-expression class: letters,
#: digits, ``_``, ``:``, ``.``, ``-`` and the space. Any other key is refused before validation.
#: Definitions' names are held to the same rule (stated in the model, which this module reads).
EXTRA_SPEC_KEY_CHARACTERS = KEY_CHARACTERS

#: The longest extra-spec key and value (the size of Nova's database columns).
EXTRA_SPEC_MAX_LENGTH = MAX_LENGTH

#: What an extra-spec value may not hold: the NUL character, which PostgreSQL cannot store.
EXTRA_SPEC_VALUE_PATTERN = r"[^\u0000]*"

#: A flavor ID in a URL: the characters of Nova's flavor IDs (letters, digits, ``.``, ``_``,
#: ``-`` and the space), not starting with a dot or a space, nor ending with a space.
FLAVOR_ID_PATTERN = r"[A-Za-z0-9_-](?:[A-Za-z0-9._ -]{0,253}[A-Za-z0-9._-])?"

#: The URL prefix of the endpoints that stand in for Nova's: the flavor extra specs.
NOVA_PATHS_PREFIX = "/flavors/"

#: Errors of those endpoints have Nova's fault shape, ``{"badRequest": {"code": 400,
#: "message": "..."}}``, its one member named after the status as Nova names it, so a client
#: written for Nova (openstacksdk, novaclient) reads their message unchanged; the rest of the API
#: answers in its own shape (``{"error": {...}}``). A status not named here is Nova's
#: :data:`NOVA_OTHER_FAULT`.
NOVA_FAULT_NAMES = {
    400: "badRequest",
    401: "unauthorized",
    403: "forbidden",
    404: "itemNotFound",
    405: "badMethod",
    409: "conflictingRequest",
    413: "overLimit",
    415: "badMediaType",
    429: "overLimit",
    501: "notImplemented",
    503: "serviceUnavailable",
}
NOVA_OTHER_FAULT = "computeFault"

#: The largest request body, in bytes; a bigger one is refused with 413 before it is parsed.
MAX_BODY_BYTES = 1024 * 1024

#: The most extra specs one request may set (POST or PUT of the set); a request with more is
#: refused with 400 before any is checked, so that the work and the answer of one request stay
#: bounded. Nova sets no such limit; real flavors hold a few dozen.
MAX_EXTRA_SPECS_PER_REQUEST = 500

#: The longest project ID the service accepts in ``X-Project-Id``: what its database stores
#: (Keystone's own IDs are 32 to 64 characters). A longer one is refused with 400.
PROJECT_ID_MAX_LENGTH = 255


def version_text(version: tuple[int, int]) -> str:
    """``(2, 86)`` as ``2.86``."""
    return f"{version[0]}.{version[1]}"
