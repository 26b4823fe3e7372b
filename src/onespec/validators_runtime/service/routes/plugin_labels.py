"""The plugin admin API: ``GET /plugins``, ``GET|PATCH /plugins/{name}``,
``GET /plugins/{name}/{version}``.

Labels are per project: a view shows the caller's project's statuses, and a PATCH changes them
for the caller's project only.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from onespec.validators_runtime.plugin_labels.labels import (
    LabelUpdateError,
    PluginNotFound,
    VersionNotFound,
)
from onespec.validators_runtime.service.bodies import json_body
from onespec.validators_runtime.service.context import authorized_project, services
from onespec.validators_runtime.service.errors import BadRequest, NotFound

blueprint = Blueprint("plugins", __name__)


@blueprint.get("/plugins")
def list_plugins() -> dict[str, Any]:
    project = authorized_project("onespec:plugins:list")
    return {"plugins": services().manager.list(project)}


@blueprint.get("/plugins/<name>")
def show_plugin(name: str) -> dict[str, Any]:
    project = authorized_project("onespec:plugins:show")
    try:
        return {"plugin": services().manager.show(project, name)}
    except PluginNotFound as exc:
        raise NotFound(str(exc)) from None


@blueprint.get("/plugins/<name>/<version>")
def show_plugin_version(name: str, version: str) -> dict[str, Any]:
    project = authorized_project("onespec:plugins:show")
    try:
        return {"plugin": services().manager.show(project, name, version)}
    except (PluginNotFound, VersionNotFound) as exc:
        raise NotFound(str(exc)) from None


@blueprint.patch("/plugins/<name>")
def update_plugin(name: str) -> dict[str, Any]:
    project = authorized_project("onespec:plugins:update")
    manager = services().manager
    try:
        manager.plugin(name)
    except PluginNotFound as exc:
        raise NotFound(str(exc)) from None
    body = json_body(request)
    try:
        return {"plugin": manager.update(project, name, body)}
    except LabelUpdateError as exc:
        raise BadRequest(str(exc), problems=exc.problems) from None
