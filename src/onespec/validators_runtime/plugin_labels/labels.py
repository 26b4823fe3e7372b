"""Plugin labels at run time: the vocabulary, a plugin's view, updates and enforcement.

Everything here is pure: it takes a loaded plugin
(:class:`~onespec.validators_runtime.plugin_labels.model.PluginInfo`) and what a project stored,
and returns plain dicts shaped as the API shows them.
The vocabulary comes from the generated ``_generated/plugin_labels.py``, so the rules checked
here are the ones the reference documents and the JSON Schemas state.

The status of a label, for one project, is the first of:

1. what an administrator of the project stored for it (mutable labels only);
2. what the plugin's ``get_labels()`` says;
3. the label's own default (``enabled`` is true, every other label false).

So a label the project never changed keeps following the plugin's default, even when a new
release of the plugin changes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from onespec.errors import OnespecError
from onespec.validators_runtime._generated import plugin_labels as _generated
from onespec.validators_runtime.problems import Location, Problem, closest

if TYPE_CHECKING:
    from onespec.validators_runtime.plugin_labels.model import PluginInfo

PLUGIN = "plugin"
VERSION = "version"
SCOPES: tuple[str, ...] = _generated.SCOPES

#: The member of a plugin view and of an update body that holds each scope's labels.
SCOPE_FIELDS = {PLUGIN: "plugin_labels", VERSION: "version_labels"}

PLUGIN_NAME = re.compile(_generated.PLUGIN_NAME_PATTERN)
VERSION_NAME = re.compile(_generated.VERSION_PATTERN)

#: The operation a disabled plugin or version still allows.
DELETE = "delete"


class LabelInfo(NamedTuple):
    """One label, as generated from its definition."""

    name: str
    mutable: bool
    default: bool
    effect: str  # "gate" | "warn" | "hide" | "none"
    plugin: str | None
    version: str | None
    warning: str | None

    def summary(self, scope: str) -> str | None:
        """The one-line description shown at ``scope``; None where the label does not apply."""
        return self.plugin if scope == PLUGIN else self.version


#: Every label by name, in the documented order.
LABELS: dict[str, LabelInfo] = {record[0]: LabelInfo(*record) for record in _generated.LABELS}


def labels_in(scope: str) -> tuple[LabelInfo, ...]:
    """The labels that apply at ``scope``, in the documented order."""
    return tuple(label for label in LABELS.values() if label.summary(scope) is not None)


_IN_SCOPE = {scope: labels_in(scope) for scope in SCOPES}


# --- Errors --------------------------------------------------------------------------------------


class PluginError(OnespecError):
    """Something about plugins or their labels went wrong; the base of this area's errors."""


class PluginNotFound(PluginError, LookupError):
    """No loaded plugin has this name."""

    def __init__(self, name: str, known: Iterable[str] = ()) -> None:
        self.name = name
        known = sorted(known)
        message = f"There is no plugin named {name!r}."
        self.suggestion = closest(name, known)
        if self.suggestion is not None:
            message += f" Did you mean {self.suggestion!r}?"
        elif known:
            message += f" The plugins are {_and(known)}."
        else:
            message += " No plugin is loaded."
        super().__init__(message)


class VersionNotFound(PluginError, LookupError):
    """The plugin has no such version."""

    def __init__(self, plugin: str, version: str, versions: Iterable[str]) -> None:
        self.plugin = plugin
        self.version = version
        versions = list(versions)
        message = (
            f"Plugin {plugin!r} has no version {version!r}; its versions are {_and(versions)}."
        )
        super().__init__(message)


def body_problem(
    field: str | None,
    message: str,
    *,
    code: str = "invalid-body",
    value: Any = None,
    suggestion: str | None = None,
) -> Problem:
    """A problem of a request body, in the one shape every area reports in: its ``path`` is the
    JSON Pointer of the member at fault (None: the body as a whole)."""
    return Problem(code, message, location=Location(path=field), value=value, suggestion=suggestion)


