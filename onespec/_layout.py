"""How the repository's folders become one installed namespace.

The checkout keeps ``definitions/``, ``generator/``, ``sphinxext/`` and ``validators_runtime/``
at its top, where contributors find them; the distribution installs them as
``onespec.definitions``, ``onespec.generator``, ``onespec.sphinxext`` and
``onespec.validators_runtime`` (``setup.py`` maps each folder to its package), so onespec puts one
name, ``onespec``, into a service's site-packages and never clashes with a ``definitions.py`` in
the working directory or another distribution's ``definitions`` package.

This module is standard library only and imports nothing of onespec: each folder's
``__init__`` calls :func:`refuse_second_copy` first.
"""

from __future__ import annotations

from pathlib import Path

#: The repository folder -> the package it is installed as. setup.py reads this table.
FOLDERS: dict[str, str] = {
    "definitions": "onespec.definitions",
    "generator": "onespec.generator",
    "sphinxext": "onespec.sphinxext",
    "validators_runtime": "onespec.validators_runtime",
}


def refuse_second_copy(name: str, package: str) -> None:
    """Refuse to import a folder of the checkout under its bare name.

    Run from a checkout's root, ``import definitions`` would find the folder itself and load a
    second copy of the code beside the installed ``onespec.definitions``: a second registry,
    exception classes that ``except`` clauses do not catch. Failing loudly at the import is
    cheaper than any of that.
    """
    if name != package:
        raise ImportError(
            f"this folder of onespec is the package {package}, not {name!r}: "
            f"install onespec (pip install .) and import {package}"
        )


def checkout_root(package: Path) -> Path | None:
    """The checkout that holds the ``onespec/`` folder ``package``, or None when installed.

    A checkout is recognised by its ``pyproject.toml`` beside every folder of :data:`FOLDERS`;
    an installed onespec (site-packages) has neither, so its ``__path__`` is never widened.
    """
    root = package.parent
    if not (root / "pyproject.toml").is_file():
        return None
    if not all((root / folder / "__init__.py").is_file() for folder in FOLDERS):
        return None
    return root
