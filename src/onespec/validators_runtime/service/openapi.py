"""The OpenAPI 3.1 document of the service, served at ``/openapi.json``.

Its request and response schemas are the generated JSON Schemas (``outputs/schemas/``, carried
into the package as ``_generated/api.py``), each embedded as a component without its ``$schema``
and ``$id``. The operations, their parameters and their responses are described here, next to
the code that serves them; every operation names the policy rule that guards it
(``x-openstack-policy``).
"""

from __future__ import annotations

import copy
import importlib.metadata
from typing import Any

from onespec.definitions.key_templates import anchored
from onespec.definitions.policy import RULES
from onespec.validators_runtime._generated import api as _generated
from onespec.validators_runtime._generated import plugin_labels as _labels

OPENAPI_VERSION = "3.1.0"
JSON = "application/json"


def component_name(file_name: str) -> str:
    """``plugin-update.schema.json`` is the component ``PluginUpdate``."""
    stem = file_name.removesuffix(".schema.json")
    return "".join(part.capitalize() for part in stem.split("-"))


def components() -> dict[str, Any]:
    """The generated schemas, by component name, without ``$schema`` and ``$id``."""
    result = {}
    for file_name, schema in _generated.SCHEMAS.items():
        embedded = {k: v for k, v in copy.deepcopy(schema).items() if k not in {"$schema", "$id"}}
        result[component_name(file_name)] = embedded
    return result