class LabelUpdateError(PluginError, ValueError):
    """A label update is refused; ``problems`` lists every reason, and nothing was changed."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        if len(self.problems) == 1:
            message = self.problems[0].message
        else:
            count = len(self.problems)
            message = f"The update has {count} problems: " + " ".join(
                problem.message for problem in self.problems
            )
        super().__init__(message)


class OperationNotAllowed(PluginError):
    """A cluster operation is refused because its plugin or version is disabled."""

    def __init__(self, subject: str, operation: str, label: str) -> None:
        self.subject = subject
        self.operation = operation
        self.label = label
        super().__init__(
            f"{subject} is not {label}: its clusters can only be deleted, so the {operation!r} "
            "operation is refused."
        )


def _and(items: list[str]) -> str:
    quoted = [repr(item) for item in items]
    if len(quoted) <= 1:
        return "".join(quoted) or "none"
    return f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def subject(plugin: str, version: str | None = None) -> str:
    """How messages name a plugin or one of its versions, capitalised."""
    if version is None:
        return f"Plugin {plugin!r}"
    return f"Version {version!r} of plugin {plugin!r}"


def pointer(*parts: str) -> str:
    """The JSON Pointer (RFC 6901) of a member of the request body."""
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in parts)


# --- Views ---------------------------------------------------------------------------------------


def _stored_statuses(raw: Any) -> dict[str, bool]:
    """The statuses a project stored for one scope, ignoring anything malformed or immutable.

    Rows may have been written by an older tool that copied every label (Sahara did): only
    mutable labels with a boolean status are read back.
    """
    if not isinstance(raw, Mapping):
        return {}
    result = {}
    for name, entry in raw.items():
        label = LABELS.get(name)
        if label is None or not label.mutable or not isinstance(entry, Mapping):
            continue
        status = entry.get("status")
        if isinstance(status, bool):
            result[name] = status
    return result


def _scope_view(
    scope: str, defaults: Mapping[str, bool], stored: Mapping[str, bool]
) -> dict[str, dict[str, Any]]:
    view = {}
    for label in _IN_SCOPE[scope]:
        status = stored.get(label.name)
        if status is None:
            status = defaults.get(label.name, label.default)
        view[label.name] = {
            "description": label.summary(scope),
            "mutable": label.mutable,
            "status": status,
        }
    return view


def plugin_view(
    info: PluginInfo, stored: Mapping[str, Any] | None = None, *, version: str | None = None
) -> dict[str, Any]:
    """A plugin as the API shows it, for the project that stored ``stored``.

    With ``version``, ``version_labels`` holds that version alone and ``version`` names it.
    Raises :class:`VersionNotFound` for a version the plugin does not have.
    """
    stored = stored or {}
    if version is not None and version not in info.versions:
        raise VersionNotFound(info.name, version, info.versions)
    stored_versions = stored.get("version_labels")
    if not isinstance(stored_versions, Mapping):
        stored_versions = {}
    view: dict[str, Any] = {
        "name": info.name,
        "title": info.title,
        "description": info.description,
        "versions": list(info.versions),
    }
    if version is not None:
        view["version"] = version
    view["plugin_labels"] = _scope_view(
        PLUGIN, info.plugin_defaults, _stored_statuses(stored.get("plugin_labels"))
    )
    view["version_labels"] = {
        name: _scope_view(
            VERSION,
            info.version_defaults.get(name, {}),
            _stored_statuses(stored_versions.get(name)),
        )
        for name in ((version,) if version is not None else info.versions)
    }
    return view


def status(view: Mapping[str, Any], label: str, version: str | None = None) -> bool:
    """A label's status in a plugin view, at the plugin or at ``version``."""
    if version is None:
        return bool(view["plugin_labels"][label]["status"])
    return bool(view["version_labels"][version][label]["status"])


# --- Updates -------------------------------------------------------------------------------------


