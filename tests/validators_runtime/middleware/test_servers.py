"""The nova-api filter, in-process: a small real WSGI application stands where nova-api's
application is and records every request that reaches it. Flavors, images and servers come
from an in-memory catalogue handed to the filter (in nova-api it reads them through Nova's own
objects; ``tests/cloud/test_nova_servers.py`` runs it there)."""

from __future__ import annotations

import io
import json
import logging
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from onespec.errors import OnespecError
from onespec.validators_runtime.middleware import servers
from onespec.validators_runtime.middleware.servers import (
    FilterConfigError,
    NovaReaders,
    Options,
    Server,
    ServersFilter,
    filter_factory,
    flavor_document,
    image_document,
    read_options,
    reference,
    target_of,
)

#: A flavor of 3 vCPUs split into 2 NUMA nodes: Nova's API refuses it (ImageNUMATopologyAsymmetric).
UNEVEN = {"id": "uneven", "name": "uneven", "vcpus": 3, "ram": 2048, "disk": 1,
          "extra_specs": {"hw:numa_nodes": "2"}}  # fmt: skip
#: TPM 2.0 in the flavor, 1.2 in the image: the scheduler refuses the pair.
TPM2 = {"id": "tpm2", "name": "tpm2", "vcpus": 1, "ram": 1024, "disk": 1,
        "extra_specs": {"hw:tpm_version": "2.0"}}  # fmt: skip
TPM12 = {"id": "img-tpm12", "name": "tpm12", "status": "active", "hw_tpm_version": "1.2"}
#: A USB model of none in the flavor, qemu-xhci in the image: the compute host refuses it.
NO_USB = {"id": "nousb", "name": "nousb", "vcpus": 1, "ram": 1024, "disk": 1,
          "extra_specs": {"hw:usb_model": "none"}}  # fmt: skip
XHCI = {"id": "img-xhci", "name": "xhci", "status": "active", "hw_usb_model": "qemu-xhci"}
PLAIN = {"id": "plain", "name": "plain", "vcpus": 4, "ram": 4096, "disk": 10, "extra_specs": {}}
CIRROS = {"id": "img-cirros", "name": "cirros", "status": "active", "min_ram": 0}


@dataclass
class Catalogue:
    """The filter's readers over dictionaries; ``calls`` records each read."""

    flavors: dict[str, dict[str, Any]] = field(default_factory=dict)
    images: dict[str, dict[str, Any]] = field(default_factory=dict)
    servers: dict[str, Server] = field(default_factory=dict)
    may_write: bool = True
    admin: bool = False
    calls: list[tuple[str, str]] = field(default_factory=list)
    failing: str = ""

    def _read(self, kind: str, ident: str, table: dict[str, Any]) -> Any:
        self.calls.append((kind, ident))
        if kind == self.failing:
            raise RuntimeError(f"the {kind} store is down")
        return table.get(ident)

    def flavor(self, context: Any, flavor_id: str) -> dict[str, Any] | None:
        return self._read("flavor", flavor_id, self.flavors)

    def image(self, context: Any, image_id: str) -> dict[str, Any] | None:
        return self._read("image", image_id, self.images)

    def server(self, context: Any, server_id: str) -> Server | None:
        return self._read("server", server_id, self.servers)

    def may_write_extra_specs(self, context: Any, create: bool) -> bool:
        return self.may_write

    def may_use_zero_disk(self, context: Any) -> bool:
        return self.admin

    def status_of(self, finding: Any) -> int:
        return NovaReaders.status_of(self, finding)  # type: ignore[arg-type]


