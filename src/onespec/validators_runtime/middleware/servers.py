"""A WSGI filter for nova-api that refuses at the API what Nova would refuse later.

nova-api checks a flavor against its image at server create only as far as its own API goes;
what the scheduler or the compute host refuses reaches the user as ``202 Accepted`` and, minutes
later, an instance in ERROR. This filter runs onespec's whole-flavor check
(:func:`onespec.validators_runtime.flavors.validate_flavor`) on the flavor and image Nova is about
to use, and answers ``400`` in Nova's fault shape when any rule of any phase is broken:

* ``POST /servers``: the flavor of ``flavorRef`` with the image of ``imageRef`` (the flavor alone
  when the server boots from a volume without ``imageRef``);
* ``POST /servers/{id}/action`` with ``resize``: the new flavor with the server's image (as
  Nova keeps it in the server's system metadata); with ``rebuild``: the server's flavor with the
  new image;
* ``POST /flavors/{id}/os-extra_specs`` and ``PUT /flavors/{id}/os-extra_specs/{key}`` (from
  microversion 2.86, where Nova validates extra specs at all): the flavor as it will be after the
  write, with the rules that need no image. Only what the write breaks is refused, so that a
  flavor already broken can be mended one write at a time.

It sits in nova-api's paste pipelines after ``keystonecontext`` (it reads ``nova.context``) and
reads flavors, servers and images the way Nova does, with the caller's context, so it sees what
the caller may see. A flavor, server or image that does not exist is left for Nova to answer.
Nova is imported only when the filter first reads something, so this module imports without it.

Options (``[filter:onespec_servers]`` in ``api-paste.ini``):

``mode`` = ``refuse`` (default) | ``warn``
    ``warn`` lets the request through with a ``Warning`` header per finding, and logs it.
``extra_spec_validators`` = ``nova`` (default) | ``onespec``
    ``onespec`` puts :mod:`onespec.validators_runtime.nova_validators` in place of the validators
    Nova's flavor extra-specs controller calls, in this process.
``max_body_bytes`` (default 262144)
    A longer body is passed to Nova unchecked (never read past the bound).

Whatever goes wrong inside onespec, the request goes on to Nova unchanged and the failure is
logged: the filter never turns a request into a 500.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from onespec.validators_runtime._generated import api as _api
from onespec.validators_runtime._generated.flavor_change_rules import ROOT_DISK_RULES
from onespec.validators_runtime.extra_specs import (
    ExtraSpecValidationError,
    default_registry,
    stored_text,
)
from onespec.validators_runtime.flavor_parts.findings import FlavorFinding
from onespec.validators_runtime.flavors import validate_flavor, validate_rebuild, validate_resize
from onespec.validators_runtime.flavors.whole_flavor import PER_KEY_EXCEPTION
from onespec.validators_runtime.middleware.common import (
    COMMON_OPTIONS,
    BodyRefused,
    FilterConfigError,
    Option,
    WSGIApp,
    positive_int,
    read_body,
    status_line,
    with_headers,
)
from onespec.validators_runtime.middleware.common import read_options as read_common_options
from onespec.validators_runtime.service import flavor_check

LOG = logging.getLogger(__name__)

#: The name the filter goes by in messages and in the package's entry points.
FILTER_NAME = "onespec_servers"

MODES = ("refuse", "warn")
VALIDATORS = ("nova", "onespec")
DEFAULT_MAX_BODY = 256 * 1024
#: The bounds of ``max_body_bytes``: Nova's own request size limit is 112 KiB by default.
BODY_BOUNDS = (1024, 16 * 1024 * 1024)
#: Findings named in one refusal; the rest are counted.
MESSAGE_FINDINGS = 10
#: The microversion from which Nova validates extra-spec writes.
VALIDATED_FROM = (2, 86)
#: Longest flavor, server or image reference read (Nova's own are far shorter).
MAX_REF = 2048

_PHASES = {
    "api": "at the API",
    "scheduler": "when the server is scheduled",
    "spawn": "on the compute host",
    "resize": "when the server is resized",
    "rebuild": "when the server is rebuilt",
}


@dataclass(frozen=True)
class Options:
    """The filter's options, read from its paste section."""

    mode: str = "refuse"
    extra_spec_validators: str = "nova"
    max_body_bytes: int = DEFAULT_MAX_BODY
    share_image_reads: bool = True


