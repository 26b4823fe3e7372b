"""Package queries and installations, per package-manager family.

Every command is built from names and versions the loader has already checked against the
package managers' grammar, and each is still quoted: the check keeps nonsense out of the
package database, the quoting keeps it out of the shell.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from onespec.validators_runtime.problems import closest


@dataclass(frozen=True)
class Package:
    """A package a spec requires, optionally at an exact version."""

    name: str
    version: str | None = None

    def __str__(self) -> str:
        return f"{self.name} {self.version}" if self.version else self.name


#: What the database says of one package: the versions installed (none: not installed).
Installed = dict[str, tuple[str, ...]]


def _quoted(words: Iterable[str]) -> str:
    return " ".join(shlex.quote(word) for word in words)


class PackageManager:
    """How one family queries and installs packages."""

    family = ""

    def query_command(self, names: Sequence[str]) -> str:
        """One command that reports every installed package among ``names``."""
        raise NotImplementedError

    def parse(self, stdout: str) -> Installed:
        """The versions installed of each package the query reported."""
        raise NotImplementedError

    def query_ok(self, code: int) -> bool:
        """Whether an exit code means the query ran (some packages may be missing)."""
        raise NotImplementedError

    def install_command(self, packages: Sequence[Package]) -> str:
        """One command installing ``packages`` together."""
        raise NotImplementedError

    def names_command(self) -> str:
        """One command printing, a line each, the names a misspelt package may have meant:
        the packages installed and, where the family can say so cheaply, those available."""
        raise NotImplementedError

    def satisfied(self, package: Package, versions: tuple[str, ...]) -> bool:
        """Whether ``versions`` (installed) satisfy ``package``: any version, or the exact one."""
        if not versions:
            return False
        if package.version is None:
            return True
        return any(package.version in self.spellings(version) for version in versions)

    def spellings(self, version: str) -> set[str]:
        """The ways a spec may write an installed version exactly."""
        return {version}


class Dpkg(PackageManager):
    """Debian and Ubuntu: ``dpkg-query`` reads the database, ``apt-get`` installs."""

    family = "debian"
    _FORMAT = r"${Package}\t${Status}\t${Version}\n"

    def query_command(self, names: Sequence[str]) -> str:
        return f"dpkg-query -W -f={shlex.quote(self._FORMAT)} -- {_quoted(names)}"

    def query_ok(self, code: int) -> bool:
        return code in (0, 1)  # 1: some name matched no package

    def parse(self, stdout: str) -> Installed:
        found: dict[str, list[str]] = {}
        for line in stdout.splitlines():
            fields = line.split("\t")
            if len(fields) != 3:
                continue
            name, status, version = fields
            # Removed packages whose configuration is kept are listed, not installed.
            if status.split()[-1:] == ["installed"] and version:
                found.setdefault(name, []).append(version)
        return {name: tuple(versions) for name, versions in found.items()}

    def install_command(self, packages: Sequence[Package]) -> str:
        words = [f"{p.name}={p.version}" if p.version else p.name for p in packages]
        return f"DEBIAN_FRONTEND=noninteractive apt-get -y install {_quoted(words)}"

    def names_command(self) -> str:
        return "dpkg-query -W -f='${Package}\\n'; apt-cache pkgnames 2>/dev/null; true"

    def spellings(self, version: str) -> set[str]:
        # dpkg reports the epoch; a spec may leave out an epoch of 0 only.
        spellings = {version}
        if version.startswith("0:"):
            spellings.add(version[2:])
        return spellings


class Rpm(PackageManager):
    """The Red Hat family: ``rpm -q`` reads the database, dnf (or yum) installs."""

    family = "redhat"
    _FORMAT = r"%{NAME}\t%{EPOCH}\t%{VERSION}\t%{RELEASE}\n"

    def query_command(self, names: Sequence[str]) -> str:
        return f"rpm -q --queryformat {shlex.quote(self._FORMAT)} {_quoted(names)}"

    def query_ok(self, code: int) -> bool:
        return code >= 0  # rpm exits with the number of packages not installed

    def parse(self, stdout: str) -> Installed:
        found: dict[str, list[str]] = {}
        for line in stdout.splitlines():
            fields = line.split("\t")
            if len(fields) != 4:
                continue  # "package x is not installed"
            name, epoch, version, release = fields
            epoch = "" if epoch == "(none)" else epoch
            full = f"{epoch}:{version}-{release}" if epoch else f"{version}-{release}"
            found.setdefault(name, []).append(full)
        return {name: tuple(versions) for name, versions in found.items()}

    def install_command(self, packages: Sequence[Package]) -> str:
        words = _quoted(f"{p.name}-{p.version}" if p.version else p.name for p in packages)
        return (
            f"if command -v dnf >/dev/null 2>&1; then dnf install -y {words}; "
            f"else yum install -y {words}; fi"
        )

    def names_command(self) -> str:
        return "rpm -qa --queryformat '%{NAME}\\n'"

    def spellings(self, version: str) -> set[str]:
        # epoch:version-release, version-release and version alone all pin exactly enough.
        epoch, colon, rest = version.rpartition(":")
        spellings = {version, rest}
        if colon and epoch == "0":
            spellings.add(rest)
        spellings.add(rest.rsplit("-", 1)[0])
        return spellings


MANAGERS: dict[str, PackageManager] = {"debian": Dpkg(), "redhat": Rpm()}


def closest_names(wanted: Iterable[str], known: Iterable[str]) -> dict[str, str]:
    """For each wanted name that is not known, the known name it most probably meant.

    Names of one package manager differ in small ways (``coreutils`` / ``coreutlis``,
    ``python3-yaml`` / ``python3-yml``), so a close spelling is a useful guess; a name with no
    close spelling gets none rather than a far-fetched one.
    """
    names = set(known)
    guesses = {}
    for name in wanted:
        if name in names:
            continue
        # Only names of a similar length can be close; the filter keeps a long list cheap. (A
        # trigram index, as extra-spec suggestions use for repeated queries, costs more to build
        # over tens of thousands of names than this one-off search, and ranks short names worse.)
        near = [other for other in names if abs(len(other) - len(name)) <= 2]
        match = closest(name, near, cutoff=0.75)
        if match:
            guesses[name] = match
    return guesses
