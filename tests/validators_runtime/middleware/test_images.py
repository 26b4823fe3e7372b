"""The image-property filter for glance-api, in-process, around a small image store of its own.

The store below is a real WSGI application that keeps images in memory, answers the requests
Glance answers (create, show, JSON-patch update) with Glance's shapes, and records every
request that reaches it with the bytes of its body, so each test can say what got through.
The tests on glance-api itself are in ``tests/cloud/test_glance_images.py``.
"""

from __future__ import annotations

import importlib.metadata
import io
import json
import logging
import time
import uuid
from typing import Any

import pytest

from onespec.validators_runtime.middleware.common import FilterConfigError
from onespec.validators_runtime.middleware.images import (
    PATCH_MEDIA_TYPES,
    ImagePropertiesFilter,
    filter_factory,
    glance_error,
    image_findings,
)

V21 = "application/openstack-images-v2.1-json-patch"
V20 = "application/openstack-images-v2.0-json-patch"


class ImageStore:
    """Images in memory behind Glance's v2 paths; every request that reaches it is kept."""

    def __init__(self) -> None:
        self.images: dict[str, dict[str, Any]] = {}
        self.seen: list[tuple[str, str, bytes]] = []
        self.broken_show = False

    def add(self, **properties: str) -> str:
        image_id = str(uuid.uuid4())
        self.images[image_id] = {"id": image_id, "name": "x", "status": "queued", "tags": []}
        self.images[image_id].update(properties)
        return image_id

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else environ["wsgi.input"].read()
        self.seen.append((method, path, body))
        try:
            return self._answer(method, path, body, start_response)
        except (ValueError, LookupError, TypeError, AttributeError, StopIteration):
            # Glance refuses what it cannot read with a 400 of its own; so does the store.
            return self._json(start_response, "400 Bad Request", {"message": "not for Glance"})

    def _answer(self, method: str, path: str, body: bytes, start_response: Any) -> list[bytes]:
        image_id = path.rsplit("/", 1)[-1]
        if method == "POST":
            image_id = self.add(**json.loads(body))
            return self._json(start_response, "201 Created", self.images[image_id])
        if image_id not in self.images:
            return self._json(start_response, "404 Not Found", {"message": "no such image"})
        if method == "GET":
            if self.broken_show:
                start_response("200 OK", [("Content-Type", "text/html")])
                return [b"<html>not JSON</html>"]
            return self._json(start_response, "200 OK", self.images[image_id])
        image = dict(self.images[image_id])
        for operation in json.loads(body):
            op = operation.get("op") or next(
                k for k in ("add", "remove", "replace") if k in operation
            )
            name = (operation.get("path") or operation[op]).lstrip("/")
            if op != "add" and name not in image:
                return self._json(start_response, "409 Conflict", {"message": name})
            if op == "remove":
                image.pop(name)
            else:
                image[name] = operation["value"]
        self.images[image_id] = image
        return self._json(start_response, "200 OK", image)

    @staticmethod
    def _json(start_response: Any, status: str, document: Any) -> list[bytes]:
        start_response(status, [("Content-Type", "application/json")])
        return [json.dumps(document).encode()]

    def writes(self) -> list[tuple[str, str, bytes]]:
        return [seen for seen in self.seen if seen[0] != "GET"]


class Answer:
    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes) -> None:
        self.status = int(status.split()[0])
        self.headers = headers
        self.body = body

    def header(self, name: str) -> list[str]:
        return [value for key, value in self.headers if key.lower() == name.lower()]

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def message(self) -> str:
        return self.json()["message"]


def call(
    app: Any,
    method: str,
    path: str,
    body: Any = None,
    content_type: str = "application/json",
    accept: str = "application/json",
    chunked: bool = False,
) -> Answer:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "CONTENT_TYPE": content_type,
        "HTTP_ACCEPT": accept,
        "HTTP_X_AUTH_TOKEN": "caller-token",
        "wsgi.input": io.BytesIO(data),
    }
    if chunked:
        environ["HTTP_TRANSFER_ENCODING"] = "chunked"
    else:
        environ["CONTENT_LENGTH"] = str(len(data))
    got: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        got.update(status=status, headers=headers)
        return lambda data: None

    result = b"".join(app(environ, start_response))
    return Answer(got["status"], got["headers"], result)


