"""JSON Schemas of the HTTP API's bodies, and the runtime module that carries them.

The plugin schemas are built from the label definitions (:mod:`onespec.definitions.plugin_labels`):
a response schema names every label with its exact description and mutability, and the PATCH
body schema admits exactly the mutable labels, each at the scopes it applies to. The flavor
extra-spec body schemas state Nova's API-layer limits (:mod:`onespec.definitions.api`).

Each builder is an entry of :data:`onespec.generator.manifest.SCHEMAS`, so the schemas are written
to ``outputs/schemas/`` with the others. The same dicts are written, as literals, into
``validators_runtime/_generated/api.py``, from which the service assembles ``/openapi.json``:
the service never reads ``outputs/``, which is not installed with it.

Every schema here is self-contained (no ``$ref``), so that it can be embedded in the OpenAPI
document as it is.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Any

from onespec.definitions import api
from onespec.definitions.plugin_labels import (
    PLUGIN_NAME_PATTERN,
    VERSION_PATTERN,
    Label,
    Scope,
    labels,
)
from onespec.generator.literals import assignment, module_header, module_text
from onespec.generator.outputs import Output, generated_module
from onespec.generator.schema import DIALECT, schema_id
from onespec.generator.schema.patterns import anchored

PLUGINS = "plugins.schema.json"
PLUGIN = "plugin.schema.json"
PLUGIN_VERSION = "plugin-version.schema.json"
PLUGIN_UPDATE = "plugin-update.schema.json"
FLAVOR_EXTRA_SPECS = "flavor-extra-specs-body.schema.json"
FLAVOR_EXTRA_SPEC = "flavor-extra-spec-body.schema.json"
ERROR = "error.schema.json"
NOVA_FAULT = "nova-fault.schema.json"
API_ROOT = "api-root.schema.json"

#: Where the runtime copy is written: inside the runtime package, wherever it is installed.
OUTPUT = generated_module("api")


def _header(file_name: str, title: str, description: str) -> dict[str, Any]:
    return {
        "$schema": DIALECT,
        "$id": schema_id(file_name),
        "title": title,
        "description": description,
    }


def _closed(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    """An object with exactly these properties (all required unless ``required`` says)."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    required = list(properties) if required is None else required
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


# --- Plugins -------------------------------------------------------------------------------------


def _in_scope(scope: Scope) -> list[Label]:
    return [label for label in labels() if label.summary(scope) is not None]


def label_view_schema(label: Label, scope: Scope) -> dict[str, Any]:
    """One label as the API shows it: its description and mutability, fixed, and its status."""
    summary = label.summary(scope)
    return {
        "description": f"The {label.name!r} label: {summary}.",
        **_closed(
            {
                "description": {"const": summary},
                "mutable": {"const": label.mutable},
                "status": {"type": "boolean"},
            }
        ),
    }


def labels_view_schema(scope: Scope) -> dict[str, Any]:
    """Every label of a scope, each with its description, mutability and status."""
    return _closed({label.name: label_view_schema(label, scope) for label in _in_scope(scope)})


def plugin_object_schema(*, version: bool = False) -> dict[str, Any]:
    """A plugin as the API shows it; ``version``: as ``GET /plugins/{name}/{version}`` does."""
    properties: dict[str, Any] = {
        "name": {"type": "string", "pattern": anchored(PLUGIN_NAME_PATTERN)},
        "title": {"type": "string"},
        "description": {"type": "string"},
        "versions": {
            "description": "Every version of the plugin, in the plugin's order.",
            "type": "array",
            "items": {"type": "string", "pattern": anchored(VERSION_PATTERN)},
            "minItems": 1,
            "uniqueItems": True,
        },
    }
    if version:
        properties["version"] = {
            "description": "The version asked for; version_labels holds its labels alone.",
            "type": "string",
            "pattern": anchored(VERSION_PATTERN),
        }
    properties["plugin_labels"] = {
        "description": "The labels of the plugin as a whole.",
        **labels_view_schema(Scope.PLUGIN),
    }
    properties["version_labels"] = {
        "description": "The labels of each version, by version.",
        "type": "object",
        "propertyNames": {"pattern": anchored(VERSION_PATTERN)},
        "additionalProperties": labels_view_schema(Scope.VERSION),
    }
    return _closed(properties)


_VIEW_TEXT = (
    "Each label shows its description, whether an administrator may change it (mutable) and "
    "its status for the caller's project: what an administrator of the project set, or else "
    "the plugin's default, or else the label's default."
)


def plugins_schema() -> dict[str, Any]:
    """The body of ``GET /plugins``."""
    return {
        **_header(
            PLUGINS,
            "Plugins",
            f"Every plugin the service has loaded, hidden ones included. {_VIEW_TEXT}",
        ),
        **_closed({"plugins": {"type": "array", "items": plugin_object_schema()}}),
    }