def _yes_or_no(text: str) -> bool:
    value = text.strip().lower()
    if value in ("true", "yes", "on", "1"):
        return True
    if value in ("false", "no", "off", "0"):
        return False
    raise ValueError("must be true or false")


def _validators(text: str) -> str:
    value = text.strip().lower()
    if value not in VALIDATORS:
        raise ValueError(f"must be one of {', '.join(VALIDATORS)}")
    return value


#: The filter's paste options: ``mode`` as every onespec filter takes it, which validators Nova's
#: flavor extra-specs API runs, and the longest body read (Nova's own ``sizelimit`` refuses
#: bodies over its ``max_request_body_size``, 112 KiB by default, before the filter sees them).
OPTIONS = (
    next(option for option in COMMON_OPTIONS if option.name == "mode"),
    Option("extra_spec_validators", "nova", _validators, "nova or onespec"),
    Option(
        "max_body_bytes",
        DEFAULT_MAX_BODY,
        positive_int(*BODY_BOUNDS),
        "a longer body goes on to Nova unread",
    ),
    Option(
        "share_image_reads",
        True,
        _yes_or_no,
        "Nova's own read of the image of a request takes the filter's (one Glance read)",
    ),
)


def read_options(local_conf: Mapping[str, Any]) -> Options:
    """The options of ``[filter:...]``, each checked; an unknown name is refused (naming the
    closest) so that a typo does not silently leave the default in force."""
    return Options(**read_common_options(FILTER_NAME, local_conf, OPTIONS))


# --- Reading what Nova would use ----------------------------------------------------------------


@dataclass(frozen=True)
class Server:
    """A server's flavor and image as JSON documents (the image None when it has none), and
    whether its root disk is a volume (then the flavor's root disk is not used)."""

    flavor: dict[str, Any]
    image: dict[str, Any] | None
    volume_backed: bool = False


class Readers(Protocol):
    """Where the filter reads flavors, images and servers. Each returns None for one that does
    not exist (or the caller may not see): Nova then answers the request itself."""

    def flavor(self, context: Any, flavor_id: str) -> dict[str, Any] | None: ...

    def image(self, context: Any, image_id: str) -> dict[str, Any] | None: ...

    def server(self, context: Any, server_id: str) -> Server | None: ...

    def may_write_extra_specs(self, context: Any, create: bool) -> bool: ...

    def may_use_zero_disk(self, context: Any) -> bool:
        """Whether Nova's policy lets the caller boot a zero-disk flavor from an image (the
        default policy: admins only)."""
        ...

    def status_of(self, finding: FlavorFinding) -> int:
        """The status Nova answers a refusal with when it is the first: 400, or 403 for what
        Nova refuses at the API as forbidden (a zero-disk flavor by policy...)."""
        ...


def flavor_document(flavor: Any) -> dict[str, Any]:
    """A ``nova.objects.Flavor`` as Nova's API shows it (the shape ``read_flavor`` reads)."""

    def field(name: str, default: Any) -> Any:
        is_set = getattr(flavor, "obj_attr_is_set", None)
        if is_set is not None and not is_set(name):
            return default
        value = getattr(flavor, name, default)
        return default if value is None else value

    return {
        "id": field("flavorid", None),
        "name": field("name", None),
        "vcpus": field("vcpus", 0),
        "ram": field("memory_mb", 0),
        "disk": field("root_gb", 0),
        "swap": field("swap", 0),
        "OS-FLV-EXT-DATA:ephemeral": field("ephemeral_gb", 0),
        "OS-FLV-DISABLED:disabled": bool(field("disabled", False)),
        "os-flavor-access:is_public": bool(field("is_public", True)),
        "extra_specs": dict(field("extra_specs", {})),
    }


