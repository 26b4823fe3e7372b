"""The built-in validator kinds of an image spec, one class per YAML key.

Each kind checks (and, reconciling, fixes) one thing through the run's
:class:`~onespec.validators_runtime.images.run.ValidationContext`; :class:`SpecKind` gives every
kind the two class-level entry points plugin code calls: ``from_spec`` (build one from its
parsed YAML) and ``validate`` (run it on its own).
"""

from __future__ import annotations

import hashlib
import logging
import re
import shlex
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
from onespec.validators_runtime.images.errors import ImageValidationError
from onespec.validators_runtime.images.model import (
    ImageValidator,
    Progress,
    SpecValidator,
    Vocabulary,
)
from onespec.validators_runtime.images.packages import Installed, Package, PackageManager
from onespec.validators_runtime.images.remote import CommandResult, Remote
from onespec.validators_runtime.images.report import Outcome, ValidationReport
from onespec.validators_runtime.images.run import ValidationContext, run
from onespec.validators_runtime.images.spec import build_one

LOG = logging.getLogger(__name__)

_ENV_NAME = re.compile(grammar.PATTERNS["env-name"])


class SpecKind(SpecValidator):
    """A built-in kind: built from its YAML value, and validated on its own if wished."""

    @classmethod
    def from_spec(
        cls,
        spec: Any,
        validator_map: Mapping[str, type[ImageValidator]] | None = None,
        resource_roots: Sequence[str | Path] | None = None,
    ) -> SpecValidator:
        """Build one validator of this class from its YAML value (already parsed)."""
        return build_one(
            cls.kind,
            spec,
            vocabulary=Vocabulary(DEFAULT_VALIDATOR_MAP),
            validator_map=validator_map,
            resource_roots=resource_roots,
        )

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
        Takes the keyword arguments of :meth:`ImageSpec.validate
        <onespec.validators_runtime.images.root.ImageSpec.validate>`.
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


class PackageValidator(SpecKind):
    """``package``: packages are installed, at an exact version where one is given."""

    kind = "package"

    def __init__(self, packages: Sequence[Package]) -> None:
        if not packages:
            raise ValueError("a package validator needs at least one package")
        self.packages = tuple(packages)

    def label(self) -> str:
        return " ".join(str(package).replace(" ", "=") for package in self.packages)

    def package_names(self) -> tuple[str, ...]:
        return tuple(package.name for package in self.packages)

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


class ScriptValidator(SpecKind):
    """``script``: a bash script exits 0, run once in the mode of the validation."""

    kind = "script"
    runs_plugin_code = True

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


class CopyScriptValidator(SpecKind):
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


class AggregateValidator(SpecKind):
    """A list of validators."""

    def __init__(self, validators: Sequence[ImageValidator]) -> None:
        self.validators = tuple(validators)

    def children(self) -> tuple[ImageValidator, ...]:
        return self.validators


class AllValidator(AggregateValidator):
    """``all``: every validator of the list passes."""

    kind = "all"

    def check(self, context: ValidationContext, reconcile: bool) -> Outcome:
        return context.run_all(self.validators, reconcile)


class AnyValidator(AggregateValidator):
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


class OSCaseValidator(SpecKind):
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


class ArgumentCaseValidator(SpecKind):
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


class ArgumentSetterValidator(SpecKind):
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


#: The built-in kinds by YAML key; ``validator_map`` adds to (and may override) them.
DEFAULT_VALIDATOR_MAP: dict[str, type[SpecValidator]] = {
    cls.kind: cls
    for cls in (
        PackageValidator,
        ScriptValidator,
        CopyScriptValidator,
        AnyValidator,
        AllValidator,
        OSCaseValidator,
        ArgumentCaseValidator,
        ArgumentSetterValidator,
    )
}
