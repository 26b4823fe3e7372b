"""Labels at run time: the merge rule, updates, enforcement, and the plugin SPI's loader."""

from __future__ import annotations

import importlib.metadata

import pytest

from onespec.validators_runtime.plugin_labels import labels
from onespec.validators_runtime.plugin_labels.fake import PLUGIN as FAKE
from onespec.validators_runtime.plugin_labels.labels import (
    LabelUpdateError,
    OperationNotAllowed,
    PluginNotFound,
    VersionNotFound,
    apply_update,
    check_cluster_operation,
    plugin_view,
    validate_update,
)
from onespec.validators_runtime.plugin_labels.manager import LabelManager
from onespec.validators_runtime.plugin_labels.spi import (
    PluginDefinitionError,
    collect,
    load_plugins,
    plugin_info,
)

INFO = plugin_info(FAKE)


class Plugin:
    def __init__(self, name="acme", versions=("1.0", "2.0"), defaults=None, **attributes):
        self.name = name
        self.title = attributes.pop("title", "Acme")
        self.description = attributes.pop("description", "The Acme plugin.")
        self.versions = versions
        self._defaults = defaults if defaults is not None else {}
        for key, value in attributes.items():
            setattr(self, key, value)

    def get_labels(self):
        return self._defaults


def statuses(view, version=None):
    scope = view["plugin_labels"] if version is None else view["version_labels"][version]
    return {name: entry["status"] for name, entry in scope.items()}


# --- The merge rule ------------------------------------------------------------------------------


def test_defaults_come_from_the_plugin_then_the_label():
    view = plugin_view(INFO)
    assert statuses(view) == {"enabled": True, "hidden": True, "stable": False, "deprecated": False}
    assert statuses(view, "0.1") == {"enabled": True, "stable": False, "deprecated": True}
    assert statuses(view, "0.2") == {"enabled": True, "stable": True, "deprecated": False}


def test_what_a_project_stored_overrides_label_by_label():
    stored = {"plugin_labels": {"hidden": {"status": False}}, "version_labels": {}}
    view = plugin_view(INFO, stored)
    assert statuses(view)["hidden"] is False
    assert statuses(view)["enabled"] is True


def test_stored_immutable_or_malformed_entries_are_ignored():
    stored = {
        "plugin_labels": {
            "stable": {"status": True},
            "enabled": {"status": "no"},
            "bogus": {"status": True},
            "hidden": "yes",
        },
        "version_labels": {"0.1": {"deprecated": {"status": False}}, "0.2": [], "9": {}},
    }
    assert plugin_view(INFO, stored) == plugin_view(INFO)
    assert plugin_view(INFO, {"plugin_labels": [], "version_labels": "x"}) == plugin_view(INFO)


def test_apply_update_stores_only_what_changed_and_null_forgets():
    update = validate_update(INFO, {"plugin_labels": {"enabled": {"status": False}}})
    stored = apply_update(None, update)
    assert stored == {"plugin_labels": {"enabled": {"status": False}}, "version_labels": {}}
    update = validate_update(
        INFO,
        {
            "plugin_labels": {"enabled": {"status": None}},
            "version_labels": {"0.2": {"enabled": {"status": False}}},
        },
    )
    stored = apply_update(stored, update)
    assert stored == {
        "plugin_labels": {},
        "version_labels": {"0.2": {"enabled": {"status": False}}},
    }


def test_apply_update_drops_what_older_tools_stored_for_immutable_labels():
    old = {"plugin_labels": {"stable": {"status": True}, "hidden": {"status": False}}}
    assert apply_update(old, validate_update(INFO, {})) == {
        "plugin_labels": {"hidden": {"status": False}},
        "version_labels": {},
    }


def test_the_view_of_an_unknown_version_is_refused():
    with pytest.raises(
        VersionNotFound, match=r"no version '9'; its versions are '0\.1' and '0\.2'"
    ):
        plugin_view(INFO, version="9")


# --- Enforcement ---------------------------------------------------------------------------------


def test_an_enabled_plugin_allows_everything_and_warns_about_deprecation():
    view = plugin_view(INFO)
    assert check_cluster_operation(view, "0.2", "create") == []
    (warning,) = check_cluster_operation(view, "0.1", "scale")
    assert warning.startswith("Version '0.1' of plugin 'fake' is deprecated")


@pytest.mark.parametrize(
    ("stored", "subject"),
    [
        ({"plugin_labels": {"enabled": {"status": False}}}, "Plugin 'fake'"),
        ({"version_labels": {"0.2": {"enabled": {"status": False}}}}, "Version '0.2' of plugin"),
    ],
)
def test_a_disabled_plugin_or_version_allows_only_delete(stored, subject):
    view = plugin_view(INFO, stored)
    assert check_cluster_operation(view, "0.2", "delete") == []
    for operation in ("create", "scale", "update"):
        with pytest.raises(OperationNotAllowed) as caught:
            check_cluster_operation(view, "0.2", operation)
        assert str(caught.value).startswith(f"{subject}")
        assert f"'{operation}' operation is refused" in str(caught.value)


def test_enforcement_checks_its_arguments():
    view = plugin_view(INFO)
    with pytest.raises(VersionNotFound):
        check_cluster_operation(view, "3.0", "create")
    with pytest.raises(ValueError, match="operation must be a non-empty string"):
        check_cluster_operation(view, "0.1", "")


