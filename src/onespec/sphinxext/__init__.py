"""Sphinx extension for onespec: the ``onespec`` domain and the directives that render it.

Add ``"onespec.sphinxext"`` to ``extensions`` in ``conf.py``. Then::

    .. onespec:auto-extra-specs:: hw

    See :onespec:extra-spec:`hw:cpu_policy`.

    .. onespec:extra-specs-by-purpose::  (every extra spec, grouped by what it is for)
    .. onespec:auto-plugin-labels::      (every plugin label)
    .. onespec:policy-defaults::         (the API's policy rules and their defaults)
    .. onespec:http-operations::         (the API's operations, from its OpenAPI document)
    .. onespec:nova-differences::        (where the verdicts deliberately differ from Nova's)
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

from onespec.sphinxext.directives import (
    AutoExtraSpecs,
    AutoPluginLabels,
    ExtraSpecsByPurpose,
    HttpOperations,
    NovaDifferences,
    PolicyDefaults,
)
from onespec.sphinxext.domain import OnespecDomain, resolve_concrete_key, warn_missing_reference
from onespec.sphinxext.images import AutoImageValidators

#: Raise when the structure of the stored domain data or of the rendered output changes, so
#: Sphinx re-reads every document instead of mixing old and new.
ENV_VERSION = 2


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_domain(OnespecDomain)
    app.setup_extension("onespec.sphinxext.components")
    app.setup_extension("onespec.sphinxext.template_capabilities")
    app.setup_extension("onespec.sphinxext.mentions")
    app.setup_extension("onespec.sphinxext.flavors")
    app.add_directive_to_domain("onespec", "auto-extra-specs", AutoExtraSpecs)
    app.add_directive_to_domain("onespec", "auto-plugin-labels", AutoPluginLabels)
    app.add_directive_to_domain("onespec", "extra-specs-by-purpose", ExtraSpecsByPurpose)
    app.add_directive_to_domain("onespec", "policy-defaults", PolicyDefaults)
    app.add_directive_to_domain("onespec", "http-operations", HttpOperations)
    app.add_directive_to_domain("onespec", "auto-image-validators", AutoImageValidators)
    app.add_directive_to_domain("onespec", "nova-differences", NovaDifferences)
    # Before intersphinx (priority 500), so it looks up the definition of a concrete key.
    app.connect("missing-reference", resolve_concrete_key, priority=400)
    app.connect("warn-missing-reference", warn_missing_reference)
    return {
        "version": "1",
        "env_version": ENV_VERSION,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