class Update(NamedTuple):
    """A validated update: new statuses (None: follow the default again) per scope."""

    plugin: dict[str, bool | None]
    versions: dict[str, dict[str, bool | None]]


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _scope_changes(
    info: PluginInfo,
    scope: str,
    raw: Any,
    where: tuple[str, ...],
    version: str | None,
    problems: list[Problem],
) -> dict[str, bool | None]:
    field = pointer(*where)
    owner = subject(info.name, version)
    owner_lower = owner[0].lower() + owner[1:]
    if not isinstance(raw, Mapping):
        problems.append(
            body_problem(
                field,
                f"Field {field} must be an object of labels, such as "
                f'{{"enabled": {{"status": false}}}}, not {_type_name(raw)}.',
                code="wrong-type",
            )
        )
        return {}
    changes: dict[str, bool | None] = {}
    for name, entry in raw.items():
        label_field = pointer(*where, name)
        label = LABELS.get(name)
        if label is None:
            message = f"Label {name!r} in {field} does not exist."
            suggestion = closest(name, LABELS)
            if suggestion is not None:
                message += f" Did you mean {suggestion!r}?"
            else:
                message += f" The labels are {_and(list(LABELS))}."
            problems.append(
                body_problem(label_field, message, code="unknown-label", suggestion=suggestion)
            )
            continue
        if label.summary(scope) is None:
            applies = " and ".join(f"{s}s" for s in SCOPES if label.summary(s) is not None)
            problems.append(
                body_problem(
                    label_field,
                    f"Label {name!r} applies to {applies} only, so {owner_lower} cannot have it.",
                    code="wrong-scope",
                )
            )
            continue
        if not label.mutable:
            problems.append(
                body_problem(
                    label_field,
                    f"Label {name!r} of {owner_lower} cannot be changed: it is immutable, and "
                    "only the plugin sets it.",
                    code="immutable-label",
                )
            )
            continue
        if not isinstance(entry, Mapping):
            problems.append(
                body_problem(
                    label_field,
                    f"Label {name!r} in {field} must be an object such as "
                    f'{{"status": false}}, not {_type_name(entry)}.',
                    code="wrong-type",
                )
            )
            continue
        extra = sorted(key for key in entry if key != "status")
        for key in extra:
            problems.append(
                body_problem(
                    pointer(*where, name, key),
                    f"Field {key!r} of label {name!r} in {field} cannot be changed: only "
                    "status can.",
                    code="unknown-member",
                )
            )
        if "status" not in entry:
            problems.append(
                body_problem(
                    label_field,
                    f"Label {name!r} in {field} needs a status: true, false, or null to follow "
                    "the default again.",
                    code="missing-status",
                )
            )
            continue
        value = entry["status"]
        if value is not None and not isinstance(value, bool):
            problems.append(
                body_problem(
                    pointer(*where, name, "status"),
                    f"The status of label {name!r} in {field} must be true, false or null, "
                    f"not {_type_name(value)}.",
                    code="wrong-type",
                    value=value,
                )
            )
            continue
        if not extra:
            changes[name] = value
    return changes


def validate_update(info: PluginInfo, body: Any) -> Update:
    """Check a PATCH body against the labels and the plugin; return what it changes.

    Raises :class:`LabelUpdateError` listing every problem: a body that is not an object, an
    unknown member, a label that does not exist, does not apply at its scope or is immutable, a
    field other than ``status``, a status that is not a boolean or null, or an unknown version.
    """
    problems: list[Problem] = []
    if not isinstance(body, Mapping):
        raise LabelUpdateError(
            [
                body_problem(
                    None,
                    "The request body must be a JSON object with plugin_labels and/or "
                    f"version_labels, not {_type_name(body)}.",
                    code="wrong-type",
                )
            ]
        )
    for key in body:
        if key not in SCOPE_FIELDS.values():
            problems.append(
                body_problem(
                    pointer(key),
                    f"Field {key!r} is not part of a plugin update, which takes plugin_labels "
                    "and version_labels only.",
                    code="unknown-member",
                    suggestion=closest(key, SCOPE_FIELDS.values()),
                )
            )
    plugin_changes: dict[str, bool | None] = {}
    if "plugin_labels" in body:
        plugin_changes = _scope_changes(
            info, PLUGIN, body["plugin_labels"], ("plugin_labels",), None, problems
        )
    version_changes: dict[str, dict[str, bool | None]] = {}
    if "version_labels" in body:
        raw = body["version_labels"]
        if not isinstance(raw, Mapping):
            problems.append(
                body_problem(
                    "/version_labels",
                    "Field /version_labels must be an object of versions, such as "
                    f'{{"1.0": {{"enabled": {{"status": false}}}}}}, not {_type_name(raw)}.',
                    code="wrong-type",
                )
            )
        else:
            for version, entry in raw.items():
                if version not in info.versions:
                    problems.append(
                        body_problem(
                            pointer("version_labels", version),
                            str(VersionNotFound(info.name, version, info.versions)),
                            code="unknown-version",
                        )
                    )
                    continue
                version_changes[version] = _scope_changes(
                    info, VERSION, entry, ("version_labels", version), version, problems
                )
    if problems:
        raise LabelUpdateError(problems)
    return Update(plugin_changes, version_changes)


