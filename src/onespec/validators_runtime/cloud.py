"""A live cloud's flavors and images, read for ``onespec validate cloud``.

The cloud is found as the ``openstack`` client finds it, by openstacksdk's own configuration
loader: a cloud name (``--os-cloud``, else ``OS_CLOUD``) looked up in ``clouds.yaml`` on
openstacksdk's search path (``OS_CLIENT_CONFIG_FILE`` first), else the ``OS_*`` variables.
openstacksdk is an optional extra (``onespec[cloud]``), imported only when a cloud is read,
so that services importing the runtime never load it.

Only the configuration, the authentication and the endpoints come from openstacksdk: the
flavors and images are read as the APIs' own JSON (Nova's ``GET /flavors/detail``, Glance's
``GET /v2/images``), page by page, because openstacksdk's resources convert what they know
(``hw_cpu_cores`` becomes an ``int``, ``0`` when it cannot be read): a bad value would be hidden
from the very check that exists to find it. Everything read is bounded: the bytes of a page,
the items of a listing, the keys of an item.

Every failure is a :class:`CloudError` whose message says, in plain words, what could not be
done and why, with the library's own words after it.
"""

from __future__ import annotations

import json
import os
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote

from onespec.errors import OnespecError
from onespec.validators_runtime.flavor_parts.inputs import (
    Flavor,
    Image,
    InputError,
    read_flavor,
    read_image,
)
from onespec.validators_runtime.inputs import MAX_FLEET_CHECKS
from onespec.validators_runtime.problems import shown

if TYPE_CHECKING:
    from onespec.validators_runtime.flavor_parts.findings import FlavorFinding
    from onespec.validators_runtime.flavors.fleet import FleetReport

#: Items asked for per page. Nova and Glance cap a page at their ``max_limit`` /
#: ``api_limit_max`` (1000 by default) and follow with a link to the next.
PAGE_SIZE = 500
#: The most flavors and images read from one cloud: a listing longer than this is refused
#: rather than held (``--flavor``/``--image`` narrow it).
MAX_FLAVORS = 20_000
MAX_IMAGES = 200_000
#: The largest page read, in bytes: 500 images with Glance's 128 properties each fit.
MAX_PAGE_BYTES = 64 * 1024 * 1024
#: The most extra specs of a flavor, or properties of an image, read.
MAX_KEYS = 10_000
#: The microversion from which Nova's flavor list carries each flavor's extra specs.
EXTRA_SPECS_MICROVERSION = "2.61"
#: What the extra is called, for the message when openstacksdk is missing.
INSTALL_HINT = "pip install 'onespec[cloud]'"


class CloudError(OnespecError):
    """The cloud cannot be found, reached or read: a usage error, not a verdict on it."""


@dataclass(frozen=True)
class CloudFlavor:
    """A flavor as the cloud holds it: ``flavor`` is what the checks read, named by
    :attr:`label`; ``is_public`` and ``disabled`` mark flavors that not everyone can boot."""

    id: str
    name: str | None
    is_public: bool
    disabled: bool
    flavor: Flavor

    @property
    def label(self) -> str:
        return self.flavor.name or self.id

    @property
    def marks(self) -> str:
        """``private``, ``disabled``, both, or nothing: what the report says beside the name."""
        return ", ".join(
            word
            for word, on in (("private", not self.is_public), ("disabled", self.disabled))
            if on
        )

    def renamed(self, label: str) -> CloudFlavor:
        return replace(self, flavor=replace(self.flavor, name=label))

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "label": self.label,
            "is_public": self.is_public,
            "disabled": self.disabled,
        }


@dataclass(frozen=True)
class CloudImage:
    """An image as the cloud holds it; only an ``active`` one can be booted."""

    id: str
    name: str | None
    status: str
    visibility: str
    image: Image

    @property
    def label(self) -> str:
        return self.image.name or self.id

    @property
    def active(self) -> bool:
        return self.status == "active"

    def renamed(self, label: str) -> CloudImage:
        return replace(self, image=replace(self.image, name=label))

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "label": self.label,
            "status": self.status,
            "visibility": self.visibility,
        }


def _client() -> Any:
    """The ``openstack`` package, or a :class:`CloudError` that says how to install it."""
    try:
        import openstack
    except ImportError:
        raise CloudError(
            f"reading a cloud needs openstacksdk, which is not installed: {INSTALL_HINT}"
        ) from None
    return openstack