@pytest.fixture
def store() -> ImageStore:
    return ImageStore()


def guarded(store: ImageStore, **options: str) -> ImagePropertiesFilter:
    return filter_factory({"__file__": "glance-api-paste.ini"}, **options)(store)


def patch(
    app: Any, image_id: str, operations: list[Any], media_type: str = V21, **kw: Any
) -> Answer:
    return call(app, "PATCH", f"/v2/images/{image_id}", operations, content_type=media_type, **kw)


# --- Create -----------------------------------------------------------------------------------


def test_a_create_with_a_value_nova_cannot_read_is_refused_in_glances_shape(store):
    answer = call(guarded(store), "POST", "/v2/images", {"name": "rt", "hw_cpu_policy": "dedicatd"})
    assert answer.status == 400
    assert answer.header("Content-Type") == ["application/json"]
    assert set(answer.json()) == {"message", "code", "title"}
    assert answer.json()["code"] == "400 Bad Request" and answer.json()["title"] == "Bad Request"
    message = answer.message
    assert "'hw_cpu_policy'" in message and "'dedicatd'" in message
    assert "dedicated, shared, mixed" in message and "Did you mean 'dedicated'?" in message
    assert "?." not in message
    assert store.seen == []  # nothing stored


def test_every_finding_of_a_refused_create_is_named(store):
    body = {"hw_numa_nodes": "zero", "hw_disk_bus": "virtio-scsi", "hw_cpu_policy": "dedicatd"}
    message = call(guarded(store), "POST", "/v2/images", body).message
    for name in body:
        assert f"'{name}'" in message


def test_a_valid_create_reaches_glance_byte_for_byte(store):
    raw = b'{"name": "ok",   "hw_cpu_policy": "dedicated", "hw_numa_nodes": "2"}'
    answer = call(guarded(store), "POST", "/v2/images", raw)
    assert answer.status == 201 and answer.header("Warning") == []
    assert store.writes() == [("POST", "/v2/images", raw)]


def test_a_chunked_create_is_read_and_handed_on_whole(store):
    raw = json.dumps({"name": "ok", "hw_cpu_policy": "shared"}).encode()
    assert call(guarded(store), "POST", "/v2/images", raw, chunked=True).status == 201
    assert store.writes() == [("POST", "/v2/images", raw)]
    bad = json.dumps({"hw_cpu_policy": "sharde"}).encode()
    assert call(guarded(store), "POST", "/v2/images", bad, chunked=True).status == 400


def test_properties_outside_novas_namespaces_are_left_alone(store):
    body = {
        "name": "other",
        "architecture": "x86_64",
        "owner_specified.openstack.md5": "abc",
        "hwcpu_policy": "anything",
        "cinder_encryption_key_id": "k",  # Cinder's: Nova boots such an image from a volume
        "hw/x": "y",
    }
    answer = call(guarded(store), "POST", "/v2/images", body)
    assert answer.status == 201 and answer.header("Warning") == []


def test_a_name_nova_does_not_read_is_a_warning_header(store):
    answer = call(guarded(store), "POST", "/v2/images", {"hw_cpu_polcy": "dedicated"})
    assert answer.status == 201
    [warning] = answer.header("Warning")
    assert warning.startswith('299 onespec "') and "Did you mean 'hw_cpu_policy'?" in warning


def test_a_create_that_breaks_a_rule_within_the_image_is_refused(store):
    body = {"hw_numa_nodes": "2", "hw_numa_cpus.0": "0-1", "hw_numa_mem.0": "1024"}
    answer = call(guarded(store), "POST", "/v2/images", body)
    assert answer.status == 400 and "[numa-lists-incomplete]" in answer.message
    assert "ImageNUMATopologyIncomplete" in answer.message


def test_what_a_flavor_may_settle_is_a_warning_not_a_refusal(store):
    answer = call(guarded(store), "POST", "/v2/images", {"hw_cpu_thread_policy": "isolate"})
    assert answer.status == 201
    [warning] = answer.header("Warning")
    assert "thread-policy-needs-pinning" in warning and "unless the flavor" in warning