class Nova:
    """A WSGI application that records each request reaching it and answers 202."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, bytes]] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        body = environ["wsgi.input"].read()
        self.seen.append((environ["REQUEST_METHOD"], environ["PATH_INFO"], body))
        start_response("202 Accepted", [("Content-Type", "application/json")])
        return [b"{}"]


@dataclass
class Answer:
    status: str
    headers: list[tuple[str, str]]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> list[str]:
        return [value for key, value in self.headers if key.lower() == name.lower()]


def catalogue() -> Catalogue:
    flavors = {f["id"]: f for f in (UNEVEN, TPM2, NO_USB, PLAIN)}
    images = {i["id"]: i for i in (TPM12, XHCI, CIRROS)}
    return Catalogue(
        flavors=flavors,
        images=images,
        servers={
            "srv-tpm": Server(TPM2, CIRROS),
            "srv-plain": Server(PLAIN, TPM12),
            "srv-cirros": Server(PLAIN, CIRROS),
        },
    )


def call(
    app: Any,
    method: str,
    path: str,
    body: Any = None,
    *,
    raw: bytes | None = None,
    context: Any = "ctx",
    headers: dict[str, str] | None = None,
    chunked: bool = False,
) -> Answer:
    data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SCRIPT_NAME": "/v2.1",
        "wsgi.input": io.BytesIO(data),
    }
    if chunked:
        environ["wsgi.input_terminated"] = True
    else:
        environ["CONTENT_LENGTH"] = str(len(data))
    if context is not None:
        environ["nova.context"] = context
    for name, value in (headers or {}).items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    answered: dict[str, Any] = {}

    def start_response(status: str, response_headers: list[tuple[str, str]], *_: Any) -> None:
        answered["status"], answered["headers"] = status, response_headers

    body_out = b"".join(app(environ, start_response))
    return Answer(answered["status"], answered["headers"], body_out)


def make(mode: str = "refuse", readers: Catalogue | None = None, **options: Any):
    nova = Nova()
    readers = readers if readers is not None else catalogue()
    return ServersFilter(nova, Options(mode=mode, **options), readers), nova, readers


def create(flavor: str, image: str | None = "img-cirros") -> dict[str, Any]:
    server: dict[str, Any] = {"name": "s", "flavorRef": flavor, "networks": "none"}
    if image is not None:
        server["imageRef"] = image
    return {"server": server}


# --- Which requests are looked at -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "expected"),
    [
        ("POST", "/servers", ("create", "", "")),
        ("POST", "/servers/", ("create", "", "")),
        ("POST", "/6f7e/servers", ("create", "", "")),
        ("POST", "/servers/abc/action", ("action", "abc", "")),
        ("POST", "/6f7e/servers/abc/action", ("action", "abc", "")),
        ("POST", "/flavors/42/os-extra_specs", ("extra_specs", "42", "")),
        (
            "PUT",
            "/6f7e/flavors/42/os-extra_specs/hw:cpu_policy",
            ("extra_specs", "42", "hw:cpu_policy"),
        ),
        ("GET", "/servers", None),
        ("POST", "/servers/detail/x", None),
        ("PUT", "/servers/abc", None),
        ("DELETE", "/flavors/42/os-extra_specs/hw:cpu_policy", None),
        ("POST", "/flavors", None),
        ("POST", "/a/b/servers", None),
    ],
)
def test_the_filter_looks_only_at_the_requests_that_choose_a_flavor_or_image(
    method, path, expected
):
    found = target_of(method, path)
    assert (None if found is None else (found.kind, found.ident, found.key)) == expected


def test_other_requests_reach_nova_untouched_and_nothing_is_read():
    app, nova, readers = make()
    answer = call(app, "GET", "/servers/detail")
    assert answer.status.startswith("202") and nova.seen == [("GET", "/servers/detail", b"")]
    assert readers.calls == []


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("42", "42"),
        (42, "42"),
        ("http://nova.example/v2.1/flavors/42", "42"),
        ("http://nova.example/v2.1/flavors/42?x=1#y", "42"),
        ("", None),
        (True, None),
        (None, None),
        ({"id": 1}, None),
        ("x" * 3000, None),
    ],
)
def test_a_reference_is_read_as_nova_reads_it(ref, expected):
    assert reference(ref) == expected


# --- Server create ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flavor", "image", "code", "exception", "phase"),
    [
        ("uneven", "img-cirros", "numa-nodes-split-unevenly", "ImageNUMATopologyAsymmetric", "api"),
        (
            "tpm2",
            "img-tpm12",
            "tpm-version-flavor-image-differ",
            "FlavorImageConflict",
            "scheduler",
        ),
        ("nousb", "img-xhci", "usb-model-flavor-image-differ", "FlavorImageConflict", "spawn"),
    ],
)
def test_a_create_nova_would_refuse_in_any_phase_is_refused_in_novas_fault_shape(
    flavor, image, code, exception, phase
):
    app, nova, _ = make()
    answer = call(app, "POST", "/servers", create(flavor, image))
    assert answer.status == "400 Bad Request"
    assert answer.header("Content-Type") == ["application/json; charset=UTF-8"]
    fault = answer.json()
    assert list(fault) == ["badRequest"] and fault["badRequest"]["code"] == 400
    text = fault["badRequest"]["message"]
    assert f"[{code}]" in text and exception in text and f"phase {phase}" in text
    assert nova.seen == []


def test_the_refusal_names_the_keys_the_flavor_and_the_image():
    app, _, _ = make()
    text = call(app, "POST", "/servers", create("tpm2", "img-tpm12")).json()["badRequest"][
        "message"
    ]
    assert "hw:tpm_version" in text and "hw_tpm_version" in text
    assert "flavor 'tpm2' with image 'tpm12'" in text
    assert "when the server is scheduled" in text


def test_a_valid_pair_reaches_nova_with_its_body_intact():
    app, nova, readers = make()
    body = create("plain")
    answer = call(app, "POST", "/6f7e/servers", body)
    assert answer.status.startswith("202") and answer.header("Warning") == []
    assert json.loads(nova.seen[0][2]) == body
    assert readers.calls == [("flavor", "plain"), ("image", "img-cirros")]


def test_references_given_as_urls_are_followed():
    app, _, readers = make()
    body = create("http://nova/v2.1/flavors/tpm2", "http://glance/v2/images/img-tpm12")
    assert call(app, "POST", "/servers", body).status == "400 Bad Request"
    assert readers.calls == [("flavor", "tpm2"), ("image", "img-tpm12")]


@pytest.mark.parametrize("image", [None, ""])
def test_boot_from_volume_without_an_image_checks_the_flavor_alone(image):
    app, nova, readers = make()
    answer = call(app, "POST", "/servers", create("uneven", image))
    assert answer.status == "400 Bad Request"
    assert readers.calls == [("flavor", "uneven")]
    # What the flavor asks of an image is no refusal without one.
    answer = call(app, "POST", "/servers", create("tpm2", image))
    assert answer.status.startswith("202") and len(nova.seen) == 1


@pytest.mark.parametrize(("flavor", "image"), [("missing", "img-cirros"), ("plain", "missing")])
def test_a_flavor_or_image_that_does_not_exist_is_left_for_nova_to_answer(flavor, image):
    app, nova, _ = make()
    assert call(app, "POST", "/servers", create(flavor, image)).status.startswith("202")
    assert len(nova.seen) == 1


@pytest.mark.parametrize(
    "body",
    [
        {"server": "x"},
        {"server": {"imageRef": "img-cirros"}},
        {"server": {"flavorRef": "tpm2", "imageRef": ["img-tpm12"]}},
        [create("tpm2", "img-tpm12")],
    ],
)
def test_a_body_nova_refuses_itself_goes_to_nova(body):
    app, nova, _readers = make()
    assert call(app, "POST", "/servers", body).status.startswith("202")
    assert len(nova.seen) == 1


def test_per_key_findings_are_no_refusal_at_boot():
    """Nova checks each extra spec only when it is written: an unknown key stored earlier boots."""
    readers = catalogue()
    readers.flavors["odd"] = {**PLAIN, "id": "odd", "extra_specs": {"hw:cpu_pollicy": "x"}}
    app, _nova, _ = make(readers=readers)
    assert call(app, "POST", "/servers", create("odd")).status.startswith("202")


def test_without_novas_context_the_request_is_left_alone():
    app, _nova, readers = make()
    assert (
        call(app, "POST", "/servers", create("tpm2", "img-tpm12"), context=None).status[:3] == "202"
    )
    assert readers.calls == []


# --- What depends on the caller and on the root disk ----------------------------------------------

ZERO = {"id": "zero", "name": "zero", "vcpus": 1, "ram": 512, "disk": 0, "extra_specs": {}}


@pytest.mark.parametrize(("admin", "refused"), [(False, True), (True, False)])
def test_a_zero_disk_flavor_is_refused_only_where_novas_policy_refuses_the_caller(admin, refused):
    readers = catalogue()
    readers.flavors["zero"], readers.admin = ZERO, admin
    app, nova, _ = make(readers=readers)
    answer = call(app, "POST", "/servers", create("zero"))
    if refused:
        assert answer.status == "403 Forbidden"
        text = answer.json()["forbidden"]["message"]
        assert "[zero-disk-needs-volume]" in text
        assert "BootFromVolumeRequiredForZeroDiskFlavor" in text
        assert nova.seen == []
    else:
        assert answer.status == "202 Accepted" and len(nova.seen) == 1


@pytest.mark.parametrize(
    "server",
    [
        # Booted from a volume: no imageRef at all...
        {"name": "s", "flavorRef": "zero", "networks": "none"},
        # ...or an image copied to a volume that is the root disk.
        {
            "name": "s",
            "flavorRef": "zero",
            "imageRef": "img-cirros",
            "networks": "none",
            "block_device_mapping_v2": [
                {
                    "boot_index": 0,
                    "uuid": "img-cirros",
                    "source_type": "image",
                    "destination_type": "volume",
                    "volume_size": 1,
                }
            ],
        },
    ],
)
def test_a_server_whose_root_disk_is_a_volume_is_not_held_to_the_flavors_disk(server):
    readers = catalogue()
    readers.flavors["zero"] = ZERO
    app, nova, _ = make(readers=readers)
    answer = call(app, "POST", "/servers", {"server": server})
    assert answer.status == "202 Accepted", answer.body
    assert len(nova.seen) == 1


def test_resize_applies_the_resizes_own_refusals():
    """Resize to the same flavor is refused by Nova's resize itself (CannotResizeToSameFlavor)."""
    app, nova, _ = make()
    answer = call(app, "POST", "/servers/srv-plain/action", {"resize": {"flavorRef": "plain"}})
    assert "CannotResizeToSameFlavor" in answer.json()["badRequest"]["message"]
    assert "resizing server srv-plain to flavor 'plain'" in answer.json()["badRequest"]["message"]
    assert nova.seen == []