class CloudConnection:
    """One cloud, found and opened as the ``openstack`` client finds and opens it: the one
    place every command that speaks to a cloud goes through (``validate cloud``, ``plugins``).

    Opening reads the configuration only; the first request asks Keystone for a token (and
    the catalogue). Every failure of openstacksdk and keystoneauth inside :meth:`plainly`
    becomes a :class:`CloudError` naming the cloud; nothing else escapes."""

    def __init__(self, name: str | None = None) -> None:
        openstack = _client()
        self.asked = name
        with self.plainly("find the cloud"):
            self.connection = openstack.connect(cloud=name)
        self.name: str = self.connection.config.name or (name or "")

    def plainly(self, doing: str) -> Any:
        """A context in which any failure of openstacksdk or keystoneauth becomes a
        :class:`CloudError` saying what was being done."""
        return _Translating(self, doing)

    def where(self) -> str:
        name = getattr(self, "name", None) or self.asked or os.environ.get("OS_CLOUD")
        if name in (None, "", "envvars", "defaults"):
            return "the cloud of the OS_* variables"
        return f"cloud {shown(name)}"

    def adapter(self, service_type: str, endpoint_override: str | None = None) -> Any:
        """A keystoneauth adapter for a service of this cloud: its requests carry the cloud's
        token, and go to ``endpoint_override``, else the cloud's own override for the service
        (``<service_type>_endpoint_override`` in clouds.yaml), else the catalogue's endpoint
        of ``service_type`` for the cloud's interface and region. The adapter asks for no API
        version, so the endpoint is used as the catalogue gives it, without discovery."""
        from keystoneauth1.adapter import Adapter

        with self.plainly(f"prepare a session for the {service_type} service"):
            config = self.connection.config
            return Adapter(
                session=config.get_session(),
                service_type=service_type,
                interface=config.get_interface(service_type),
                region_name=config.get_region_name(service_type),
                endpoint_override=endpoint_override or config.get_endpoint(service_type),
            )


