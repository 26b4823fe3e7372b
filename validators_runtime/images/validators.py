"""The validators of an image spec, and the run that visits them.

The public names are the SPI's (so plugin code ports unchanged): :class:`ImageValidator`,
:class:`SaharaImageValidatorBase` with :meth:`~SaharaImageValidatorBase.from_yaml`, the root
:class:`SaharaImageValidator`, and one class per validator kind. Validators are immutable once
loaded; everything a run changes (the environment, the package answers, the report) lives in a
:class:`ValidationContext`, so one loaded spec can validate many instances at once.
"""

from __future__ import annotations

import abc
import hashlib
import inspect
import logging
import re
import shlex
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from onespec.validators_runtime._generated import image_validators as grammar
from onespec.validators_runtime.images.distro import OS_RELEASE_COMMAND, Distro, detect
from onespec.validators_runtime.images.errors import (
    ImageArgumentError,
    ImageValidationError,
    RemoteCommandError,
)
from onespec.validators_runtime.images.packages import (
    MANAGERS,
    Installed,
    Package,
    PackageManager,
    closest_names,
)
from onespec.validators_runtime.images.remote import CommandResult, Remote, RemoteBase
from onespec.validators_runtime.images.report import Outcome, Step, ValidationReport
from onespec.validators_runtime.problems import shown

if TYPE_CHECKING:
    from onespec.validators_runtime.images.spec import SpecWarning

LOG = logging.getLogger(__name__)

_ENV_NAME = re.compile(grammar.PATTERNS["env-name"])
_UNSAFE_FILE_CHARACTERS = re.compile(r"[^A-Za-z0-9._-]+")
#: The private working directory of a run, as ``mktemp -d`` is asked to make it.
_WORKDIR_TEMPLATE = "/tmp/onespec-siv.XXXXXXXX"  # noqa: S108 - on the remote, made by mktemp
#: What its answer must look like: the template's absolute prefix and a plain name.
_WORKDIR = re.compile(r"/tmp/onespec-siv\.[A-Za-z0-9_-]{1,64}")  # noqa: S108

#: How a run reports progress: called with each step when its validator has finished.
Progress = Callable[[Step], None]


# --- The SPI --------------------------------------------------------------------------------------


class ImageValidator(abc.ABC):
    """Validates the image an instance was booted from, through a remote to it."""

    @abc.abstractmethod
    def validate(self, remote: Remote, reconcile: bool = True, **kwargs: Any) -> Any:
        """Check the image, fixing what can be fixed when ``reconcile`` is true.

        Raises :class:`~onespec.validators_runtime.images.errors.ImageValidationError` when the
        image does not satisfy the validator (after reconciling, when asked to).
        """


class SaharaImageValidatorBase(ImageValidator):
    """The validators built from image-spec YAML.

    ``kind`` is the YAML key that selects the class; ``path`` and ``line`` say where in its spec
    a loaded validator was written, for reports and messages.
    """

    kind: ClassVar[str] = "validator"
    path: str = ""
    line: int | None = None

    @classmethod
    def from_yaml(
        cls,
        yaml_path: str | Path,
        validator_map: Mapping[str, type[ImageValidator]] | None = None,
        resource_roots: Sequence[str | Path] | None = None,
    ) -> SaharaImageValidator:
        """Load the spec at ``yaml_path`` into a :class:`SaharaImageValidator`.

        ``validator_map`` adds validator kinds (YAML key -> class with a
        ``from_spec(spec, validator_map, resource_roots)`` class method), overriding built-in
        kinds of the same key. ``resource_roots`` are the directories script paths are relative
        to, searched in order (default: the spec's own directory). Every problem raises
        :class:`~onespec.validators_runtime.images.errors.ImageValidationSpecificationError` naming
        the file, the YAML path and the reason; oddities that do not stop the spec from working
        are warnings, on the returned validator's ``warnings``.
        """
        from onespec.validators_runtime.images.spec import load

        return load(yaml_path, validator_map=validator_map, resource_roots=resource_roots)

    @classmethod
    def from_spec(
        cls,
        spec: Any,
        validator_map: Mapping[str, type[ImageValidator]] | None = None,
        resource_roots: Sequence[str | Path] | None = None,
    ) -> SaharaImageValidatorBase:
        """Build one validator of this class from its YAML value (already parsed)."""
        from onespec.validators_runtime.images.spec import build_one

        return build_one(cls.kind, spec, validator_map=validator_map, resource_roots=resource_roots)

    def label(self) -> str:
        """A few words saying what this validator checks, for reports."""
        return ""

    def children(self) -> tuple[ImageValidator, ...]:
        """The validators nested in this one (every case of a case validator)."""
        return ()

    def walk(self) -> Iterator[ImageValidator]:
        """This validator and every validator nested in it, depth first."""
        yield self
        for child in self.children():
            if isinstance(child, SaharaImageValidatorBase):
                yield from child.walk()
            else:
                yield child

    def check(self, context: ValidationContext, reconcile: bool) -> Outcome:
        """Check (and with ``reconcile`` fix) the image; raise ImageValidationError if unfit.

        Built-in kinds implement this; a custom kind may implement :meth:`validate` instead.
        """
        raise NotImplementedError

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
        """Validate this validator alone (with what it contains) through ``remote``.

        Returns the report; raises ImageValidationError, with the report attached, on failure.
        Takes the keyword arguments of ``SaharaImageValidator.validate``.
        """
        refuse_positional("validate", positional)
        return run(
            self,
            remote,
            reconcile=resolve_mode(reconcile, test_only),
            env={str(k): str(v) for k, v in resolve_env(env_map, image_arguments).items()},
            distro=distro,
            progress=progress,
            timeout=timeout,
            copy_destination=copy_destination,
        )


