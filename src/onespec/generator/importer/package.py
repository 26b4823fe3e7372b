"""Imported definitions -> the files of an out-of-tree definitions package.

The package is what a user would write by hand: one module per source namespace holding a
tuple ``EXTRA_SPECS`` of typed definitions (and ``NOT_CARRIED``, what the import could not carry
over, with why), an ``__init__`` that joins them, a ``pyproject.toml`` that publishes them in the
``onespec.extra_specs`` entry-point group, and a test that loads them. Pure: text in, text out.

Everything the source supplied -- names, descriptions, display names, file names -- reaches the
written modules only through :func:`onespec.generator.literals.literal`, as data; the modules'
docstrings and comments are fixed text, so no input can become code.
"""

from __future__ import annotations

import json
import keyword
import re
import textwrap
from collections.abc import Sequence
from pathlib import PurePosixPath

from onespec.definitions.entry_points import ENTRY_POINT_GROUP
from onespec.definitions.model import ExtraSpec, Parameter, Value
from onespec.errors import OnespecError
from onespec.generator.importer.metadefs import ImportedNamespace
from onespec.generator.literals import literal
from onespec.validators_runtime.problems import shown

_WIDTH = 88
#: A distribution name as packaging allows it (PEP 508), ASCII only.
_DISTRIBUTION = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
#: What each ``onespec import`` command reads, for the written modules' docstrings.
SOURCES = {
    "glance-metadefs": "a Glance metadef namespace",
    "nova": "one of Nova's extra-spec validator modules",
}


class PackageNameError(OnespecError, ValueError):
    """The requested package name cannot name a distribution and a Python package."""


def module_name(package: str) -> str:
    """``acme-glance-specs`` -> ``acme_glance_specs``; refuses what cannot be a module name."""
    name = re.sub(r"[-.]+", "_", package).lower()
    if not _DISTRIBUTION.fullmatch(package) or not name.isidentifier() or keyword.iskeyword(name):
        raise PackageNameError(
            f"--package {shown(package)}: a package name is ASCII letters, digits, '-', '_' and "
            "'.', starting with a letter and ending with a letter or digit"
        )
    return name


def namespace_module(namespace: str) -> str:
    """``OS::Compute::CPUPinning`` -> ``os_compute_cpupinning``."""
    name = re.sub(r"[^0-9a-zA-Z]+", "_", namespace).strip("_").lower()
    usable = name and not name[0].isdigit() and not keyword.iskeyword(name)
    return name if usable else f"ns_{name}"


def _string(text: str, indent: int) -> str:
    """A string literal, split over lines of at most :data:`_WIDTH` characters."""
    room = max(_WIDTH - indent - 2, 20)
    whole = literal(text)
    if len(whole) <= room:
        return whole
    chunks = textwrap.wrap(
        text, room - 2, drop_whitespace=False, replace_whitespace=False, break_on_hyphens=False
    )
    if "".join(chunks) != text:
        return whole
    pad = " " * (indent + 4)
    return "(\n" + "".join(f"{pad}{literal(chunk)}\n" for chunk in chunks) + " " * indent + ")"


def _value(value: Value, indent: int) -> str:
    pad = " " * (indent + 4)
    lines = [f"{pad}type={value.type.__name__},"]
    for name in ("min", "max", "max_length", "pattern", "default"):
        if getattr(value, name) is not None:
            lines.append(f"{pad}{name}={literal(getattr(value, name))},")
    if value.enum:
        lines.append(f"{pad}enum={literal(tuple(value.enum_values))},")
    return "Value(\n" + "\n".join(lines) + "\n" + " " * indent + ")"


def _parameter(parameter: Parameter) -> str:
    fields = [literal(parameter.name), parameter.type.__name__]
    if parameter.description:
        fields.append(literal(parameter.description))
    for name in ("pattern", "min", "max", "max_length"):
        if getattr(parameter, name) is not None:
            fields.append(f"{name}={literal(getattr(parameter, name))}")
    return f"            Parameter({', '.join(fields)}),\n"


def _definition(definition: ExtraSpec) -> str:
    lines = [
        "    ExtraSpec(\n",
        f"        name={literal(definition.name)},\n",
        f"        description={_string(definition.description, 8)},\n",
        f"        value={_value(definition.value, 8)},\n",
    ]
    if definition.parameters:
        parameters = "".join(_parameter(parameter) for parameter in definition.parameters)
        lines.append(f"        parameters=(\n{parameters}        ),\n")
    if definition.status.deprecated:
        lines.append('        status=Status("deprecated"),\n')
    return "".join(lines) + "    ),\n"


