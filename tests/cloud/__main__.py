"""``make cloud``: run the cloud in a box until Ctrl-C, and say how to use it.

It prints a ``clouds.yaml`` entry (also written to ``build/cloud/clouds.yaml``) and the one
``export`` that points openstacksdk, the ``openstack`` client and ``onespec validate cloud`` at it.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import yaml

from tests.cloud.box import BoxError, start
from tests.peers import ROOT, is_provided, peer


def main() -> int:
    missing = [name for name in ("nova", "glance") if not is_provided(peer(name))]
    if missing:
        names = ", ".join(missing)
        print(f"The box runs the peers {names}: run `make peers` first.", file=sys.stderr)
        return 2
    folder = ROOT / "build" / "cloud"
    print("Starting nova-api 34.0.0 (twice: with onespec and stock) and glance-api 33.0.0 ...")
    try:
        box = start(folder / "box")
    except BoxError as error:
        print(f"The box did not start: {error}", file=sys.stderr)
        return 1
    clouds = folder / "clouds.yaml"
    clouds.write_text(yaml.safe_dump(box.clouds_yaml("box"), sort_keys=False))
    print(f"Started in {box.started_in:.1f} s. Services (logs under {box.folder / 'logs'}):")
    rows = [
        ("nova-api, onespec refuses", box.nova),
        ("nova-api, onespec warns", box.nova_warn),
        ("nova-api, stock", box.nova_plain),
        ("glance-api, onespec refuses", box.glance),
        ("glance-api, onespec warns", box.glance_warn),
        ("glance-api, stock", box.glance_plain),
    ]
    for label, url in rows:
        print(f"  {label:<28} {url}")
    print(f"\nclouds.yaml ({clouds}):\n")
    print(yaml.safe_dump(box.clouds_yaml("box"), sort_keys=False))
    print("Use it (the token names an admin of project demo):\n")
    print(f"  export OS_CLIENT_CONFIG_FILE={clouds} OS_CLOUD=box")
    print("  onespec validate cloud\n")
    print("Ctrl-C stops every service.")
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        while not stopping:
            if not box.alive():
                print("A service stopped; its log says why.", file=sys.stderr)
                return 1
            time.sleep(0.5)
    finally:
        box.stop()
        print("Stopped.")
    return 0


if __name__ == "__main__":
    os.chdir(Path(__file__).resolve().parents[2])
    sys.exit(main())
