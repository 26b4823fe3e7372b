"""Paths and URLs in environments and registries, as Heat reads them: local files, remote templates
and resource-type names.
"""

from __future__ import annotations

import os
import posixpath
from urllib.parse import urljoin, urlparse


def is_type_name(value: str) -> bool:
    """A registry value that names a resource type (``OS::Heat::None``), not a file."""
    return "::" in value


def _scheme(value: str) -> str:
    parsed = urlparse(value)
    return parsed.scheme if len(parsed.scheme) > 1 else ""  # "C:" is a drive, not a scheme


def local_path(value: str) -> str | None:
    """The local path a registry value or reference names, or None (a type or a remote URL)."""
    if is_type_name(value):
        return None
    scheme = _scheme(value)
    if scheme == "file":
        return urlparse(value).path
    return None if scheme else value


def join_base(base: str | None, value: str) -> str:
    """``value`` read against a registry's ``base_url``, as the Heat client does."""
    if base is None or is_type_name(value) or _scheme(value) or os.path.isabs(value):
        return value
    if _scheme(base) and _scheme(base) != "file":
        return urljoin(base if base.endswith("/") else base + "/", value)
    return posixpath.join(local_path(base) or base, value)


def display_path(path: str) -> str:
    """``path`` relative to the working directory when it lies below it, else absolute."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative == ".." or relative.startswith(".." + os.sep) else relative


def implementation(environment: str, value: str | None) -> str:
    """A registry value as a comparable implementation, paths resolved against the environment.

    Resource types and remote URLs are kept as written; ``null`` (which removes a mapping)
    is ``"null"``; a local path becomes normalised and relative to where the environment was
    named from (``environments/../docker/x.yaml`` is ``docker/x.yaml``).
    """
    if value is None:
        return "null"
    local = local_path(value)
    if local is None:
        return value
    return os.path.normpath(os.path.join(os.path.dirname(environment), local))
