"""Image validation: check (and reconcile) the image an instance runs against a plugin's spec.

A plugin describes what its images must hold in a YAML spec -- packages, scripts, cases per
distribution or per argument -- and validates instances through a remote (SSH, or the local
machine during an image build)::

    from onespec.validators_runtime.images import ImageSpec, LocalRemote

    spec = ImageSpec.from_yaml("image.yaml", resource_roots=["resources/images"])
    with LocalRemote() as remote:
        report = spec.validate(remote, reconcile=False, env_map={"java_distro": "openjdk"})

The engine's classes have names of their own
(:class:`~onespec.validators_runtime.images.root.ImageSpec`,
``PackageValidator``...);
the SPI's spellings (``SaharaImageValidator``, ``SaharaPackageValidator``...) name the same
classes, so plugin code written against them runs unchanged. The Sahara-shaped interface itself
(Sahara's signatures and exceptions) is :mod:`onespec.validators_runtime.images.sahara`.
"""

from __future__ import annotations

from onespec.validators_runtime.images.cluster import (
    ClusterReport,
    ImageValidationPlugin,
    InstanceResult,
    SpecImageValidationPlugin,
    call_validate_images,
    validate_cluster,
    validate_instance,
)
from onespec.validators_runtime.images.distro import Distro
from onespec.validators_runtime.images.errors import (
    ImageArgumentError,
    ImageError,
    ImageValidationError,
    ImageValidationSpecificationError,
    RemoteCommandError,
    RemoteError,
)
from onespec.validators_runtime.images.kinds import (
    DEFAULT_VALIDATOR_MAP,
    AllValidator,
    AnyValidator,
    ArgumentCaseValidator,
    ArgumentSetterValidator,
    CopyScriptValidator,
    OSCaseValidator,
    PackageValidator,
    ScriptValidator,
    SpecKind,
)
from onespec.validators_runtime.images.model import ImageValidator, SpecValidator, SpecWarning
from onespec.validators_runtime.images.packages import Package
from onespec.validators_runtime.images.remote import LocalRemote, Remote
from onespec.validators_runtime.images.report import Outcome, Step, ValidationReport
from onespec.validators_runtime.images.root import ImageArgument, ImageSpec
from onespec.validators_runtime.images.run import ValidationContext

# The SPI's spellings (the names the blueprint and Sahara's plugins use), kept so that code
# written against them runs unchanged; the engine's own names are the ones above.
SaharaImageValidatorBase = SpecKind
SaharaImageValidator = ImageSpec
SaharaPackageValidator = PackageValidator
SaharaScriptValidator = ScriptValidator
SaharaCopyScriptValidator = CopyScriptValidator
SaharaAllValidator = AllValidator
SaharaAnyValidator = AnyValidator
SaharaOSCaseValidator = OSCaseValidator
SaharaArgumentCaseValidator = ArgumentCaseValidator
SaharaArgumentSetterValidator = ArgumentSetterValidator


def __getattr__(name: str) -> object:
    """``SSHRemote`` is imported on first use: it pulls in paramiko."""
    if name == "SSHRemote":
        from onespec.validators_runtime.images.ssh import SSHRemote

        return SSHRemote
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_VALIDATOR_MAP",
    "AllValidator",
    "AnyValidator",
    "ArgumentCaseValidator",
    "ArgumentSetterValidator",
    "ClusterReport",
    "CopyScriptValidator",
    "Distro",
    "ImageArgument",
    "ImageArgumentError",
    "ImageError",
    "ImageSpec",
    "ImageValidationError",
    "ImageValidationPlugin",
    "ImageValidationSpecificationError",
    "ImageValidator",
    "InstanceResult",
    "LocalRemote",
    "OSCaseValidator",
    "Outcome",
    "Package",
    "PackageValidator",
    "Remote",
    "RemoteCommandError",
    "RemoteError",
    "SSHRemote",
    "SaharaAllValidator",
    "SaharaAnyValidator",
    "SaharaArgumentCaseValidator",
    "SaharaArgumentSetterValidator",
    "SaharaCopyScriptValidator",
    "SaharaImageValidator",
    "SaharaImageValidatorBase",
    "SaharaOSCaseValidator",
    "SaharaPackageValidator",
    "SaharaScriptValidator",
    "ScriptValidator",
    "SpecImageValidationPlugin",
    "SpecKind",
    "SpecValidator",
    "SpecWarning",
    "Step",
    "ValidationContext",
    "ValidationReport",
    "call_validate_images",
    "validate_cluster",
    "validate_instance",
]