# --- Resize and rebuild -------------------------------------------------------------------------


def test_resize_checks_the_new_flavor_with_the_servers_image():
    app, nova, readers = make()
    answer = call(app, "POST", "/servers/srv-plain/action", {"resize": {"flavorRef": "tpm2"}})
    assert answer.status == "400 Bad Request"
    assert "tpm-version-flavor-image-differ" in answer.json()["badRequest"]["message"]
    assert readers.calls == [("server", "srv-plain"), ("flavor", "tpm2")]
    answer = call(app, "POST", "/servers/srv-tpm/action", {"resize": {"flavorRef": "plain"}})
    assert answer.status.startswith("202") and len(nova.seen) == 1


def test_rebuild_checks_the_servers_flavor_with_the_new_image():
    app, _nova, readers = make()
    answer = call(app, "POST", "/servers/srv-tpm/action", {"rebuild": {"imageRef": "img-tpm12"}})
    assert answer.status == "400 Bad Request"
    assert readers.calls == [("server", "srv-tpm"), ("image", "img-tpm12")]
    answer = call(app, "POST", "/servers/srv-cirros/action", {"rebuild": {"imageRef": "img-xhci"}})
    assert answer.status.startswith("202")


def test_rebuild_applies_the_rebuilds_own_refusals():
    """A server with a vTPM cannot be rebuilt (OperationNotSupportedForVTPM), whatever image."""
    app, nova, _ = make()
    answer = call(app, "POST", "/servers/srv-tpm/action", {"rebuild": {"imageRef": "img-cirros"}})
    text = answer.json()["badRequest"]["message"]
    assert "OperationNotSupportedForVTPM when the server is rebuilt (phase rebuild)" in text
    assert nova.seen == []


