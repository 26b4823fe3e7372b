"""``onespec validate cloud`` on a cloud of 200 flavors and 2,000 images: listing against checking.

The cloud is the cloud in a box (``tests/cloud``: real nova-api 34.0.0 and glance-api 33.0.0).
One flavor of each kind and one image of each kind are created through the services' HTTP APIs;
the rest are copies of their database rows, with new ids and names: creating 2,200 objects one
request at a time (the box's SQLite databases take one writer) took minutes, and what is
measured is the listing, which reads the copies through the APIs like any other object. The
command is run in this process with ``--verbose -f json``, which reports the seconds spent
listing (every flavor with its extra specs, every image with its properties, page by page
through openstacksdk) and checking (every image on its own, every flavor with every active
image). The target is a ratio measured in one run: checking takes at most a tenth of the time
spent listing, so reading the cloud, not onespec, is what an operator waits for.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sqlite3
import tempfile
import uuid
from pathlib import Path
from typing import Any

import yaml

from tests import peers

FLAVORS = 200
IMAGES = 2000
TARGET_SHARE = 0.10

FLAVOR_SPECS = [
    {},
    {"hw:cpu_policy": "dedicated"},
    {"hw:mem_page_size": "large"},
    {"hw:pmu": "false"},
    {"hw:numa_nodes": "2"},
    {"hw:cpu_policy": "dedicated", "hw:cpu_thread_policy": "prefer"},
    {"hw:watchdog_action": "reset", "hw:serial_port_count": "2"},
]
IMAGE_PROPERTIES = [
    {},
    {"hw_pmu": "true"},
    {"hw_mem_page_size": "2048"},
    {"hw_disk_bus": "virtio", "hw_scsi_model": "virtio-scsi"},
    {"hw_firmware_type": "uefi", "hw_machine_type": "q35"},
    {"os_distro": "ubuntu", "hw_cpu_policy": "dedicated"},
]


def _line(label: str, figure: str, ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"{label:<58} {figure}{mark}")


def _copy_rows(
    database: sqlite3.Connection, table: str, where: str, value: Any, changes: dict[str, Any]
) -> list[int]:
    """Insert a copy of each row of *table* whose *where* column is *value*, with *changes*;
    an integer ``id`` is left to the database. The ids of the new rows."""
    cursor = database.execute(f"SELECT * FROM {table} WHERE {where} = ?", (value,))  # noqa: S608
    names = [column[0] for column in cursor.description]
    added = []
    for row in cursor.fetchall():
        record = dict(zip(names, row, strict=True))
        if isinstance(record.get("id"), int):
            record.pop("id")
        record.update(changes)
        columns = ", ".join(record)
        marks = ", ".join("?" for _ in record)
        inserted = database.execute(
            f"INSERT INTO {table} ({columns}) VALUES ({marks})",  # noqa: S608
            tuple(record.values()),
        )
        added.append(inserted.lastrowid or 0)
    return added


def _seed(box, chance: random.Random) -> None:
    """One flavor and one image of each kind through the APIs, the rest copied in SQL."""
    kinds = []
    for at, specs in enumerate(FLAVOR_SPECS):
        for vcpus, ram, disk in ((2, 2048, 10), (4, 4096, 20), (8, 8192, 40)):
            kinds.append(
                box.create_flavor(vcpus, ram, disk, specs, name=f"bench-kind-{at}-{vcpus}")
            )
    images = []
    for at, properties in enumerate(IMAGE_PROPERTIES):
        for min_disk in (0, 5, 30):
            for active in (True, False):
                images.append(
                    box.create_image(
                        properties,
                        min_disk=min_disk,
                        name=f"bench-kind-{at}-{min_disk}-{active}",
                        active=active,
                    )
                )
    nova = sqlite3.connect(box.folder / "nova_api.sqlite", timeout=60)
    with contextlib.closing(nova), nova:
        for at in range(FLAVORS - len(kinds)):
            kind = chance.choice(kinds)
            (row,) = nova.execute("SELECT id FROM flavors WHERE flavorid = ?", (kind["id"],))
            (new_id,) = _copy_rows(
                nova,
                "flavors",
                "flavorid",
                kind["id"],
                {"flavorid": str(uuid.uuid4()), "name": f"bench-{at}"},
            )
            _copy_rows(nova, "flavor_extra_specs", "flavor_id", row[0], {"flavor_id": new_id})
    glance = sqlite3.connect(box.folder / "glance.sqlite", timeout=60)
    with contextlib.closing(glance), glance:
        for at in range(IMAGES - len(images)):
            # A tenth never uploaded: listed, checked on their own, not paired.
            image = chance.choice([i for i in images if (i["status"] == "active") == bool(at % 10)])
            new_id = str(uuid.uuid4())
            _copy_rows(glance, "images", "id", image["id"], {"id": new_id, "name": f"bench-{at}"})
            for table in ("image_properties", "image_locations"):
                _copy_rows(glance, table, "image_id", image["id"], {"image_id": new_id})


def run() -> int:
    print(
        f"validate cloud: {FLAVORS} flavors x {IMAGES:,} images in the cloud in a box "
        f"(target: checking <= {TARGET_SHARE:.0%} of listing)"
    )
    if not (
        peers.is_provided(peers.PROGRAMS["nova"]) and peers.is_provided(peers.PROGRAMS["glance"])
    ):
        print(f"  skipped: the box runs the Nova and Glance peers: run `{peers.MAKE_TARGET}`")
        return 0
    from tests.cloud.box import start
    from tests.commands import onespec

    with tempfile.TemporaryDirectory(prefix="onespec-bench-cloud-") as folder:
        box = start(Path(folder) / "box", os.getpid())
        try:
            _seed(box, random.Random(20))
            clouds = Path(folder) / "clouds.yaml"
            clouds.write_text(yaml.safe_dump(box.clouds_yaml("bench")))
            done = onespec(
                "validate",
                "cloud",
                "--os-cloud",
                "bench",
                "--verbose",
                "-f",
                "json",
                cwd=Path(folder),
                env={"OS_CLIENT_CONFIG_FILE": str(clouds), "OS_CLOUD": None},
            )
        finally:
            box.stop()
    report = json.loads(done.stdout)
    listing, checking = report["seconds"]["listing"], report["seconds"]["checking"]
    share = checking / listing if listing else float("inf")
    ok = share <= TARGET_SHARE
    _line("  flavors listed, images listed", f"{report['flavors']:>5} {report['images_listed']:>6}")
    _line("  listing (openstacksdk, paged)", f"{listing:8.2f} s")
    _line("  checking (images alone, every flavor x active image)", f"{checking:8.2f} s")
    _line("  checking / listing", f"{share:8.1%}", ok)
    return 0 if ok else 1
