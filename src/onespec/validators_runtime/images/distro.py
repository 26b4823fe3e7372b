"""Which distribution an instance runs, read from ``/etc/os-release``.

Specs name distributions the way the image builder does (``ubuntu``, ``centos``) or by family
(``debian``, ``redhat``); ``/etc/os-release`` gives an ``ID`` and an ``ID_LIKE`` list. This module
maps one onto the other, once, so that ``os_case`` and the package checks agree.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from onespec.validators_runtime._generated import image_validators as grammar
from onespec.validators_runtime.images.errors import ImageValidationError
from onespec.validators_runtime.images.remote import Remote

#: Read the file systemd and every current distribution ship; the fallback location first
#: appeared in systemd and is where some minimal images keep it.
OS_RELEASE_COMMAND = "cat /etc/os-release 2>/dev/null || cat /usr/lib/os-release"

#: A name as images and plugins write it: a distribution or family, perhaps with a version
#: (``centos7``, ``rhel8``, ``ubuntu22.04``).
_VERSIONED = re.compile(r"([a-z]+)(\d+(?:\.\d+)*)?")

#: The families, each standing for itself (``redhat`` is Sahara's name for the Red Hat family).
_FAMILY_NAMES = frozenset(grammar.FAMILIES.values())


@dataclass(frozen=True)
class Distro:
    """A distribution: its image-builder name, family, and what os-release said."""

    name: str
    family: str | None
    os_id: str = ""
    version_id: str = ""

    @classmethod
    def named(cls, name: str) -> Distro:
        """The distribution an image-builder name (or os-release ID) stands for.

        A version suffix is split off (``centos7`` is CentOS 7, family redhat) and a family
        name stands for its family, so that package checks know their tools; any other name
        is kept as it is, with no family (its packages cannot be checked).
        """
        key = name.strip().lower()
        match = _VERSIONED.fullmatch(key)
        if match is not None:
            base, version = match[1], match[2] or ""
            if base in grammar.DISTRIBUTIONS:
                known = grammar.DISTRIBUTIONS[base]
                return cls(known, grammar.FAMILIES.get(known), base, version)
            if base in _FAMILY_NAMES:
                return cls(base, base, base, version)
        return cls(key, None, key)

    @classmethod
    def from_os_release(cls, text: str) -> Distro:
        """Read the ``ID``, ``ID_LIKE`` and ``VERSION_ID`` of an os-release file."""
        fields: dict[str, str] = {}
        for line in text.splitlines():
            key, equals, value = line.strip().partition("=")
            if not equals or key.startswith("#"):
                continue
            try:
                words = shlex.split(value)
            except ValueError:
                words = [value]
            fields[key] = " ".join(words)
        os_id = fields.get("ID", "").lower()
        if not os_id:
            raise ImageValidationError("os-release names no distribution (it has no ID)")
        version = fields.get("VERSION_ID", "")
        for candidate in [os_id, *fields.get("ID_LIKE", "").lower().split()]:
            if candidate in grammar.DISTRIBUTIONS:
                name = grammar.DISTRIBUTIONS[candidate]
                return cls(name, grammar.FAMILIES.get(name), os_id, version)
        return cls(os_id, None, os_id, version)

    @property
    def aliases(self) -> tuple[str, ...]:
        """Every name an ``os_case`` may use for this distribution, most specific first."""
        names = [self.name]
        if self.os_id and self.os_id not in names:
            names.append(self.os_id)
        major = self.version_id.split(".")[0]
        if major:
            names.extend(f"{name}{major}" for name in list(names))
        if self.family:
            names.append(self.family)
        return tuple(dict.fromkeys(names))

    def matches(self, case: str) -> bool:
        """Whether an ``os_case`` case named ``case`` applies to this distribution."""
        return case.strip().lower() in self.aliases

    def __str__(self) -> str:
        family = f", family {self.family}" if self.family else ""
        return f"{self.name}{' ' + self.version_id if self.version_id else ''}{family}"


def known_names() -> list[str]:
    """The names :func:`known_distro` accepts (each may also carry a version: ``centos7``)."""
    return sorted({*grammar.DISTRIBUTIONS, *_FAMILY_NAMES})


def known_distro(name: str) -> Distro:
    """The distribution ``name`` stands for, which must be known; ValueError otherwise.

    Where a name ends up in generated text (``onespec image script``), an unknown one is
    refused rather than carried along.
    """
    distro = Distro.named(name)
    if distro.family is None:
        from onespec.validators_runtime.cli_grammar import did_you_mean

        base = re.sub(r"[0-9.]+$", "", name.strip().lower())
        raise ValueError(
            f"{name!r} is not a known distribution: use one of {', '.join(known_names())}, "
            f"optionally with a version (centos7, ubuntu22.04).{did_you_mean(base, known_names())}"
        )
    return distro


def detect(remote: Remote, timeout: float | None = None) -> Distro:
    """Read the remote's os-release; an instance without one cannot be validated."""
    code, stdout, stderr = remote.execute_command(
        OS_RELEASE_COMMAND, raise_when_error=False, timeout=timeout
    )
    if code != 0:
        raise ImageValidationError(
            f"cannot tell the distribution: reading os-release failed ({stderr.strip() or code})"
        )
    return Distro.from_os_release(stdout)
