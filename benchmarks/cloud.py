"""``onespec validate cloud`` on a cloud of 200 flavors and 2,000 images: listing against checking.

The cloud is the cloud in a box (``tests/cloud``: real nova-api 34.0.0 and glance-api 33.0.0),
seeded through their HTTP APIs, a few requests at a time. The command is run in this process
with ``--verbose -f json``, which reports the seconds spent listing (every flavor with its
extra specs, every image with its properties, page by page through openstacksdk) and checking
(every image on its own, every flavor with every active image). The target is a ratio measured
in one run: checking takes at most a tenth of the time spent listing, so reading the cloud, not
onespec, is what an operator waits for.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path

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


def _seed(box, chance: random.Random) -> None:
    """Create the flavors and images through the APIs, one at a time: the box's services
    keep SQLite databases, which refuse a second writer (Nova answers 500)."""
    flavors = [
        (chance.choice((2, 4, 8)), chance.choice((2048, 4096, 8192)), chance.choice((10, 20, 40)))
        for _ in range(FLAVORS)
    ]
    images = [
        (chance.randrange(len(IMAGE_PROPERTIES)), chance.choice((0, 5, 30))) for _ in range(IMAGES)
    ]
    for at in range(FLAVORS):
        box.create_flavor(*flavors[at], FLAVOR_SPECS[at % len(FLAVOR_SPECS)], name=f"bench-{at}")
    # Glance's SQLite database takes one writer at a time: more threads would wait or fail.
    for at in range(IMAGES):
        properties, min_disk = images[at]
        box.create_image(
            IMAGE_PROPERTIES[properties],
            min_disk=min_disk,
            name=f"bench-{at}",
            active=at % 10 != 0,  # a tenth never uploaded: listed, not paired
        )


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
