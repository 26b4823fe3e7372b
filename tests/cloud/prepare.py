"""Create the databases of the cloud in a box: run once, inside the service's peer environment.

Usage (the box runs it in an empty folder holding ``etc/<service>/``; nothing else should)::

    python prepare.py nova|glance

For Nova: the API database, the cell0 mapping and database, the main (cell1) database and its
cell mapping -- what ``nova-manage api_db sync``, ``cell_v2 map_cell0``, ``db sync`` and
``cell_v2 create_cell`` do, in one process (each ``nova-manage`` process spends seconds importing
Nova). For Glance: ``glance-manage db_sync``. The connections are relative SQLite paths, read
against the service's working directory, so the box can copy the migrated files anywhere and
the cell mappings stay right.
"""

import os
import sys
import warnings

warnings.simplefilter("ignore")


def nova():
    from nova import config, context, objects
    from nova.cmd import manage

    sys.argv = ["nova-manage"]
    config.parse_args(
        ["nova-manage", "--config-file", os.path.join("etc", "nova", "nova.conf")],
        default_config_files=[],
    )
    objects.register_all()
    results = [
        manage.ApiDbCommands().sync(),
        manage.CellV2Commands().map_cell0(
            database_connection="sqlite:///nova_cell0.sqlite?timeout=60"
        ),
        manage.DbCommands().sync(),
        manage.CellV2Commands().create_cell(
            name="cell1",
            database_connection="sqlite:///nova.sqlite?timeout=60",
            transport_url="fake:/",
        ),
    ]
    if any(result not in (None, 0) for result in results):
        raise SystemExit(f"prepare.py: a Nova database step failed: {results}")
    mappings = objects.CellMappingList.get_all(context.get_admin_context())
    print(sorted(mapping.name for mapping in mappings))


def glance():
    from glance.cmd import manage

    sys.argv = [
        "glance-manage",
        "--config-file",
        os.path.join("etc", "glance", "glance-api.conf"),
        "db_sync",
    ]
    manage.main()


if __name__ == "__main__":
    {"nova": nova, "glance": glance}[sys.argv[1]]()
