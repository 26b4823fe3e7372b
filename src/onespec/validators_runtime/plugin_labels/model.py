"""What the rest of the package knows of a loaded plugin: the small model every module shares.

The loader (:mod:`~onespec.validators_runtime.plugin_labels.spi`) builds these and the label
rules (:mod:`~onespec.validators_runtime.plugin_labels.labels`) read them; keeping the type here
lets each import it without importing the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PluginInfo:
    """A loaded, checked plugin: its identity and the label statuses it sets by default.

    ``plugin_defaults`` maps label names to statuses for the plugin as a whole;
    ``version_defaults`` maps each version to the same. Labels the plugin says nothing about are
    absent (the label's own default applies). ``source`` names where the plugin came from.
    """

    name: str
    title: str
    description: str
    versions: tuple[str, ...]
    plugin_defaults: dict[str, bool] = field(default_factory=dict)
    version_defaults: dict[str, dict[str, bool]] = field(default_factory=dict)
    source: str = "code"
