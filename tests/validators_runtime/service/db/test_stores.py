"""The SQL store and its migrations, on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa

from onespec.validators_runtime.service.db import migrate as database
from onespec.validators_runtime.service.db.engine import (
    StoreError,
    create_engine,
    display_url,
    normalize_url,
)
from onespec.validators_runtime.service.db.flavor_store import FlavorSpecStore
from onespec.validators_runtime.service.db.label_store import PluginStore
from onespec.validators_runtime.service.db.tables import PLUGINS


@pytest.fixture
def engine(database_url):
    engine = create_engine(database_url, pool_size=20)
    yield engine
    engine.dispose()


# --- Migrations ----------------------------------------------------------------------------------


def test_the_migrations_build_what_the_metadata_describes(empty_database_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = create_engine(empty_database_url)
    try:
        assert database.current_revision(engine) is None
        assert database.upgrade(engine) == database.head_revision()
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, database.TARGET_METADATA) == []
        assert database.upgrade(engine) == database.head_revision()  # idempotent
        database.ensure_current(engine)
    finally:
        engine.dispose()


def test_a_database_that_is_not_ready_says_what_to_run(empty_database_url):
    engine = create_engine(empty_database_url)
    try:
        with pytest.raises(database.DatabaseNotReady, match="onespec db upgrade --database-url"):
            database.ensure_current(engine)
        database.upgrade(engine)
        with engine.begin() as connection:
            connection.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
        with pytest.raises(database.DatabaseNotReady, match="a newer release upgraded it"):
            database.ensure_current(engine)
    finally:
        engine.dispose()


def test_the_migrations_downgrade_too(empty_database_url):
    from alembic import command

    engine = create_engine(empty_database_url)
    try:
        database.upgrade(engine)
        with engine.begin() as connection:
            command.downgrade(database.alembic_config(connection), "base")
        assert set(sa.inspect(engine).get_table_names()) == {"alembic_version"}
    finally:
        engine.dispose()


# --- URLs ----------------------------------------------------------------------------------------


def test_urls_are_normalised_and_checked():
    assert normalize_url("postgresql://u:p@h/db").drivername == "postgresql+psycopg"
    assert normalize_url("postgres://h/db").drivername == "postgresql+psycopg"
    for url, words in (
        ("sqlite://", "in-memory"),
        ("sqlite:///:memory:", "in-memory"),
        ("mysql://h/db", "'mysql' backend"),
        ("not a url", "is not a database URL"),
    ):
        with pytest.raises(StoreError, match=words):
            normalize_url(url)
    assert display_url("postgresql://u:secret@h/db") == "postgresql://u:***@h/db"


# --- Plugin labels -------------------------------------------------------------------------------


def test_a_plugin_store_round_trip(engine):
    store = PluginStore(engine)
    assert store.labels("p", "fake") is None
    assert store.labels_for("p") == {}
    new = store.update("p", "fake", lambda current: {**current, "plugin_labels": {"x": 1}})
    assert new["plugin_labels"] == {"x": 1}
    assert store.labels("p", "fake") == {"plugin_labels": {"x": 1}, "version_labels": {}}
    assert store.labels_for("p") == {"fake": {"plugin_labels": {"x": 1}, "version_labels": {}}}
    assert store.labels_for("q") == {}


def test_a_failed_change_writes_nothing(engine):
    store = PluginStore(engine)

    def explode(current):
        raise RuntimeError("no")

    with pytest.raises(RuntimeError):
        store.update("p", "fake", explode)
    with engine.connect() as connection:
        assert connection.execute(sa.select(sa.func.count()).select_from(PLUGINS)).scalar() == 0


def test_concurrent_read_modify_writes_of_one_row_lose_nothing(engine):
    store = PluginStore(engine)
    names = [f"label{n}" for n in range(20)]
    barrier = threading.Barrier(len(names))
    errors: list[BaseException] = []

    def add(name):
        def change(current):
            labels = dict(current["plugin_labels"])
            labels[name] = {"status": True}
            return {**current, "plugin_labels": labels}

        try:
            barrier.wait()
            store.update("p", "fake", change)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=add, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(store.labels("p", "fake")["plugin_labels"]) == sorted(names)


# --- Flavor extra specs --------------------------------------------------------------------------


def test_flavor_specs_merge_replace_and_delete(engine):
    specs = FlavorSpecStore(engine)
    specs.merge("f", {"b": "2", "a": "1"})
    specs.merge("f", {"a": "one"})
    assert specs.all("f") == {"a": "one", "b": "2"}
    assert list(specs.all("f")) == ["a", "b"]
    specs.replace("f", {"c": "3"})
    assert specs.all("f") == {"c": "3"}
    assert specs.get("f", "c") == "3"
    assert specs.get("f", "a") is None
    assert specs.delete("f", "c") is True
    assert specs.delete("f", "c") is False
    specs.merge("f", {})
    specs.replace("g", {})
    assert specs.all("f") == {} == specs.all("g")


def test_concurrent_replacements_of_one_flavor_never_mix(engine):
    specs = FlavorSpecStore(engine)
    sets = [{f"k{n}-{i}": str(i) for i in range(5)} for n in range(10)]
    barrier = threading.Barrier(len(sets))
    errors: list[BaseException] = []

    def replace(new):
        try:
            barrier.wait()
            specs.replace("f", new)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=replace, args=(new,)) for new in sets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert specs.all("f") in sets