def plugin_schema() -> dict[str, Any]:
    """The body of ``GET /plugins/{name}`` and of a successful ``PATCH /plugins/{name}``."""
    return {
        **_header(
            PLUGIN, "Plugin", f"One plugin with its labels and its versions' labels. {_VIEW_TEXT}"
        ),
        **_closed({"plugin": plugin_object_schema()}),
    }


def plugin_version_schema() -> dict[str, Any]:
    """The body of ``GET /plugins/{name}/{version}``."""
    return {
        **_header(
            PLUGIN_VERSION,
            "Plugin version",
            f"One plugin with its labels and the labels of one of its versions. {_VIEW_TEXT}",
        ),
        **_closed({"plugin": plugin_object_schema(version=True)}),
    }


def label_update_schema(label: Label, scope: Scope) -> dict[str, Any]:
    """A change to one mutable label: its new status, or null to follow the default again."""
    return {
        "description": (
            f"The new status of the {label.name!r} label ({label.summary(scope)}); null removes "
            "the project's setting, so that the status follows the plugin's default again."
        ),
        **_closed({"status": {"type": ["boolean", "null"]}}),
    }


def _updates(scope: Scope) -> dict[str, Any]:
    mutable = [label for label in _in_scope(scope) if label.mutable]
    return _closed({label.name: label_update_schema(label, scope) for label in mutable}, [])


def plugin_update_schema() -> dict[str, Any]:
    """The body of ``PATCH /plugins/{name}``: new statuses of mutable labels, nothing else."""
    immutable = sorted(label.name for label in labels() if not label.mutable)
    return {
        **_header(
            PLUGIN_UPDATE,
            "Plugin label update",
            "Changes to the labels of one plugin and of its versions, for the caller's project. "
            "Only the status of a mutable label can change; the immutable labels "
            f"({', '.join(immutable)}) come from the plugin alone. Every version named must be "
            "a version of the plugin. The update is applied whole or not at all.",
        ),
        **_closed(
            {
                "plugin_labels": {
                    "description": "Changes to the labels of the plugin as a whole.",
                    **_updates(Scope.PLUGIN),
                },
                "version_labels": {
                    "description": "Changes to the labels of versions, by version.",
                    "type": "object",
                    "propertyNames": {"pattern": anchored(VERSION_PATTERN)},
                    "additionalProperties": _updates(Scope.VERSION),
                },
            },
            [],
        ),
    }


# --- Flavor extra specs --------------------------------------------------------------------------


def extra_spec_key_schema() -> dict[str, Any]:
    """What Nova's API accepts as an extra-spec key, before any validation."""
    return {
        "description": (
            f"An extra-spec key: 1 to {api.EXTRA_SPEC_MAX_LENGTH} letters, digits, underscores, "
            "colons, dots, dashes or spaces."
        ),
        "pattern": anchored(f"[{api.EXTRA_SPEC_KEY_CHARACTERS}]{{1,{api.EXTRA_SPEC_MAX_LENGTH}}}"),
    }


def extra_spec_value_schema() -> dict[str, Any]:
    """What Nova's API accepts as an extra-spec value: a string, or a number read as one."""
    return {
        "description": (
            f"A string of at most {api.EXTRA_SPEC_MAX_LENGTH} characters, without the NUL "
            "character, or a number, which is stored as its decimal text (refused when that is "
            f"longer than {api.EXTRA_SPEC_MAX_LENGTH} characters)."
        ),
        "type": ["string", "number"],
        "maxLength": api.EXTRA_SPEC_MAX_LENGTH,
        "pattern": anchored(api.EXTRA_SPEC_VALUE_PATTERN),
    }


_MICROVERSION_TEXT = (
    f"From microversion {api.version_text(api.VALIDATION_MICROVERSION)} on, the extra specs "
    "written are also validated against the definitions, as the validation query parameter "
    "says; a response lists extra specs as they are stored, their values strings."
)


def flavor_extra_specs_schema() -> dict[str, Any]:
    """``{"extra_specs": {...}}``: the body of POST and PUT on the set, and of their responses."""
    return {
        **_header(
            FLAVOR_EXTRA_SPECS,
            "Flavor extra specs",
            "A flavor's extra specs, as Nova's os-extra_specs API takes them. "
            + _MICROVERSION_TEXT,
        ),
        **_closed(
            {
                "extra_specs": {
                    "type": "object",
                    "propertyNames": extra_spec_key_schema(),
                    "additionalProperties": extra_spec_value_schema(),
                }
            }
        ),
    }


