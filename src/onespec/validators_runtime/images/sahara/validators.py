"""The validator classes as Sahara's plugins know them: Sahara-shaped subclasses of onespec's
kinds, with Sahara's class methods (``from_yaml(..., package=)``, ``from_spec``,
``from_spec_list``, ``get_class_from_spec``, ``get_validator_map``) and its ``validate`` and
``try_validate`` signatures, reading specs and resource roots inside an installed package.
"""

from __future__ import annotations

import collections
import importlib.resources
import inspect
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import onespec.validators_runtime.images.kinds as kinds
import onespec.validators_runtime.images.packages as _packages
import onespec.validators_runtime.images.root as root
from onespec.validators_runtime.images.model import ImageValidator, SpecValidator
from onespec.validators_runtime.images.report import ValidationReport
from onespec.validators_runtime.images.sahara.exceptions import (
    ImageValidationError,
    ImageValidationSpecificationError,
    sahara_errors,
)
from onespec.validators_runtime.images.sahara.remotes import as_remote, distro_of
from onespec.validators_runtime.images.spec import build_one

# The variables Sahara's validators put the distribution and the mode in; the interface
# (``sahara.DISTRO_KEY``, ``sahara.TEST_ONLY_KEY``) documents them.
DISTRO_KEY = "distro"
TEST_ONLY_KEY = "test_only"


# --- Resources inside a package -----------------------------------------------------------------


def _package_directory(package: str) -> Path:
    """The directory of an installed package, where its specs and scripts are."""
    try:
        files = importlib.resources.files(package)
    except ModuleNotFoundError as exc:
        raise ImageValidationSpecificationError(
            f"package {package!r} is not installed: its image specs cannot be read"
        ) from exc
    if not isinstance(files, Path):
        raise ImageValidationSpecificationError(
            f"package {package!r} is not a directory on the file system ({files}): install it "
            "unzipped to read its image specs"
        )
    return files


def _inside(package: str, relative: str | Path, what: str) -> Path:
    """``relative`` inside ``package``'s directory (an absolute path is kept as it is).

    Sahara resolved spec and resource paths against the package; one that leads out of the
    package directory (``..``, a symbolic link) is refused rather than followed.
    """
    if os.path.isabs(relative):
        return Path(relative)
    base = Path(os.path.realpath(_package_directory(package)))
    candidate = Path(os.path.realpath(base / relative))
    if candidate != base and base not in candidate.parents:
        raise ImageValidationSpecificationError(
            f"{what} {str(relative)!r} leads out of package {package!r} (to {str(candidate)!r})"
        )
    return candidate


def _roots(resource_roots: Iterable[str | Path] | None, package: str) -> list[Path] | None:
    if resource_roots is None:
        return None
    return [_inside(package, root, "resource root") for root in resource_roots]


# --- The validators, Sahara-shaped --------------------------------------------------------------


class ValidationAttemptFailed:
    """A failed attempt, as ``try_validate`` returns it: false, carrying the exception."""

    def __init__(self, exception: BaseException) -> None:
        self.exception = exception

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"ValidationAttemptFailed({self.exception!r})"


_AttemptFailed = ValidationAttemptFailed


