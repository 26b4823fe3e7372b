"""How a validation is called: the mode and the arguments under either spelling.

Sahara's plugins say ``test_only`` and ``image_arguments``, the blueprint ``reconcile`` and
``env_map``. These functions take either, refuse what is ambiguous (a positional mode, two
spellings that contradict), and call a validator of a plugin's own kind with the keywords its
signature names.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import Any

from onespec.validators_runtime.images.errors import ImageValidationError
from onespec.validators_runtime.images.model import ImageValidator
from onespec.validators_runtime.images.remote import Remote

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
    parameters: Mapping[str, inspect.Parameter]
    try:
        parameters = inspect.signature(validator.validate).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        parameters = {}
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
