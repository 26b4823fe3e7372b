"""``GET /`` and ``GET /openapi.json``: what the service is; no identity needed."""

from __future__ import annotations

import importlib.metadata
from typing import Any

from flask import Blueprint

from onespec.validators_runtime.service import microversion, openapi

blueprint = Blueprint("root", __name__)

_document: dict[str, Any] | None = None


@blueprint.get("/")
def root() -> dict[str, Any]:
    return {
        "name": "onespec",
        "version": importlib.metadata.version("onespec"),
        "openapi": "/openapi.json",
        "microversions": {
            "service": microversion.SERVICE,
            "header": microversion.HEADER,
            "min_version": microversion.text(microversion.MINIMUM),
            "max_version": microversion.text(microversion.MAXIMUM),
            "validation_version": microversion.text(microversion.VALIDATION),
        },
    }


@blueprint.get("/openapi.json")
def document() -> dict[str, Any]:
    global _document
    if _document is None:
        _document = openapi.document()
    return _document
