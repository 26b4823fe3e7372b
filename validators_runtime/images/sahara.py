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
"""

from __future__ import annotations

import collections
import functools
import importlib.resources
import inspect
import os
import shlex
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import onespec.validators_runtime.images.cluster as _cluster
import onespec.validators_runtime.images.errors as _errors
import onespec.validators_runtime.images.kinds as kinds
import onespec.validators_runtime.images.packages as _packages
import onespec.validators_runtime.images.root as root
from onespec.validators_runtime.images.distro import Distro, detect
from onespec.validators_runtime.images.errors import RemoteCommandError
from onespec.validators_runtime.images.model import ImageValidator, SpecValidator
from onespec.validators_runtime.images.remote import CommandResult, Remote, RemoteBase
from onespec.validators_runtime.images.report import ValidationReport
from onespec.validators_runtime.images.spec import build_one

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

# --- Exceptions: Sahara's own classes where Sahara is installed ---------------------------------


def _sahara_exceptions() -> Any:
    """``sahara.plugins.exceptions`` when Sahara is importable, else None."""
    try:
        from sahara.plugins import exceptions  # type: ignore[import-not-found]
    except Exception:  # not installed, or broken: onespec's classes serve alone
        return None
    return exceptions


def _joined(ours: type[Exception], theirs: Any) -> Any:
    """``ours`` also deriving from Sahara's class ``theirs`` (when there is one).

    Code that catches Sahara's class catches it, code that catches onespec's too; the text is
    onespec's (``str`` and ``message``), and Sahara's ``code`` and ``uuid`` are there.
    """
    if theirs is None:
        return ours

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        ours.__init__(self, *args, **kwargs)
        self.uuid = str(uuid.uuid4())

    return type(
        ours.__name__,
        (ours, theirs),
        {
            "__module__": __name__,
            "__doc__": f"onespec's {ours.__name__}, also Sahara's {theirs.__name__}.",
            "__init__": __init__,
            "__str__": Exception.__str__,
            "code": theirs.__dict__.get("code", getattr(theirs, "code", "")),
        },
    )


_SAHARA = _sahara_exceptions()
ImageValidationError: Any = _joined(
    _errors.ImageValidationError, getattr(_SAHARA, "ImageValidationError", None)
)
ImageValidationSpecificationError: Any = _joined(
    _errors.ImageValidationSpecificationError,
    getattr(_SAHARA, "ImageValidationSpecificationError", None),
)
ImageArgumentError: Any = (
    type(
        "ImageArgumentError",
        (_errors.ImageArgumentError, ImageValidationError),
        {"__module__": __name__, "__doc__": _errors.ImageArgumentError.__doc__},
    )
    if _SAHARA is not None
    else _errors.ImageArgumentError
)
#: onespec's classes and this module's, most specific first.
_AS_SAHARA: tuple[tuple[type, type], ...] = (
    (_errors.ImageArgumentError, ImageArgumentError),
    (_errors.ImageValidationSpecificationError, ImageValidationSpecificationError),
    (_errors.ImageValidationError, ImageValidationError),
)

_Call = TypeVar("_Call", bound=Callable[..., Any])


def _sahara_errors(function: _Call) -> _Call:
    """Re-raise onespec's image exceptions from ``function`` as this module's classes.

    The engine raises onespec's classes; callers of this module catch Sahara's (where it is
    installed). The new exception carries everything the old one did.
    """

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except _errors.ImageError as exc:
            for ours, shaped in _AS_SAHARA:
                if shaped is not ours and isinstance(exc, ours) and not isinstance(exc, shaped):
                    raise _converted(exc, shaped) from exc
            raise

    return wrapper  # type: ignore[return-value]


def _converted(exc: BaseException, shaped: type) -> BaseException:
    new = shaped.__new__(shaped)
    new.__dict__.update(exc.__dict__)
    new.args = exc.args
    new.uuid = str(uuid.uuid4())
    return new


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


class SaharaRemote(RemoteBase):
    """A Sahara remote as onespec's :class:`~onespec.validators_runtime.images.remote.Remote`.

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