#: The fields of Nova's image dictionary that Glance's API shows beside the properties.
_IMAGE_FIELDS = (
    "id",
    "name",
    "status",
    "min_ram",
    "min_disk",
    "size",
    "disk_format",
    "container_format",
)


def image_document(image: Mapping[str, Any]) -> dict[str, Any]:
    """An image as Nova reads it (``nova.image.glance.API().get``, or the image kept in a
    server's system metadata) in Glance's v2 shape: its fields, then every property at the top
    level (the shape ``read_image`` reads)."""
    document = {name: image[name] for name in _IMAGE_FIELDS if image.get(name) is not None}
    properties = image.get("properties") or {}
    if isinstance(properties, Mapping):
        for key, value in properties.items():
            if isinstance(key, str) and key not in document:
                document[key] = value
    return document


class NovaReaders:
    """Reads through Nova's own code, in the nova-api process: ``nova.objects.Flavor``, Nova's
    compute API (which finds the server's cell) and Nova's Glance client, all with the caller's
    context, so that what the caller may not see is not found."""

    def __init__(self) -> None:
        self._glance: Any = None
        self._compute: Any = None

    def flavor(self, context: Any, flavor_id: str) -> dict[str, Any] | None:
        from nova import exception, objects

        try:
            flavor = objects.Flavor.get_by_flavor_id(context, flavor_id, read_deleted="no")
        except exception.FlavorNotFound:
            return None
        return flavor_document(flavor)

    def image(self, context: Any, image_id: str) -> dict[str, Any] | None:
        from nova import exception
        from nova.image import glance

        if self._glance is None:
            self._glance = glance.API()
        try:
            image = self._glance.get(context, image_id)
        except (exception.ImageNotFound, exception.ImageNotAuthorized, exception.Invalid):
            return None
        keep_for_nova(context, image_id, image)
        return image_document(image)

    def server(self, context: Any, server_id: str) -> Server | None:
        from nova import exception, utils
        from nova.compute import api as compute

        if self._compute is None:
            self._compute = compute.API()
        try:
            instance = self._compute.get(
                context, server_id, expected_attrs=["flavor", "system_metadata"]
            )
        except (exception.InstanceNotFound, exception.Invalid):
            return None
        from nova.compute import utils as compute_utils

        image = utils.get_image_from_system_metadata(instance.system_metadata)
        image_ref = getattr(instance, "image_ref", None)
        if image_ref:
            image["id"] = image_ref
        has_image = bool(image_ref) or bool(image.get("properties"))
        return Server(
            flavor_document(instance.flavor),
            image_document(image) if has_image else None,
            compute_utils.is_volume_backed_instance(context, instance),
        )

    def may_write_extra_specs(self, context: Any, create: bool) -> bool:
        from nova.policies import flavor_extra_specs

        rule = flavor_extra_specs.POLICY_ROOT % ("create" if create else "update")
        return bool(context.can(rule, target={}, fatal=False))

    def may_use_zero_disk(self, context: Any) -> bool:
        from nova.policies import servers

        return bool(context.can(servers.ZERO_DISK_FLAVOR, fatal=False))

    def status_of(self, finding: FlavorFinding) -> int:
        return FORBIDDEN_AT_THE_API_STATUS if _forbidden_at_the_api(finding) else 400


# --- What a request asks ------------------------------------------------------------------------

_PROJECT = r"(?:/[^/]+)?"
_CREATE = re.compile(_PROJECT + r"/servers/?")
_ACTION = re.compile(_PROJECT + r"/servers/([^/]+)/action/?")
_SPECS = re.compile(_PROJECT + r"/flavors/([^/]+)/os-extra_specs/?")
_SPEC = re.compile(_PROJECT + r"/flavors/([^/]+)/os-extra_specs/([^/]+)/?")