def _ref(file_name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{component_name(file_name)}"}


def _body(file_name: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": _ref(file_name)}}}


_ERRORS = {
    "400": "The request is malformed: its body, a parameter or a header; the message says which.",
    "401": "The request is not scoped to a project, or its identity was not confirmed.",
    "403": "The policy does not allow the request.",
    "404": "There is no such plugin, version, extra spec or URL.",
    "406": "The microversion asked for is not supported.",
    "413": f"The request body is larger than {_generated.MAX_BODY_BYTES} bytes.",
    "415": "The request body is not JSON in UTF-8.",
}


def _errors(*codes: str) -> dict[str, Any]:
    return {code: _body("error.schema.json", _ERRORS[code]) for code in codes}


def _nova_faults(*codes: str) -> dict[str, Any]:
    """The errors of an endpoint that stands in for Nova's: in Nova's fault shape."""
    return {code: _body("nova-fault.schema.json", _ERRORS[code]) for code in codes}


_POLICY = {(method, path): rule.name for rule in RULES for method, path in rule.operations}

_RESPONSE_MICROVERSION = f"{_generated.MICROVERSION_SERVICE} (?:{_generated.MICROVERSION_PATTERN})"


def _parameters() -> dict[str, dict[str, Any]]:
    key_characters = _generated.EXTRA_SPEC_KEY_CHARACTERS
    max_length = _generated.EXTRA_SPEC_MAX_LENGTH
    minimum = ".".join(map(str, _generated.MIN_MICROVERSION))
    maximum = ".".join(map(str, _generated.MAX_MICROVERSION))
    validating = ".".join(map(str, _generated.VALIDATION_MICROVERSION))
    return {
        "name": {
            "name": "name",
            "in": "path",
            "required": True,
            "description": "The plugin's name.",
            "schema": {"type": "string", "pattern": anchored(_labels.PLUGIN_NAME_PATTERN)},
            "example": "fake",
        },
        "version": {
            "name": "version",
            "in": "path",
            "required": True,
            "description": "One of the plugin's versions.",
            "schema": {"type": "string", "pattern": anchored(_labels.VERSION_PATTERN)},
            "example": "0.1",
        },
        "flavor_id": {
            "name": "flavor_id",
            "in": "path",
            "required": True,
            "description": "The flavor's ID. Flavors are not modelled: any valid ID will do.",
            "schema": {"type": "string", "pattern": anchored(_generated.FLAVOR_ID_PATTERN)},
            "example": "m1.large",
        },
        "key": {
            "name": "key",
            "in": "path",
            "required": True,
            "description": (
                "An extra-spec key. The keys '.' and '..' are valid, but cannot be named in a URL."
            ),
            "schema": {
                "type": "string",
                "pattern": anchored(rf"(?!\.\.?$)[{key_characters}]{{1,{max_length}}}"),
            },
            "example": "hw:cpu_policy",
        },
        "microversion": {
            "name": _generated.MICROVERSION_HEADER,
            "in": "header",
            "required": False,
            "description": (
                f"The microversion, as in '{_generated.MICROVERSION_SERVICE} {validating}' "
                f"({minimum} to {maximum}, or latest; {minimum} when absent). From {validating} "
                "on, the extra specs written are validated."
            ),
            "schema": {
                "type": "string",
                "pattern": anchored(_generated.MICROVERSION_HEADER_PATTERN),
            },
            "example": f"{_generated.MICROVERSION_SERVICE} {validating}",
        },
        "validation": {
            "name": "validation",
            "in": "query",
            "required": False,
            "description": (
                f"How extra specs are validated (microversion {validating} and later only): "
                "strict refuses unknown keys and invalid values; permissive refuses invalid "
                "values and logs unknown keys; off checks only that keys and values are strings."
            ),
            "schema": {"enum": list(_generated.VALIDATION_MODES), "default": "strict"},
        },
    }


def _operation(
    method: str,
    path: str,
    operation_id: str,
    summary: str,
    parameters: list[str],
    responses: dict[str, Any],
    *,
    body: tuple[str, str] | None = None,
    microversioned: bool = False,
    flavor_warnings: bool = False,
) -> dict[str, Any]:
    available = _parameters()
    names = list(parameters)
    if microversioned:
        names.append("microversion")
    operation: dict[str, Any] = {"operationId": operation_id, "summary": summary}
    policy = _POLICY.get((method.upper(), path))
    if policy is not None:
        operation["x-openstack-policy"] = policy
    if names:
        operation["parameters"] = [available[name] for name in names]
    if body is not None:
        file_name, description = body
        operation["requestBody"] = {
            "required": True,
            "description": description,
            "content": {JSON: {"schema": _ref(file_name)}},
        }
    if microversioned:
        for code, response in responses.items():
            if code.startswith("2"):
                response["headers"] = {
                    _generated.MICROVERSION_HEADER: {
                        "description": "The microversion the response follows.",
                        "schema": {"type": "string", "pattern": anchored(_RESPONSE_MICROVERSION)},
                    }
                }
    if flavor_warnings:
        for code, response in responses.items():
            if code.startswith("2"):
                response.setdefault("headers", {})["Warning"] = _FLAVOR_WARNING
    operation["responses"] = responses
    return operation


#: What an extra-spec write warns about, in headers so that the bodies stay Nova's.
_FLAVOR_WARNING = {
    "description": (
        "One per warning of the whole-flavor check (service/flavor_check.py): a rule between "
        "keys the flavor already broke before this write, or that the write breaks when the "
        "service warns instead of refusing, or what the flavor asks of an image; as "
        '299 onespec "RULE: MESSAGE (NOVA_EXCEPTION, PHASE)".'
    ),
    "schema": {"type": "string"},
}


def _paths() -> dict[str, Any]:
    plugins = "/plugins"
    plugin = "/plugins/{name}"
    version = "/plugins/{name}/{version}"
    specs = "/flavors/{flavor_id}/os-extra_specs"
    spec = "/flavors/{flavor_id}/os-extra_specs/{key}"
    write = ("400", "401", "403", "406", "413", "415")
    return {
        "/": {
            "get": _operation(
                "GET",
                "/",
                "showApiRoot",
                "What the service is, and which microversions it speaks",
                [],
                {"200": _body("api-root.schema.json", "The service.")},
            )
        },
        "/openapi.json": {
            "get": _operation(
                "GET",
                "/openapi.json",
                "showOpenApi",
                "This document",
                [],
                {
                    "200": {
                        "description": "The OpenAPI document.",
                        "content": {JSON: {"schema": {"type": "object"}}},
                    }
                },
            )
        },
        plugins: {
            "get": _operation(
                "GET",
                plugins,
                "listPlugins",
                "List the plugins, hidden ones included, with their labels",
                [],
                {
                    "200": _body("plugins.schema.json", "Every plugin."),
                    **_errors("401", "403"),
                },
            )
        },
        plugin: {
            "get": _operation(
                "GET",
                plugin,
                "showPlugin",
                "Show a plugin with its labels and its versions' labels",
                ["name"],
                {"200": _body("plugin.schema.json", "The plugin."), **_errors("401", "403", "404")},
            ),
            "patch": _operation(
                "PATCH",
                plugin,
                "updatePlugin",
                "Change the mutable labels of a plugin and its versions, for the caller's project",
                ["name"],
                {
                    "200": _body("plugin.schema.json", "The plugin, as it is now."),
                    **_errors("400", "401", "403", "404", "413", "415"),
                },
                body=("plugin-update.schema.json", "The labels to change, and their new status."),
            ),
        },
        version: {
            "get": _operation(
                "GET",
                version,
                "showPluginVersion",
                "Show a plugin with its labels and the labels of one version",
                ["name", "version"],
                {
                    "200": _body("plugin-version.schema.json", "The plugin and the version."),
                    **_errors("401", "403", "404"),
                },
            )
        },
        specs: {
            "get": _operation(
                "GET",
                specs,
                "listFlavorExtraSpecs",
                "List a flavor's extra specs",
                ["flavor_id"],
                {
                    "200": _body("flavor-extra-specs-body.schema.json", "The extra specs."),
                    **_nova_faults("400", "401", "403", "406"),
                },
                microversioned=True,
            ),
            "post": _operation(
                "POST",
                specs,
                "createFlavorExtraSpecs",
                "Set extra specs of a flavor, keeping its others",
                ["flavor_id", "validation"],
                {
                    "200": _body("flavor-extra-specs-body.schema.json", "The extra specs set."),
                    **_nova_faults(*write),
                },
                body=("flavor-extra-specs-body.schema.json", "The extra specs to set."),
                microversioned=True,
                flavor_warnings=True,
            ),
            "put": _operation(
                "PUT",
                specs,
                "replaceFlavorExtraSpecs",
                "Replace all the extra specs of a flavor",
                ["flavor_id", "validation"],
                {
                    "200": _body("flavor-extra-specs-body.schema.json", "The new extra specs."),
                    **_nova_faults(*write),
                },
                body=("flavor-extra-specs-body.schema.json", "The flavor's new extra specs."),
                microversioned=True,
                flavor_warnings=True,
            ),
        },
        spec: {
            "get": _operation(
                "GET",
                spec,
                "showFlavorExtraSpec",
                "Show one extra spec of a flavor",
                ["flavor_id", "key"],
                {
                    "200": _body("flavor-extra-spec-body.schema.json", "The extra spec."),
                    **_nova_faults("400", "401", "403", "404", "406"),
                },
                microversioned=True,
            ),
            "put": _operation(
                "PUT",
                spec,
                "updateFlavorExtraSpec",
                "Set one extra spec of a flavor",
                ["flavor_id", "key", "validation"],
                {
                    "200": _body("flavor-extra-spec-body.schema.json", "The extra spec set."),
                    **_nova_faults(*write),
                },
                body=("flavor-extra-spec-body.schema.json", "The key in the URL and its value."),
                microversioned=True,
                flavor_warnings=True,
            ),
            "delete": _operation(
                "DELETE",
                spec,
                "deleteFlavorExtraSpec",
                "Delete one extra spec of a flavor",
                ["flavor_id", "key"],
                {
                    "202": {"description": "The extra spec is deleted."},
                    **_nova_faults("400", "401", "403", "404", "406"),
                },
                microversioned=True,
                flavor_warnings=True,
            ),
        },
    }


_DESCRIPTION = """\
The plugin admin API (plugin labels, per project) and Nova's flavor extra-specs API with \
validation, as a reference service.

Identity comes from the headers keystonemiddleware sets: X-Project-Id, X-User-Id, X-Roles \
(and X-Identity-Status). Every operation but the root and this document needs a request scoped \
to a project, which the policy rule named by x-openstack-policy must allow. By default reads \
are allowed to any user of the project, and writes need the admin role.

Errors have one shape (the Error schema): the status, its reason phrase and a message a user \
can act on, with the members of the body at fault (problems) or every extra-spec finding \
(findings).
"""


def document() -> dict[str, Any]:
    """The OpenAPI 3.1 document (a fresh dict; callers may change it)."""
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "onespec API",
            "version": importlib.metadata.version("onespec"),
            "description": _DESCRIPTION,
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
        },
        "paths": _paths(),
        "components": {"schemas": components()},
    }
