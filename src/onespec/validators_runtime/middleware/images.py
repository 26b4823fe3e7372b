"""Refuse image properties Nova cannot use when they are written to glance-api.

Glance stores any string as an image property: ``hw_cpu_policy=dedicatd`` or
``hw_numa_nodes=zero`` are accepted and break every boot of the image later, in Nova. This
paste filter (``egg:onespec#onespec_images``) checks the two writes that set properties:

* ``POST /v2/images``: the image's properties are the members of the body besides Glance's
  own fields;
* ``PATCH /v2/images/{id}`` in either media type (``application/openstack-images-v2.1-json-patch``,
  ``op``/``path`` operations; ``...-v2.0-json-patch``, ``{"add": "/path", ...}``): the image
  as it will be is the image as it is, read through the wrapped application with the caller's
  own credentials, with the patch applied as Glance applies it.

The properties are checked as
:func:`onespec.validators_runtime.flavors.validate_image_properties` checks them (values Nova
cannot read, names that look like Nova's and are not), together with the rules between keys an
image breaks whatever flavor boots it (per-node lists complete, CPUs listed once, memory
encryption with UEFI, ...). What a flavor could still make right (an image asking for
``hw_cpu_thread_policy`` of a flavor that pins CPUs) is a warning, not a refusal.
Properties outside Nova's namespaces are left alone.

Only what the write breaks is refused: a finding the image had before (written before the
filter was there) is reported as a warning, so that an unrelated write, or a write that mends
one property at a time, goes through. A refusal is Glance's own 400, rendered as Glance renders
it for the client's ``Accept`` header, and nothing of the write is stored. With ``mode = warn``
the write goes through and the findings are logged and sent in ``Warning`` headers.

A write this filter cannot read (not JSON, a patch Glance itself would refuse, a property value
that is not a string) is handed on unchanged for Glance to answer.
"""

from __future__ import annotations

import html
import json
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from onespec.validators_runtime._generated.flavor_rules import SIZED_RULES
from onespec.validators_runtime._generated.image_properties import (
    GLANCE_IMAGE_FIELDS,
    GLANCE_RESERVED_PREFIX,
    PROPERTY_KINDS,
)
from onespec.validators_runtime.flavor_parts.findings import FlavorFinding
from onespec.validators_runtime.flavor_parts.image_props import (
    typed_properties,
    unknown_properties,
)
from onespec.validators_runtime.flavor_parts.inputs import Flavor, Image
from onespec.validators_runtime.flavors import rule_findings
from onespec.validators_runtime.middleware.common import (
    COMMON_OPTIONS,
    UNREADABLE,
    BodyRefused,
    Limits,
    Mode,
    Option,
    StartResponse,
    WSGIApp,
    answer,
    bounded,
    fail_open,
    parse_json,
    positive_int,
    read_body,
    read_options,
    status_line,
    sub_request,
    warning_value,
    with_headers,
)

LOG = logging.getLogger(__name__)

#: The name the filter goes by in messages and in ``setup``'s entry points.
FILTER_NAME = "onespec_images"

OPTIONS = (
    *COMMON_OPTIONS,
    Option(
        "max_patch_operations",
        1000,
        positive_int(1, 100_000),
        "JSON patches with more operations are refused (400)",
    ),
    Option(
        "max_properties",
        300,
        positive_int(1, 100_000),
        "images with more properties are refused (400): each unknown name costs a search",
    ),
    Option(
        "max_findings_shown",
        20,
        positive_int(1, 1000),
        "findings named in one refusal or in Warning headers",
    ),
)

#: The media types of Glance's image patches, each with the JSON-patch draft it follows.
PATCH_MEDIA_TYPES = {
    "application/openstack-images-v2.1-json-patch": 10,
    "application/openstack-images-v2.0-json-patch": 4,
}
_OPERATIONS = ("add", "remove", "replace")
_IMAGES = re.compile(r"/v2/images")
_IMAGE = re.compile(r"/v2/images/([^/]+)")
#: The flavor the image's rules are checked with: the rules that read a flavor's sizes are left
#: out, so the sizes only keep the others from tripping on a flavor too small.
_STAND_IN_VCPUS, _STAND_IN_RAM = 256, 256 * 1024
#: Flavors that give what an image may ask a flavor for (pinned CPUs, a dedicated mask, huge
#: pages, a vTPM version). A finding one of them clears without bringing another error in is
#: the flavor's to settle, not the image's: a warning.
PROBES: tuple[Mapping[str, str], ...] = (
    {"hw:cpu_policy": "dedicated"},
    {"hw:cpu_policy": "mixed", "hw:cpu_dedicated_mask": "^0"},
    {"hw:cpu_policy": "dedicated", "hw:cpu_realtime": "yes", "hw:cpu_realtime_mask": "^0"},
    {"hw:mem_page_size": "large"},
    {"hw:tpm_version": "2.0"},
)


