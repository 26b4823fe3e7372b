"""Run every benchmark: ``python -m benchmarks`` (``make bench``)."""

from __future__ import annotations

import sys

from benchmarks import (
    api,
    audit,
    capabilities,
    cloud,
    docs,
    extra_specs,
    flavors,
    images,
    nova_filter,
    service_writes,
)


def main() -> int:
    missed = extra_specs.run()
    print()
    missed += docs.run()
    print()
    missed += api.run()
    print()
    missed += capabilities.run()
    print()
    missed += images.run()
    print()
    missed += audit.run()
    print()
    missed += flavors.run()
    print()
    missed += nova_filter.run()
    print()
    missed += service_writes.run()
    print()
    missed += cloud.run()
    print()
    if missed:
        print(f"{missed} target(s) missed.")
        return 1
    print("All targets met.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