class SaharaFacingRemote:
    """A onespec :class:`~onespec.validators_runtime.images.remote.Remote` as Sahara code expects
    one.

    ``execute_command(cmd, run_as_root=False, get_stderr=False, raise_when_error=True,
    timeout=None)`` returns ``(code, stdout)`` (``(code, stdout, stderr)`` with
    ``get_stderr``) and raises on failure unless told not to; ``write_file_to`` writes a file;
    ``get_os_distrib`` reads os-release once. Handed back to this module's validators, it is
    unwrapped: the validation runs on the onespec remote itself.
    """

    def __init__(self, remote: Remote, *, timeout: float | None = None) -> None:
        self.remote = remote
        self.timeout = timeout
        self._distro: Distro | None = None

    def execute_command(
        self,
        cmd: str,
        run_as_root: bool = False,
        get_stderr: bool = False,
        raise_when_error: bool = True,
        timeout: float | None = None,
    ) -> tuple[int, str] | CommandResult:
        """Run ``cmd``; ``(code, stdout)`` as Sahara's remotes return it."""
        code, stdout, stderr = self.remote.execute_command(
            cmd,
            run_as_root=run_as_root,
            raise_when_error=False,
            timeout=timeout if timeout is not None else self.timeout,
        )
        if raise_when_error and code != 0:
            target = getattr(self.remote, "target", "remote")
            raise RemoteCommandError(cmd, code, stdout, stderr, target=str(target))
        return (code, stdout, stderr) if get_stderr else (code, stdout)

    def write_file_to(self, remote_file: str, data: bytes | str, run_as_root: bool = False) -> None:
        """Write ``data`` to ``remote_file`` (the onespec remote writes as it can: as root)."""
        self.remote.write_file(remote_file, data)

    def get_os_distrib(self) -> str:
        """The distribution's name, as Sahara's remotes gave it (``ubuntu``, ``centos``)."""
        if self._distro is None:
            self._distro = detect(self.remote, timeout=self.timeout)
        return self._distro.name

    def __enter__(self) -> SaharaFacingRemote:
        return self

    def __exit__(self, *exc_info: object) -> None:
        """The onespec remote is its owner's to close."""


def as_remote(remote: Any) -> Any:
    """``remote`` as onespec's Remote: a Sahara remote (with ``write_file_to``) is wrapped.

    A :class:`SaharaFacingRemote` is unwrapped to the onespec remote it stands for.
    """
    if isinstance(remote, SaharaFacingRemote):
        return remote.remote
    if isinstance(remote, SaharaRemote):
        return remote
    if hasattr(remote, "write_file_to"):  # Sahara's name, looked for first in Sahara's module
        return SaharaRemote(remote)
    if hasattr(remote, "write_file"):
        return remote
    raise TypeError(f"{type(remote).__name__} is neither a onespec nor a Sahara remote")


def _distro_of(remote: Any) -> str | None:
    """The distribution a Sahara-shaped remote names (``get_os_distrib``), if it names one."""
    if isinstance(remote, SaharaFacingRemote):
        return remote.get_os_distrib()
    wrapped = as_remote(remote)
    return wrapped.distro() if isinstance(wrapped, SaharaRemote) else None


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
    @_sahara_errors
    def from_yaml(  # type: ignore[override]
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
        return _adopt(loaded)  # type: ignore[return-value]

    @classmethod
    @_sahara_errors
    def from_spec(  # type: ignore[override]
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
    @_sahara_errors
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
            from_spec = kind_class.from_spec  # type: ignore[attr-defined]
            if _accepts_package(from_spec):
                built.append(from_spec(value, validator_map, resource_roots, package=package))
            else:
                built.append(from_spec(value, validator_map, resource_roots))
        return built

    @classmethod
    @_sahara_errors
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

    @_sahara_errors
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
        values = _values(image_arguments)
        # Sahara's inner validators read the distribution from image_arguments['distro'].
        given = values.pop(DISTRO_KEY, None)
        values.pop(TEST_ONLY_KEY, None)  # the mode is test_only's argument, as Sahara set it
        distro = given if given is not None else _distro_of(remote)
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
    ) -> bool | ValidationAttemptFailed:
        """``True`` when the validation passes, else a false :class:`ValidationAttemptFailed`."""
        try:
            self.validate(remote, test_only=test_only, image_arguments=image_arguments, **kwargs)
        except ImageValidationError as exc:
            return ValidationAttemptFailed(exc)
        return True


def _values(image_arguments: Any) -> dict[str, Any]:
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
    @_sahara_errors
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


class SaharaImageValidator(SaharaImageValidatorBase, root.ImageSpec):
    """A whole spec; ``arguments`` are this module's mutable :class:`ImageArgument`."""

    def get_argument_list(self) -> list[ImageArgument]:  # type: ignore[override]
        """The declared arguments, the objects themselves (a plugin may change defaults)."""
        return list(self.arguments.values())


#: onespec's kind classes -> this module's.
_SAHARA_SHAPED: dict[type, type] = {
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
        item.__class__ = shaped
        if isinstance(item, SaharaPackageValidator):
            item.packages = tuple(Package(p.name, p.version) for p in item.packages)
        elif isinstance(item, SaharaScriptValidator):
            own = [v for v in item.env_vars if v not in (TEST_ONLY_KEY, DISTRO_KEY)]
            item.env_vars = [TEST_ONLY_KEY, DISTRO_KEY, *own]  # type: ignore[assignment]
        elif isinstance(item, SaharaImageValidator):
            item.arguments = {
                name: ImageArgument._of(argument) for name, argument in item.arguments.items()
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


# --- Instances and plugins ----------------------------------------------------------------------


@_sahara_errors
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
        distro = _distro_of(raw)
        if distro is not None:
            kwargs.setdefault("distro", distro)
        return _cluster.validate_instance(
            remote,
            validators,
            test_only=bool(test_only),
            image_arguments=_values(image_arguments),
            **kwargs,
        )


@_sahara_errors
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