@pytest.mark.parametrize(
    ("server", "body"),
    [
        ("srv-plain", {"reboot": {"type": "SOFT"}}),
        ("srv-plain", {"resize": {"flavorRef": "tpm2"}, "x": 1}),
        ("srv-plain", {"resize": "tpm2"}),
        ("srv-plain", {"resize": {"flavorRef": "missing"}}),
        ("missing", {"resize": {"flavorRef": "tpm2"}}),
        ("srv-tpm", {"rebuild": {"imageRef": "missing"}}),
    ],
)
def test_other_actions_and_missing_servers_go_to_nova(server, body):
    app, nova, _ = make()
    assert call(app, "POST", f"/servers/{server}/action", body).status.startswith("202")
    assert len(nova.seen) == 1


# --- Extra-spec writes ------------------------------------------------------------------------

V286 = {"OpenStack-API-Version": "compute 2.86"}


def test_an_extra_spec_write_is_judged_with_the_flavors_own_sizes():
    """hw:numa_nodes=2 breaks a rule on 3 vCPUs, which only the flavor's sizes tell."""
    readers = catalogue()
    readers.flavors["three"] = {**PLAIN, "id": "three", "vcpus": 3, "extra_specs": {}}
    app, nova, _ = make(readers=readers)
    written = {"extra_specs": {"hw:numa_nodes": 2}}
    answer = call(app, "POST", "/flavors/three/os-extra_specs", written, headers=V286)
    assert answer.status == "400 Bad Request"
    assert "numa-nodes-split-unevenly" in answer.json()["badRequest"]["message"]
    assert answer.header("OpenStack-API-Version") == ["compute 2.86"]
    answer = call(app, "POST", "/flavors/plain/os-extra_specs", written, headers=V286)
    assert answer.status.startswith("202") and len(nova.seen) == 1


