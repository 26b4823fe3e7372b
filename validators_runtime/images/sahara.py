"""Sahara's shipped image-validation interface, mapped onto onespec's implementation (a start).

Plugins written for Sahara import ``sahara.plugins.images`` and call it with Sahara's names and
Sahara's remotes. This module gives them those names, so that porting is a change of import:

* :data:`DISTRO_KEY` and :data:`TEST_ONLY_KEY`, :func:`transform_exception`;
* :func:`validate_instance` with Sahara's signature, ``test_only`` third and positional -- the
  one place where a positional mode is taken, because here it means what Sahara meant;
* :class:`SaharaRemote`, which wraps a Sahara remote (``execute_command`` returning
  ``(code, stdout)``, ``write_file_to``, ``get_os_distrib``) into onespec's
  :class:`~validators_runtime.images.remote.Remote`; :func:`as_remote` wraps only what needs it;
* :func:`get_validator_map` and the validator classes and exceptions, re-exported.

Not yet here: ``from_spec_list``, ``get_class_from_spec``, ``try_validate``,
``ValidationAttemptFailed``, ``SaharaPackageValidator.Package``, ``ImageArgument.from_spec``,
``from_yaml(..., package=...)``, and the plugin SPI adapter.
"""

from __future__ import annotations

import functools
import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from validators_runtime.images import cluster
from validators_runtime.images.errors import (
    ImageArgumentError,
    ImageValidationError,
    ImageValidationSpecificationError,
    RemoteCommandError,
)
from validators_runtime.images.remote import CommandResult, RemoteBase
from validators_runtime.images.report import ValidationReport
from validators_runtime.images.validators import (
    DEFAULT_VALIDATOR_MAP,
    ImageArgument,
    ImageValidator,
    SaharaAllValidator,
    SaharaAnyValidator,
    SaharaArgumentCaseValidator,
    SaharaArgumentSetterValidator,
    SaharaCopyScriptValidator,
    SaharaImageValidator,
    SaharaImageValidatorBase,
    SaharaOSCaseValidator,
    SaharaPackageValidator,
    SaharaScriptValidator,
)

__all__ = [
    "DISTRO_KEY",
    "TEST_ONLY_KEY",
    "ImageArgument",
    "ImageArgumentError",
    "ImageValidationError",
    "ImageValidationSpecificationError",
    "ImageValidator",
    "SaharaAllValidator",
    "SaharaAnyValidator",
    "SaharaArgumentCaseValidator",
    "SaharaArgumentSetterValidator",
    "SaharaCopyScriptValidator",
    "SaharaImageValidator",
    "SaharaImageValidatorBase",
    "SaharaOSCaseValidator",
    "SaharaPackageValidator",
    "SaharaRemote",
    "SaharaScriptValidator",
    "as_remote",
    "get_validator_map",
    "transform_exception",
    "validate_instance",
]

#: The variable Sahara's validators put the distribution in (scripts read ``$distro``).
DISTRO_KEY = "distro"
#: The variable Sahara's validators put the mode in (scripts read ``$test_only``).
TEST_ONLY_KEY = "test_only"

_Result = TypeVar("_Result")


def transform_exception(
    from_type: type[BaseException],
    to_type: type[BaseException],
    transform_func: Callable[[Any, type[BaseException]], BaseException] | None = None,
) -> Callable[[Callable[..., _Result]], Callable[..., _Result]]:
    """Sahara's decorator: re-raise ``from_type`` as ``to_type`` (by default from ``.message``).

    Unlike Sahara's, the wrapped function's return value is passed on rather than dropped.
    """
    transform = transform_func or (lambda exc, new_type: new_type(getattr(exc, "message", exc)))

    def decorator(func: Callable[..., _Result]) -> Callable[..., _Result]:
        @functools.wraps(func)
        def handler(*args: Any, **kwargs: Any) -> _Result:
            try:
                return func(*args, **kwargs)
            except from_type as exc:
                raise transform(exc, to_type) from exc

        return handler

    return decorator


def get_validator_map(
    custom_validator_map: Mapping[str, type[ImageValidator]] | None = None,
) -> dict[str, type[ImageValidator]]:
    """The built-in kinds, with ``custom_validator_map`` added (and overriding), as Sahara's."""
    return {**DEFAULT_VALIDATOR_MAP, **(custom_validator_map or {})}


class SaharaRemote(RemoteBase):
    """A Sahara remote as onespec's :class:`~validators_runtime.images.remote.Remote`.

    Sahara's ``execute_command`` returns ``(code, stdout)`` and raises on failure unless told
    ``raise_when_error=False``; its ``write_file_to`` writes a file. onespec's validators want
    ``(code, stdout, stderr)`` and decide about failures themselves, so every command runs with
    ``raise_when_error=False`` and the failure is raised here when the caller asked for it.
    """

    def __init__(self, remote: Any, *, target: str = "sahara") -> None:
        self.remote = remote
        self.target = target

    def execute_command(
        self,
        cmd: str,
        run_as_root: bool = False,
        raise_when_error: bool = True,
        timeout: float | None = None,
    ) -> CommandResult:
        """Run ``cmd`` through the Sahara remote; stderr is not returned by Sahara remotes."""
        options: dict[str, Any] = {"run_as_root": run_as_root, "raise_when_error": False}
        if timeout is not None:
            options["timeout"] = timeout
        result = self.remote.execute_command(cmd, **options)
        code, stdout = result[0], result[1]
        stderr = result[2] if len(result) > 2 else ""
        if raise_when_error and code != 0:
            raise RemoteCommandError(cmd, code, stdout, stderr, target=self.target)
        return code, stdout, stderr

    def write_file(self, path: str, data: bytes | str, mode: int = 0o644) -> None:
        """Write through ``write_file_to`` as root, then set ``mode``."""
        self.remote.write_file_to(path, data, run_as_root=True)
        self.execute_command(f"chmod {mode:o} -- {shlex.quote(path)}", run_as_root=True)

    def distro(self) -> str | None:
        """What the Sahara remote says the distribution is (``get_os_distrib``), if it can."""
        getter = getattr(self.remote, "get_os_distrib", None)
        return str(getter()) if callable(getter) else None


def as_remote(remote: Any) -> Any:
    """``remote`` as onespec's Remote: a Sahara remote (with ``write_file_to``) is wrapped."""
    if isinstance(remote, SaharaRemote) or hasattr(remote, "write_file"):
        return remote
    if hasattr(remote, "write_file_to"):
        return SaharaRemote(remote)
    raise TypeError(f"{type(remote).__name__} is neither a onespec nor a Sahara remote")


def validate_instance(
    instance: Any,
    validators: Sequence[ImageValidator],
    test_only: bool = False,
    *,
    image_arguments: Mapping[str, Any] | None = None,
) -> list[ValidationReport]:
    """Sahara's ``validate_instance``: every validator against ``instance.remote()``.

    ``test_only`` may be passed third and positionally, as Sahara's plugins do: in this module
    it means what it meant to them. The distribution comes from the remote's
    ``get_os_distrib`` when it has one (as Sahara's did), else from os-release.
    """
    with instance.remote() as raw:
        remote = as_remote(raw)
        distro = remote.distro() if isinstance(remote, SaharaRemote) else None
        options: dict[str, Any] = {"distro": distro} if distro else {}
        return cluster.validate_instance(
            remote,
            validators,
            test_only=bool(test_only),
            image_arguments=dict(image_arguments or {}),
            **options,
        )
