"""The plugin SPI: what a plugin publishes, and how the service loads plugins.

A plugin is any object with these attributes, published in the ``onespec.plugins`` entry-point
group (an entry point may also name a class, instantiated without arguments, or a function
returning the object)::

    class AmbariPlugin:
        name = "ambari"                       # a lower-case word, unique among plugins
        title = "HDP Plugin"
        description = "HDP plugin with Ambari"
        versions = ("2.3", "2.4")             # every version, in the order to show them

        def get_labels(self):                 # the default status of labels; any label left
            return {                          # out keeps the label's own default
                "plugin_labels": {"enabled": {"status": True}},
                "version_labels": {
                    "2.3": {"deprecated": {"status": True}},
                    "2.4": {"stable": {"status": True}},
                },
            }

The loader calls ``get_labels()`` once, when the plugin is loaded, and checks everything: a
plugin that fails to load, or publishes anything malformed (an unknown label, a label at a scope
it does not apply to, a version it does not have), is reported and skipped whole, so a
half-loaded plugin never changes what the service allows.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from onespec.definitions.entry_points import PluginProblem, load_group
from onespec.validators_runtime._generated import plugin_labels as _generated
from onespec.validators_runtime.plugin_labels.labels import (
    LABELS,
    PLUGIN,
    PLUGIN_NAME,
    SCOPE_FIELDS,
    VERSION,
    VERSION_NAME,
    PluginError,
)
from onespec.validators_runtime.plugin_labels.model import PluginInfo

if TYPE_CHECKING:
    import importlib.metadata

LOG = logging.getLogger(__name__)

#: The entry-point group plugins are published in.
ENTRY_POINT_GROUP: str = _generated.ENTRY_POINT_GROUP


@runtime_checkable
class Plugin(Protocol):
    """What a plugin object provides."""

    name: str
    title: str
    description: str
    versions: Iterable[str]

    def get_labels(self) -> Mapping[str, Any]:
        """The default label statuses: ``{"plugin_labels": {...}, "version_labels": {...}}``."""
        ...


class PluginDefinitionError(PluginError, ValueError):
    """A plugin object is malformed; the message names the plugin and the field."""


def _text(obj: Any, attribute: str, name: str) -> str:
    value = getattr(obj, attribute, None)
    if not isinstance(value, str):
        raise PluginDefinitionError(
            f"plugin {name!r}: {attribute} must be a string, not {type(value).__name__}"
        )
    return value


def _defaults(raw: Any, scope: str, where: str, name: str) -> dict[str, bool]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise PluginDefinitionError(f"plugin {name!r}: {where} must be a mapping of labels")
    result = {}
    for label_name, entry in raw.items():
        label = LABELS.get(label_name)
        if label is None:
            raise PluginDefinitionError(
                f"plugin {name!r}: {where} names the unknown label {label_name!r}; the labels "
                f"are {', '.join(LABELS)}"
            )
        if label.summary(scope) is None:
            raise PluginDefinitionError(
                f"plugin {name!r}: {where} sets {label_name!r}, which does not apply to a {scope}"
            )
        status = entry.get("status") if isinstance(entry, Mapping) else None
        if not isinstance(status, bool):
            raise PluginDefinitionError(
                f'plugin {name!r}: {where}.{label_name} must be {{"status": true or false}}, '
                f"not {entry!r}"
            )
        result[label_name] = status
    return result


def plugin_info(obj: Any, source: str = "code") -> PluginInfo:
    """Check a plugin object and read what the service needs from it, once.

    Raises :class:`PluginDefinitionError` naming the plugin and the field at fault.
    """
    if isinstance(obj, PluginInfo):
        return obj
    name = getattr(obj, "name", None)
    if not isinstance(name, str) or not PLUGIN_NAME.fullmatch(name):
        raise PluginDefinitionError(
            f"a plugin's name must be a lower-case word of letters, digits, '-' and '_' "
            f"(at most 64 characters), not {name!r}"
        )
    title = _text(obj, "title", name)
    description = _text(obj, "description", name)
    raw_versions = getattr(obj, "versions", None)
    if isinstance(raw_versions, str | bytes | Mapping) or not isinstance(raw_versions, Iterable):
        raise PluginDefinitionError(f"plugin {name!r}: versions must be a list of strings")
    versions = tuple(raw_versions)
    if not versions:
        raise PluginDefinitionError(f"plugin {name!r}: versions must list at least one version")
    for version in versions:
        if not isinstance(version, str) or not VERSION_NAME.fullmatch(version):
            raise PluginDefinitionError(
                f"plugin {name!r}: version {version!r} is not letters, digits, '.', '-' and '_' "
                "starting with a letter or a digit (at most 64 characters)"
            )
    twice = sorted({v for v in versions if versions.count(v) > 1})
    if twice:
        raise PluginDefinitionError(f"plugin {name!r}: versions lists {twice} more than once")
    get_labels = getattr(obj, "get_labels", None)
    if not callable(get_labels):
        raise PluginDefinitionError(f"plugin {name!r}: get_labels() is missing")
    raw = get_labels()
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise PluginDefinitionError(f"plugin {name!r}: get_labels() must return a mapping")
    unknown = sorted(set(raw) - set(SCOPE_FIELDS.values()))
    if unknown:
        raise PluginDefinitionError(
            f"plugin {name!r}: get_labels() returned {unknown}; it takes plugin_labels and "
            "version_labels"
        )
    plugin_defaults = _defaults(raw.get("plugin_labels"), PLUGIN, "plugin_labels", name)
    raw_versions_labels = raw.get("version_labels") or {}
    if not isinstance(raw_versions_labels, Mapping):
        raise PluginDefinitionError(f"plugin {name!r}: version_labels must be a mapping")
    version_defaults = {}
    for version, entry in raw_versions_labels.items():
        if version not in versions:
            raise PluginDefinitionError(
                f"plugin {name!r}: version_labels names {version!r}, which is not one of its "
                f"versions ({', '.join(versions)})"
            )
        version_defaults[version] = _defaults(entry, VERSION, f"version_labels[{version!r}]", name)
    return PluginInfo(
        name=name,
        title=title,
        description=description,
        versions=versions,
        plugin_defaults=plugin_defaults,
        version_defaults=version_defaults,
        source=source,
    )


def _target_object(target: Any) -> Any:
    if isinstance(target, type):
        return target()
    if callable(target) and not hasattr(target, "get_labels"):
        return target()
    return target


def collect(
    plugins: Iterable[Any], source: str = "code"
) -> tuple[dict[str, PluginInfo], tuple[PluginProblem, ...]]:
    """Check plugin objects given in code; duplicates and malformed ones are reported."""
    found: dict[str, PluginInfo] = {}
    problems: list[PluginProblem] = []
    for obj in plugins:
        try:
            info = plugin_info(obj, source)
        except PluginDefinitionError as exc:
            problems.append(PluginProblem(source, "malformed", str(exc)))
            continue
        except Exception as exc:  # get_labels() itself failed
            name = getattr(obj, "name", obj)
            message = f"plugin {name!r} failed to load: {type(exc).__name__}: {exc}"
            problems.append(PluginProblem(source, "import-error", message))
            continue
        if info.name in found:
            problems.append(_clash(info, found[info.name]))
            continue
        found[info.name] = info
    return found, tuple(problems)


def _clash(info: PluginInfo, kept: PluginInfo) -> PluginProblem:
    return PluginProblem(
        info.source,
        "clash",
        f"publishes the plugin {info.name!r}, which {kept.source} already publishes; the first "
        "one is kept",
        info.name,
    )


def load_plugins(
    group: str = ENTRY_POINT_GROUP,
    entry_points: Iterable[importlib.metadata.EntryPoint] | None = None,
) -> tuple[dict[str, PluginInfo], tuple[PluginProblem, ...]]:
    """Load every plugin of the entry-point group, in a fixed order (by name, then target).

    Returns the plugins by name and the problems: entry points that failed to import or to
    build their object, malformed plugins, and plugin names published twice (the first wins).
    """
    loaded, load_problems = load_group(
        group,
        build=_target_object,
        check=plugin_info,
        malformed=(PluginDefinitionError,),
        entry_points=entry_points,
    )
    found: dict[str, PluginInfo] = {}
    problems = list(load_problems)
    for item in loaded:
        info = item.value
        if info.name in found:
            problems.append(_clash(info, found[info.name]))
            continue
        found[info.name] = info
    for problem in problems:
        LOG.warning("Plugin: %s", problem)
    return found, tuple(problems)