def test_a_put_judges_the_flavor_as_it_will_be():
    app, _nova, _ = make()
    path = "/flavors/plain/os-extra_specs/hw:tpm_model"
    readers = app.readers
    assert isinstance(readers, Catalogue)
    readers.flavors["plain"] = {**PLAIN, "extra_specs": {"hw:tpm_version": "1.2"}}
    answer = call(app, "PUT", path, {"hw:tpm_model": "tpm-crb"}, headers=V286)
    assert answer.status == "400 Bad Request"
    assert "tpm-crb-needs-version-2" in answer.json()["badRequest"]["message"]
    assert call(app, "PUT", path, {"hw:tpm_model": "tpm-tis"}, headers=V286).status[:3] == "202"


def test_a_flavor_already_broken_can_be_mended_one_write_at_a_time():
    readers = catalogue()
    app, _nova, _ = make(readers=readers)
    written = {"extra_specs": {"hw:watchdog_action": "reset"}}
    answer = call(app, "POST", "/flavors/uneven/os-extra_specs", written, headers=V286)
    assert answer.status.startswith("202")
    assert any("numa-nodes-split-unevenly" in w for w in answer.header("Warning"))


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"OpenStack-API-Version": "compute 2.85"},
        {"X-OpenStack-Nova-API-Version": "2.85"},
        {"OpenStack-API-Version": "compute two"},
    ],
)
def test_before_2_86_extra_spec_writes_are_left_to_nova(headers):
    app, _nova, readers = make()
    written = {"extra_specs": {"hw:numa_nodes": "2"}}
    call(app, "POST", "/flavors/plain/os-extra_specs", written, headers=headers)
    readers.flavors["plain"] = {**PLAIN, "vcpus": 3}
    answer = call(app, "POST", "/flavors/plain/os-extra_specs", written, headers=headers)
    assert answer.status.startswith("202") and readers.calls == []


@pytest.mark.parametrize(
    "headers",
    [{"OpenStack-API-Version": "compute latest"}, {"X-OpenStack-Nova-API-Version": "2.90"}],
)
def test_later_microversions_are_judged(headers):
    readers = catalogue()
    readers.flavors["three"] = {**PLAIN, "id": "three", "vcpus": 3}
    app, _, _ = make(readers=readers)
    written = {"extra_specs": {"hw:numa_nodes": "2"}}
    answer = call(app, "POST", "/flavors/three/os-extra_specs", written, headers=headers)
    assert answer.status == "400 Bad Request"