@pytest.mark.parametrize(
    ("properties", "code"),
    [
        ({"hw_mem_encryption": "true"}, "mem-encryption-needs-uefi"),
        ({"hw_tpm_model": "tpm-crb", "hw_tpm_version": "1.2"}, "tpm-crb-needs-version-2"),
        ({"hw_cpu_sockets": "4", "hw_cpu_max_sockets": "2"}, "image-sockets-above-limit"),
    ],
)
def test_a_rule_no_flavor_can_settle_is_the_images_own(properties, code):
    found = image_findings(properties)
    assert [(f.code, f.severity) for f in found] == [(code, "error")]


def test_a_value_that_is_not_a_string_is_glances_to_refuse(store):
    body = {"hw_numa_nodes": 2}
    assert call(guarded(store), "POST", "/v2/images", body).status == 201
    assert store.writes()[0][2] == json.dumps(body).encode()


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b"\xff\xfe", b"", b'"x"'])
def test_a_body_that_is_not_an_image_is_glances_to_answer(store, raw):
    assert call(guarded(store), "POST", "/v2/images", raw).message == "not for Glance"
    assert store.seen == [("POST", "/v2/images", raw)]


# --- Patch ------------------------------------------------------------------------------------


@pytest.mark.parametrize("media_type", sorted(PATCH_MEDIA_TYPES))
def test_a_patch_in_either_media_type_is_checked(store, media_type):
    image_id = store.add(os_distro="ubuntu")
    app = guarded(store)
    if media_type == V21:
        bad = [{"op": "add", "path": "/hw_cpu_policy", "value": "dedicatd"}]
        good = [{"op": "add", "path": "/hw_cpu_policy", "value": "dedicated"}]
    else:
        bad = [{"add": "/hw_cpu_policy", "value": "dedicatd"}]
        good = [{"add": "/hw_cpu_policy", "value": "dedicated"}]
    refused = patch(app, image_id, bad, media_type)
    assert refused.status == 400 and "'dedicatd'" in refused.message
    assert "hw_cpu_policy" not in store.images[image_id]
    assert patch(app, image_id, good, media_type).status == 200
    assert store.images[image_id]["hw_cpu_policy"] == "dedicated"


def test_the_image_is_read_with_the_callers_own_request(store):
    image_id = store.add()
    patch(guarded(store), image_id, [{"op": "add", "path": "/hw_disk_bus", "value": "virtio"}])
    assert [seen[:2] for seen in store.seen] == [
        ("GET", f"/v2/images/{image_id}"),
        ("PATCH", f"/v2/images/{image_id}"),
    ]


@pytest.mark.parametrize(
    ("pointer", "name"),
    [
        ("/ hw_cpu_policy ", "hw_cpu_policy"),  # Glance strips each part
        ("/hw_cpu~0policy", "hw_cpu~policy"),
        ("/hw_cpu~1policy", "hw_cpu/policy"),
        ("/hw_cpu~01", "hw_cpu~1"),  # ~1 is decoded first, as Glance does
    ],
)
def test_json_pointers_are_decoded_as_glance_decodes_them(store, pointer, name):
    image_id = store.add()
    answer = patch(guarded(store), image_id, [{"op": "add", "path": pointer, "value": "dedicatd"}])
    if name == "hw_cpu_policy":
        assert answer.status == 400
    else:
        assert answer.status == 200 and answer.header("Warning")[0].count(name) >= 1


@pytest.mark.parametrize(
    "operation",
    [
        {"op": "add", "path": "hw_cpu_policy", "value": "dedicatd"},  # no leading /
        {"op": "add", "path": "/hw_cpu_policy/", "value": "dedicatd"},
        {"op": "add", "path": "/hw_cpu~2policy", "value": "dedicatd"},
        {"op": "add", "path": "/hw_cpu_policy/x", "value": "dedicatd"},
        {"op": "move", "path": "/hw_cpu_policy", "value": "dedicatd"},
        {"op": "add", "path": "/hw_cpu_policy"},
        {"op": "add", "path": "/hw_cpu_policy", "value": ["dedicatd"]},
        {"path": "/hw_cpu_policy", "value": "dedicatd"},
        "add /hw_cpu_policy",
    ],
)
def test_a_patch_glance_refuses_is_glances_to_answer(store, operation):
    image_id = store.add()
    raw = json.dumps([operation]).encode()
    patch(guarded(store), image_id, raw)  # the store is no judge of patches: Glance is
    assert store.writes() == [("PATCH", f"/v2/images/{image_id}", raw)]