def _not_carried(namespace: ImportedNamespace) -> str:
    if not namespace.not_carried:
        return "NOT_CARRIED: tuple[tuple[str, str], ...] = ()\n\n"
    rows = "".join(f"    {literal((item.what, item.reason))},\n" for item in namespace.not_carried)
    return f"NOT_CARRIED: tuple[tuple[str, str], ...] = (\n{rows})\n\n"


def render_module(namespace: ImportedNamespace, command: str) -> str:
    """One namespace's module: its definitions, and what was not carried over, as data."""
    parts = [
        f'"""Extra-spec definitions read from {SOURCES[command]}.\n\n'
        f"Written by `onespec import {command}`; edit freely, it is yours now. NAMESPACE,\n"
        "DISPLAY_NAME and SOURCE say where they came from; NOT_CARRIED lists what the import\n"
        "left out of them, and why.\n"
        '"""\n\n'
        "from onespec.definitions.model import (  # noqa: F401\n"
        "    ExtraSpec,\n    Parameter,\n    Status,\n    Value,\n)\n\n",
        f"NAMESPACE = {_string(namespace.name, 0)}\n",
        f"DISPLAY_NAME = {_string(namespace.display_name, 0)}\n",
        f"SOURCE = {_string(namespace.source, 0)}\n",
        f"DESCRIPTION = {_string(namespace.description, 0)}\n\n",
        _not_carried(namespace),
    ]
    body = "".join(_definition(d) for d in namespace.definitions)
    parts.append(f"EXTRA_SPECS: tuple[ExtraSpec, ...] = (\n{body})\n")
    return "".join(parts)


def render_init(package: str, modules: Sequence[str]) -> str:
    imports = "".join(f"from {module_name(package)} import {m}\n" for m in modules)
    joined = "".join(f"    *{m}.EXTRA_SPECS,\n" for m in modules)
    return (
        f'"""Imported extra-spec definitions, published in {ENTRY_POINT_GROUP}."""\n\n'
        f"{imports}\n"
        f"MODULES = (\n{''.join(f'    {m},{chr(10)}' for m in modules)})\n\n"
        f"EXTRA_SPECS = (\n{joined})\n"
    )


def render_pyproject(package: str) -> str:
    module = module_name(package)
    return (
        "[build-system]\n"
        'requires = ["setuptools>=61"]\n'
        'build-backend = "setuptools.build_meta"\n\n'
        "[project]\n"
        f"name = {json.dumps(package)}\n"
        'version = "0.1.0"\n'
        'description = "Flavor extra-spec definitions for onespec, from onespec import."\n'
        'requires-python = ">=3.11"\n'
        'dependencies = ["onespec"]\n\n'
        f'[project.entry-points."{ENTRY_POINT_GROUP}"]\n'
        f'{module} = "{module}:EXTRA_SPECS"\n\n'
        "[tool.setuptools]\n"
        f'packages = ["{module}"]\n'
    )


def render_test(package: str, count: int) -> str:
    module = module_name(package)
    return (
        f'"""The imported definitions load and compile, and the package publishes them."""\n\n'
        "from importlib.metadata import entry_points\n\n"
        "from onespec.validators_runtime.extra_specs import compile_registry\n\n"
        f"from {module} import EXTRA_SPECS\n\n\n"
        "def test_the_definitions_compile():\n"
        f"    assert len(compile_registry(EXTRA_SPECS)) == len(EXTRA_SPECS) == {count}\n\n\n"
        "def test_the_entry_point_names_them():\n"
        f'    (entry_point,) = entry_points(group="{ENTRY_POINT_GROUP}", name="{module}")\n'
        "    assert entry_point.load() is EXTRA_SPECS\n"
    )


def render_package(
    package: str, namespaces: Sequence[ImportedNamespace], command: str = "glance-metadefs"
) -> dict[PurePosixPath, str]:
    """Every file of the package, by path relative to the output directory.

    *command* is the ``onespec import`` command that read *namespaces* (a key of
    :data:`SOURCES`), for the modules' docstrings.
    """
    module = module_name(package)
    kept = [namespace for namespace in namespaces if namespace.definitions]
    names = [namespace_module(namespace.name) for namespace in kept]
    if len(set(names)) != len(names):
        raise PackageNameError("two namespaces would share a module name: " + ", ".join(names))
    files = {
        PurePosixPath("pyproject.toml"): render_pyproject(package),
        PurePosixPath(module, "__init__.py"): render_init(package, names),
        PurePosixPath("tests", f"test_{module}.py"): render_test(
            package, sum(len(namespace.definitions) for namespace in kept)
        ),
    }
    for name, namespace in zip(names, kept, strict=True):
        files[PurePosixPath(module, f"{name}.py")] = render_module(namespace, command)
    return files