@pytest.mark.parametrize(
    ("path", "body", "may_write"),
    [
        ("/flavors/uneven/os-extra_specs", {"extra_specs": {"hw:numa_nodes": "2"}}, False),
        ("/flavors/uneven/os-extra_specs/hw:numa_nodes", {"hw:cpu_policy": "dedicated"}, True),
        ("/flavors/uneven/os-extra_specs", {"extra_specs": {"hw:numa_nodes": ["2"]}}, True),
        ("/flavors/uneven/os-extra_specs", {"extra_specs": {}}, True),
        ("/flavors/missing/os-extra_specs", {"extra_specs": {"hw:numa_nodes": "2"}}, True),
    ],
)
def test_writes_nova_refuses_itself_are_left_to_it(path, body, may_write):
    """A caller the policy refuses gets Nova's 403, not onespec's verdict on the flavor."""
    readers = catalogue()
    readers.may_write = may_write
    readers.flavors["uneven"] = {**UNEVEN, "extra_specs": {}}
    app, _nova, _ = make(readers=readers)
    method = "PUT" if path.count("/") == 4 else "POST"
    assert call(app, method, path, body, headers=V286).status.startswith("202")


# --- warn mode ----------------------------------------------------------------------------------


def test_warn_lets_the_request_through_with_a_warning_header_and_a_log_line(caplog):
    app, nova, _ = make(mode="warn")
    with caplog.at_level(logging.WARNING, logger=servers.__name__):
        answer = call(app, "POST", "/servers", create("tpm2", "img-tpm12"))
    assert answer.status.startswith("202") and len(nova.seen) == 1
    (warning,) = answer.header("Warning")
    assert warning.startswith('299 onespec "tpm-version-flavor-image-differ')
    assert "FlavorImageConflict, scheduler" in warning
    assert "tpm-version-flavor-image-differ" in caplog.text and "mode warn" in caplog.text


def test_warn_adds_nothing_to_a_valid_request():
    app, _, _ = make(mode="warn")
    assert call(app, "POST", "/servers", create("plain")).header("Warning") == []


# --- Failing open -------------------------------------------------------------------------------


@pytest.mark.parametrize("failing", ["flavor", "image", "server"])
def test_a_failure_inside_onespec_lets_the_request_through_and_is_logged(failing, caplog):
    readers = catalogue()
    readers.failing = failing
    app, nova, _ = make(readers=readers)
    body = {"resize": {"flavorRef": "tpm2"}} if failing == "server" else create("tpm2", "img-tpm12")
    path = "/servers/srv-plain/action" if failing == "server" else "/servers"
    with caplog.at_level(logging.ERROR, logger=servers.__name__):
        answer = call(app, "POST", path, body)
    assert answer.status.startswith("202") and json.loads(nova.seen[0][2]) == body
    assert f"the {failing} store is down" in caplog.text
    assert "goes on to Nova unchecked" in caplog.text


def test_a_flavor_onespec_cannot_read_lets_the_request_through(caplog):
    readers = catalogue()
    readers.flavors["bad"] = {"id": "bad", "vcpus": "many", "ram": 1}
    app, _nova, _ = make(readers=readers)
    with caplog.at_level(logging.ERROR, logger=servers.__name__):
        assert call(app, "POST", "/servers", create("bad")).status.startswith("202")
    assert "vcpus" in caplog.text


# --- Bounded input ------------------------------------------------------------------------------


def test_a_body_longer_than_the_bound_is_not_read_and_reaches_nova_whole():
    app, nova, readers = make(max_body_bytes=1024)
    body = create("tpm2", "img-tpm12")
    body["server"]["name"] = "n" * 2000
    assert call(app, "POST", "/servers", body).status.startswith("202")
    assert readers.calls == [] and json.loads(nova.seen[0][2]) == body


def test_a_chunked_body_is_read_up_to_the_bound_and_put_back_whole():
    app, nova, readers = make(max_body_bytes=1024)
    body = create("tpm2", "img-tpm12")
    body["server"]["name"] = "n" * 5000
    assert call(app, "POST", "/servers", body, chunked=True).status.startswith("202")
    assert readers.calls == [] and json.loads(nova.seen[0][2]) == body
    small = create("tpm2", "img-tpm12")
    assert call(app, "POST", "/servers", small, chunked=True).status == "400 Bad Request"


def test_a_body_without_a_length_or_an_end_is_not_read():
    app, nova, readers = make()
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/servers",
        "wsgi.input": io.BytesIO(json.dumps(create("tpm2", "img-tpm12")).encode()),
        "nova.context": "ctx",
    }
    app(environ, lambda status, headers, *_: None)
    assert readers.calls == [] and nova.seen[0][2]