class Cloud(CloudConnection):
    """A connection to one cloud, and the flavors and images read through it."""

    # --- reading -----------------------------------------------------------------------------

    def _get(self, service: str, path: str, params: Mapping[str, Any], **options: Any) -> Any:
        """The JSON body of ``GET path`` on ``service`` (``compute``, ``image``), read up to
        :data:`MAX_PAGE_BYTES`."""
        adapter = getattr(self.connection, service)
        with self.plainly(f"read {path} from the {service} service"):
            response = adapter.get(path, params=dict(params), stream=True, **options)
            try:
                if response.status_code != 200:
                    raise CloudError(_refusal(self.where(), service, path, response))
                declared = response.headers.get("Content-Length", "")
                if declared.isdigit() and int(declared) > MAX_PAGE_BYTES:
                    raise CloudError(_too_big(self.where(), service, path))
                body = bytearray()
                for chunk in response.iter_content(64 * 1024):
                    body += chunk
                    if len(body) > MAX_PAGE_BYTES:
                        raise CloudError(_too_big(self.where(), service, path))
            finally:
                response.close()
        try:
            return json.loads(body)
        except (ValueError, RecursionError):
            raise CloudError(
                f"{self.where()}: the {service} service answered GET {path} with something "
                "that is not JSON"
            ) from None

    def _pages(
        self,
        service: str,
        path: str,
        key: str,
        params: Mapping[str, Any],
        limit: int,
        **options: Any,
    ) -> Iterator[Mapping[str, Any]]:
        """Every item of a paginated listing, ``PAGE_SIZE`` at a time, following the marker
        of each page's last item while the service says there is a next page; more than
        ``limit`` items is a :class:`CloudError`."""
        marker: str | None = None
        count = 0
        while True:
            query = {**params, "limit": PAGE_SIZE, **({"marker": marker} if marker else {})}
            body = self._get(service, path, query, **options)
            items = body.get(key) if isinstance(body, dict) else None
            if not isinstance(items, list):
                raise CloudError(
                    f"{self.where()}: the {service} service's answer to GET {path} has no "
                    f"{key!r} list"
                )
            for item in items:
                if not isinstance(item, dict):
                    raise CloudError(
                        f"{self.where()}: an item of {path} is not an object: {shown(item)}"
                    )
                count += 1
                if count > limit:
                    raise CloudError(
                        f"{self.where()}: lists more than {limit} {key}, more than onespec "
                        f"reads at once; name the ones to check with --{key[:-1]}"
                    )
                yield item
            last = items[-1].get("id") if items else None
            if not items or not _has_next(body, key) or not isinstance(last, str):
                return
            if last == marker:  # a service that repeats its page would never end
                raise CloudError(f"{self.where()}: {path} returned the same page twice")
            marker = last

    def _flavor(self, item: Mapping[str, Any], with_specs: bool) -> CloudFlavor:
        flavor_id = str(item.get("id", ""))
        if not with_specs:
            # Before 2.61 the listing carries no extra specs: each is its own call.
            specs = self._get("compute", f"/flavors/{quote(flavor_id, safe='')}/os-extra_specs", {})
            item = {
                **item,
                "extra_specs": specs.get("extra_specs") if isinstance(specs, dict) else None,
            }
        _bounded(
            item.get("extra_specs"), f"{self.where()}: flavor {shown(flavor_id)}'s extra specs"
        )
        try:
            flavor = read_flavor(item, f"flavor {flavor_id}")
        except InputError as exc:
            raise CloudError(f"{self.where()}: {exc.reason}") from None
        name = item.get("name")
        return CloudFlavor(
            id=flavor_id,
            name=name if isinstance(name, str) else None,
            is_public=item.get("os-flavor-access:is_public", True) is not False,
            disabled=flavor.disabled,
            # A disabled flavor is listed and marked, and checked as it would boot if enabled
            # again: that Nova refuses a disabled flavor (FlavorNotFound) is the operator's
            # choice, not a problem of the flavor.
            flavor=replace(flavor, disabled=False),
        )

    def _image(self, item: Mapping[str, Any]) -> CloudImage:
        image_id = str(item.get("id", ""))
        _bounded(item, f"{self.where()}: image {shown(image_id)}'s properties")
        try:
            image = read_image(item, f"image {image_id}")
        except InputError as exc:
            raise CloudError(f"{self.where()}: {exc.reason}") from None
        name, status, visibility = (item.get(k) for k in ("name", "status", "visibility"))
        return CloudImage(
            id=image_id,
            name=name if isinstance(name, str) else None,
            status=status if isinstance(status, str) else "unknown",
            visibility=visibility if isinstance(visibility, str) else "unknown",
            image=image,
        )

    def _flavors_microversion(self) -> str | None:
        """2.61 when Nova speaks it (the listing carries the extra specs), else None."""
        with self.plainly("ask the compute service which microversions it speaks"):
            data = self.connection.compute.get_endpoint_data()
        highest = getattr(data, "max_microversion", None) if data is not None else None
        if highest is None:
            return None
        wanted = tuple(int(p) for p in EXTRA_SPECS_MICROVERSION.split("."))
        return EXTRA_SPECS_MICROVERSION if tuple(highest) >= wanted else None

    def flavors(
        self, wanted: Sequence[str] = (), seen: Callable[[], object] | None = None
    ) -> list[CloudFlavor]:
        """Every flavor the caller may see (public and private, enabled and disabled, as
        an admin sees them), or only those named or numbered in ``wanted``. ``seen`` is
        called once per flavor read (a progress bar's step)."""
        microversion = self._flavors_microversion()
        options = {"microversion": microversion} if microversion else {}
        found: list[CloudFlavor] = []
        items: Iterable[Mapping[str, Any]]
        if wanted:
            items = [self._find("compute", "flavors", each, options) for each in wanted]
        else:
            # is_public=None: public and private alike (Nova reads it for admins only).
            items = self._pages(
                "compute",
                "/flavors/detail",
                "flavors",
                {"is_public": "None"},
                MAX_FLAVORS,
                **options,
            )
        for item in items:
            found.append(self._flavor(item, with_specs=microversion is not None))
            if seen is not None:
                seen()
        return [flavor.renamed(label) for flavor, label in zip(found, labels(found), strict=True)]

    def images(
        self, wanted: Sequence[str] = (), seen: Callable[[], object] | None = None
    ) -> list[CloudImage]:
        """Every image the caller may see, of every visibility and membership, in any
        status, or only those named or numbered in ``wanted``."""
        found: list[CloudImage] = []
        items: Iterable[Mapping[str, Any]]
        if wanted:
            items = [self._find("image", "images", each, {}) for each in wanted]
        else:
            params = {"visibility": "all", "member_status": "all"}
            items = self._pages("image", "/images", "images", params, MAX_IMAGES)
        for item in items:
            found.append(self._image(item))
            if seen is not None:
                seen()
        return [image.renamed(label) for image, label in zip(found, labels(found), strict=True)]

    def _find(
        self, service: str, plural: str, name_or_id: str, options: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        """The one flavor or image whose id, else whose name, is ``name_or_id``."""
        kind = plural[:-1]
        base = "/flavors" if service == "compute" else "/images"
        adapter = getattr(self.connection, service)
        path = f"{base}/{quote(name_or_id, safe='')}"
        with self.plainly(f"look up the {kind} {shown(name_or_id)}"):
            response = adapter.get(path, **options)
        if response.status_code == 200:
            body = _json_of(response)
            item = body.get(kind, body) if isinstance(body, dict) else None
            if isinstance(item, dict):
                return item
        elif response.status_code != 404:
            raise CloudError(_refusal(self.where(), service, path, response))
        params: dict[str, Any] = {"name": name_or_id}
        if service == "compute":
            params["is_public"] = "None"
            listing, limit = "/flavors/detail", MAX_FLAVORS
        else:
            params.update(visibility="all", member_status="all")
            listing, limit = "/images", MAX_IMAGES
        named = [
            item
            for item in self._pages(service, listing, plural, params, limit, **options)
            if item.get("name") == name_or_id
        ]
        if len(named) == 1:
            return named[0]
        if not named:
            raise CloudError(f"{self.where()} has no {kind} named or numbered {shown(name_or_id)}")
        ids = ", ".join(str(item.get("id")) for item in named[:5])
        raise CloudError(
            f"{self.where()} has {len(named)} {plural} named {shown(name_or_id)} ({ids}): "
            "give the id"
        )


class _Translating:
    """The context manager of :meth:`CloudConnection.plainly`."""

    def __init__(self, cloud: CloudConnection, doing: str) -> None:
        self.cloud, self.doing = cloud, doing
        self.quiet = warnings.catch_warnings()

    def __enter__(self) -> None:
        # openstacksdk warns about its own future (parameters it will drop, InfluxDB): nothing
        # an operator running this command can act on.
        self.quiet.__enter__()
        warnings.simplefilter("ignore", DeprecationWarning)
        return None

    def __exit__(self, kind: type | None, exc: BaseException | None, _: Any) -> Literal[False]:
        # onespec's own errors already say what went wrong, in its words.
        if exc is None or isinstance(exc, OnespecError) or not isinstance(exc, Exception):
            return False
        named = bool(self.cloud.asked or os.environ.get("OS_CLOUD"))
        raise CloudError(plain_words(exc, self.cloud.where(), self.doing, named)) from None


def plain_words(exc: Exception, where: str, doing: str, named: bool = True) -> str:
    """What went wrong, for an operator: the kind of failure in words, then the library's own
    message (its first line, bounded)."""
    said = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    said = said if len(said) <= 300 else said[:297] + "..."
    kinds = {cls.__name__ for cls in type(exc).__mro__}
    if "ConfigException" in kinds or "OpenStackConfigException" in kinds:
        return f"{where}: cannot {doing}: {said} ({_searched()})"
    if ("MissingRequiredOptions" in kinds or "MissingAuthPlugin" in kinds) and not named:
        return (
            f"no cloud is configured ({said}): name one of clouds.yaml with --os-cloud NAME "
            f"or OS_CLOUD, or set the OS_* variables (OS_AUTH_URL, ...) ({_searched()})"
        )
    if "MissingRequiredOptions" in kinds or "MissingAuthPlugin" in kinds:
        return (
            f"{where}: cannot {doing}: its settings are incomplete ({said}); give them in "
            f"clouds.yaml or as OS_* variables ({_searched()})"
        )
    if "YAMLError" in kinds or "JSONDecodeError" in kinds:
        return f"{where}: cannot {doing}: a cloud configuration file cannot be read: {said}"
    if "TypeError" in kinds or "NoMatchingPlugin" in kinds:
        return f"{where}: cannot {doing}: its auth settings do not fit its auth_type ({said})"
    if "SSLError" in kinds:
        return f"{where}: cannot {doing}: the TLS connection failed ({said})"
    if "ConnectTimeout" in kinds or "RequestTimeout" in kinds:
        return f"{where}: cannot {doing}: the service did not answer in time ({said})"
    if "ConnectFailure" in kinds or "DiscoveryFailure" in kinds:
        return (
            f"{where}: cannot {doing}: the service cannot be reached (is it running, and is "
            f"its URL right?): {said}"
        )
    if "EndpointNotFound" in kinds or "EmptyCatalog" in kinds:
        return f"{where}: cannot {doing}: the service catalogue has no such endpoint ({said})"
    if "Unauthorized" in kinds:
        return f"{where}: cannot {doing}: the credentials were refused ({said})"
    return f"{where}: cannot {doing}: {said}"


def _searched() -> str:
    """Where openstacksdk looked for clouds.yaml, as the message names it: the file
    ``OS_CLIENT_CONFIG_FILE`` names, then its search path's folders."""
    from openstack.config import loader

    folders = list(dict.fromkeys(getattr(loader, "CONFIG_SEARCH_PATH", ())))
    named = os.environ.get("OS_CLIENT_CONFIG_FILE")
    first = f"OS_CLIENT_CONFIG_FILE={named}" if named else "OS_CLIENT_CONFIG_FILE (not set)"
    return f"clouds.yaml looked for in {first}, then {', '.join(folders)}"


def _refusal(where: str, service: str, path: str, response: Any) -> str:
    """A service's refusal, said with its status and the start of what it answered."""
    status = response.status_code
    reason = {
        401: "the credentials were refused",
        403: "the caller is not allowed to",
        404: "there is no such resource",
    }.get(status, "the service refused")
    text = _text_of(response)
    return f"{where}: {reason}: the {service} service answered GET {path} with HTTP {status}" + (
        f": {text}" if text else ""
    )


def _too_big(where: str, service: str, path: str) -> str:
    return (
        f"{where}: the {service} service's answer to GET {path} is larger than "
        f"{MAX_PAGE_BYTES:,} bytes, more than onespec reads"
    )


def _text_of(response: Any) -> str:
    """The first 200 characters of an error body, on one line."""
    try:
        raw = next(response.iter_content(1024), b"")
    except Exception:  # a body that cannot be read says nothing more
        return ""
    text = " ".join(raw.decode("utf-8", "replace").split())
    return text[:200]


def _json_of(response: Any) -> Any:
    try:
        content = response.content[: MAX_PAGE_BYTES + 1]
        return json.loads(content) if len(content) <= MAX_PAGE_BYTES else None
    except (ValueError, RecursionError):
        return None


def _has_next(body: Mapping[str, Any], key: str) -> bool:
    """Whether the service says there is a page after this one: Nova's ``flavors_links``
    with ``rel: next``, Glance's ``next``."""
    if body.get("next"):
        return True
    links = body.get(f"{key}_links")
    return isinstance(links, list) and any(
        isinstance(link, dict) and link.get("rel") == "next" for link in links
    )


def _bounded(mapping: Any, what: str) -> None:
    if isinstance(mapping, dict) and len(mapping) > MAX_KEYS:
        raise CloudError(f"{what}: {len(mapping)}, more than the {MAX_KEYS} onespec reads")


def labels(items: Sequence[CloudFlavor | CloudImage]) -> list[str]:
    """What the report calls each item: its name, with its id when another has the same name,
    its id alone when it has none."""
    counts = Counter(item.name for item in items)
    return [
        (item.name if counts[item.name] == 1 else f"{item.name} ({item.id})")
        if item.name
        else item.id
        for item in items
    ]


@dataclass
class CloudReport:
    """What ``validate cloud`` found: the fleet's report over the flavors and the active
    images, each image's own problems, and what was listed."""

    cloud: str
    flavors: list[CloudFlavor]
    images: list[CloudImage]
    fleet: FleetReport
    image_findings: list[tuple[str, FlavorFinding]]

    @property
    def valid(self) -> bool:
        return self.fleet.valid and all(f.severity != "error" for _, f in self.image_findings)

    @property
    def not_active(self) -> list[CloudImage]:
        return [image for image in self.images if not image.active]

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.fleet.to_dict(),
            "valid": self.valid,
            "cloud": self.cloud,
            "images_listed": len(self.images),
            "images_not_active": [image.label for image in self.not_active],
            "image_findings": [{"image": name, **f.to_dict()} for name, f in self.image_findings],
            "listed": {
                "flavors": [flavor.to_dict() for flavor in self.flavors],
                "images": [image.to_dict() for image in self.images],
            },
        }


def check_cloud(
    cloud: str,
    flavors: list[CloudFlavor],
    images: list[CloudImage],
    mode: str = "strict",
    through: Callable[[list[Flavor]], Any] = iter,
    *,
    max_checks: int | None = MAX_FLEET_CHECKS,
) -> CloudReport:
    """Every image's properties on their own, then the fleet's check
    (:func:`~onespec.validators_runtime.flavors.fleet.check_fleet`) of every flavor with every
    active image: Nova boots no other (``ImageNotActive``), so pairing the rest would report
    refusals no boot can meet. ``through`` wraps the flavors as they are checked (a progress
    bar); ``max_checks`` bounds the fleet's check (None: no bound)."""
    from onespec.validators_runtime.flavors import validate_image_properties
    from onespec.validators_runtime.flavors.fleet import check_fleet

    image_findings = [
        (image.label, finding)
        for image in images
        for finding in validate_image_properties(image.image)
    ]
    fleet = check_fleet(
        through([flavor.flavor for flavor in flavors]),
        [image.image for image in images if image.active],
        mode,
        max_checks=max_checks,
        flavor_count=len(flavors),
    )
    return CloudReport(cloud, flavors, images, fleet, image_findings)
