"""Nova's own verdict on flavors with images, phase by phase (runs in the Nova environment).

Reads ``[{"flavor": {...}, "image": {...}}, ...]`` as JSON on standard input; prints, for each
case, the class name of the exception Nova raises in each phase (or null):

``api``
    what server create runs, in its order: ``API._validate_flavor_image_nostatus`` (config
    drive, min_ram, packed rings, disk sizes, then ``_validate_flavor_image_numa_pci``, which
    types the image's properties -- ``InvalidRequest`` when one cannot be read -- and runs the
    NUMA checks),
    ``get_pci_numa_policy_constraint``, ``get_sound_model`` and the ephemeral encryption
    checks of ``_update_ephemeral_encryption_bdms``;
``scheduler``
    what the scheduler's request builder runs: ``get_vtpm_constraint``,
    ``get_secure_boot_constraint``, ``get_maxphysaddr_mode``;
``spawn``
    what the libvirt driver runs on the host: ``get_best_cpu_topology``, ``get_usb_model``,
    ``get_redirected_usb_ports``.

One process checks a whole batch, so Nova is imported once.
"""

import json
import sys
import warnings

warnings.simplefilter("ignore")

from nova import exception, objects  # noqa: E402

objects.register_all()

from nova.compute import api as compute_api  # noqa: E402
from nova.virt import hardware  # noqa: E402


def flavor_object(flavor):
    return objects.Flavor(
        name="checked",
        flavorid="checked",
        vcpus=flavor["vcpus"],
        memory_mb=flavor["ram"],
        root_gb=flavor.get("disk", 0),
        ephemeral_gb=flavor.get("ephemeral", 0),
        swap=flavor.get("swap", 0),
        extra_specs=dict(flavor.get("extra_specs", {})),
    )


def image_dict(image):
    return {
        "id": "1f8c4ae5-0d07-4a0b-a8d3-2d8d11c2b6b4",
        "name": "checked",
        "status": "active",
        "min_ram": image.get("min_ram", 0),
        "min_disk": image.get("min_disk", 0),
        "size": image.get("size", 0),
        "properties": dict(image.get("properties", {})),
    }


def ephemeral_encryption(flavor, image_meta):
    """What ``API._update_ephemeral_encryption_bdms`` checks: the format only when encrypting."""
    if hardware.get_ephemeral_encryption_constraint(flavor, image_meta):
        hardware.get_ephemeral_encryption_format(flavor, image_meta)


def first_refusal(*checks):
    for check in checks:
        try:
            check()
        except (exception.NovaException, ValueError) as error:
            return type(error).__name__
    return None


def verdict(case):
    flavor = flavor_object(case["flavor"])
    image = image_dict(case.get("image") or {})
    # Server create checks the image's raw properties (config drive, min_ram, packed rings,
    # sizes) before it types them; typing an unreadable property is InvalidRequest.
    first = first_refusal(
        lambda: compute_api.API._validate_flavor_image_nostatus(None, image, flavor, None)
    )
    try:
        image_meta = objects.ImageMeta.from_dict(image)
    except ValueError:
        return {"api": first or "InvalidRequest", "scheduler": None, "spawn": None}
    return {
        "api": first
        or first_refusal(
            lambda: hardware.get_pci_numa_policy_constraint(flavor, image_meta),
            lambda: hardware.get_sound_model(flavor, image_meta),
            lambda: ephemeral_encryption(flavor, image_meta),
        ),
        "scheduler": first_refusal(
            lambda: hardware.get_vtpm_constraint(flavor, image_meta),
            lambda: hardware.get_secure_boot_constraint(flavor, image_meta),
            lambda: hardware.get_maxphysaddr_mode(flavor, image_meta),
        ),
        "spawn": first_refusal(
            lambda: hardware.get_best_cpu_topology(flavor, image_meta),
            lambda: hardware.get_usb_model(flavor, image_meta),
            lambda: hardware.get_redirected_usb_ports(flavor, image_meta),
        ),
    }


def create_time(case):
    """Server create's own check of the pair alone (the ``api`` phase above), objects built
    from the same input."""
    flavor = flavor_object(case["flavor"])
    image = image_dict(case.get("image") or {})
    return first_refusal(
        lambda: compute_api.API._validate_flavor_image_nostatus(None, image, flavor, None)
    )


def timed(case, loops):
    """The median time of ``verdict`` on one case, in microseconds (``--time LOOPS``): wall
    clock and CPU time; and of :func:`create_time` alone, wall clock."""
    import statistics
    import time

    def median(clock, check=verdict):
        runs = []
        for _ in range(7):
            start = clock()
            for _ in range(loops):
                check(case)
            runs.append((clock() - start) / loops * 1e6)
        return statistics.median(runs)

    return {
        "median_us": median(time.perf_counter),
        "cpu_median_us": median(time.process_time),
        "create_median_us": median(time.perf_counter, create_time),
    }


if __name__ == "__main__":
    if sys.argv[1:2] == ["--time"]:
        json.dump(timed(json.load(sys.stdin), int(sys.argv[2])), sys.stdout)
    else:
        json.dump([verdict(case) for case in json.load(sys.stdin)], sys.stdout)