@pytest.mark.parametrize(
    "raw",
    [b"not json", b"[" * 100_000 + b"]" * 100_000, b"\xff\xfe", b"{}"],
    ids=["text", "deep", "bytes", "empty-object"],
)
def test_a_body_that_is_no_json_object_goes_to_nova_unchanged(raw):
    app, nova, readers = make()
    assert call(app, "POST", "/servers", raw=raw).status.startswith("202")
    assert nova.seen[0][2] == raw and readers.calls == []


def test_a_body_that_fails_midway_is_put_back_as_far_as_it_was_read(caplog):
    class Broken(io.RawIOBase):
        def __init__(self) -> None:
            self.parts = [b'{"server": ', OSError("connection reset")]

        def read(self, size: int = -1) -> bytes:
            part = self.parts.pop(0) if self.parts else b""
            if isinstance(part, Exception):
                raise part
            return part

    environ: dict[str, Any] = {"wsgi.input": Broken(), "CONTENT_LENGTH": "40"}
    with pytest.raises(OSError):
        servers.read_body(environ, 1024)
    assert environ["wsgi.input"].read(11) == b'{"server": '


# --- Start-up options ---------------------------------------------------------------------------


def test_the_options_default_to_refusing_with_novas_own_validators():
    assert read_options({}) == Options("refuse", "nova", servers.DEFAULT_MAX_BODY, True)
    assert read_options({"share_image_reads": "false"}).share_image_reads is False
    assert read_options({"mode": " WARN ", "max_body_bytes": "4096"}).mode == "warn"


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"mode": "block"}, "option mode = 'block' must be one of refuse, warn"),
        ({"extra_spec_validators": "both"}, "option extra_spec_validators = 'both'"),
        ({"max_body_bytes": "12k"}, "option max_body_bytes = '12k'"),
        ({"max_body_bytes": "10"}, "from 1024 to"),
        ({"modes": "warn"}, "unknown option 'modes'"),
        ({"share_image_reads": "sometimes"}, "option share_image_reads = 'sometimes' must be"),
    ],
)
def test_an_unusable_option_stops_the_pipeline_at_start_up_naming_it(options, named):
    with pytest.raises(FilterConfigError) as raised:
        filter_factory({}, **options)
    assert named in str(raised.value)
    assert isinstance(raised.value, OnespecError)


def test_onespecs_validators_without_nova_in_the_process_are_refused_at_start_up():
    """The test environment has no Nova: the drop-in has nothing to stand in for."""
    with pytest.raises(FilterConfigError, match="needs Nova in this process"):
        filter_factory({}, extra_spec_validators="onespec")


def test_the_factory_wraps_an_application():
    nova = Nova()
    app = filter_factory({"here": "/etc/nova"}, mode="warn")(nova)
    assert isinstance(app, ServersFilter) and app.app is nova and app.options.mode == "warn"


# --- The documents read from Nova -----------------------------------------------------------------


def test_a_nova_flavor_reads_as_novas_api_shows_it():
    class Flavor:
        flavorid, name, vcpus, memory_mb, root_gb = "42", "m1", 2, 2048, 20
        swap, ephemeral_gb, disabled, is_public = 0, 5, True, False
        extra_specs: ClassVar = {"hw:cpu_policy": "dedicated"}

        def obj_attr_is_set(self, name: str) -> bool:
            return True

    document = flavor_document(Flavor())
    assert document == {
        "id": "42",
        "name": "m1",
        "vcpus": 2,
        "ram": 2048,
        "disk": 20,
        "swap": 0,
        "OS-FLV-EXT-DATA:ephemeral": 5,
        "OS-FLV-DISABLED:disabled": True,
        "os-flavor-access:is_public": False,
        "extra_specs": {"hw:cpu_policy": "dedicated"},
    }


def test_an_image_as_nova_reads_it_becomes_glances_shape():
    image = {"id": "i", "name": "c", "status": "active", "min_ram": "512", "min_disk": 2,
             "size": None, "properties": {"hw_tpm_version": "1.2", "status": "shadow"},
             "created_at": object()}  # fmt: skip
    assert image_document(image) == {
        "id": "i",
        "name": "c",
        "status": "active",
        "min_ram": "512",
        "min_disk": 2,
        "hw_tpm_version": "1.2",
    }
