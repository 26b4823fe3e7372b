"""The run: one validation of one instance, and the context validators record it through.

Validators are immutable once loaded; everything a run changes (the environment, the package
answers, the report) lives in a :class:`ValidationContext`, so one loaded spec can validate many
instances at once.
"""

from __future__ import annotations

import re
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass

from onespec.validators_runtime._generated import image_validators as grammar
from onespec.validators_runtime.images.calling import call_custom
from onespec.validators_runtime.images.distro import OS_RELEASE_COMMAND, Distro, detect
from onespec.validators_runtime.images.errors import ImageValidationError, RemoteCommandError
from onespec.validators_runtime.images.model import (
    ImageValidator,
    Progress,
    SpecValidator,
    is_builtin,
)
from onespec.validators_runtime.images.packages import (
    MANAGERS,
    Installed,
    PackageManager,
    closest_names,
)
from onespec.validators_runtime.images.remote import CommandResult, Remote, RemoteBase
from onespec.validators_runtime.images.report import Outcome, Step, ValidationReport
from onespec.validators_runtime.problems import Problem, shown

_UNSAFE_FILE_CHARACTERS = re.compile(r"[^A-Za-z0-9._-]+")
#: The private working directory of a run, as ``mktemp -d`` is asked to make it.
_WORKDIR_TEMPLATE = "/tmp/onespec-siv.XXXXXXXX"  # noqa: S108 - on the remote, made by mktemp
#: What its answer must look like: the template's absolute prefix and a plain name.
_WORKDIR = re.compile(r"/tmp/onespec-siv\.[A-Za-z0-9_-]{1,64}")  # noqa: S108


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
            if isinstance(validator, SpecValidator) and is_builtin(validator):
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
            label=validator.label() if isinstance(validator, SpecValidator) else "",
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
    if isinstance(validator, SpecValidator):
        return validator.runs_plugin_code or not is_builtin(validator)
    return True


def run(
    validator: SpecValidator,
    remote: Remote,
    *,
    reconcile: bool,
    env: dict[str, str],
    spec: str = "",
    packages: Sequence[str] | None = None,
    warnings: Sequence[Problem] = (),
    distro: Distro | str | None = None,
    progress: Progress | None = None,
    timeout: float | None = None,
    copy_destination: str = grammar.COPY_DESTINATION,
) -> ValidationReport:
    """Validate ``validator`` through ``remote``; see :meth:`ImageSpec.validate
    <onespec.validators_runtime.images.root.ImageSpec.validate>`."""
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
        packages = validator.packages_within()
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
