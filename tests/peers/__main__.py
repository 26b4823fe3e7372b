"""``python -m tests.peers [provide|list] [NAME ...]``: provide the tests' peer programs.

``provide`` (the default) builds what is missing and exits 0 even when a peer could not be had,
so that its tests skip with the reason, unless ``ONESPEC_REQUIRE_PEERS=1`` asks for exit 1.
"""

from __future__ import annotations

import argparse
import sys

from tests import peers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.peers", description=__doc__)
    parser.add_argument("action", nargs="?", choices=["provide", "list"], default="provide")
    parser.add_argument("names", nargs="*", help="peers to provide (all by default)")
    options = parser.parse_args(argv)
    try:
        items = [peers.peer(name) for name in options.names]
    except KeyError as error:
        parser.error(str(error.args[0]))
    if options.action == "list":
        for item in items or [*peers.PROGRAMS.values(), *peers.SOURCES.values()]:
            state = "provided" if peers.is_provided(item) else "missing"
            print(f"{item.name:24} {state:9} {item.location}  {item.summary}")
        return 0
    failed = peers.provide(options.names)
    if failed:
        print(
            f"Could not provide: {', '.join(failed)}. Their tests will skip"
            + (" -- ONESPEC_REQUIRE_PEERS is set, so this fails." if peers.required() else "."),
            file=sys.stderr,
        )
        return 1 if peers.required() else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
