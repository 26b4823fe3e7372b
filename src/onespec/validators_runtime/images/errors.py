"""The exceptions of image validation, each carrying where and what.

A plugin catches :class:`ImageValidationError` to learn that an image is unfit, and
:class:`ImageValidationSpecificationError` to learn that its own spec is wrong: the two call for
different people (an operator, a plugin author), so they are distinct classes with a common base.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from onespec.errors import OnespecError
from onespec.validators_runtime.problems import Location

if TYPE_CHECKING:
    from onespec.validators_runtime.images.report import ValidationReport


class ImageError(OnespecError):
    """The base of every image-validation exception."""

    def __init__(self, *args: Any) -> None:
        # Not cooperative on purpose: the Sahara module joins these classes with Sahara's own,
        # whose constructors rewrite the message; onespec's text stays as onespec wrote it.
        Exception.__init__(self, *args)


class ImageValidationSpecificationError(ImageError, ValueError):
    """An image spec (the YAML) is wrong; raised when it is loaded, before anything runs.

    ``file`` is the spec's path, ``path`` the YAML path inside it (``validators[2].package``),
    ``line`` its 1-based line when known, ``reason`` what is wrong and how to fix it.
    """

    def __init__(
        self,
        reason: str,
        *,
        file: str | None = None,
        path: str | None = None,
        line: int | None = None,
    ) -> None:
        self.reason = reason
        self.file = file
        self.path = path
        self.line = line
        #: Where, in the shape every area reports problems in.
        self.location = Location(file=file, line=line, path=path)
        #: The text, as Sahara's exceptions carried it (plugins read ``exc.message``).
        self.message = self._text()
        super().__init__(self.message)

    def _text(self) -> str:
        where = str(self.location)
        return f"{where}: {self.reason}" if where else self.reason


class ImageValidationError(ImageError):
    """An image does not satisfy its spec (or could not be made to).

    ``report`` is the full :class:`~onespec.validators_runtime.images.report.ValidationReport` when
    the failure comes from a validation run (None when raised by a plugin's own code), so a caller
    sees every failure, not only the first.
    """

    def __init__(
        self,
        message: str,
        *,
        report: ValidationReport | None = None,
        reports: list[ValidationReport] | None = None,
    ) -> None:
        #: The message, as Sahara's exceptions carried it (plugins read ``exc.message``).
        self.message = message
        self.report = report
        #: Every report of the run that failed, passed ones included (validate_instance).
        self.reports = reports if reports is not None else ([report] if report else [])
        super().__init__(message)


class ImageArgumentError(ImageValidationError, ValueError):
    """An argument given for a validation is missing, unknown or not one of its choices.

    An :class:`ImageValidationError` too, as Sahara's plugins catch it; raised before anything
    runs, and never folded into another validation error.
    """

    def __init__(self, reason: str, *, name: str | None = None, value: Any = None) -> None:
        self.reason = reason
        self.name = name
        self.value = value
        super().__init__(reason)


class RemoteError(ImageError):
    """A remote could not be reached or could not run a command at all."""


class RemoteCommandError(RemoteError):
    """A command exited non-zero (or timed out) where the caller asked for success."""

    def __init__(
        self,
        command: str,
        code: int | None,
        stdout: str = "",
        stderr: str = "",
        *,
        target: str = "",
    ) -> None:
        self.command = command
        self.code = code
        self.stdout = stdout
        self.stderr = stderr
        self.target = target
        status = "timed out" if code is None else f"exited {code}"
        detail = stderr.strip().splitlines()[-1] if stderr.strip() else ""
        on = f" on {target}" if target else ""
        super().__init__(f"command {command!r}{on} {status}" + (f": {detail}" if detail else ""))
