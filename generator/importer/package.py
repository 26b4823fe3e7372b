"""Imported definitions -> the files of an out-of-tree definitions package.

The package is what a user would write by hand: one module per source namespace holding a
tuple ``EXTRA_SPECS`` of typed definitions (with what the import could not carry in a comment
above it), an ``__init__`` that joins them, a ``pyproject.toml`` that publishes them in the
``onespec.extra_specs`` entry-point group, and a test that loads them. Pure: text in, text out.
"""

from __future__ import annotations

import keyword
import re
import textwrap
from collections.abc import Sequence
from pathlib import PurePosixPath

from onespec.definitions.entry_points import ENTRY_POINT_GROUP
from onespec.definitions.model import ExtraSpec, Parameter, Value
from onespec.generator.importer.metadefs import ImportedNamespace

_WIDTH = 88


class PackageNameError(ValueError):
    """The requested package name cannot name a distribution and a Python package."""


def module_name(package: str) -> str:
    """``acme-glance-specs`` -> ``acme_glance_specs``; refuses what cannot be a module name."""
    name = re.sub(r"[-.]+", "_", package.strip()).lower()
    if not name.isidentifier() or keyword.iskeyword(name):
        raise PackageNameError(
            f"--package {package!r}: a package name is letters, digits, '-', '_' and '.', "
            "starting with a letter"
        )
    return name


def namespace_module(namespace: str) -> str:
    """``OS::Compute::CPUPinning`` -> ``os_compute_cpupinning``."""
    name = re.sub(r"[^0-9a-zA-Z]+", "_", namespace).strip("_").lower()
    return name if name and not name[0].isdigit() else f"ns_{name}"


def _string(text: str, indent: int) -> str:
    """A string literal, split over lines of at most :data:`_WIDTH` characters."""
    room = max(_WIDTH - indent - 2, 20)
    if len(repr(text)) <= room:
        return repr(text)
    chunks = textwrap.wrap(
        text, room - 2, drop_whitespace=False, replace_whitespace=False, break_on_hyphens=False
    )
    if "".join(chunks) != text:
        return repr(text)
    pad = " " * (indent + 4)
    return "(\n" + "".join(f"{pad}{chunk!r}\n" for chunk in chunks) + " " * indent + ")"


def _value(value: Value, indent: int) -> str:
    pad = " " * (indent + 4)
    lines = [f"{pad}type={value.type.__name__},"]
    for name in ("min", "max", "max_length"):
        if getattr(value, name) is not None:
            lines.append(f"{pad}{name}={getattr(value, name)!r},")
    if value.enum:
        members = ", ".join(repr(member) for member in value.enum_values)
        lines.append(f"{pad}enum=({members},),")
    if value.pattern is not None:
        lines.append(f"{pad}pattern={value.pattern!r},")
    if value.default is not None:
        lines.append(f"{pad}default={value.default!r},")
    return "Value(\n" + "\n".join(lines) + "\n" + " " * indent + ")"


def _parameter(parameter: Parameter) -> str:
    fields = [repr(parameter.name), parameter.type.__name__]
    if parameter.description:
        fields.append(repr(parameter.description))
    for name in ("pattern", "min", "max", "max_length"):
        if getattr(parameter, name) is not None:
            fields.append(f"{name}={getattr(parameter, name)!r}")
    return f"            Parameter({', '.join(fields)}),\n"


def _definition(definition: ExtraSpec) -> str:
    lines = [
        "    ExtraSpec(\n",
        f"        name={definition.name!r},\n",
        f"        description={_string(definition.description, 8)},\n",
        f"        value={_value(definition.value, 8)},\n",
    ]
    if definition.parameters:
        parameters = "".join(_parameter(parameter) for parameter in definition.parameters)
        lines.append(f"        parameters=(\n{parameters}        ),\n")
    if definition.status.deprecated:
        lines.append('        status=Status("deprecated"),\n')
    return "".join(lines) + "    ),\n"


def _comment(text: str) -> str:
    return "".join(
        f"# {line}\n" if line else "#\n"
        for line in textwrap.wrap(text, _WIDTH - 2, break_on_hyphens=False)
    )


def render_module(namespace: ImportedNamespace) -> str:
    """One namespace's module: its definitions, and a comment listing what was not carried."""
    parts = [
        f'"""{namespace.display_name} ({namespace.name}), imported from {namespace.source}.\n\n'
        "Written by `onespec import glance-metadefs`; edit freely, it is yours now.\n"
        '"""\n\n'
        "from onespec.definitions.model import (  # noqa: F401\n"
        "    ExtraSpec,\n    Parameter,\n    Status,\n    Value,\n)\n\n",
        f"NAMESPACE = {namespace.name!r}\n",
        f"DESCRIPTION = {_string(namespace.description, 0)}\n\n",
    ]
    if namespace.not_carried:
        parts.append("# Not carried over from the metadef file:\n")
        for item in namespace.not_carried:
            parts.append(_comment(f"- {item.what}: {item.reason}"))
        parts.append("\n")
    body = "".join(_definition(d) for d in namespace.definitions)
    parts.append(f"EXTRA_SPECS: tuple[ExtraSpec, ...] = (\n{body})\n")
    return "".join(parts)


def render_init(package: str, modules: Sequence[str]) -> str:
    imports = "".join(f"from {module_name(package)} import {m}\n" for m in modules)
    joined = "".join(f"    *{m}.EXTRA_SPECS,\n" for m in modules)
    return (
        f'"""Extra-spec definitions of {package}, published in {ENTRY_POINT_GROUP}."""\n\n'
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
        f'name = "{package}"\n'
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
    package: str, namespaces: Sequence[ImportedNamespace]
) -> dict[PurePosixPath, str]:
    """Every file of the package, by path relative to the output directory."""
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
        files[PurePosixPath(module, f"{name}.py")] = render_module(namespace)
    return files