def test_a_patch_that_names_two_operations_in_the_old_media_type_is_glances(store):
    image_id = store.add()
    raw = json.dumps([{"add": "/hw_cpu_policy", "replace": "/x", "value": "dedicatd"}]).encode()
    patch(guarded(store), image_id, raw, V20)
    assert store.writes() == [("PATCH", f"/v2/images/{image_id}", raw)]


def test_a_patch_of_glances_own_fields_only_is_not_read_further(store):
    image_id = store.add(hw_cpu_policy="dedicatd")
    answer = patch(guarded(store), image_id, [{"op": "replace", "path": "/name", "value": "n"}])
    assert answer.status == 200 and answer.header("Warning") == []
    assert [seen[0] for seen in store.seen] == ["PATCH"]


def test_removing_a_property_checks_the_image_as_it_will_be(store):
    image_id = store.add(
        hw_numa_nodes="2",
        **{
            "hw_numa_cpus.0": "0",
            "hw_numa_cpus.1": "1",
            "hw_numa_mem.0": "512",
            "hw_numa_mem.1": "512",
        },
    )
    answer = patch(guarded(store), image_id, [{"op": "remove", "path": "/hw_numa_cpus.1"}])
    assert answer.status == 400 and "numa-lists-incomplete" in answer.message
    assert store.images[image_id]["hw_numa_cpus.1"] == "1"


@pytest.mark.parametrize(
    ("operations", "media_type"),
    [
        ([{"op": "replace", "path": "/hw_cpu_policy", "value": "dedicatd"}], V21),
        ([{"op": "remove", "path": "/hw_cpu_policy"}], V21),
        ([{"add": "/os_distro", "value": "x"}, {"add": "/hw_cpu_policy", "value": "x"}], V20),
    ],
)
def test_a_patch_glance_answers_with_a_conflict_is_handed_on(store, operations, media_type):
    image_id = store.add(os_distro="ubuntu")
    answer = patch(guarded(store), image_id, operations, media_type)
    assert len(store.writes()) == 1
    if media_type == V21:
        assert answer.status == 409


def test_a_patch_of_an_image_glance_does_not_show_is_glances_to_answer(store):
    answer = patch(
        guarded(store), "missing", [{"op": "add", "path": "/hw_cpu_policy", "value": "x"}]
    )
    assert answer.status == 404


def test_a_patch_in_another_media_type_is_glances_to_answer(store):
    image_id = store.add()
    operations = [{"op": "add", "path": "/hw_cpu_policy", "value": "dedicatd"}]
    answer = patch(guarded(store), image_id, operations, "application/json-patch+json")
    assert answer.status == 200 and [seen[0] for seen in store.seen] == ["PATCH"]


# --- Only what the write breaks ---------------------------------------------------------------


def test_a_finding_stored_before_does_not_refuse_an_unrelated_write(store):
    image_id = store.add(hw_cpu_policy="dedicatd")
    answer = patch(
        guarded(store), image_id, [{"op": "add", "path": "/hw_disk_bus", "value": "virtio"}]
    )
    assert answer.status == 200 and store.images[image_id]["hw_disk_bus"] == "virtio"
    [warning] = answer.header("Warning")
    assert "'dedicatd'" in warning


def test_writing_another_bad_value_over_a_bad_one_is_refused(store):
    image_id = store.add(hw_cpu_policy="dedicatd")
    operation = {"op": "replace", "path": "/hw_cpu_policy", "value": "dedicatedd"}
    assert patch(guarded(store), image_id, [operation]).status == 400
    assert store.images[image_id]["hw_cpu_policy"] == "dedicatd"


def test_a_write_that_mends_a_stored_finding_goes_through_clean(store):
    image_id = store.add(hw_cpu_policy="dedicatd")
    operation = {"op": "replace", "path": "/hw_cpu_policy", "value": "dedicated"}
    answer = patch(guarded(store), image_id, [operation])
    assert answer.status == 200 and answer.header("Warning") == []


# --- Warn mode --------------------------------------------------------------------------------


def test_warn_mode_stores_the_write_logs_it_and_says_so(store, caplog):
    caplog.set_level(logging.WARNING)
    answer = call(guarded(store, mode="warn"), "POST", "/v2/images", {"hw_cpu_policy": "dedicatd"})
    assert answer.status == 201 and answer.json()["hw_cpu_policy"] == "dedicatd"
    [warning] = answer.header("Warning")
    assert "'dedicatd'" in warning and "[invalid-image-property]" in warning
    assert "onespec_images would refuse POST /v2/images" in caplog.text