def flavor_extra_spec_schema() -> dict[str, Any]:
    """``{"KEY": "VALUE"}``: the body of PUT on one key, and of GET and PUT responses."""
    return {
        **_header(
            FLAVOR_EXTRA_SPEC,
            "Flavor extra spec",
            "One extra spec of a flavor: an object with exactly one property, whose name is the "
            f"key in the URL. {_MICROVERSION_TEXT}",
        ),
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "propertyNames": extra_spec_key_schema(),
        "additionalProperties": extra_spec_value_schema(),
    }


# --- Errors and the root -------------------------------------------------------------------------


def finding_schema() -> dict[str, Any]:
    """One validation finding, as
    :meth:`onespec.validators_runtime.extra_specs.Finding.to_dict` writes it: the one shape of
    :class:`onespec.validators_runtime.problems.Problem`, with the extra spec's key as ``path``,
    as ``keys`` (the name every finding uses) and, for clients that read it by that name, as
    ``key``."""
    from onespec.validators_runtime.extra_specs import Code
    from onespec.validators_runtime.problems import Severity

    return _closed(
        {
            "code": {"enum": list(typing.get_args(Code))},
            "severity": {"enum": list(typing.get_args(Severity))},
            "message": {"type": "string", "minLength": 1},
            "file": {"type": ["string", "null"]},
            "line": {"type": ["integer", "null"], "minimum": 1},
            "path": {"type": "string"},
            "value": {"type": ["string", "number", "boolean", "null"]},
            "suggestion": {"type": ["string", "null"]},
            "keys": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 1},
            "key": {"type": "string"},
        }
    )


def flavor_finding_schema() -> dict[str, Any]:
    """One finding of the whole-flavor check, as
    :meth:`onespec.validators_runtime.flavors.FlavorFinding.to_dict` writes it: the rule it
    breaks (``code``), the keys involved, Nova's exception and the phase in which Nova raises
    it."""
    from onespec.definitions.flavor_rule_catalogue import RULES
    from onespec.definitions.flavor_rules import PHASES

    return _closed(
        {
            **problem_schema()["properties"],
            "code": {"enum": [rule.name for rule in RULES]},
            "keys": {"type": "array", "items": {"type": "string"}},
            "nova_exception": {"type": "string", "minLength": 1},
            "phase": {"enum": list(PHASES)},
        }
    )


def problem_schema() -> dict[str, Any]:
    """One problem of a request body, as
    :meth:`onespec.validators_runtime.problems.Problem.to_dict` writes it; ``path`` is the JSON
    Pointer of the member at fault; ``keys``, when the problem is about some keys."""
    from onespec.validators_runtime.problems import BASE_KEYS, Severity

    return _closed(
        {
            "code": {"type": "string", "minLength": 1},
            "severity": {"enum": list(typing.get_args(Severity))},
            "message": {"type": "string", "minLength": 1},
            "file": {"type": ["string", "null"]},
            "line": {"type": ["integer", "null"], "minimum": 1},
            "path": {"type": ["string", "null"]},
            "value": {},
            "suggestion": {"type": ["string", "null"]},
            "keys": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        },
        list(BASE_KEYS),
    )


def error_schema() -> dict[str, Any]:
    """The body of every error response."""
    return {
        **_header(
            ERROR,
            "Error",
            "The body of every error response: the HTTP status, its reason phrase and a message "
            "a user can act on. problems lists each problem of a request body, its path the JSON "
            "Pointer of the offending member (null when the body as a whole is wrong); findings "
            "lists every finding of an extra-spec validation, warnings included: of each extra "
            "spec on its own (key), or of the flavor's extra specs together (keys, "
            "nova_exception, phase).",
        ),
        **_closed(
            {
                "error": _closed(
                    {
                        "code": {"type": "integer", "minimum": 400, "maximum": 599},
                        "title": {"type": "string", "minLength": 1},
                        "message": {"type": "string", "minLength": 1},
                        "problems": {
                            "type": "array",
                            "minItems": 1,
                            "items": problem_schema(),
                        },
                        "findings": {
                            "type": "array",
                            "minItems": 1,
                            "items": {"anyOf": [finding_schema(), flavor_finding_schema()]},
                        },
                    },
                    ["code", "title", "message"],
                )
            }
        ),
    }


def nova_fault_schema() -> dict[str, Any]:
    """The body of every error response of the flavor extra-specs endpoints: Nova's fault."""
    names = sorted({*api.NOVA_FAULT_NAMES.values(), api.NOVA_OTHER_FAULT})
    fault = _closed(
        {
            "code": {"type": "integer", "minimum": 400, "maximum": 599},
            "message": {"type": "string", "minLength": 1},
            "problems": {"type": "array", "minItems": 1, "items": problem_schema()},
            "findings": {
                "type": "array",
                "minItems": 1,
                "items": {"anyOf": [finding_schema(), flavor_finding_schema()]},
            },
        },
        ["code", "message"],
    )
    return {
        **_header(
            NOVA_FAULT,
            "Nova fault",
            "The body of every error response of the flavor extra-specs endpoints, in Nova's "
            "shape: one member, named after the status as Nova names it (badRequest, "
            "itemNotFound, forbidden...), holding the status and a message a user can act on, "
            "and, as the rest of the API's errors do, problems and findings when there are some.",
        ),
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        # One fault object, under whichever of the names: said once rather than once a name.
        "propertyNames": {"enum": names},
        "additionalProperties": fault,
    }


