"""The plugin labels: ``enabled``, ``hidden``, ``stable`` and ``deprecated``.

A label is a named boolean that a service plugin and each of its versions carry. The plugin says
what each label's status is by default (its ``get_labels()``); an administrator may change the
mutable ones for a project through the plugin admin API. Everything that knows about labels is
generated from these definitions: the reference page, the JSON Schemas of the API's responses and
of its PATCH body, and the tables the service checks requests with.

Also defined here: what a plugin's name and its version strings may look like, because the
loader, the URL routes and the schemas all need the same answer.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from onespec.definitions.model import DefinitionError, definition_error

#: The entry-point group in which packages publish service plugins (objects with ``name``,
#: ``title``, ``description``, ``versions`` and ``get_labels()``).
PLUGIN_ENTRY_POINT_GROUP = "onespec.plugins"

_LABEL_NAME = re.compile(r"[a-z][a-z0-9_]*")


class Scope(enum.StrEnum):
    """Where a plugin label is set: on the plugin as a whole, or on each of its versions."""

    PLUGIN = "plugin"
    VERSION = "version"


class LabelEffect(enum.StrEnum):
    """What a label's status does to the clusters of a plugin, beyond being shown.

    ``gate``: while the status is false, a cluster allows only deletion. ``warn``: while it is
    true, every operation succeeds with the label's warning for the user. ``hide``: while it is
    true, the command line and user interfaces leave the plugin out of their listings (the API
    still lists it). ``none``: the label informs and does nothing else.
    """

    GATE = "gate"
    WARN = "warn"
    HIDE = "hide"
    NONE = "none"


@dataclass(frozen=True)
class Label:
    """A plugin label: a named boolean a plugin and each of its versions carry.

    ``plugin`` and ``version`` are the one-line descriptions the API shows next to the label's
    status on a plugin and on a version; a label with no description for a scope does not apply
    there. ``mutable`` labels may be changed by an administrator, per project, through the API;
    immutable ones come from the plugin alone and are never stored. ``default`` is the status of
    a label its plugin says nothing about. ``warning`` (for a ``warn`` label) is the sentence
    shown to users, with ``{subject}`` standing for "Plugin 'x'" or "Version 1.0 of plugin 'x'".
    """

    name: str
    description: str
    mutable: bool
    default: bool
    effect: LabelEffect = LabelEffect.NONE
    plugin: str | None = None
    version: str | None = None
    warning: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _LABEL_NAME.fullmatch(self.name):
            raise DefinitionError(
                f"a label name is lower-case letters, digits and underscores, not {self.name!r}"
            )
        name = self.name
        for field_name in ("mutable", "default"):
            if not isinstance(getattr(self, field_name), bool):
                raise definition_error(f"{field_name} must be true or false", name, field_name)
        if not isinstance(self.description, str) or not self.description.strip():
            raise definition_error("a label needs a description", name, "description")
        try:
            object.__setattr__(self, "effect", LabelEffect(self.effect))
        except ValueError:
            choices = ", ".join(effect.value for effect in LabelEffect)
            raise definition_error(
                f"effect must be one of {choices}, not {self.effect!r}", name, "effect"
            ) from None
        for scope in Scope:
            summary = getattr(self, scope.value)
            if summary is not None and (not isinstance(summary, str) or not summary.strip()):
                raise definition_error(
                    f"the {scope.value} description must be a non-empty string", name, scope
                )
        if not self.scopes:
            raise definition_error(
                "a label applies to plugins, versions or both: describe it for one", name
            )
        if self.effect is LabelEffect.WARN:
            if not isinstance(self.warning, str) or "{subject}" not in self.warning:
                raise definition_error(
                    "a warn label needs a warning that mentions {subject}", name, "warning"
                )
        elif self.warning is not None:
            raise definition_error("only a warn label has a warning", name, "warning")

    @property
    def scopes(self) -> tuple[Scope, ...]:
        """The scopes the label applies to, plugin first."""
        return tuple(scope for scope in Scope if getattr(self, scope.value) is not None)

    def summary(self, scope: Scope | str) -> str | None:
        """The one-line description shown at ``scope``, or None where the label does not apply."""
        return getattr(self, Scope(scope).value)


#: The entry-point group plugins are published in.
ENTRY_POINT_GROUP = PLUGIN_ENTRY_POINT_GROUP

#: A plugin's name: a lower-case word that is safe in a URL path segment.
PLUGIN_NAME_PATTERN = r"[a-z][a-z0-9_-]{0,63}"

#: A plugin version: letters, digits, dots, dashes and underscores, starting with a letter or a
#: digit (so that ``.`` and ``..`` can never be one).
VERSION_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}"

ENABLED = Label(
    name="enabled",
    description=(
        "Whether the plugin, or one of its versions, may be used. While a plugin or a version "
        "is disabled, its clusters can only be deleted: creating, scaling or changing one is "
        "refused. Every plugin and every version is enabled unless its plugin says otherwise or "
        "an administrator disables it for a project."
    ),
    mutable=True,
    default=True,
    effect=LabelEffect.GATE,
    plugin="Indicates that the plugin is switched on",
    version="Indicates that the version is switched on",
)

HIDDEN = Label(
    name="hidden",
    description=(
        "Whether the command line and the dashboard leave the plugin out of their listings. A "
        "hidden plugin still works and the API still lists it; hiding keeps test plugins, such "
        "as the built-in ``fake`` plugin, out of users' way."
    ),
    mutable=True,
    default=False,
    effect=LabelEffect.HIDE,
    plugin="Indicates that the plugin is hidden from the command line and the dashboard",
)

STABLE = Label(
    name="stable",
    description=(
        "Whether the plugin, or one of its versions, is stable enough to be used: continuous "
        "integration proves that it creates clusters and runs jobs. Only the plugin sets it; it "
        "is never stored, and the API refuses to change it."
    ),
    mutable=False,
    default=False,
    plugin="Indicates that the plugin is stable enough to be used",
    version="Indicates that the version is stable enough to be used",
)

DEPRECATED = Label(
    name="deprecated",
    description=(
        "Whether the plugin, or one of its versions, is deprecated: it still works and is still "
        "tested, but it is not meant for new clusters and may be removed in a later release. "
        "Every operation on its clusters succeeds with a warning for the user. Only the plugin "
        "sets it; the API refuses to change it."
    ),
    mutable=False,
    default=False,
    effect=LabelEffect.WARN,
    plugin="Indicates that the plugin is deprecated, but can still be used",
    version="Indicates that the version is deprecated, but can still be used",
    warning=(
        "{subject} is deprecated and may be removed in a later release. Its clusters can still "
        "be created, scaled and deleted; plan to move them to a supported version."
    ),
)

#: Every label, in the order the API and the reference show them.
LABELS: tuple[Label, ...] = (ENABLED, HIDDEN, STABLE, DEPRECATED)


def labels() -> tuple[Label, ...]:
    """Every label, checked for names defined twice."""
    seen: set[str] = set()
    for label in LABELS:
        if label.name in seen:
            raise DefinitionError(f"the label {label.name!r} is defined twice")
        seen.add(label.name)
    return LABELS
