"""Sahara's image exceptions, onespec's where Sahara is absent and both where it is present.

Code written for Sahara catches ``sahara.plugins.exceptions.ImageValidationError``; code written
for onespec catches :class:`onespec.validators_runtime.images.errors.ImageValidationError`. Where
Sahara is installed the classes here derive from both, and :func:`sahara_errors` re-raises the
engine's exceptions as them at the edge of the Sahara-shaped interface.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import onespec.validators_runtime.images.errors as _errors


def _sahara_exceptions() -> Any:
    """``sahara.plugins.exceptions`` when Sahara is importable, else None."""
    try:
        from sahara.plugins import exceptions
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
_AS_SAHARA: tuple[tuple[type[BaseException], type[BaseException]], ...] = (
    (_errors.ImageArgumentError, ImageArgumentError),
    (_errors.ImageValidationSpecificationError, ImageValidationSpecificationError),
    (_errors.ImageValidationError, ImageValidationError),
)

_Params = ParamSpec("_Params")
_Returned = TypeVar("_Returned")


def sahara_errors(function: Callable[_Params, _Returned]) -> Callable[_Params, _Returned]:
    """Re-raise onespec's image exceptions from ``function`` as this module's classes.

    The engine raises onespec's classes; callers of this module catch Sahara's (where it is
    installed). The new exception carries everything the old one did.
    """

    @functools.wraps(function)
    def wrapper(*args: _Params.args, **kwargs: _Params.kwargs) -> _Returned:
        try:
            return function(*args, **kwargs)
        except _errors.ImageError as exc:
            for ours, shaped in _AS_SAHARA:
                if shaped is not ours and isinstance(exc, ours) and not isinstance(exc, shaped):
                    raise _converted(exc, shaped) from exc
            raise

    return wrapper


def _converted(exc: BaseException, shaped: type[BaseException]) -> BaseException:
    new: Any = shaped.__new__(shaped)  # takes on the attributes of ``exc``, whatever they are
    new.__dict__.update(exc.__dict__)
    new.args = exc.args
    new.uuid = str(uuid.uuid4())
    return new


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