# --- How a validation is called -------------------------------------------------------------------

#: Sahara's plugins pass ``test_only``; the blueprint says ``reconcile``. A positional mode would
#: mean opposite things to the two, so it is taken by keyword only.
_POSITIONAL_MODE = (
    "takes the mode by keyword only: reconcile=True/False or test_only=True/False "
    "(a positional flag meant test_only to Sahara and reconcile to the blueprint: the opposite)"
)


def resolve_mode(reconcile: bool | None, test_only: bool | None, *, default: bool = True) -> bool:
    """Whether to reconcile, from either spelling; ``default`` when neither is given.

    Both given and contradicting is a TypeError: guessing which one was meant could turn a
    check into a change.
    """
    if reconcile is not None and test_only is not None and bool(reconcile) == bool(test_only):
        raise TypeError(
            f"reconcile={reconcile!r} and test_only={test_only!r} contradict each other; give one"
        )
    if reconcile is not None:
        return bool(reconcile)
    if test_only is not None:
        return not test_only
    return default


def resolve_env(
    env_map: Mapping[str, Any] | None, image_arguments: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The argument values, given as ``env_map`` or (Sahara's name) ``image_arguments``."""
    if (
        env_map is not None
        and image_arguments is not None
        and dict(env_map) != dict(image_arguments)
    ):
        raise TypeError("env_map and image_arguments are the same thing: give one of them")
    return dict(env_map if env_map is not None else image_arguments or {})


def refuse_positional(function: str, positional: Sequence[Any]) -> None:
    """Raise the TypeError for a mode (or anything) passed positionally after the remote."""
    if positional:
        raise TypeError(f"{function}() {_POSITIONAL_MODE}; got {len(positional)} positional")


def call_custom(
    validator: ImageValidator,
    remote: Remote,
    *,
    reconcile: bool,
    env: Mapping[str, Any],
    distro: str | None = None,
) -> Any:
    """Call a custom validator's ``validate`` with the keywords its signature takes.

    A validator written for Sahara takes ``test_only`` and ``image_arguments``, one written for
    the blueprint ``reconcile`` and ``env_map``; one taking only ``**kwargs`` gets both
    spellings (they agree). A keyword it does not name is never passed when it names the other
    spelling: it would land in ``**kwargs`` while the mode it did name kept its default -- a
    check turned into a change.
    """
    try:
        parameters = inspect.signature(validator.validate).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        parameters = {}  # type: ignore[assignment]
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    offered: dict[str, Any] = {
        "reconcile": reconcile,
        "test_only": not reconcile,
        "env_map": dict(env),
        # Sahara's validators read the distribution from image_arguments["distro"].
        "image_arguments": {**env, "distro": distro} if distro else dict(env),
        "distro": distro,
    }
    named = {name for name in offered if name in parameters}
    for spellings in (("reconcile", "test_only"), ("env_map", "image_arguments")):
        if takes_any and not named.intersection(spellings):
            named.update(spellings)
    if takes_any:
        named.add("distro")
    if not named & {"reconcile", "test_only"}:
        raise ImageValidationError(
            f"{type(validator).__name__}.validate takes neither reconcile nor test_only: it "
            "cannot be told whether it may change the image"
        )
    return validator.validate(remote, **{name: offered[name] for name in named})


# --- The run --------------------------------------------------------------------------------------


class _RecordingRemote(RemoteBase):
    """The remote as validators see it: every command lands in the running step.

    Leaving a ``with`` block does not close it: the run owns the connection.
    """

    def __init__(self, context: ValidationContext) -> None:
        self._context = context

    def execute_command(
        self,
        cmd: str,
        run_as_root: bool = False,
        raise_when_error: bool = True,
        timeout: float | None = None,
    ) -> CommandResult:
        return self._context.execute(
            cmd, run_as_root=run_as_root, raise_when_error=raise_when_error, timeout=timeout
        )

    def write_file(self, path: str, data: bytes | str, mode: int = 0o644) -> None:
        self._context.write_file(path, data, mode)

    def close(self) -> None:
        """The run owns the connection; validators do not close it."""


@dataclass
class _Frame:
    step: Step
    index: int


class ValidationContext:
    """The state of one validation run: remote, environment, distribution, package answers.

    Validators record what they do through it: each command is logged in the step of the
    validator that runs it, and each finished step is passed to ``progress``.
    """

    def __init__(
        self,
        remote: Remote,
        *,
        report: ValidationReport,
        env: dict[str, str],
        distro: Distro,
        packages: Sequence[str] = (),
        progress: Progress | None = None,
        timeout: float | None = None,
        copy_destination: str = grammar.COPY_DESTINATION,
    ) -> None:
        self.target = remote
        self.remote = _RecordingRemote(self)
        self.report = report
        self.env = env
        self.distro = distro
        self.progress = progress
        self.timeout = timeout
        self.copy_destination = copy_destination.rstrip("/") or "/"
        self._spec_packages = tuple(dict.fromkeys(packages))
        self._installed: Installed | None = None
        self._known_names: frozenset[str] | None = None
        self._queried: frozenset[str] = frozenset()
        self._stack: list[_Frame] = []
        self._workdir: str | None = None
        self._staged: dict[int, str] = {}
        #: How many enclosing lists have had a failure (see :meth:`run_all`).
        self._blocked = 0

    # Commands ----------------------------------------------------------------------------------

    def _record(self, text: str) -> None:
        if self._workdir:
            text = text.replace(self._workdir, "<workdir>")
        if self._stack:
            self._stack[-1].step.commands.append(text)
        else:
            self.report.setup.append(text)

    def execute(
        self,
        cmd: str,
        *,
        run_as_root: bool = False,
        raise_when_error: bool = False,
        timeout: float | None = None,
    ) -> CommandResult:
        """Run ``cmd`` on the remote and record it in the current step."""
        self._record(cmd)
        return self.target.execute_command(
            cmd,
            run_as_root=run_as_root,
            raise_when_error=raise_when_error,
            timeout=timeout if timeout is not None else self.timeout,
        )

    def write_file(self, path: str, data: bytes | str, mode: int = 0o644) -> None:
        """Write a file on the remote and record it (as ``write_file PATH``)."""
        self._record(f"write_file {shlex.quote(path)}")
        self.target.write_file(path, data, mode)

    def workdir(self) -> str:
        """A private directory on the remote for this run's scripts, made on first use."""
        if self._workdir is None:
            code, stdout, stderr = self.execute(f"mktemp -d {_WORKDIR_TEMPLATE}")
            answer = stdout.strip()
            if code != 0:
                raise ImageValidationError(f"cannot make a working directory: {stderr.strip()}")
            if not _WORKDIR.fullmatch(answer):
                # Everything later (chmod, rm -rf) acts on this path: an empty, relative or
                # unexpected answer from the remote is refused before anything uses it.
                raise ImageValidationError(
                    f"mktemp -d answered {shown(answer)}, not a directory like "
                    f"{_WORKDIR_TEMPLATE}: refusing to write scripts there or remove it"
                )
            self._workdir = answer
        return self._workdir

    def stage(self, validator: ImageValidator, name: str, body: bytes) -> str:
        """Write a script's text to the working directory (once per run); return its path."""
        key = id(validator)
        if key not in self._staged:
            safe = _UNSAFE_FILE_CHARACTERS.sub("_", name).strip("._") or "script"
            path = f"{self.workdir()}/{len(self._staged):03d}-{safe[-64:]}.sh"
            self.write_file(path, body, 0o700)
            self._staged[key] = path
        return self._staged[key]

    def cleanup(self) -> None:
        """Remove the working directory, if one was made."""
        if self._workdir is not None:
            self.execute(f"rm -rf -- {shlex.quote(self._workdir)}")
            self._workdir = None

    # Packages ----------------------------------------------------------------------------------

    def package_manager(self) -> PackageManager:
        """The package tools of the instance's family; an unknown family cannot be checked."""
        manager = MANAGERS.get(self.distro.family or "")
        if manager is None:
            raise ImageValidationError(
                f"cannot check packages on {self.distro.name}: its package manager is unknown "
                "(known families: debian, redhat)"
            )
        return manager

    def installed(self, names: Sequence[str], *, refresh: bool = False) -> Installed:
        """What the package database says of ``names``.

        The first question asks about every package the spec names, in one command; the answer
        serves every later question until something may have changed the database.
        """
        if refresh or self._installed is None or not self._queried.issuperset(names):
            manager = self.package_manager()
            query = sorted({*self._spec_packages, *names})
            code, stdout, stderr = self.execute(manager.query_command(query))
            if not manager.query_ok(code):
                raise ImageValidationError(
                    f"querying the package database failed ({code}): {stderr.strip()}"
                )
            self._installed = manager.parse(stdout)
            self._queried = frozenset(query)
        return self._installed

    def package_guesses(self, names: Sequence[str]) -> dict[str, str]:
        """What each missing package name probably meant, asked only once something failed.

        One more command, on the failure path only and once a run, so passing specs cost
        nothing more.
        """
        if self._known_names is None:
            code, stdout, _ = self.execute(self.package_manager().names_command())
            self._known_names = frozenset(stdout.split()) if code == 0 else frozenset()
        return closest_names(names, self._known_names)

    def forget_packages(self) -> None:
        """Something may have installed or removed packages: ask again next time."""
        self._installed = None

    # Visiting ----------------------------------------------------------------------------------

    def visit(self, validator: ImageValidator, reconcile: bool) -> Outcome:
        """Run one validator as a step of the report, and return its outcome."""
        if self._blocked and not reconcile and _may_change_when_checking(validator):
            self.skip(
                validator,
                reconcile,
                "not run: an earlier validator failed, and a script asked only to check may "
                "still change the image",
            )
            return Outcome.SKIPPED
        step = self._open(validator, reconcile)
        started = time.perf_counter()
        try:
            if isinstance(validator, SaharaImageValidatorBase) and _is_builtin(validator):
                outcome = validator.check(self, reconcile)
            else:
                outcome = self._custom(validator, reconcile)
        except ImageValidationError as exc:
            outcome = Outcome.FAILED
            step.detail = step.detail or str(exc)
        except RemoteCommandError as exc:
            outcome = Outcome.FAILED
            step.detail = str(exc)
        finally:
            step.seconds = time.perf_counter() - started
            self._stack.pop()
        step.outcome = outcome
        if self.progress is not None:
            self.progress(step)
        return outcome

    def _open(self, validator: ImageValidator, reconcile: bool) -> Step:
        parent = self._stack[-1].index if self._stack else None
        step = Step(
            path=getattr(validator, "path", "") or type(validator).__name__,
            kind=getattr(validator, "kind", type(validator).__name__),
            label=validator.label() if isinstance(validator, SaharaImageValidatorBase) else "",
            reconcile=reconcile,
            line=getattr(validator, "line", None),
            parent=parent,
            depth=len(self._stack),
        )
        self.report.steps.append(step)
        self._stack.append(_Frame(step, len(self.report.steps) - 1))
        return step

    def skip(self, validator: ImageValidator, reconcile: bool, why: str) -> None:
        """Record a validator that was not run."""
        step = self._open(validator, reconcile)
        self._stack.pop()
        step.outcome = Outcome.SKIPPED
        step.detail = why
        if self.progress is not None:
            self.progress(step)

    def note(self, text: str) -> None:
        """Add to the running step's detail."""
        if self._stack:
            step = self._stack[-1].step
            step.detail = f"{step.detail}; {text}" if step.detail else text

    def _custom(self, validator: ImageValidator, reconcile: bool) -> Outcome:
        """A validator of a custom kind: its seed-shaped ``validate`` decides."""
        result = call_custom(
            validator, self.remote, reconcile=reconcile, env=self.env, distro=self.distro.name
        )
        self.forget_packages()  # it may have changed anything
        if isinstance(result, Outcome):
            return result
        if result is False:
            raise ImageValidationError(f"{type(validator).__name__} reported failure")
        return Outcome.PASSED

    def run_all(self, validators: Sequence[ImageValidator], reconcile: bool) -> Outcome:
        """Visit ``validators`` in order, up to a failure when fixing.

        When only checking, the checks onespec makes itself (packages, copied files) go on
        after a failure, so the report lists every missing package; scripts and custom kinds
        after it do not run (:meth:`visit`), as they did not on Sahara, because a shipped
        script asked only to check may still change the image.
        """
        outcomes: list[Outcome] = []
        blocked = False
        try:
            for validator in validators:
                if reconcile and Outcome.FAILED in outcomes:
                    self.skip(validator, reconcile, "not run: an earlier validator failed")
                    continue
                outcomes.append(self.visit(validator, reconcile))
                if Outcome.FAILED in outcomes and not blocked:
                    blocked = True
                    self._blocked += 1
        finally:
            self._blocked -= blocked
        return combine(outcomes)


def combine(outcomes: Sequence[Outcome]) -> Outcome:
    """The outcome of a group: failed > reconciled > passed > skipped; empty is passed."""
    for outcome in (Outcome.FAILED, Outcome.RECONCILED, Outcome.PASSED):
        if outcome in outcomes:
            return outcome
    return Outcome.SKIPPED if outcomes else Outcome.PASSED


def _may_change_when_checking(validator: ImageValidator) -> bool:
    """Whether running ``validator`` in check mode may run code onespec does not control."""
    if isinstance(validator, SaharaScriptValidator):
        return True
    return not (isinstance(validator, SaharaImageValidatorBase) and _is_builtin(validator))


def _is_builtin(validator: SaharaImageValidatorBase) -> bool:
    return type(validator).check is not SaharaImageValidatorBase.check


def run(
    validator: SaharaImageValidatorBase,
    remote: Remote,
    *,
    reconcile: bool,
    env: dict[str, str],
    spec: str = "",
    packages: Sequence[str] | None = None,
    warnings: Sequence[str] = (),
    distro: Distro | str | None = None,
    progress: Progress | None = None,
    timeout: float | None = None,
    copy_destination: str = grammar.COPY_DESTINATION,
) -> ValidationReport:
    """Validate ``validator`` through ``remote``; see ``SaharaImageValidator.validate``."""
    started = time.perf_counter()
    target = getattr(remote, "target", type(remote).__name__)
    report = ValidationReport(
        spec=spec or validator.path or validator.kind,
        target=str(target),
        distro="",
        reconcile=reconcile,
        warnings=list(warnings),
    )
    if packages is None:
        packages = [
            package.name
            for item in validator.walk()
            if isinstance(item, SaharaPackageValidator)
            for package in item.packages
        ]
    if isinstance(distro, str):
        distro = Distro.named(distro)
    if distro is None:
        report.setup.append(OS_RELEASE_COMMAND)
        distro = detect(remote, timeout=timeout)
    report.distro = str(distro)
    context = ValidationContext(
        remote,
        report=report,
        env=env,
        distro=distro,
        packages=packages,
        progress=progress,
        timeout=timeout,
        copy_destination=copy_destination,
    )
    try:
        report.outcome = context.visit(validator, reconcile)
    finally:
        try:
            context.cleanup()
        finally:
            report.seconds = time.perf_counter() - started
    if report.outcome is Outcome.FAILED:
        reasons = "; ".join(f"{s.path}: {s.detail}" for s in report.failures) or "see the report"
        raise ImageValidationError(
            f"{report.spec} failed on {report.target}: {reasons}", report=report
        )
    return report


# --- Validator kinds ------------------------------------------------------------------------------


class SaharaPackageValidator(SaharaImageValidatorBase):
    """``package``: packages are installed, at an exact version where one is given."""

    kind = "package"

    def __init__(self, packages: Sequence[Package]) -> None:
        if not packages:
            raise ValueError("a package validator needs at least one package")
        self.packages = tuple(packages)

    def label(self) -> str:
        return " ".join(str(package).replace(" ", "=") for package in self.packages)

    def _missing(self, manager: PackageManager, installed: Installed) -> list[Package]:
        return [p for p in self.packages if not manager.satisfied(p, installed.get(p.name, ()))]

    @staticmethod
    def _describe(
        missing: Sequence[Package], installed: Installed, guesses: Mapping[str, str] | None = None
    ) -> str:
        guesses = guesses or {}
        absent = [
            f"{p.name} (did you mean {guesses[p.name]}?)" if p.name in guesses else p.name
            for p in missing
            if not installed.get(p.name)
        ]
        other = [
            f"{p.name} ({', '.join(installed[p.name])} installed, {p.version} required)"
            for p in missing
            if installed.get(p.name)
        ]
        parts = []
        if absent:
            parts.append(f"not installed: {', '.join(absent)}")
        if other:
            parts.append(f"at another version: {', '.join(other)}")
        return "; ".join(parts)

    def check(self, context: ValidationContext, reconcile: bool) -> Outcome:
        manager = context.package_manager()
        names = [p.name for p in self.packages]
        installed = context.installed(names)
        missing = self._missing(manager, installed)
        if not missing:
            return Outcome.PASSED
        if not reconcile:
            guesses = context.package_guesses([p.name for p in missing])
            raise ImageValidationError(self._describe(missing, installed, guesses))
        code, _, stderr = context.execute(
            manager.install_command(missing), run_as_root=True, timeout=context.timeout
        )
        context.forget_packages()
        if code != 0:
            last = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit status {code}"
            guesses = context.package_guesses([p.name for p in missing])
            hint = "".join(f"; did you mean {guesses[n]} for {n}?" for n in sorted(guesses))
            raise ImageValidationError(
                f"installing {', '.join(map(str, missing))} failed: {last}{hint}"
            )
        installed = context.installed(names, refresh=True)
        still = self._missing(manager, installed)
        if still:
            raise ImageValidationError(
                f"still missing after installing: {self._describe(still, installed)}"
            )
        return Outcome.RECONCILED


class SaharaScriptValidator(SaharaImageValidatorBase):
    """``script``: a bash script exits 0, run once in the mode of the validation."""

    kind = "script"

    def __init__(
        self,
        script_contents: bytes | str,
        env_vars: Sequence[str] = (),
        output_var: str | None = None,
        *,
        name: str = "script",
        source: str | None = None,
    ) -> None:
        self.script_contents = (
            script_contents.encode("utf-8") if isinstance(script_contents, str) else script_contents
        )
        self.env_vars = tuple(env_vars)
        self.output_var = output_var
        self.name = name
        self.source = source
        for variable in (*self.env_vars, *([output_var] if output_var else [])):
            if not _ENV_NAME.fullmatch(variable):
                raise ValueError(f"{variable!r} is not a shell variable name")

    def label(self) -> str:
        return self.name

    def environment(self, context: ValidationContext, reconcile: bool) -> dict[str, str]:
        """The variables the script receives: the reserved ones, then its env_vars."""
        env = {
            "SIV_DISTRO": context.distro.name,
            "SIV_RECONCILE": "1" if reconcile else "0",
            "distro": context.distro.name,
            "test_only": "0" if reconcile else "1",
            "reconcile": "1" if reconcile else "0",
        }
        for name in self.env_vars:
            # A reserved name (Sahara's scripts list test_only and distro) keeps the run's value:
            # a value given for test_only must never tell a script to change a checked image.
            if name in context.env and name not in grammar.RESERVED_VARIABLES:
                env[name] = context.env[name]
        return env

    def command(self, path: str, env: Mapping[str, str]) -> str:
        """``env NAME=VALUE ... bash PATH``, every value quoted."""
        assignments = " ".join(f"{name}={shlex.quote(value)}" for name, value in env.items())
        return f"env {assignments} bash {shlex.quote(path)}"

    def _attempt(self, context: ValidationContext, path: str, reconcile: bool) -> CommandResult:
        return context.execute(
            self.command(path, self.environment(context, reconcile)),
            run_as_root=True,
            timeout=context.timeout,
        )

    def check(self, context: ValidationContext, reconcile: bool) -> Outcome:
        unset = [
            name
            for name in self.env_vars
            if name not in context.env and name not in grammar.RESERVED_VARIABLES
        ]
        if unset:
            context.note(f"not set (no value given): {', '.join(unset)}")
        path = context.stage(self, self.name, self.script_contents)
        # One run, in the mode of the validation, as Sahara's contract runs a script. Asked
        # only to check, most shipped scripts exit 0 because they cannot check: a check run
        # first would take that 0 for "nothing to fix" and never run the fix.
        try:
            code, stdout, stderr = self._attempt(context, path, reconcile)
        finally:
            context.forget_packages()
        if reconcile:
            context.note("ran to fix (test_only=0)")
        outcome = Outcome.RECONCILED if reconcile else Outcome.PASSED
        if code != 0:
            last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
            raise ImageValidationError(f"{self.name} exited {code}" + (f": {last}" if last else ""))
        if self.output_var:
            if "\0" in stdout:
                raise ImageValidationError(
                    f"{self.name} printed a NUL character: its output cannot become "
                    f"{self.output_var}, which no environment variable can carry"
                )
            context.env[self.output_var] = stdout.rstrip("\n")
        return outcome


class SaharaCopyScriptValidator(SaharaImageValidatorBase):
    """``copy_script``: a file is on the instance, in /tmp, for the scripts that follow."""

    kind = "copy_script"

    def __init__(self, script_contents: bytes | str, script_name: str) -> None:
        self.script_contents = (
            script_contents.encode("utf-8") if isinstance(script_contents, str) else script_contents
        )
        if not script_name or "/" in script_name or script_name in {".", ".."}:
            raise ValueError(f"{script_name!r} is not a file name")
        self.script_name = script_name

    def label(self) -> str:
        return self.script_name

    def check(self, context: ValidationContext, reconcile: bool) -> Outcome:
        destination = f"{context.copy_destination}/{self.script_name}"
        wanted = hashlib.sha256(self.script_contents).hexdigest()
        code, stdout, _ = context.execute(
            f"sha256sum -- {shlex.quote(destination)} 2>/dev/null", run_as_root=True
        )
        if code == 0 and stdout.split()[:1] == [wanted]:
            return Outcome.PASSED
        if not reconcile:
            state = "differs from the spec's" if code == 0 else "is not there"
            raise ImageValidationError(
                f"{destination} {state}; it is written only when reconciling"
            )
        context.write_file(destination, self.script_contents, 0o644)
        context.forget_packages()
        return Outcome.RECONCILED


class SaharaAggregateValidator(SaharaImageValidatorBase):
    """A list of validators."""

    def __init__(self, validators: Sequence[ImageValidator]) -> None:
        self.validators = tuple(validators)

    def children(self) -> tuple[ImageValidator, ...]:
        return self.validators


class SaharaAllValidator(SaharaAggregateValidator):
    """``all``: every validator of the list passes."""

    kind = "all"

    def check(self, context: ValidationContext, reconcile: bool) -> Outcome:
        return context.run_all(self.validators, reconcile)


class SaharaAnyValidator(SaharaAggregateValidator):
    """``any``: one validator of the list passes; reconciling tries each in turn."""

    kind = "any"

    def check(self, context: ValidationContext, reconcile: bool) -> Outcome:
        for validator in self.validators:
            if context.visit(validator, False) is not Outcome.FAILED:
                return Outcome.PASSED
        if not reconcile:
            raise ImageValidationError(f"none of the {len(self.validators)} alternatives passed")
        LOG.warning(
            "%s: no alternative passed; reconciling each in turn. An alternative that fails "
            "half-way may leave changes behind.",
            self.path or "any",
        )
        context.note("no alternative passed as it was; reconciled in turn")
        for validator in self.validators:
            outcome = context.visit(validator, True)
            if outcome is not Outcome.FAILED:
                return Outcome.RECONCILED if outcome is Outcome.RECONCILED else Outcome.PASSED
        raise ImageValidationError(
            f"none of the {len(self.validators)} alternatives passed, even reconciled"
        )


class SaharaOSCaseValidator(SaharaImageValidatorBase):
    """``os_case``: the validators of the first case naming the instance's distribution."""

    kind = "os_case"

    def __init__(self, cases: Sequence[tuple[str, Sequence[ImageValidator]]]) -> None:
        self.cases = tuple((name, tuple(validators)) for name, validators in cases)

    def children(self) -> tuple[ImageValidator, ...]:
        return tuple(v for _, validators in self.cases for v in validators)

    def label(self) -> str:
        return " | ".join(name for name, _ in self.cases)

    def check(self, context: ValidationContext, reconcile: bool) -> Outcome:
        for name, validators in self.cases:
            if context.distro.matches(name):
                context.note(f"case {name}")
                return context.run_all(validators, reconcile)
        context.note(f"no case for {context.distro.name}")
        return Outcome.SKIPPED


class SaharaArgumentCaseValidator(SaharaImageValidatorBase):
    """``argument_case``: the validators of the case equal to an argument's value."""

    kind = "argument_case"

    def __init__(self, argument_name: str, cases: Mapping[str, Sequence[ImageValidator]]) -> None:
        self.argument_name = argument_name
        self.cases = {value: tuple(validators) for value, validators in cases.items()}

    def children(self) -> tuple[ImageValidator, ...]:
        return tuple(v for validators in self.cases.values() for v in validators)

    def label(self) -> str:
        return self.argument_name

    def check(self, context: ValidationContext, reconcile: bool) -> Outcome:
        if self.argument_name not in context.env:
            raise ImageValidationError(f"argument {self.argument_name} has no value")
        value = context.env[self.argument_name]
        validators = self.cases.get(value)
        if validators is None:
            context.note(f"no case for {self.argument_name}={value}")
            return Outcome.SKIPPED
        context.note(f"case {self.argument_name}={value}")
        return context.run_all(validators, reconcile)


class SaharaArgumentSetterValidator(SaharaImageValidatorBase):
    """``argument_set``: an argument takes a value for the validators that follow."""

    kind = "argument_set"

    def __init__(self, argument_name: str, value: str) -> None:
        self.argument_name = argument_name
        self.value = value

    def label(self) -> str:
        return f"{self.argument_name}={self.value}"

    def check(self, context: ValidationContext, reconcile: bool) -> Outcome:
        context.env[self.argument_name] = self.value
        return Outcome.PASSED


# --- The root -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImageArgument:
    """An argument a spec declares: what it means, its default, whether required, its choices."""

    name: str
    description: str = ""
    default: str | None = None
    required: bool = False
    choices: tuple[str, ...] = ()

    @classmethod
    def from_spec(cls, spec: Any) -> dict[str, ImageArgument]:
        """The arguments of a spec's ``arguments`` mapping (parsed YAML), by name.

        Sahara's constructor; the same checks as loading a spec, errors located at
        ``arguments.NAME``.
        """
        from onespec.validators_runtime.images.spec import SpecLoader

        return SpecLoader(None).argument_section(spec, ("arguments",))


class SaharaImageValidator(SaharaImageValidatorBase):
    """A whole spec: its arguments and its validators (all of which must pass)."""

    kind = "spec"

    def __init__(
        self,
        validator: SaharaAllValidator,
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
        names = [
            package.name
            for item in self.walk()
            if isinstance(item, SaharaPackageValidator)
            for package in item.packages
        ]
        return list(dict.fromkeys(names))

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
            warnings=[str(w) for w in self.warnings],
            distro=distro,
            progress=progress,
            timeout=timeout,
            copy_destination=copy_destination,
        )


#: The built-in kinds by YAML key; ``validator_map`` adds to (and may override) them.
DEFAULT_VALIDATOR_MAP: dict[str, type[SaharaImageValidatorBase]] = {
    cls.kind: cls
    for cls in (
        SaharaPackageValidator,
        SaharaScriptValidator,
        SaharaCopyScriptValidator,
        SaharaAnyValidator,
        SaharaAllValidator,
        SaharaOSCaseValidator,
        SaharaArgumentCaseValidator,
        SaharaArgumentSetterValidator,
    )
}
