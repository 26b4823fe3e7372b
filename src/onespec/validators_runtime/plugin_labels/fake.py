"""The built-in ``fake`` plugin: it provisions nothing, so the service is useful out of the box.

It is hidden by default, as a test plugin should be, and shows the labels at work: version
``0.1`` is deprecated and version ``0.2`` is stable.
"""

from __future__ import annotations

from typing import Any


class FakePlugin:
    """A plugin that stands in for a real one in tests and demonstrations."""

    name = "fake"
    title = "Fake plugin"
    description = (
        "A plugin that provisions nothing: it stands in for a real one in tests and "
        "demonstrations of the plugin admin API."
    )
    versions = ("0.1", "0.2")

    def get_labels(self) -> dict[str, Any]:
        return {
            "plugin_labels": {"hidden": {"status": True}},
            "version_labels": {
                "0.1": {"deprecated": {"status": True}},
                "0.2": {"stable": {"status": True}},
            },
        }


#: The object the ``fake`` entry point names.
PLUGIN = FakePlugin()
