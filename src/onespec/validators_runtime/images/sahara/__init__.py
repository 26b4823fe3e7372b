"""Sahara's shipped image-validation interface, mapped onto onespec's implementation.

Plugins written for Sahara import ``sahara.plugins.images`` and call it with Sahara's names and
Sahara's remotes. This module gives them those names, so that porting is a change of import
(``from onespec.validators_runtime.images import sahara as images``):

* the validator classes, Sahara-shaped subclasses of onespec's: ``from_yaml(..., package=)``
  reading the spec and its resource roots inside an installed package (through
  ``importlib.resources``), ``from_spec``, ``from_spec_list``, ``get_class_from_spec``,
  ``get_validator_map``, ``try_validate`` and :class:`ValidationAttemptFailed`,
  ``SaharaPackageValidator.Package`` (printed ``name-version``, as Sahara did),
  ``SaharaOSCaseValidator.distros``, :class:`ImageArgument` with ``from_spec``;
* ``validate(remote, test_only=False, image_arguments=None)`` on each of them, and
  :func:`validate_instance` with Sahara's signature, ``test_only`` third and positional --
  here it means what it meant to Sahara;
* :class:`SaharaRemote`, which wraps a Sahara remote (``execute_command`` returning
  ``(code, stdout)``, ``write_file_to``, ``get_os_distrib``) into onespec's
  :class:`~onespec.validators_runtime.images.remote.Remote`, and :class:`SaharaFacingRemote`, the
  other way round, which gives Sahara code a onespec remote;
* the plugin SPI as Sahara's plugins define it: :func:`call_validate_images` and
  :func:`get_image_arguments`;
* :data:`DISTRO_KEY`, :data:`TEST_ONLY_KEY`, :func:`transform_exception`, the exceptions --
  where Sahara is installed, subclasses of both onespec's and Sahara's classes of that name.

What runs is onespec's engine, so what it does differently from Sahara's -- scripts staged in a
private directory, every value quoted, every missing package reported when only checking -- is
described in the image-spec guide, "Porting a Sahara plugin", with the reason for each.

Every Sahara-shaped name lives in this package and nowhere else in onespec, one concept per
module: ``exceptions`` (Sahara's exception classes), ``remotes`` (the remote adapters),
``validators`` (the validator classes and their package resources) and ``plugins`` (the calls
around a plugin's validation). This module is the interface; import from it.
"""

from __future__ import annotations

from onespec.validators_runtime.images.model import ImageValidator
from onespec.validators_runtime.images.sahara import validators as _validators
from onespec.validators_runtime.images.sahara.exceptions import (
    ImageArgumentError,
    ImageValidationError,
    ImageValidationSpecificationError,
    transform_exception,
)
from onespec.validators_runtime.images.sahara.plugins import (
    call_validate_images,
    get_image_arguments,
    validate_instance,
)
from onespec.validators_runtime.images.sahara.remotes import (
    SaharaFacingRemote,
    SaharaRemote,
    as_remote,
)
from onespec.validators_runtime.images.sahara.validators import (
    ImageArgument,
    Package,
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
    ValidationAttemptFailed,
    get_validator_map,
)

#: The variable Sahara's validators put the distribution in (scripts read ``$distro``).
DISTRO_KEY: str = _validators.DISTRO_KEY
#: The variable Sahara's validators put the mode in (scripts read ``$test_only``).
TEST_ONLY_KEY: str = _validators.TEST_ONLY_KEY

__all__ = [
    "DISTRO_KEY",
    "TEST_ONLY_KEY",
    "ImageArgument",
    "ImageArgumentError",
    "ImageValidationError",
    "ImageValidationSpecificationError",
    "ImageValidator",
    "Package",
    "SaharaAllValidator",
    "SaharaAnyValidator",
    "SaharaArgumentCaseValidator",
    "SaharaArgumentSetterValidator",
    "SaharaCopyScriptValidator",
    "SaharaFacingRemote",
    "SaharaImageValidator",
    "SaharaImageValidatorBase",
    "SaharaOSCaseValidator",
    "SaharaPackageValidator",
    "SaharaRemote",
    "SaharaScriptValidator",
    "ValidationAttemptFailed",
    "as_remote",
    "call_validate_images",
    "get_image_arguments",
    "get_validator_map",
    "transform_exception",
    "validate_instance",
]