def test_a_refusal_is_logged(store, caplog):
    caplog.set_level(logging.INFO)
    call(guarded(store), "POST", "/v2/images", {"hw_cpu_policy": "dedicatd"})
    assert "onespec_images refused POST /v2/images" in caplog.text


def test_many_findings_are_named_up_to_a_limit(store):
    body = {f"hw_cpu_policy_{i}": "x" for i in range(8)}
    answer = call(guarded(store, max_findings_shown="3"), "POST", "/v2/images", body)
    assert len(answer.header("Warning")) == 4 and "and 5 more" in answer.header("Warning")[-1]


# --- Bounded ----------------------------------------------------------------------------------


def test_a_body_above_the_limit_is_refused_unread(store):
    body = {"name": "big", "description": "x" * 3000}
    answer = call(guarded(store, max_body_bytes="2048"), "POST", "/v2/images", body)
    assert answer.status == 413 and answer.json()["title"] == "Request Entity Too Large"
    assert "max_body_bytes" in answer.message and store.seen == []


def test_in_warn_mode_a_body_above_the_limit_goes_on_unchecked_and_whole(store):
    body = json.dumps({"hw_cpu_policy": "dedicatd", "description": "x" * 3000}).encode()
    app = guarded(store, max_body_bytes="2048", mode="warn")
    answer = call(app, "POST", "/v2/images", body, chunked=True)
    assert answer.status == 201 and store.writes() == [("POST", "/v2/images", body)]
    assert "Not checked" in answer.header("Warning")[0]


def test_too_many_patch_operations_are_refused(store):
    image_id = store.add()
    operations = [{"op": "add", "path": f"/p{i}", "value": "v"} for i in range(11)]
    answer = patch(guarded(store, max_patch_operations="10"), image_id, operations)
    assert answer.status == 400 and "max_patch_operations" in answer.message


def test_too_many_properties_are_refused(store):
    body = {f"p{i}": "v" for i in range(11)}
    answer = call(guarded(store, max_properties="10"), "POST", "/v2/images", body)
    assert answer.status == 400 and "max_properties" in answer.message


def test_json_nested_too_deep_is_refused(store):
    raw = b'{"name": ' + b"[" * 40 + b"]" * 40 + b"}"
    answer = call(guarded(store), "POST", "/v2/images", raw)
    assert answer.status == 400 and "max_json_depth" in answer.message


@pytest.mark.parametrize(
    "body",
    [
        # every name close to one of Nova's: each costs a search for what was meant
        {f"hw_cpu_polic{i}": "x" for i in range(300)},
        # the longest CPU lists the body limit lets through, every node its own rules
        {
            "hw_numa_nodes": "2",
            "hw_numa_cpus.0": ",".join(str(i) for i in range(0, 50_000, 2)),
            "hw_numa_mem.0": "1",
            "hw_numa_cpus.1": "^" + ",".join(str(i) for i in range(1, 30_000, 2)),
            "hw_numa_mem.1": "1",
        },
        {"hw_cpu_policy": "d" * 250_000},
    ],
)
def test_a_hostile_body_costs_at_most_a_second(store, body):
    app = guarded(store)
    started = time.perf_counter()
    call(app, "POST", "/v2/images", body)
    assert time.perf_counter() - started < 1.0


def test_a_hostile_value_is_quoted_short(store):
    answer = call(guarded(store), "POST", "/v2/images", {"hw_cpu_policy": "d" * 200_000})
    assert answer.status == 400 and len(answer.body) < 2000


# --- Failing open -----------------------------------------------------------------------------


def test_an_error_inside_onespec_lets_the_write_through_and_is_logged(store, caplog):
    """The image store answers its show with HTML: reading it fails inside the filter."""
    image_id = store.add()
    store.broken_show = True
    caplog.set_level(logging.ERROR)
    operations = [{"op": "add", "path": "/hw_cpu_policy", "value": "dedicatd"}]
    answer = patch(guarded(store), image_id, operations)
    assert answer.status == 200 and store.images[image_id]["hw_cpu_policy"] == "dedicatd"
    assert store.writes() == [("PATCH", f"/v2/images/{image_id}", json.dumps(operations).encode())]
    assert "onespec_images failed while checking PATCH" in caplog.text


