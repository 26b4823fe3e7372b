"""Image validation: check (and reconcile) the image an instance runs against a plugin's spec.

A plugin describes what its images must hold in a YAML spec -- packages, scripts, cases per
distribution or per argument -- and validates instances through a remote (SSH, or the local
machine during an image build)::

    from onespec.validators_runtime.images import LocalRemote, SaharaImageValidator

    spec = SaharaImageValidator.from_yaml("image.yaml", resource_roots=["resources/images"])
    with LocalRemote() as remote:
        report = spec.validate(remote, reconcile=False, env_map={"java_distro": "openjdk"})

Every name here keeps the SPI's spelling, so plugin code written against it ports unchanged.
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
from onespec.validators_runtime.images.packages import Package
from onespec.validators_runtime.images.remote import LocalRemote, Remote
from onespec.validators_runtime.images.report import Outcome, Step, ValidationReport
from onespec.validators_runtime.images.spec import SpecWarning
from onespec.validators_runtime.images.validators import (
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
    ValidationContext,
)


def __getattr__(name: str) -> object:
    """``SSHRemote`` is imported on first use: it pulls in paramiko."""
    if name == "SSHRemote":
        from onespec.validators_runtime.images.ssh import SSHRemote

        return SSHRemote
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_VALIDATOR_MAP",
    "ClusterReport",
    "Distro",
    "ImageArgument",
    "ImageArgumentError",
    "ImageError",
    "ImageValidationError",
    "ImageValidationPlugin",
    "ImageValidationSpecificationError",
    "ImageValidator",
    "InstanceResult",
    "LocalRemote",
    "Outcome",
    "Package",
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
    "SpecImageValidationPlugin",
    "SpecWarning",
    "Step",
    "ValidationContext",
    "ValidationReport",
    "call_validate_images",
    "validate_cluster",
    "validate_instance",
]