# --- What an image's properties break ---------------------------------------------------------


@dataclass
class Verdict:
    """What a write breaks (``broken``: errors it brings in) and what else there is to say
    (``warnings``: errors the image had already, and warnings)."""

    broken: list[FlavorFinding] = field(default_factory=list)
    warnings: list[FlavorFinding] = field(default_factory=list)


def _identity(finding: FlavorFinding) -> tuple[str, tuple[str, ...], str]:
    # The message holds the value: writing one bad value over another is a new finding.
    return finding.code, finding.keys, finding.message


def _image_keys(finding: FlavorFinding, properties: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(key for key in finding.keys if key in properties)


def _rule_errors(
    image: Image, props: Mapping[str, Any], specs: Mapping[str, str]
) -> list[FlavorFinding]:
    flavor = Flavor(_STAND_IN_VCPUS, _STAND_IN_RAM, extra_specs=specs)
    return [
        finding
        for finding in rule_findings(flavor, image, props)
        if finding.severity == "error" and finding.code not in SIZED_RULES
    ]


def image_findings(properties: Mapping[str, str]) -> list[FlavorFinding]:
    """Every finding about an image's ``properties`` on their own: the per-property ones of
    :func:`validate_image_properties`, then the rules between them. A rule's error that a
    probe flavor clears without another error is turned into a warning."""
    image = Image(properties=properties)
    # What validate_image_properties finds, with the properties typed once for the rules too.
    props, found = typed_properties(properties)
    unreadable = {key for finding in found for key in finding.keys}
    found += unknown_properties(properties)
    errors = _rule_errors(image, props, {})
    if not errors:
        return found
    own = {(f.code, _image_keys(f, properties)) for f in errors}
    for probe in PROBES:
        with_probe = _rule_errors(image, props, probe)
        kinds = {(f.code, _image_keys(f, properties)) for f in with_probe}
        if kinds <= own:  # the probe brings no error of its own in
            own &= kinds
    for finding in errors:
        if set(finding.keys) <= unreadable:
            continue  # said already: the value cannot be read
        if not any(map(in_novas_namespaces, finding.keys)):
            # Another service's property (Cinder's cinder_encryption_key_id on an image
            # uploaded from an encrypted volume): left alone, whatever Nova makes of it.
            continue
        if (finding.code, _image_keys(finding, properties)) in own:
            found.append(finding)
        else:
            found.append(_flavor_may_settle(finding))
    return found


#: The prefixes of the image properties Nova reads (``hw_cpu_policy``, ``os_distro``,
#: ``img_config_drive``, ``trait:CUSTOM_X``).
_NOVA_PREFIXES = ("hw_", "os_", "img_", "trait:")


def in_novas_namespaces(name: str) -> bool:
    """Whether an image property is Nova's to read: the filter leaves the others alone."""
    return name.startswith(_NOVA_PREFIXES) or name.split(".", 1)[0] in PROPERTY_KINDS


def _flavor_may_settle(finding: FlavorFinding) -> FlavorFinding:
    return FlavorFinding(
        code=finding.code,
        severity="warning",
        message=f"{finding.message} (unless the flavor that boots the image settles it)",
        location=finding.location,
        keys=finding.keys,
        nova_exception=finding.nova_exception,
        phase=finding.phase,
    )


def judge(before: Mapping[str, str], after: Mapping[str, str]) -> Verdict:
    """What a write that turns properties ``before`` into ``after`` breaks, and the rest."""
    now = image_findings(after)
    verdict = Verdict()
    if not any(f.severity == "error" for f in now):
        verdict.warnings = now
        return verdict
    earlier = (
        {_identity(f) for f in image_findings(before) if f.severity == "error"} if before else set()
    )
    for finding in now:
        if finding.severity == "error" and _identity(finding) not in earlier:
            verdict.broken.append(finding)
        else:
            verdict.warnings.append(finding)
    return verdict


def properties_of(image: Mapping[str, Any]) -> dict[str, Any]:
    """The properties of an image as Glance's v2 API writes it: every member but Glance's own
    fields and its reserved ``os_glance_`` ones."""
    return {
        name: value
        for name, value in image.items()
        if name not in GLANCE_IMAGE_FIELDS and not name.startswith(GLANCE_RESERVED_PREFIX)
    }


# --- Reading the writes -----------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One patch operation on an image property (never on one of Glance's own fields)."""

    op: str
    name: str
    value: Any = None


def _pointer(path: Any) -> str | None:
    """The one name a JSON pointer designates, decoded as Glance decodes it (``~1`` then
    ``~0``, each part stripped), or None when Glance would refuse the pointer or it goes
    deeper than a top-level member."""
    if not isinstance(path, str) or not path.startswith("/") or path.endswith("~"):
        return None
    if re.search(r"/\s*?/", path[1:]) or (len(path) > 1 and path.endswith("/")):
        return None
    if re.search("~[^01]", path):
        return None
    parts = [p.replace("~1", "/").replace("~0", "~").strip() for p in path.lstrip("/").split("/")]
    if len(parts) != 1 or not parts[0]:
        return None
    return parts[0]


def read_patch(document: Any, draft: int) -> list[Change] | None:
    """The operations of a patch on image properties, in order, or None when Glance would
    refuse the patch (it is Glance's to answer) or it touches no property."""
    if not isinstance(document, list):
        return None
    changes = []
    for raw in document:
        if not isinstance(raw, dict):
            return None
        if draft == 10:
            op = raw.get("op")
            path = raw.get("path")
        else:
            named = [op for op in _OPERATIONS if op in raw]
            if len(named) != 1:
                return None
            op = named[0]
            path = raw[op]
        if op not in _OPERATIONS:
            return None
        name = _pointer(path)
        if name is None:
            return None
        if op != "remove" and "value" not in raw:
            return None
        if name in GLANCE_IMAGE_FIELDS or name.startswith(GLANCE_RESERVED_PREFIX):
            continue  # Glance's own fields: not properties
        value = raw.get("value")
        if op != "remove" and not isinstance(value, str):
            return None  # Glance's schema holds properties to strings
        changes.append(Change(op, name, value))
    return changes or None


def apply_patch(
    properties: Mapping[str, Any], changes: Sequence[Change], draft: int
) -> dict[str, Any] | None:
    """The properties after ``changes``, as Glance applies them, or None where Glance would
    refuse the patch (replacing or removing a property that is not there; adding one that is,
    in the 2.0 media type)."""
    after = dict(properties)
    for change in changes:
        present = change.name in after
        if change.op == "remove":
            if not present:
                return None
            del after[change.name]
        elif (change.op == "replace" and not present) or (
            change.op == "add" and present and draft == 4
        ):
            return None
        else:
            after[change.name] = change.value
    return after


# --- Glance's own error answers ---------------------------------------------------------------

_TITLES = {400: "Bad Request", 413: "Request Entity Too Large"}
_MEDIA_RANGE = re.compile(
    r"\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)/([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*"
    r"((?:;\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+=(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+|\"(?:[^\"\\]|\\.)*\")\s*)*)"
)
_Q = re.compile(r";\s*q=([01](?:\.[0-9]{0,3})?)\s*(?:;|$)", re.IGNORECASE)
#: The kinds of body an error takes, the one preferred where the client accepts both equally
#: first. Glance (WebOb) prefers HTML; a refusal prefers JSON, whose message is the only one the
#: ``openstack`` client shows (it sends ``Accept: */*`` for ``image create``, none at all for
#: ``image set``, and printed HTML entities or a bare "Bad Request" for Glance's own).
_OFFERS = ("application/json", "text/html")


def _negotiated(accept: str) -> str:
    """The kind of body an error answer takes for an ``Accept`` header: WebOb's choice between
    ``application/json`` and ``text/html`` (plain text when neither is acceptable), JSON where
    both are equally acceptable, and JSON where there is no header (anything is acceptable)."""
    if not accept.strip():
        return "application/json"
    ranges = []
    for element in accept.split(","):
        if not element.strip():
            continue
        match = _MEDIA_RANGE.fullmatch(element)
        if match is None:
            return "text/html"  # an Accept header that cannot be read accepts anything
        params = match.group(3)
        q_match = _Q.search(params)
        q = float(q_match.group(1)) if q_match else 1.0
        if q > 1:
            return "text/html"
        others = _Q.sub(";", params).strip("; \t")
        ranges.append((match.group(1).lower(), match.group(2).lower(), q, bool(others)))
    best: list[tuple[float, int, str]] = []
    for order, offer in enumerate(_OFFERS):
        kind, sub = offer.split("/")
        specific = [
            (specificity, q)
            for range_kind, range_sub, q, has_params in ranges
            if not has_params
            for specificity in (
                (3 if (range_kind, range_sub) == (kind, sub) else 0)
                or (2 if (range_kind, range_sub) == (kind, "*") else 0)
                or (1 if (range_kind, range_sub) == ("*", "*") else 0),
            )
            if specificity
        ]
        if specific:
            q = max(specific)[1]
            if q > 0:
                best.append((-q, order, offer))
    return min(best)[2] if best else "text/plain"


def _strip_tags(text: str) -> str:
    text = text.replace("\n", " ").replace("\r", "")
    text = re.sub(r"<br.*?>", "\n", text, flags=re.IGNORECASE | re.DOTALL)
    return re.sub(r"<.*?>", "", text, flags=re.DOTALL)


def glance_error(accept: str, status: int, explanation: str) -> tuple[bytes, str]:
    """The body and content type glance-api 33 answers an error of its own with (a WebOb
    ``HTTPBadRequest(explanation=...)``), for the client's ``Accept`` header."""
    line = status_line(status)
    body = f"{explanation}<br /><br />\n\n\n"
    kind = _negotiated(accept)
    if kind == "application/json":
        # Glance's members; its message without the HTML line breaks WebOb appends, which the
        # openstack client prints as they are.
        document = {"message": explanation, "code": line, "title": _TITLES.get(status, "Error")}
        return json.dumps(document).encode(), "application/json"
    if kind == "text/html":
        page = (
            f"<html>\n <head>\n  <title>{line}</title>\n </head>\n <body>\n  <h1>{line}</h1>\n"
            f"  {html.escape(explanation)}<br /><br />\n\n\n\n </body>\n</html>"
        )
        return page.encode(), "text/html; charset=UTF-8"
    return f"{line}\n\n{_strip_tags(body)}".encode(), "text/plain; charset=UTF-8"


# --- The filter -------------------------------------------------------------------------------


def finding_text(finding: FlavorFinding) -> str:
    """One finding in a sentence or two, its code last."""
    message = finding.message.replace("?.", "?")
    if finding.nova_exception:
        message += f" Nova would refuse it ({finding.nova_exception}, {finding.phase})."
    return bounded(f"{message} [{finding.code}]")


class ImagePropertiesFilter:
    """The paste filter: checks the image writes it knows, hands everything else on."""

    def __init__(self, app: WSGIApp, options: Mapping[str, Any]) -> None:
        self.app = app
        self.mode: Mode = options["mode"]
        self.limits = Limits.from_options(options)
        self.max_operations: int = options["max_patch_operations"]
        self.max_shown: int = options["max_findings_shown"]
        self.max_properties: int = options["max_properties"]

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD", "")
        path = environ.get("PATH_INFO", "")
        if method == "POST" and _IMAGES.fullmatch(path):
            check = self._create
        elif method == "PATCH" and _IMAGE.fullmatch(path):
            check = self._update
        else:
            return self.app(environ, start_response)
        try:
            verdict = check(environ)
        except BodyRefused as refused:
            return self._unread(environ, start_response, refused)
        except Exception:
            return fail_open(FILTER_NAME, self.app, environ, start_response)
        if verdict is None:
            return self.app(environ, start_response)
        return self._answer(environ, start_response, verdict)

    # The two writes ----------------------------------------------------------------------------

    def _create(self, environ: dict[str, Any]) -> Verdict | None:
        document = self._document(environ)
        if not isinstance(document, dict):
            return None
        properties = properties_of(document)
        if not all(isinstance(value, str) for value in properties.values()):
            return None  # Glance's schema holds properties to strings: its 400
        return self._judge({}, properties)

    def _update(self, environ: dict[str, Any]) -> Verdict | None:
        media_type = environ.get("CONTENT_TYPE", "").split(";", 1)[0].strip()
        draft = PATCH_MEDIA_TYPES.get(media_type)
        if draft is None:
            return None  # Glance answers 415
        document = self._document(environ)
        if isinstance(document, list) and len(document) > self.max_operations:
            raise BodyRefused(
                400,
                f"The JSON patch has {len(document)} operations, more than the "
                f"{self.max_operations} onespec reads (the max_patch_operations option of "
                "its paste filter).",
            )
        changes = read_patch(document, draft)
        if changes is None:
            return None
        reply = sub_request(self.app, environ, "GET", self.limits.max_body_bytes * 4)
        if reply.status != 200:
            return None  # Glance answers the PATCH as it answered the GET (404, 403)
        image = json.loads(reply.body)
        before = properties_of(image) if isinstance(image, dict) else {}
        after = apply_patch(before, changes, draft)
        if after is None:
            return None  # Glance answers 409
        return self._judge(before, after)

    def _judge(self, before: Mapping[str, str], after: Mapping[str, str]) -> Verdict:
        if len(after) > self.max_properties:
            raise BodyRefused(
                400,
                f"The image would have {len(after)} properties, more than the "
                f"{self.max_properties} onespec checks (the max_properties option of its "
                "paste filter).",
            )
        return judge(before, after)

    def _document(self, environ: dict[str, Any]) -> Any:
        body = read_body(environ, self.limits.max_body_bytes)
        if not body:
            return None
        document = parse_json(body, self.limits)
        return None if document is UNREADABLE else document

    # Answers ---------------------------------------------------------------------------------

    def _answer(
        self, environ: dict[str, Any], start_response: StartResponse, verdict: Verdict
    ) -> Iterable[bytes]:
        where = f"{environ.get('REQUEST_METHOD')} {environ.get('PATH_INFO')}"
        broken = [finding_text(f) for f in verdict.broken]
        if broken and self.mode == "refuse":
            LOG.info("%s refused %s: %s", FILTER_NAME, where, " ".join(broken))
            explanation = "Image properties refused: " + " ".join(self._shown(broken))
            return self._error(environ, start_response, 400, explanation)
        if broken:
            LOG.warning("%s would refuse %s: %s", FILTER_NAME, where, " ".join(broken))
        texts = broken + [finding_text(f) for f in verdict.warnings]
        if not texts:
            return self.app(environ, start_response)
        headers = [("Warning", warning_value(text)) for text in self._shown(texts)]
        return self.app(environ, with_headers(start_response, headers))

    def _unread(
        self, environ: dict[str, Any], start_response: StartResponse, refused: BodyRefused
    ) -> Iterable[bytes]:
        where = f"{environ.get('REQUEST_METHOD')} {environ.get('PATH_INFO')}"
        if self.mode == "refuse":
            LOG.info("%s refused %s: %s", FILTER_NAME, where, refused.message)
            return self._error(environ, start_response, refused.status, refused.message)
        LOG.warning("%s did not check %s: %s", FILTER_NAME, where, refused.message)
        text = f"Not checked: {refused.message}"
        return self.app(environ, with_headers(start_response, [("Warning", warning_value(text))]))

    def _shown(self, texts: list[str]) -> list[str]:
        if len(texts) <= self.max_shown:
            return texts
        return [*texts[: self.max_shown], f"... and {len(texts) - self.max_shown} more."]

    def _error(
        self, environ: Mapping[str, Any], start_response: StartResponse, status: int, text: str
    ) -> list[bytes]:
        body, content_type = glance_error(environ.get("HTTP_ACCEPT", ""), status, text)
        return answer(start_response, status, body, content_type)


def filter_factory(global_conf: Mapping[str, Any], **local_conf: Any) -> Any:
    """The paste entry point ``onespec_images``: the options of its ``[filter:...]`` section
    are read here, once, so that a wrong one stops glance-api at start-up."""
    options = read_options(FILTER_NAME, local_conf, OPTIONS)

    def make_filter(app: WSGIApp) -> ImagePropertiesFilter:
        return ImagePropertiesFilter(app, options)

    return make_filter