# --- Everything else --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v2/images"),
        ("PUT", "/v2/images/abc/file"),
        ("POST", "/v2/images/"),  # Glance routes no trailing slash: its 404
        ("POST", "/v2/images/abc/import"),
        ("PATCH", "/v2/images/abc/"),
        ("POST", "/v2/images/abc/members"),
    ],
)
def test_other_requests_pass_unread(method, path):
    seen: list[Any] = []
    stream = io.BytesIO(b'{"hw_cpu_policy": "dedicatd"}')

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        seen.append(environ["wsgi.input"])
        start_response("204 No Content", [])
        return []

    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "CONTENT_LENGTH": "29",
        "wsgi.input": stream,
    }
    list(filter_factory({})(app)(environ, lambda *a: None))
    assert seen == [stream] and stream.tell() == 0


# --- Glance's error shape ---------------------------------------------------------------------

#: What glance-api 33 answers for a JSON patch that is not JSON, by Accept header (read from
#: glance-api itself; tests/cloud/test_glance_images.py compares the two live).
GLANCE_OWN = {
    "application/json": (
        "application/json",
        '{"message": "Malformed JSON in request body.", '
        '"code": "400 Bad Request", "title": "Bad Request"}',
    ),
    "text/html": (
        "text/html; charset=UTF-8",
        "<html>\n <head>\n  <title>400 Bad Request</title>\n </head>\n <body>\n"
        "  <h1>400 Bad Request</h1>\n  Malformed JSON in request body.<br /><br />\n\n\n\n"
        " </body>\n</html>",
    ),
    "text/plain": (
        "text/plain; charset=UTF-8",
        "400 Bad Request\n\nMalformed JSON in request body.\n\n   ",
    ),
}
#: Where the client takes JSON as well as anything else, the answer is Glance's JSON (Glance
#: itself answers HTML to ``*/*`` and plain text to no Accept): the only one whose message the
#: openstack client shows.
JSON_FOR = ("*/*", "", "application/json, text/html")


@pytest.mark.parametrize("accept", sorted(GLANCE_OWN))
def test_errors_take_glances_shape_for_each_accept_header(accept):
    body, content_type = glance_error(accept, 400, "Malformed JSON in request body.")
    assert (content_type, body.decode()) == GLANCE_OWN[accept]


@pytest.mark.parametrize("accept", JSON_FOR)
def test_errors_are_json_where_the_client_takes_json_as_well_as_html(accept):
    body, content_type = glance_error(accept, 400, "Malformed JSON in request body.")
    assert (content_type, body.decode()) == GLANCE_OWN["application/json"]


@pytest.mark.parametrize(
    ("accept", "kind"),
    [
        ("application/json, text/html", "application/json"),
        ("application/json;q=0.5, text/plain", "application/json"),
        ("text/html;q=0, */*", "application/json"),
        ("text/*", "text/html"),
        ("application/*;q=0.9, text/html;q=0.1", "application/json"),
        ("text/plain", "text/plain"),
        ("garbage;;;", "text/html"),
    ],
)
def test_the_accept_header_picks_the_shape_as_webob_does(accept, kind):
    assert glance_error(accept, 400, "x")[1].split(";")[0] == kind


def test_html_errors_escape_what_they_quote():
    body, _ = glance_error("text/html", 400, "<b>'x' & \"y\"</b>")
    assert "&lt;b&gt;&#x27;x&#x27; &amp; &quot;y&quot;&lt;/b&gt;" in body.decode()


# --- Start-up ---------------------------------------------------------------------------------


def test_a_wrong_option_stops_glance_api_from_starting():
    with pytest.raises(FilterConfigError) as caught:
        filter_factory({}, mode="refuze")
    assert "onespec_images" in str(caught.value) and "Did you mean 'refuse'?" in str(caught.value)
    with pytest.raises(FilterConfigError) as caught:
        filter_factory({}, max_propertie="3")
    assert "'max_propertie'" in str(caught.value) and "max_properties" in str(caught.value)


def test_paste_finds_the_filter_by_its_entry_point():
    [entry] = [
        e
        for e in importlib.metadata.entry_points(group="paste.filter_factory")
        if e.name == "onespec_images"
    ]
    assert entry.load() is filter_factory