@dataclass(frozen=True)
class Target:
    """What a request would change: ``kind`` is ``create``, ``action`` or ``extra_specs``;
    ``ident`` the server or flavor; ``key`` the extra spec a ``PUT`` names."""

    kind: str
    ident: str = ""
    key: str = ""


def target_of(method: str, path: str) -> Target | None:
    """The request's target, or None for a request the filter leaves alone."""
    if method == "POST":
        if _CREATE.fullmatch(path):
            return Target("create")
        if match := _ACTION.fullmatch(path):
            return Target("action", match[1])
        if match := _SPECS.fullmatch(path):
            return Target("extra_specs", match[1])
    elif method == "PUT" and (match := _SPEC.fullmatch(path)):
        return Target("extra_specs", match[1], match[2])
    return None


def reference(ref: Any) -> str | None:
    """The id in a flavor or image reference (an id or a URL ending in one), as Nova reads
    it: the last segment of the URL's path. None for what Nova would refuse itself."""
    if isinstance(ref, bool) or not isinstance(ref, str | int):
        return None
    text = str(ref)
    if not text or len(text) > MAX_REF:
        return None
    if "://" in text:
        text = text.split("?", 1)[0].split("#", 1)[0]
    return text.rsplit("/", 1)[-1] or None


def microversion(environ: Mapping[str, Any]) -> tuple[int, int] | None:
    """The compute microversion the request asks for (2.1 when none); None when unreadable."""
    text = ""
    header = environ.get("HTTP_OPENSTACK_API_VERSION", "")
    for part in str(header).split(","):
        service, _, version = part.strip().partition(" ")
        if service.lower() == "compute":
            text = version.strip()
    if not text:
        text = str(environ.get("HTTP_X_OPENSTACK_NOVA_API_VERSION", "")).strip()
    if not text:
        return (2, 1)
    if text.lower() == "latest":
        return (999, 0)
    match = re.fullmatch(r"([1-9]\d{0,2})\.(0|[1-9]\d{0,2})", text)
    return (int(match[1]), int(match[2])) if match else None


# --- The body, bounded and put back ---------------------------------------------------------


def body_of(environ: dict[str, Any], limit: int) -> bytes | None:
    """The request body, put back for Nova; None when it is longer than ``limit`` (it goes on
    to Nova unread: Nova's own size limit answers it) or not for a filter to read."""
    try:
        return read_body(environ, limit)
    except BodyRefused:
        return None


def parsed(body: bytes) -> Any:
    """The JSON body, or None when it is none (Nova refuses it itself)."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return None


# --- Judging -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """The findings that refuse the request, what they are about, and warnings besides."""

    refusing: tuple[FlavorFinding, ...]
    subject: str
    warnings: tuple[FlavorFinding, ...] = ()


def refusing_findings(findings: Iterable[FlavorFinding]) -> tuple[FlavorFinding, ...]:
    """The errors of every phase that Nova raises for the pair: per-key findings are left out,
    since Nova checks each extra spec only when it is written, never at boot."""
    return tuple(
        f
        for f in findings
        if f.severity == "error" and f.nova_exception and f.nova_exception != PER_KEY_EXCEPTION
    )


def _named(document: Mapping[str, Any] | None, kind: str) -> str:
    if document is None:
        return f"no {kind}"
    name = document.get("name") or document.get("id")
    return f"{kind} {str(name)[:80]!r}" if name is not None else kind


def message(verdict: Verdict) -> str:
    """The refusal's text: each finding with its rule, keys, Nova's exception and phase."""
    parts = []
    for finding in verdict.refusing[:MESSAGE_FINDINGS]:
        keys = ", ".join(finding.keys)
        when = _PHASES.get(finding.phase or "", finding.phase or "")
        parts.append(
            f"[{finding.code}] ({keys}) {finding.message} "
            f"Nova would raise {finding.nova_exception} {when} (phase {finding.phase})."
        )
    more = len(verdict.refusing) - MESSAGE_FINDINGS
    if more > 0:
        parts.append(f"... and {more} more.")
    return f"onespec: Nova would refuse {verdict.subject}: " + " ".join(parts)


#: The refusals of a pair that Nova 34's servers API answers with 403, not 400: its create
#: handler turns the other exceptions it raises for a flavor and an image into 400s, and lets
#: these two (of its ``Forbidden`` family) through. tests/cloud/test_nova_servers.py holds the
#: filter's status to stock nova-api's for every rule.
FORBIDDEN_AT_THE_API = frozenset(
    {"ImagePCINUMAPolicyForbidden", "BootFromVolumeRequiredForZeroDiskFlavor"}
)
FORBIDDEN_AT_THE_API_STATUS = 403


def _forbidden_at_the_api(finding: FlavorFinding) -> bool:
    return finding.phase == "api" and finding.nova_exception in FORBIDDEN_AT_THE_API


def fault(code: int, text: str) -> tuple[list[tuple[str, str]], bytes]:
    """Headers and body of a refusal in Nova's fault shape, named as Nova names its status."""
    name = _api.NOVA_FAULT_NAMES.get(code, _api.NOVA_OTHER_FAULT)
    body = json.dumps({name: {"code": code, "message": text}}).encode("utf-8")
    headers = [
        ("Content-Type", "application/json; charset=UTF-8"),
        ("Content-Length", str(len(body))),
    ]
    return headers, body


