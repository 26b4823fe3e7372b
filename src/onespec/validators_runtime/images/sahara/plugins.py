"""The calls Sahara's plugins make around validation: an instance's validators against its
remote, a plugin's ``validate_images`` and its ``get_image_arguments``, with Sahara's
signatures."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import onespec.validators_runtime.images.cluster as _cluster
from onespec.validators_runtime.images.model import ImageValidator
from onespec.validators_runtime.images.report import ValidationReport
from onespec.validators_runtime.images.sahara.exceptions import sahara_errors
from onespec.validators_runtime.images.sahara.remotes import as_remote, distro_of
from onespec.validators_runtime.images.sahara.validators import argument_values


@sahara_errors
def validate_instance(
    instance: Any,
    validators: Sequence[ImageValidator],
    test_only: bool = False,
    *,
    image_arguments: Any = None,
    **kwargs: Any,
) -> list[ValidationReport]:
    """Sahara's ``validate_instance``: every validator against ``instance.remote()``.

    ``test_only`` may be passed third and positionally, as Sahara's plugins do: in this module
    it means what it meant to them. The distribution comes from the remote's
    ``get_os_distrib`` when it has one (as Sahara's did), else from os-release. ``kwargs``
    are those of onespec's ``validate_instance`` (``timeout``, ``progress``...).
    """
    with instance.remote() as raw:
        remote = as_remote(raw)
        distro = distro_of(raw)
        if distro is not None:
            kwargs.setdefault("distro", distro)
        return _cluster.validate_instance(
            remote,
            validators,
            test_only=bool(test_only),
            image_arguments=argument_values(image_arguments),
            **kwargs,
        )


@sahara_errors
def call_validate_images(
    plugin: Any,
    cluster: Any,
    *,
    test_only: bool = False,
    image_arguments: Any = None,
) -> Any:
    """Call a Sahara plugin's ``validate_images(cluster, test_only=..., image_arguments=...)``.

    The mode and the arguments reach the plugin under the names its signature takes, never a
    keyword it does not name (see
    :func:`onespec.validators_runtime.images.cluster.call_validate_images`).
    """
    return _cluster.call_validate_images(
        plugin, cluster, test_only=test_only, image_arguments=image_arguments
    )


def get_image_arguments(plugin: Any, hadoop_version: str) -> list[Any] | None:
    """A plugin's ``get_image_arguments(hadoop_version)``; None where it has none.

    Sahara's plugins return ``NotImplemented`` for versions they do not validate; that is
    None here too, as is a plugin without the method.
    """
    method = getattr(plugin, "get_image_arguments", None)
    if method is None:
        return None
    arguments = method(hadoop_version)
    if arguments is NotImplemented or arguments is None:
        return None
    return list(arguments)