def _apply(current: Any, changes: Mapping[str, bool | None]) -> dict[str, dict[str, bool]]:
    result = {name: {"status": value} for name, value in _stored_statuses(current).items()}
    for name, value in changes.items():
        if value is None:
            result.pop(name, None)
        else:
            result[name] = {"status": value}
    return result


def apply_update(stored: Mapping[str, Any] | None, update: Update) -> dict[str, Any]:
    """What a project stores after ``update``: only the labels it set, immutable ones never."""
    stored = stored or {}
    versions = stored.get("version_labels")
    versions = dict(versions) if isinstance(versions, Mapping) else {}
    new_versions = {
        version: _apply(entry, {})
        for version, entry in versions.items()
        if isinstance(entry, Mapping)
    }
    for version, changes in update.versions.items():
        new_versions[version] = _apply(versions.get(version), changes)
    return {
        "plugin_labels": _apply(stored.get("plugin_labels"), update.plugin),
        "version_labels": {version: entry for version, entry in new_versions.items() if entry},
    }


# --- Enforcement ---------------------------------------------------------------------------------


def check_cluster_operation(plugin: Mapping[str, Any], version: str, operation: str) -> list[str]:
    """May a cluster of ``version`` of ``plugin`` undergo ``operation``? Return the warnings.

    ``plugin`` is a plugin view, as ``GET /plugins/{name}`` returns it (or
    :meth:`LabelManager.show()
    <onespec.validators_runtime.plugin_labels.manager.LabelManager.show>`).
    While the plugin or the version is disabled, only ``delete`` is allowed: any other operation
    raises
    :class:`OperationNotAllowed`. A deprecated plugin or version allows every operation and
    returns a warning to show the user, one per deprecated scope.
    """
    if not isinstance(operation, str) or not operation:
        raise ValueError(
            f"operation must be a non-empty string such as 'create', not {operation!r}"
        )
    name = plugin["name"]
    versions = plugin.get("version_labels", {})
    if version not in versions:
        raise VersionNotFound(name, version, plugin.get("versions", list(versions)))
    warnings: list[str] = []
    for scope_version in (None, version):
        owner = subject(name, scope_version)
        scope_labels = plugin["plugin_labels"] if scope_version is None else versions[scope_version]
        for label in _IN_SCOPE[PLUGIN if scope_version is None else VERSION]:
            entry = scope_labels.get(label.name)
            if entry is None:
                continue
            on = bool(entry["status"])
            if label.effect == "gate" and not on and operation != DELETE:
                raise OperationNotAllowed(owner, operation, label.name)
            if label.effect == "warn" and on and label.warning:
                warnings.append(label.warning.format(subject=owner))
    return warnings


def hidden(plugin: Mapping[str, Any]) -> bool:
    """Whether listings in the command line and the dashboard leave the plugin out."""
    return any(
        label.effect == "hide" and plugin["plugin_labels"].get(label.name, {}).get("status")
        for label in _IN_SCOPE[PLUGIN]
    )


def warnings_for(plugin: Mapping[str, Any]) -> list[str]:
    """The warnings of every warn label that is on, for the plugin and each of its versions,
    each once; none for a disabled plugin or version, which no cluster can use anyway."""

    def gated_off(scope_labels: Mapping[str, Any], scope: str) -> bool:
        return any(
            label.effect == "gate" and not scope_labels.get(label.name, {}).get("status", True)
            for label in _IN_SCOPE[scope]
        )

    if gated_off(plugin["plugin_labels"], PLUGIN):
        return []
    warnings: list[str] = []
    for version in (None, *plugin.get("version_labels", {})):
        scope = PLUGIN if version is None else VERSION
        scope_labels = (
            plugin["plugin_labels"] if version is None else plugin["version_labels"][version]
        )
        if version is not None and gated_off(scope_labels, scope):
            continue
        for label in _IN_SCOPE[scope]:
            entry = scope_labels.get(label.name)
            if label.effect == "warn" and entry and entry.get("status") and label.warning:
                warning = label.warning.format(subject=subject(plugin["name"], version))
                if warning not in warnings:
                    warnings.append(warning)
    return warnings