class ServersFilter:
    """The filter around nova-api's application; see the module's docstring."""

    def __init__(self, app: WSGIApp, options: Options, readers: Readers | None = None) -> None:
        self.app = app
        self.options = options
        self.readers: Readers = readers if readers is not None else NovaReaders()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        target = target_of(environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", ""))
        if target is None:
            return self.app(environ, start_response)
        try:
            verdict = self.judge(environ, target)
        except Exception:  # onespec's failure must never become Nova's 500
            LOG.exception(
                "onespec could not check %s %s; the request goes on to Nova unchecked",
                environ.get("REQUEST_METHOD"),
                environ.get("PATH_INFO"),
            )
            return self.app(environ, start_response)
        if verdict is None:
            return self.app(environ, start_response)
        if verdict.refusing and self.options.mode == "refuse":
            text = message(verdict)
            LOG.info(
                "onespec refused %s %s: %s", environ["REQUEST_METHOD"], environ["PATH_INFO"], text
            )
            status = self.readers.status_of(verdict.refusing[0])
            headers, body = fault(status, text)
            start_response(status_line(status), headers + _versions(environ))
            return [body]
        warnings = (*verdict.refusing, *verdict.warnings)
        if not warnings:
            return self.app(environ, start_response)
        if verdict.refusing:
            LOG.warning(
                "onespec would refuse %s %s (mode warn): %s",
                environ["REQUEST_METHOD"],
                environ["PATH_INFO"],
                message(verdict),
            )
        return self.app(
            environ, with_headers(start_response, flavor_check.warning_headers(warnings))
        )

    def judge(self, environ: dict[str, Any], target: Target) -> Verdict | None:
        """The verdict on the request, or None when it is left for Nova alone."""
        context = environ.get("nova.context")
        if context is None:
            return None
        if target.kind == "extra_specs":
            version = microversion(environ)
            if version is None or version < VALIDATED_FROM:
                return None
        body = body_of(environ, self.options.max_body_bytes)
        document = parsed(body) if body is not None else None
        if not isinstance(document, dict):
            return None
        if target.kind == "create":
            return self._create(context, document)
        if target.kind == "action":
            return self._action(context, target.ident, document)
        return self._extra_specs(context, target, document)

    def _pair(
        self, context: Any, flavor: dict[str, Any], image: dict[str, Any] | None, volume: bool
    ) -> Verdict:
        """The create-time check, as Nova makes it for this caller: the zero-disk rule only
        where Nova's policy refuses the caller, the root-disk rules only for a server whose
        root disk is not a volume."""
        as_admin = self.readers.may_use_zero_disk(context)
        findings = validate_flavor(flavor, image, mode="off", as_admin=as_admin)
        if volume:
            findings = [f for f in findings if f.code not in ROOT_DISK_RULES]
        subject = f"{_named(flavor, 'flavor')} with {_named(image, 'image')}"
        return Verdict(refusing_findings(findings), subject)

    def _create(self, context: Any, document: dict[str, Any]) -> Verdict | None:
        server = document.get("server")
        if not isinstance(server, dict):
            return None
        flavor_id = reference(server.get("flavorRef"))
        if flavor_id is None:
            return None
        image_ref = server.get("imageRef")
        image_id = reference(image_ref) if image_ref not in (None, "") else ""
        if image_id is None:
            return None
        flavor = self.readers.flavor(context, flavor_id)
        if flavor is None:
            return None
        image = None
        if image_id:
            image = self.readers.image(context, image_id)
            if image is None:
                return None
        return self._pair(context, flavor, image, not image_id or _boots_from_volume(server))

    def _action(self, context: Any, server_id: str, document: dict[str, Any]) -> Verdict | None:
        if len(document) != 1:
            return None
        (action, arguments), *_ = document.items()
        if action not in ("resize", "rebuild") or not isinstance(arguments, dict):
            return None
        ref = reference(arguments.get("flavorRef" if action == "resize" else "imageRef"))
        if ref is None:
            return None
        server = self.readers.server(context, server_id)
        if server is None:
            return None
        as_admin = self.readers.may_use_zero_disk(context)
        subject = f"server {server_id}"
        if action == "resize":
            flavor = self.readers.flavor(context, ref)
            if flavor is None:
                return None
            findings = validate_resize(
                server.flavor,
                flavor,
                server.image,
                volume_backed=server.volume_backed,
                mode="off",
                as_admin=as_admin,
            )
            return Verdict(
                refusing_findings(findings), f"resizing {subject} to {_named(flavor, 'flavor')}"
            )
        image = self.readers.image(context, ref)
        if image is None:
            return None
        if server.image is None:
            return self._pair(context, server.flavor, image, server.volume_backed)
        findings = validate_rebuild(
            server.flavor, server.image, image, mode="off", as_admin=as_admin
        )
        return Verdict(
            refusing_findings(findings), f"rebuilding {subject} with {_named(image, 'image')}"
        )

    def _extra_specs(
        self, context: Any, target: Target, document: dict[str, Any]
    ) -> Verdict | None:
        written = document.get("extra_specs") if not target.key else document
        if not isinstance(written, dict) or not written:
            return None
        if target.key and set(written) != {target.key}:
            return None  # Nova refuses a body that does not name the URL's key
        if not self.readers.may_write_extra_specs(context, create=not target.key):
            return None
        flavor = self.readers.flavor(context, target.ident)
        if flavor is None:
            return None
        before = {k: v for k, v in flavor.get("extra_specs", {}).items() if isinstance(v, str)}
        after = dict(before)
        for key, value in written.items():
            text = stored_text(value)
            if not isinstance(key, str) or text is None:
                return None  # Nova refuses it with its own schema
            after[key] = text
        if _refused_per_key({key: after[key] for key in written}):
            return None  # Nova's validators refuse a key on its own, in their own words
        sizes = {k: v for k, v in flavor.items() if k != "extra_specs"}
        broken, warnings = flavor_check.judge(before, after, sizes)
        subject = f"{_named(flavor, 'flavor')} with these extra specs"
        return Verdict(tuple(broken), subject, tuple(warnings))


def _refused_per_key(written: Mapping[str, str]) -> bool:
    """Whether an extra spec written is refused on its own (as Nova's validators refuse it from
    microversion 2.86): the rules between keys are only what such checks leave to add."""
    try:
        default_registry().validate(written, mode="strict", between_keys=False)
    except ExtraSpecValidationError:
        return True
    return False


def _boots_from_volume(server: Mapping[str, Any]) -> bool:
    """Whether a create's block device mapping makes the root disk a volume (boot index 0)."""
    mappings = server.get("block_device_mapping_v2")
    if not isinstance(mappings, list):
        return False
    return any(
        isinstance(bdm, dict)
        and str(bdm.get("boot_index")) == "0"
        and bdm.get("destination_type") == "volume"
        for bdm in mappings
    )


def _versions(environ: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The microversion headers Nova puts on its own answers, when the request named one."""
    version = microversion(environ)
    if version is None or version[0] == 999:
        return []
    text = f"{version[0]}.{version[1]}"
    return [
        ("OpenStack-API-Version", f"compute {text}"),
        ("X-OpenStack-Nova-API-Version", text),
        ("Vary", "OpenStack-API-Version, X-OpenStack-Nova-API-Version"),
    ]


def install_onespec_validators() -> None:
    """Put onespec's drop-in in place of the validators Nova's flavor extra-specs controller
    calls, in this process. Refused, naming the option, when Nova cannot be imported."""
    try:
        from nova.api.openstack.compute import flavors_extraspecs
    except ImportError as error:
        raise FilterConfigError(
            f"paste filter {FILTER_NAME}: extra_spec_validators = onespec needs Nova in this "
            f"process (importing its flavor extra-specs controller failed: {error})."
        ) from None
    from onespec.validators_runtime import nova_validators

    flavors_extraspecs.validators = nova_validators
    LOG.info("onespec's extra-spec validators stand in for Nova's in this process")


#: The attribute of Nova's request context that holds the images the filter read for it.
KEPT_IMAGES = "_onespec_images"


def keep_for_nova(context: Any, image_id: str, image: Any) -> None:
    """Keep the image read for this request on its context, for Nova's own read of it."""
    kept = getattr(context, KEPT_IMAGES, None)
    if kept is None:
        kept = {}
        setattr(context, KEPT_IMAGES, kept)
    kept[image_id] = copy.deepcopy(image)


def share_image_reads() -> None:
    """Let Nova's own read of an image, later in the same request, take the one the filter
    made for it, instead of asking Glance a second time (the filter's one cost that is not
    Nova's own: a Glance round trip per create, rebuild or resize).

    Nova reads the image of a request through ``nova.image.glance.API.get``; the filter reads it
    the same way first and keeps it on the request's context (:func:`keep_for_nova`). The
    method is wrapped once per process: a read with the same arguments, on the same request's
    context, gets a copy of what the filter read moments before; every other read (another
    request, another image, with locations) goes to Glance as before."""
    from nova.image import glance

    original = glance.API.get
    if getattr(original, "_onespec_shares_reads", False):
        return

    @functools.wraps(original)
    def get(
        self: Any,
        context: Any,
        id_or_uri: Any,
        include_locations: bool = False,
        show_deleted: bool = True,
    ) -> Any:
        kept = getattr(context, KEPT_IMAGES, None)
        if kept and not include_locations and show_deleted and id_or_uri in kept:
            return copy.deepcopy(kept[id_or_uri])
        return original(self, context, id_or_uri, include_locations, show_deleted)

    get._onespec_shares_reads = True  # type: ignore[attr-defined]
    glance.API.get = get


def filter_factory(
    global_conf: Mapping[str, Any], **local_conf: Any
) -> Callable[[WSGIApp], WSGIApp]:
    """The paste entry point ``egg:onespec#onespec_servers``: the options are checked when the
    pipeline is loaded, so a wrong one stops nova-api at start-up, naming it."""
    options = read_options(local_conf)
    if options.extra_spec_validators == "onespec":
        install_onespec_validators()
    if options.share_image_reads:
        with contextlib.suppress(ImportError):  # without Nova there is nothing to share
            share_image_reads()

    def wrap(app: WSGIApp) -> WSGIApp:
        return ServersFilter(app, options)

    return wrap


__all__ = [
    "FilterConfigError",
    "NovaReaders",
    "Options",
    "Readers",
    "Server",
    "ServersFilter",
    "filter_factory",
    "read_options",
]
