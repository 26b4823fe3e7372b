"""The root of an image spec: its declared arguments and its validators, all of which must pass.

:class:`ImageSpec` is what :meth:`ImageSpec.from_yaml` returns and what a plugin validates
instances with; it resolves the argument values of a run (given, default, required, choices)
before anything runs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from onespec.validators_runtime._generated import image_validators as grammar
from onespec.validators_runtime.images.calling import (
    refuse_positional,
    resolve_env,
    resolve_mode,
)
from onespec.validators_runtime.images.distro import Distro
from onespec.validators_runtime.images.errors import ImageArgumentError
from onespec.validators_runtime.images.kinds import DEFAULT_VALIDATOR_MAP, AllValidator, SpecKind
from onespec.validators_runtime.images.model import ImageArgument as ArgumentDeclaration
from onespec.validators_runtime.images.model import (
    ImageValidator,
    Progress,
    SpecWarning,
    Vocabulary,
)
from onespec.validators_runtime.images.remote import Remote
from onespec.validators_runtime.images.report import Outcome, ValidationReport
from onespec.validators_runtime.images.run import ValidationContext, run
from onespec.validators_runtime.images.spec import SpecLoader, build_one
from onespec.validators_runtime.images.spec import load as load_with
from onespec.validators_runtime.images.spec import loads as loads_with

_ENV_NAME = re.compile(grammar.PATTERNS["env-name"])


class ImageArgument(ArgumentDeclaration):
    """An argument a spec declares, with the constructor that reads one from parsed YAML."""

    @classmethod
    def from_spec(cls, spec: Any) -> dict[str, ImageArgument]:
        """The arguments of a spec's ``arguments`` mapping (parsed YAML), by name.

        The same checks as loading a spec, errors located at ``arguments.NAME``.
        """
        built = SpecLoader(None, vocabulary=vocabulary()).argument_section(spec, ("arguments",))
        # Built by vocabulary(), whose argument class is this one.
        return built  # type: ignore[return-value]


def vocabulary(spec_class: type[ImageSpec] | None = None) -> Vocabulary[ImageSpec]:
    """What the loader builds a whole spec from: the built-in kinds, ``spec_class`` (by
    default :class:`ImageSpec`) and :class:`ImageArgument`."""
    return Vocabulary(DEFAULT_VALIDATOR_MAP, spec_class or ImageSpec, ImageArgument)


class ImageSpec(SpecKind):
    """A whole spec: its arguments and its validators (all of which must pass)."""

    kind = "spec"

    def __init__(
        self,
        validator: AllValidator,
        arguments: Mapping[str, ImageArgument] | None = None,
        *,
        file: str = "",
        warnings: Sequence[SpecWarning] = (),
    ) -> None:
        self.validator = validator
        self.validators = validator.validators
        self.arguments = dict(arguments or {})
        self.file = file
        self.path = file
        self.warnings = tuple(warnings)

    def children(self) -> tuple[ImageValidator, ...]:
        return (self.validator,)

    def get_argument_list(self) -> list[ImageArgument]:
        """The declared arguments, in the spec's order."""
        return list(self.arguments.values())

    def packages(self) -> list[str]:
        """Every package name the spec mentions, in order, once each."""
        return self.packages_within()

    @classmethod
    def from_yaml(
        cls,
        yaml_path: str | Path,
        validator_map: Mapping[str, type[ImageValidator]] | None = None,
        resource_roots: Sequence[str | Path] | None = None,
    ) -> ImageSpec:
        """Load the spec at ``yaml_path``.

        ``validator_map`` adds validator kinds (YAML key -> class with a
        ``from_spec(spec, validator_map, resource_roots)`` class method), overriding built-in
        kinds of the same key. ``resource_roots`` are the directories script paths are relative
        to, searched in order (default: the spec's own directory). Every problem raises
        :class:`~onespec.validators_runtime.images.errors.ImageValidationSpecificationError` naming
        the file, the YAML path and the reason; oddities that do not stop the spec from working
        are warnings, on the returned validator's ``warnings``.
        """
        return load_with(
            yaml_path,
            vocabulary=vocabulary(cls),
            validator_map=validator_map,
            resource_roots=resource_roots,
        )

    @classmethod
    def from_spec(
        cls,
        spec: Any,
        validator_map: Mapping[str, type[ImageValidator]] | None = None,
        resource_roots: Sequence[str | Path] | None = None,
    ) -> ImageSpec:
        """A whole spec from its parsed YAML, as :meth:`from_yaml` from a file."""
        # The spec's own kind builds the vocabulary's spec class, cls.
        return build_one(  # type: ignore[return-value]
            cls.kind,
            spec,
            vocabulary=vocabulary(cls),
            validator_map=validator_map,
            resource_roots=resource_roots,
        )

    def resolve_arguments(self, env_map: Mapping[str, Any] | None) -> dict[str, str]:
        """The environment of a run: declared arguments (given or default), then the rest.

        Raises :class:`~onespec.validators_runtime.images.errors.ImageArgumentError` for a required
        argument without a value, a value not among an argument's choices, or a name that is
        not a shell variable name.
        """
        given = {str(k): "" if v is None else str(v) for k, v in (env_map or {}).items()}
        for name, value in given.items():
            if "\0" in value:
                raise ImageArgumentError(
                    f"the value of {name} contains a NUL character, which no environment "
                    "variable can carry",
                    name=name,
                    value=value,
                )
            if not _ENV_NAME.fullmatch(name):
                raise ImageArgumentError(f"{name!r} is not a shell variable name", name=name)
            if name in grammar.RESERVED_VARIABLES:
                raise ImageArgumentError(
                    f"{name} is set by the validation itself and cannot be given", name=name
                )
        env: dict[str, str] = {}
        for name, argument in self.arguments.items():
            if name in given:
                value = given[name]
                if argument.choices and value not in argument.choices:
                    raise ImageArgumentError(
                        f"argument {name} must be one of {', '.join(argument.choices)}, "
                        f"not {value!r}",
                        name=name,
                        value=value,
                    )
                env[name] = value
            elif argument.required:
                raise ImageArgumentError(f"argument {name} is required", name=name)
            elif argument.default is not None:
                env[name] = argument.default
        for name, value in given.items():
            env.setdefault(name, value)
        return env

    def check(self, context: ValidationContext, reconcile: bool) -> Outcome:
        return context.visit(self.validator, reconcile)

    def validate(
        self,
        remote: Remote,
        *positional: Any,
        reconcile: bool | None = None,
        test_only: bool | None = None,
        env_map: Mapping[str, Any] | None = None,
        image_arguments: Mapping[str, Any] | None = None,
        distro: Distro | str | None = None,
        progress: Progress | None = None,
        timeout: float | None = None,
        copy_destination: str = grammar.COPY_DESTINATION,
    ) -> ValidationReport:
        """Validate the image behind ``remote`` against the whole spec.

        The mode is a keyword: ``reconcile`` (default true) or, as Sahara spelled it,
        ``test_only`` (its negation); both given and contradicting is a TypeError, and so is a
        positional mode. ``env_map`` (or Sahara's ``image_arguments``) gives argument values
        (and any other variable scripts may name). ``distro`` (a name, to skip reading
        os-release), ``progress`` (called with each finished
        :class:`~onespec.validators_runtime.images.report.Step`), ``timeout`` (seconds per command),
        ``copy_destination`` (where copy_script writes; /tmp by default). Any other keyword is
        a TypeError naming it.

        Returns the :class:`~onespec.validators_runtime.images.report.ValidationReport`; raises
        :class:`~onespec.validators_runtime.images.errors.ImageValidationError` (with the report)
        when the image fails, and ImageArgumentError for bad arguments, before anything runs.
        """
        refuse_positional("validate", positional)
        mode = resolve_mode(reconcile, test_only)
        env = self.resolve_arguments(resolve_env(env_map, image_arguments))
        return run(
            self.validator,
            remote,
            reconcile=mode,
            env=env,
            spec=self.file or "spec",
            packages=self.packages(),
            warnings=list(self.warnings),
            distro=distro,
            progress=progress,
            timeout=timeout,
            copy_destination=copy_destination,
        )


def load(
    yaml_path: str | Path,
    *,
    validator_map: Mapping[str, type[ImageValidator]] | None = None,
    resource_roots: Sequence[str | Path] | None = None,
) -> ImageSpec:
    """Load a spec file into an :class:`ImageSpec` (:meth:`ImageSpec.from_yaml`)."""
    return ImageSpec.from_yaml(yaml_path, validator_map, resource_roots)


def loads(
    text: str,
    *,
    file: str = "<spec>",
    validator_map: Mapping[str, type[ImageValidator]] | None = None,
    resource_roots: Sequence[str | Path] = (),
) -> ImageSpec:
    """Load a spec from its text into an :class:`ImageSpec`."""
    return loads_with(
        text,
        file=file,
        vocabulary=vocabulary(),
        validator_map=validator_map,
        resource_roots=resource_roots,
    )
