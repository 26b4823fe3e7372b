"""Load metadef files with Glance's own loader, then read them back through Glance's API code.

Runs inside the virtual environment that has Glance installed (``make peers`` creates it),
never inside the project's own: Glance is a heavy dependency that only this
check needs. Usage::

    .peers/venvs/glance/bin/python tests/peers/glance_roundtrip.py /absolute/metadef/dir

It loads every file with ``glance.db.sqlalchemy.metadata.db_load_metadefs`` (what
``glance-manage db_load_metadefs`` runs) into a fresh SQLite database, then shows each namespace
through ``NamespaceController.show`` -- plain and once per associated resource type, so that
prefixes are applied -- and serialises the result with WSME, as ``GET
/v2/metadefs/namespaces/{namespace}`` does. Prints one JSON report on standard output.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile


def main(directories: list[str]) -> int:
    import glance.context
    import webob
    from glance.api.v2 import metadef_namespaces
    from glance.api.v2.model.metadef_namespace import Namespace
    from glance.db.sqlalchemy import api as db_api
    from glance.db.sqlalchemy import metadata, models_metadef
    from oslo_config import cfg
    from oslo_db import options as db_options
    from wsme.rest import json as wsme_json

    report: dict = {"namespaces": {}, "failures": []}
    with tempfile.TemporaryDirectory(prefix="onespec-glance-") as scratch:
        db_options.set_defaults(cfg.CONF, connection=f"sqlite:///{scratch}/glance.sqlite")
        cfg.CONF([], project="glance", default_config_files=[])
        engine = db_api.get_engine()
        models_metadef.register_models(engine)
        for directory in directories:
            metadata.db_load_metadefs(engine, metadata_path=os.path.abspath(directory))

        context = glance.context.RequestContext(is_admin=True, roles=["admin"], project_id="x")
        request = webob.Request.blank("/v2/metadefs/namespaces")
        request.context = context
        controller = metadef_namespaces.NamespaceController()
        for listed in controller.index(request, limit=1000).namespaces:
            name = listed.namespace
            entry: dict = {"visibility": listed.visibility, "keys": {}}
            report["namespaces"][name] = entry
            try:
                plain = wsme_json.tojson(Namespace, controller.show(request, name))
            except Exception as exc:  # one bad namespace must not hide the others
                report["failures"].append(f"{name}: {type(exc).__name__}: {exc}")
                continue
            associations = [a["name"] for a in plain.get("resource_type_associations") or []]
            for resource_type in [None, *associations]:
                try:
                    shown = (
                        controller.show(request, name, filters={"resource_type": resource_type})
                        if resource_type
                        else controller.show(request, name)
                    )
                    data = wsme_json.tojson(Namespace, shown)
                    json.dumps(data)
                except Exception as exc:
                    report["failures"].append(
                        f"{name} ({resource_type}): {type(exc).__name__}: {exc}"
                    )
                    continue
                keys = sorted(data.get("properties") or {})
                for obj in data.get("objects") or []:
                    keys += sorted(obj.get("properties") or {})
                entry["keys"][resource_type or ""] = keys
    json.dump(report, sys.stdout, indent=1, sort_keys=True)
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
