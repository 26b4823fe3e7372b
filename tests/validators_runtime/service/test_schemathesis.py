"""Property-based tests of the live API from its own OpenAPI document, with schemathesis.

Each operation gets a fixed number of generated requests, valid ones (every response must be
documented, of the documented media type and match the documented schema, and none a 5xx) and
invalid ones (which must also be refused with a 4xx). Generation is derandomised, so a run is
repeatable, and bounded, so it stays fast.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from onespec.validators_runtime.service import openapi
from onespec.validators_runtime.service.app import create_app
from onespec.validators_runtime.service.db import migrate as database
from onespec.validators_runtime.service.db.engine import create_engine
from tests.servers import LiveServer
from tests.validators_runtime.service.conftest import ADMIN

#: Generated requests per operation and generation mode.
EXAMPLES = int(os.environ.get("ONESPEC_SCHEMATHESIS_EXAMPLES", "40"))

CONFORMANCE = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

_PATHS = openapi.document()["paths"]
# schemathesis leaves out the operation that serves the document itself.
OPERATIONS = sorted(
    (method.upper(), path)
    for path, item in _PATHS.items()
    for method in item
    if path != "/openapi.json"
)

#: Operations that take any input, so that invalid input can be generated for them.
WITH_INPUT = {
    (method.upper(), path)
    for path, item in _PATHS.items()
    for method, operation in item.items()
    if operation.get("parameters") or operation.get("requestBody")
}

CASES = [(*operation, GenerationMode.POSITIVE) for operation in OPERATIONS] + [
    (*operation, GenerationMode.NEGATIVE) for operation in OPERATIONS if operation in WITH_INPUT
]


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('schemathesis') / 'onespec.db'}"
    engine = create_engine(url)
    database.upgrade(engine)
    engine.dispose()
    server = LiveServer(create_app({"DATABASE_URL": url}))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def schema(live):
    return schemathesis.openapi.from_url(f"{live.url}/openapi.json")


def _operation(schema, method: str, path: str):
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() == method and operation.path == path:
            return operation
    raise LookupError(f"{method} {path} is not in the served document")


@pytest.mark.parametrize(
    ("method", "path", "mode"), CASES, ids=[f"{m} {p} {mode.value}" for m, p, mode in CASES]
)
def test_generated_requests_get_documented_responses(live, schema, method, path, mode):
    operation = _operation(schema, method, path)
    checks = (
        [*CONFORMANCE, negative_data_rejection] if mode is GenerationMode.NEGATIVE else CONFORMANCE
    )

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def check(case):
        case.call_and_validate(base_url=live.url, headers=ADMIN, checks=checks, timeout=30)

    check()


def test_every_served_operation_is_tested(schema):
    served = sorted(
        (result.ok().method.upper(), result.ok().path) for result in schema.get_all_operations()
    )
    assert served == OPERATIONS