def test_warnings_and_hidden_for_the_client():
    view = plugin_view(INFO)
    assert labels.hidden(view)
    assert len(labels.warnings_for(view)) == 1
    disabled = {"version_labels": {"0.1": {"enabled": {"status": False}}}}
    assert labels.warnings_for(plugin_view(INFO, disabled)) == []
    off = {"plugin_labels": {"enabled": {"status": False}}}
    assert labels.warnings_for(plugin_view(INFO, off)) == []
    assert not labels.hidden(plugin_view(INFO, {"plugin_labels": {"hidden": {"status": False}}}))


# --- The manager ---------------------------------------------------------------------------------


def test_the_manager_keeps_projects_apart_and_validates_whole():
    manager = LabelManager([INFO])
    manager.update("p1", "fake", {"plugin_labels": {"enabled": {"status": False}}})
    assert statuses(manager.show("p1", "fake"))["enabled"] is False
    assert statuses(manager.show("p2", "fake"))["enabled"] is True
    with pytest.raises(LabelUpdateError):
        manager.update(
            "p2",
            "fake",
            {
                "plugin_labels": {"enabled": {"status": False}},
                "version_labels": {"0.1": {"stable": {"status": True}}},
            },
        )
    assert statuses(manager.show("p2", "fake"))["enabled"] is True
    with pytest.raises(OperationNotAllowed):
        manager.check_cluster_operation("p1", "fake", "0.2", "create")
    with pytest.raises(PluginNotFound, match="Did you mean 'fake'"):
        manager.show("p1", "fakes")
    assert [view["name"] for view in manager.list("p1")] == ["fake"]


def test_a_manager_refuses_a_plugin_twice():
    with pytest.raises(ValueError, match="given twice"):
        LabelManager([INFO, INFO])


# --- The SPI -------------------------------------------------------------------------------------


def test_a_well_formed_plugin_is_read_once():
    calls = []

    class Counting(Plugin):
        def get_labels(self):
            calls.append(1)
            return {"version_labels": {"2.0": {"stable": {"status": True}}}}

    info = plugin_info(Counting())
    assert info.version_defaults == {"2.0": {"stable": True}}
    assert info.plugin_defaults == {}
    plugin_view(info)
    plugin_view(info)
    assert calls == [1]


@pytest.mark.parametrize(
    ("plugin", "words"),
    [
        (Plugin(name="Acme"), "lower-case word"),
        (Plugin(name=""), "lower-case word"),
        (Plugin(title=3), "title must be a string"),
        (Plugin(versions="1.0"), "versions must be a list"),
        (Plugin(versions=()), "at least one version"),
        (Plugin(versions=("1.0", "1.0")), "more than once"),
        (Plugin(versions=("..",)), "version '..'"),
        (Plugin(versions=(1.0,)), "version 1.0"),
        (Plugin(defaults=[]), "must return a mapping"),
        (Plugin(defaults={"labels": {}}), "returned ['labels']"),
        (Plugin(defaults={"plugin_labels": {"shiny": {"status": True}}}), "unknown label 'shiny'"),
        (
            Plugin(defaults={"version_labels": {"1.0": {"hidden": {"status": True}}}}),
            "does not apply to a version",
        ),
        (Plugin(defaults={"plugin_labels": {"enabled": True}}), '{"status": true or false}'),
        (Plugin(defaults={"version_labels": {"3.0": {}}}), "'3.0', which is not one of its"),
    ],
)
def test_a_malformed_plugin_is_refused_naming_the_plugin_and_field(plugin, words):
    with pytest.raises(PluginDefinitionError) as caught:
        plugin_info(plugin)
    assert words in str(caught.value)


def test_collect_reports_duplicates_and_malformed_plugins():
    found, problems = collect([Plugin(), Plugin(), Plugin(name="x!"), FAKE])
    assert sorted(found) == ["acme", "fake"]
    assert [problem.kind for problem in problems] == ["clash", "malformed"]


def test_entry_points_load_objects_classes_and_factories_and_report_the_rest():
    def entry_point(name, target):
        return importlib.metadata.EntryPoint(name, target, "onespec.plugins")

    found, problems = load_plugins(
        entry_points=[
            entry_point("fake", "onespec.validators_runtime.plugin_labels.fake:PLUGIN"),
            entry_point("fake-class", "onespec.validators_runtime.plugin_labels.fake:FakePlugin"),
            entry_point("ghost", "onespec.validators_runtime.plugin_labels.fake:NOPE"),
            entry_point("broken", "no_such_module:PLUGIN"),
            entry_point("bad", "onespec.validators_runtime.plugin_labels.labels:LABELS"),
        ]
    )
    assert list(found) == ["fake"]
    kinds = {problem.source.split("'")[1]: problem.kind for problem in problems}
    assert kinds == {
        "bad": "malformed",
        "broken": "import-error",
        "fake-class": "clash",
        "ghost": "import-error",
    }


def test_the_installed_fake_plugin_is_found_through_its_entry_point():
    found, problems = load_plugins()
    assert "fake" in found
    assert found["fake"].source.startswith("entry point 'fake'")
    assert problems == ()


def test_a_plugin_whose_get_labels_fails_is_reported_not_raised():
    class Failing(Plugin):
        def get_labels(self):
            raise RuntimeError("no database")

    found, problems = collect([Failing(), FAKE])
    assert list(found) == ["fake"]
    (problem,) = problems
    assert problem.kind == "import-error"
    assert "RuntimeError: no database" in problem.message
