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

from onespec.definitions.model import PLUGIN_ENTRY_POINT_GROUP, DefinitionError, Label, LabelEffect

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