def api_root_schema() -> dict[str, Any]:
    """The body of ``GET /``: what the service is and which microversions it speaks."""
    version = {"type": "string", "pattern": anchored(r"[0-9]+\.[0-9]+")}
    return {
        **_header(
            API_ROOT,
            "API root",
            "The service's name and release, where its OpenAPI document is, and the range of "
            "microversions of the flavor extra-specs endpoints.",
        ),
        **_closed(
            {
                "name": {"const": "onespec"},
                "version": {"type": "string"},
                "openapi": {"type": "string"},
                "microversions": _closed(
                    {
                        "service": {"const": api.MICROVERSION_SERVICE},
                        "header": {"const": api.MICROVERSION_HEADER},
                        "min_version": version,
                        "max_version": version,
                        "validation_version": version,
                    }
                ),
            }
        ),
    }


#: Every API schema, by file name, with its builder: entries of
#: ``onespec.generator.manifest.SCHEMAS``.
BUILDERS = {
    API_ROOT: api_root_schema,
    PLUGINS: plugins_schema,
    PLUGIN: plugin_schema,
    PLUGIN_VERSION: plugin_version_schema,
    PLUGIN_UPDATE: plugin_update_schema,
    FLAVOR_EXTRA_SPECS: flavor_extra_specs_schema,
    FLAVOR_EXTRA_SPEC: flavor_extra_spec_schema,
    ERROR: error_schema,
    NOVA_FAULT: nova_fault_schema,
}


# --- The runtime module --------------------------------------------------------------------------


def render_lines() -> Iterator[str]:
    """The lines of ``_generated/api.py``: the API's facts and its schemas, as literals."""
    yield from module_header(
        "api",
        "src/onespec/definitions/api.py and the label definitions",
        "The HTTP API's microversions, limits and JSON Schemas (plain data only).",
    )
    yield from assignment("MICROVERSION_HEADER", api.MICROVERSION_HEADER)
    yield from assignment("LEGACY_MICROVERSION_HEADER", api.LEGACY_MICROVERSION_HEADER)
    yield from assignment("MICROVERSION_SERVICE", api.MICROVERSION_SERVICE)
    yield from assignment("MICROVERSION_HEADER_PATTERN", api.MICROVERSION_HEADER_PATTERN)
    yield from assignment("MICROVERSION_PATTERN", api.MICROVERSION_PATTERN)
    yield from assignment("MIN_MICROVERSION", api.MIN_MICROVERSION)
    yield from assignment("MAX_MICROVERSION", api.MAX_MICROVERSION)
    yield from assignment("VALIDATION_MICROVERSION", api.VALIDATION_MICROVERSION)
    yield from assignment("VALIDATION_MODES", api.VALIDATION_MODES)
    yield from assignment("EXTRA_SPEC_KEY_CHARACTERS", api.EXTRA_SPEC_KEY_CHARACTERS)
    yield from assignment("EXTRA_SPEC_MAX_LENGTH", api.EXTRA_SPEC_MAX_LENGTH)
    yield from assignment("EXTRA_SPEC_VALUE_PATTERN", api.EXTRA_SPEC_VALUE_PATTERN)
    yield from assignment("FLAVOR_ID_PATTERN", api.FLAVOR_ID_PATTERN)
    yield from assignment("NOVA_PATHS_PREFIX", api.NOVA_PATHS_PREFIX)
    yield from assignment("NOVA_FAULT_NAMES", api.NOVA_FAULT_NAMES)
    yield from assignment("NOVA_OTHER_FAULT", api.NOVA_OTHER_FAULT)
    yield from assignment("MAX_BODY_BYTES", api.MAX_BODY_BYTES)
    yield from assignment("MAX_EXTRA_SPECS_PER_REQUEST", api.MAX_EXTRA_SPECS_PER_REQUEST)
    yield from assignment("PROJECT_ID_MAX_LENGTH", api.PROJECT_ID_MAX_LENGTH)
    yield from assignment("SCHEMAS", {name: build() for name, build in BUILDERS.items()})


def render() -> str:
    """The whole generated module as text, ending with one newline."""
    return module_text(render_lines())


def output() -> Output:
    """The ``api`` output: ``src/onespec/validators_runtime/_generated/api.py``."""
    return Output("api", lambda: {OUTPUT: render()})
