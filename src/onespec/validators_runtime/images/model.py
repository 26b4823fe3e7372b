"""What an image spec is made of, with no behaviour: the SPI, the node every validator is, the
declared arguments, the warnings, and the vocabulary the loader builds with.

Every other module of the package may import this one and it imports none of them, so the
loader (``spec``), the run (``run``) and the validator kinds (``kinds``) never import each
other in a circle: the loader is handed the classes to build (:class:`Vocabulary`) instead of
importing them.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from onespec.validators_runtime.images.remote import Remote
from onespec.validators_runtime.images.report import Outcome, Step
from onespec.validators_runtime.problems import Location, Problem

#: How a run reports progress: called with each step when its validator has finished.
Progress = Callable[[Step], None]


class ImageValidator(abc.ABC):
    """Validates the image an instance was booted from, through a remote to it (the SPI)."""

    @abc.abstractmethod
    def validate(self, remote: Remote, *args: Any, **kwargs: Any) -> Any:
        """Check the image, fixing what can be fixed when told to.

        Only ``remote`` is common to every implementation. The mode and the argument values
        come by keyword, in the spelling the implementation's signature names: ``reconcile``
        and ``env_map`` (the built-in kinds, which refuse a positional mode) or Sahara's
        ``test_only`` and ``image_arguments``; ``calling.call_custom`` reads the signature to
        choose. A positional flag would mean opposite things to the two, so the SPI names none.

        Raises :class:`~onespec.validators_runtime.images.errors.ImageValidationError` when the
        image does not satisfy the validator (after reconciling, when asked to).
        """


class SpecValidator(ImageValidator):
    """A validator built from image-spec YAML: a node of the spec's tree.

    ``kind`` is the YAML key that selects the class; ``path`` and ``line`` say where in its spec
    a loaded validator was written, for reports and messages. Built-in kinds implement
    :meth:`check`, which the run calls with its context; a custom kind may implement
    ``validate`` instead.
    """

    kind: ClassVar[str] = "validator"
    #: Whether checking it runs code onespec does not control (a script): such a validator is
    #: not run, when only checking, after a validator before it has failed.
    runs_plugin_code: ClassVar[bool] = False
    path: str = ""
    line: int | None = None

    def label(self) -> str:
        """A few words saying what this validator checks, for reports."""
        return ""

    def children(self) -> tuple[ImageValidator, ...]:
        """The validators nested in this one (every case of a case validator)."""
        return ()

    def package_names(self) -> tuple[str, ...]:
        """The packages this validator itself requires (not those nested in it)."""
        return ()

    def walk(self) -> Iterator[ImageValidator]:
        """This validator and every validator nested in it, depth first."""
        yield self
        for child in self.children():
            if isinstance(child, SpecValidator):
                yield from child.walk()
            else:
                yield child

    def packages_within(self) -> list[str]:
        """Every package name this validator and those nested in it mention, once each."""
        names = [
            name
            for item in self.walk()
            if isinstance(item, SpecValidator)
            for name in item.package_names()
        ]
        return list(dict.fromkeys(names))

    def check(self, context: Any, reconcile: bool) -> Outcome:
        """Check (and with ``reconcile`` fix) the image; raise ImageValidationError if unfit.

        ``context`` is the run's :class:`~onespec.validators_runtime.images.run.ValidationContext`.
        """
        raise NotImplementedError


def is_builtin(validator: SpecValidator) -> bool:
    """Whether the run drives ``validator`` through :meth:`SpecValidator.check`."""
    return type(validator).check is not SpecValidator.check


@dataclass(frozen=True)
class ImageArgument:
    """An argument a spec declares: what it means, its default, whether required, its choices."""

    name: str
    description: str = ""
    default: str | None = None
    required: bool = False
    choices: tuple[str, ...] = ()


class SpecWarning(Problem):
    """Something odd in a spec that does not stop it from working: a warning in the shape every
    area reports in, located by file, line and YAML path (``code`` ``spec``, or
    ``duplicate-key`` for a key given twice)."""

    def __init__(
        self, file: str | None, path: str, line: int | None, message: str, code: str = "spec"
    ) -> None:
        super().__init__(
            code, message, "warning", Location(file=file or None, line=line, path=path or None)
        )

    @property
    def file(self) -> str:
        return self.location.file or ""

    @property
    def path(self) -> str:
        return self.location.path or ""

    @property
    def line(self) -> int | None:
        return self.location.line


#: The class of a whole spec a vocabulary builds (what loading a spec file returns).
SpecT = TypeVar("SpecT", bound=SpecValidator)


@dataclass(frozen=True)
class Vocabulary(Generic[SpecT]):
    """The classes the loader builds a spec from, handed to it rather than imported by it.

    ``kinds`` are the built-in validator kinds by YAML key; ``spec`` the class of a whole
    spec (None where only single validators are built); ``argument`` the class of a declared
    argument. Generic in the spec's class, so that a loader handed one returns that class.
    """

    kinds: Mapping[str, type[SpecValidator]]
    spec: type[SpecT] | None = None
    argument: type[ImageArgument] = ImageArgument