def _accepts_package(from_spec: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(from_spec).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return False
    return "package" in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


class SaharaImageValidatorBase(kinds.SpecKind):
    """The base of the validators built from a spec, with Sahara's class methods.

    Its subclasses are onespec's validator kinds: the run is onespec's. A plugin's own kind
    may derive from it and implement ``validate(remote, test_only=False,
    image_arguments=None, **kwargs)`` as it did for Sahara.
    """

    #: Loaded by onespec's loader as the built-in kind it subclasses (see spec.py).
    loaded_as_builtin: ClassVar[bool] = True
    DISTRO_KEY: ClassVar[str] = "distro"
    TEST_ONLY_KEY: ClassVar[str] = "test_only"
    ValidationAttemptFailed: ClassVar[type[ValidationAttemptFailed]] = ValidationAttemptFailed

    @staticmethod
    def get_validator_map(
        custom_validator_map: Mapping[str, type[ImageValidator]] | None = None,
    ) -> dict[str, type[ImageValidator]]:
        """The kinds of this module by YAML key, with ``custom_validator_map`` over them."""
        return get_validator_map(custom_validator_map)

    @classmethod
    @sahara_errors
    def from_yaml(
        cls,
        yaml_path: str | Path,
        validator_map: Mapping[str, type[ImageValidator]] | None = None,
        resource_roots: Sequence[str | Path] | None = None,
        package: str = "sahara",
    ) -> SaharaImageValidator:
        """Load the spec at ``yaml_path``, relative (as are ``resource_roots``) to ``package``.

        As Sahara's: a relative path is read inside the installed package (an absolute one
        as it is). Without ``resource_roots`` the spec's own directory is the root.
        """
        path = _inside(package, yaml_path, "spec")
        loaded = root.ImageSpec.from_yaml(
            path, get_validator_map(validator_map), _roots(resource_roots, package)
        )
        return _adopt(loaded)

    @classmethod
    @sahara_errors
    def from_spec(
        cls,
        spec: Any,
        validator_map: Mapping[str, type[ImageValidator]] | None = None,
        resource_roots: Sequence[str | Path] | None = None,
        package: str = "sahara",
    ) -> SaharaImageValidatorBase:
        """One validator of this kind from its parsed YAML; resource roots in ``package``."""
        built = build_one(
            cls.kind,
            spec,
            vocabulary=root.vocabulary(),
            validator_map=get_validator_map(validator_map),
            resource_roots=_roots(resource_roots, package) or (),
        )
        return _adopt(built)

    @classmethod
    @sahara_errors
    def from_spec_list(
        cls,
        specs: Sequence[Any],
        validator_map: Mapping[str, type[ImageValidator]] | None,
        resource_roots: Sequence[str | Path] | None,
        package: str = "sahara",
    ) -> list[ImageValidator]:
        """A validator for each ``{kind: value}`` of ``specs``, each built by its kind."""
        built = []
        for spec in specs:
            kind_class, value = cls.get_class_from_spec(spec, get_validator_map(validator_map))
            # Every kind of a validator map is built by its from_spec, which the SPI leaves out.
            from_spec = kind_class.from_spec  # type: ignore[attr-defined]
            if _accepts_package(from_spec):
                built.append(from_spec(value, validator_map, resource_roots, package=package))
            else:
                built.append(from_spec(value, validator_map, resource_roots))
        return built

    @classmethod
    @sahara_errors
    def get_class_from_spec(
        cls, spec: Any, validator_map: Mapping[str, type[ImageValidator]] | None
    ) -> tuple[type[ImageValidator], Any]:
        """The class of a ``{kind: value}`` item and its value."""
        if not isinstance(spec, Mapping) or len(spec) != 1:
            raise ImageValidationSpecificationError(
                f"a validator must be a mapping with exactly one key, not {spec!r}"
            )
        ((kind, value),) = spec.items()
        kinds = get_validator_map(validator_map)
        if kind not in kinds:
            raise ImageValidationSpecificationError(
                f"unknown validator kind {kind!r} (known: {', '.join(sorted(kinds))})"
            )
        return kinds[kind], value

    # Sahara's signature, as its plugins call it: test_only may come positionally, which
    # onespec's validate refuses (a positional flag would mean reconcile there).
    @sahara_errors
    def validate(  # type: ignore[override]
        self,
        remote: Any,
        test_only: bool = False,
        image_arguments: Any = None,
        **kwargs: Any,
    ) -> ValidationReport:
        """Sahara's call: ``test_only`` (positional too) and ``image_arguments``.

        ``remote`` may be a Sahara remote; its ``get_os_distrib`` names the distribution.
        Any keyword onespec's ``validate`` does not take is a TypeError.
        """
        onespec_remote = as_remote(remote)
        values = argument_values(image_arguments)
        # Sahara's inner validators read the distribution from image_arguments['distro'].
        given = values.pop(DISTRO_KEY, None)
        values.pop(TEST_ONLY_KEY, None)  # the mode is test_only's argument, as Sahara set it
        distro = given if given is not None else distro_of(remote)
        if distro is not None:
            kwargs.setdefault("distro", str(distro))
        return super().validate(
            onespec_remote, test_only=bool(test_only), image_arguments=values, **kwargs
        )

    def try_validate(
        self,
        remote: Any,
        test_only: bool = False,
        image_arguments: Any = None,
        **kwargs: Any,
    ) -> bool | _AttemptFailed:
        """``True`` when the validation passes, else a false :class:`ValidationAttemptFailed`."""
        try:
            self.validate(remote, test_only=test_only, image_arguments=image_arguments, **kwargs)
        except ImageValidationError as exc:
            return ValidationAttemptFailed(exc)
        return True


def argument_values(image_arguments: Any) -> dict[str, Any]:
    """Argument values from what Sahara's plugins pass as ``image_arguments``.

    A mapping gives values by name. The shipped plugins pass back the list
    ``get_image_arguments()`` returned (declarations, not values); such a list stands for the
    defaults of its arguments, which a plugin may have changed on them.
    """
    if image_arguments is None:
        return {}
    if isinstance(image_arguments, Mapping):
        return dict(image_arguments)
    if isinstance(image_arguments, Iterable) and not isinstance(image_arguments, str | bytes):
        items = list(image_arguments)
        if all(hasattr(item, "name") and hasattr(item, "default") for item in items):
            return {item.name: item.default for item in items if item.default is not None}
    raise TypeError(
        "image_arguments must be a mapping of values or a list of ImageArgument, not "
        f"{type(image_arguments).__name__}"
    )


class Package(_packages.Package):
    """A package of a package validator, printed ``name-version`` as Sahara printed it."""

    def __str__(self) -> str:
        return f"{self.name}-{self.version}" if self.version else self.name


class SaharaPackageValidator(SaharaImageValidatorBase, kinds.PackageValidator):
    """``package``; its packages are :attr:`Package` objects."""

    Package: ClassVar[type[Package]] = Package

    def __init__(self, packages: Sequence[_packages.Package]) -> None:
        super().__init__([Package(p.name, p.version) for p in packages])


class SaharaScriptValidator(SaharaImageValidatorBase, kinds.ScriptValidator):
    """``script``; ``env_vars`` lists ``test_only`` and ``distro`` first, as Sahara's did.

    Those two are set for every script whatever the list says (with ``SIV_RECONCILE`` and
    ``SIV_DISTRO``); listing them is Sahara's way of saying so.
    """


class SaharaCopyScriptValidator(SaharaImageValidatorBase, kinds.CopyScriptValidator):
    """``copy_script``."""


class SaharaAllValidator(SaharaImageValidatorBase, kinds.AllValidator):
    """``all``."""


class SaharaAnyValidator(SaharaImageValidatorBase, kinds.AnyValidator):
    """``any``."""


class SaharaOSCaseValidator(SaharaImageValidatorBase, kinds.OSCaseValidator):
    """``os_case``; ``distros`` lists ``(distro, validator)`` pairs, as Sahara's did."""

    _distro_tuple = collections.namedtuple("_distro_tuple", ["distro", "validator"])

    def __init__(self, cases: Sequence[tuple[str, Any]]) -> None:
        super().__init__([(name, _listed(validator)) for name, validator in cases])

    @property
    def distros(self) -> list[Any]:
        """Each case as ``(distro, validator)``, its validators under one ``all``."""
        return [
            self._distro_tuple(name, SaharaAllValidator(list(validators)))
            for name, validators in self.cases
        ]


class SaharaArgumentCaseValidator(SaharaImageValidatorBase, kinds.ArgumentCaseValidator):
    """``argument_case``; a case may be given as one validator, as Sahara's were."""

    def __init__(self, argument_name: str, cases: Mapping[str, Any]) -> None:
        super().__init__(argument_name, {value: _listed(v) for value, v in cases.items()})


class SaharaArgumentSetterValidator(SaharaImageValidatorBase, kinds.ArgumentSetterValidator):
    """``argument_set``."""


def _listed(validator: Any) -> Sequence[ImageValidator]:
    """A case's validators: a list as onespec keeps them, or Sahara's single validator."""
    if isinstance(validator, ImageValidator) or not isinstance(validator, Sequence):
        return [validator]
    return list(validator)


class ImageArgument:
    """An argument a spec declares, as Sahara's: mutable, ``choices`` a list.

    Sahara's plugins change an argument's ``default`` on the objects
    ``get_argument_list()`` returns (Ambari does for HDP 2.3); the validation then uses it.
    """

    def __init__(
        self,
        name: str,
        description: str | None = None,
        default: str | None = None,
        required: bool = False,
        choices: Sequence[str] | None = None,
    ) -> None:
        self.name = name
        self.description = description
        self.default = default
        self.required = required
        self.choices = list(choices) if choices else None

    @classmethod
    @sahara_errors
    def from_spec(cls, spec: Any) -> dict[str, ImageArgument]:
        """The arguments of an ``arguments`` mapping, by name, with onespec's checks."""
        return {
            name: cls._of(argument) for name, argument in root.ImageArgument.from_spec(spec).items()
        }

    @classmethod
    def _of(cls, argument: root.ImageArgument) -> ImageArgument:
        return cls(
            argument.name,
            argument.description or None,
            argument.default,
            argument.required,
            list(argument.choices) or None,
        )

    def __repr__(self) -> str:
        return f"ImageArgument({self.name!r}, default={self.default!r})"


# Sahara's from_spec (package=) and validate (test_only, positional too) take the place of
# ImageSpec's on purpose: this class is what Sahara's plugins call.
class SaharaImageValidator(SaharaImageValidatorBase, root.ImageSpec):  # type: ignore[misc]
    """A whole spec; ``arguments`` are this module's mutable :class:`ImageArgument`."""

    # Replaced by _adopt, once the spec is loaded, with Sahara's argument objects: the run
    # reads only what the two classes share (name, default, required, choices).
    arguments: dict[str, ImageArgument]  # type: ignore[assignment]

    # Sahara's argument objects, not onespec's: the list a plugin changes defaults on.
    def get_argument_list(self) -> list[ImageArgument]:  # type: ignore[override]
        """The declared arguments, the objects themselves (a plugin may change defaults)."""
        return list(self.arguments.values())


#: onespec's kind classes -> this module's.
_SAHARA_SHAPED: dict[type[ImageValidator], type[SaharaImageValidatorBase]] = {
    kinds.PackageValidator: SaharaPackageValidator,
    kinds.ScriptValidator: SaharaScriptValidator,
    kinds.CopyScriptValidator: SaharaCopyScriptValidator,
    kinds.AllValidator: SaharaAllValidator,
    kinds.AnyValidator: SaharaAnyValidator,
    kinds.OSCaseValidator: SaharaOSCaseValidator,
    kinds.ArgumentCaseValidator: SaharaArgumentCaseValidator,
    kinds.ArgumentSetterValidator: SaharaArgumentSetterValidator,
    root.ImageSpec: SaharaImageValidator,
}


def _adopt(tree: Any) -> Any:
    """Give the validators onespec's loader built this module's classes, in place.

    Each class here subclasses the one it replaces and adds no state, so an object keeps
    everything the run needs; what Sahara's callers read differently is converted: packages
    print ``name-version``, scripts list ``test_only`` and ``distro``, arguments are mutable.
    """
    for item in list(tree.walk()) if isinstance(tree, SpecValidator) else []:
        shaped = _SAHARA_SHAPED.get(type(item))
        if shaped is None:
            continue
        declared = item.arguments if isinstance(item, root.ImageSpec) else {}
        item.__class__ = shaped
        if isinstance(item, SaharaPackageValidator):
            item.packages = tuple(Package(p.name, p.version) for p in item.packages)
        elif isinstance(item, SaharaScriptValidator):
            own = [v for v in item.env_vars if v not in (TEST_ONLY_KEY, DISTRO_KEY)]
            # A list, as Sahara's scripts kept theirs (plugins append to it).
            item.env_vars = [TEST_ONLY_KEY, DISTRO_KEY, *own]  # type: ignore[assignment]
        elif isinstance(item, SaharaImageValidator):
            item.arguments = {
                name: ImageArgument._of(argument) for name, argument in declared.items()
            }
    return tree


def get_validator_map(
    custom_validator_map: Mapping[str, type[ImageValidator]] | None = None,
) -> dict[str, type[ImageValidator]]:
    """This module's kinds by YAML key, with ``custom_validator_map`` added (and overriding)."""
    kinds: dict[str, type[ImageValidator]] = {
        cls.kind: cls for cls in _SAHARA_SHAPED.values() if cls is not SaharaImageValidator
    }
    return {**kinds, **(custom_validator_map or {})}
