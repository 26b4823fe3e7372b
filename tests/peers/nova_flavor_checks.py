"""Nova's own verdict on flavors with images, phase by phase (runs in the Nova environment).

Reads ``[{"flavor": {...}, "image": {...}}, ...]`` as JSON on standard input; prints, for each
case, the class name of the exception Nova raises in each phase (or null):

``api``
    what server create (``API._create_instance``) runs, in its order: the disabled flavor
    (``FlavorNotFound``), typing the image's properties (``InvalidRequest`` when one cannot be
    read), ``numa_get_constraints`` and ``get_pci_numa_policy_constraint`` (all in
    ``_validate_and_build_base_options``), the ephemeral encryption checks of
    ``_update_ephemeral_encryption_bdms``, then ``_checks_for_create_and_rebuild``: an image
    from an encrypted volume (``ImageUnacceptable``), ``_validate_flavor_image`` (an image that
    is not active, then config drive, min_ram, packed rings, disk sizes, the zero-disk policy
    for a member's request context, and ``_validate_flavor_image_numa_pci``) and
    ``get_sound_model``. A case with ``"as_admin": true`` is judged for an admin;
``scheduler``
    what the scheduler's request builder runs: ``get_vtpm_constraint``,
    ``get_secure_boot_constraint``, ``get_maxphysaddr_mode``;
``spawn``
    what the libvirt driver's ``_get_guest_config`` runs on the host, in its order:
    ``get_best_cpu_topology``, its own ``_add_video_driver`` (the image's video RAM against the
    flavor's ``hw_video:ram_max_mb``), ``get_usb_model`` and ``get_redirected_usb_ports``, on a
    driver object built without a host.

With ``--resources``, each flavor's request to Placement instead (the scheduler's
``resources_from_flavor_and_bfv``).

One process checks a whole batch, so Nova is imported once.
"""

import json
import sys
import warnings

warnings.simplefilter("ignore")

from nova import config, context, exception, objects  # noqa: E402

objects.register_all()
config.parse_args([], default_config_files=[])

from nova.compute import api as compute_api  # noqa: E402
from nova.virt import hardware  # noqa: E402
from nova.virt.libvirt import config as libvirt_config  # noqa: E402
from nova.virt.libvirt import driver as libvirt_driver  # noqa: E402

#: The request contexts of a member and of an admin of a project, judged by Nova's default
#: policies (the zero-disk flavor policy is admin only).
CONTEXTS = {
    False: context.RequestContext(user_id="u", project_id="p", roles=["member", "reader"]),
    True: context.RequestContext(
        user_id="u", project_id="p", roles=["admin", "member", "reader"], is_admin=True
    ),
}
#: The libvirt driver's methods that read only the flavor and the image, called on an object
#: the driver's own class makes without a host (its ``__init__`` would connect to libvirt).
DRIVER = libvirt_driver.LibvirtDriver.__new__(libvirt_driver.LibvirtDriver)


def flavor_object(flavor):
    return objects.Flavor(
        id=1,
        name="checked",
        flavorid="checked",
        disabled=bool(flavor.get("OS-FLV-DISABLED:disabled", False)),
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
        "status": image.get("status") or "active",
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


def _flavor_enabled(flavor):
    """``_validate_and_build_base_options``'s first check."""
    if flavor["disabled"]:
        raise exception.FlavorNotFound(flavor_id=flavor["id"])


def _image_meta(image):
    """``_get_image_meta_obj``: an image whose properties cannot be typed is InvalidRequest."""
    return compute_api._get_image_meta_obj(image)


def video_ram(flavor, image_meta):
    """The libvirt driver's check of the image's video RAM against the flavor's limit."""
    DRIVER._add_video_driver(libvirt_config.LibvirtConfigGuest(), image_meta, flavor)


def verdict(case):
    flavor = flavor_object(case["flavor"])
    image = image_dict(case.get("image") or {})
    request = CONTEXTS[bool(case.get("as_admin"))]
    api = compute_api.API
    first = first_refusal(lambda: _flavor_enabled(flavor), lambda: _image_meta(image))
    if first is not None:
        return {"api": first, "scheduler": None, "spawn": None}
    image_meta = objects.ImageMeta.from_dict(image)
    return {
        "api": first_refusal(
            lambda: hardware.numa_get_constraints(flavor, image_meta),
            lambda: hardware.get_pci_numa_policy_constraint(flavor, image_meta),
            lambda: ephemeral_encryption(flavor, image_meta),
            lambda: api._detect_nonbootable_image_from_properties(image["id"], image),
            lambda: api._validate_flavor_image(
                api, request, image["id"], image, flavor, None, validate_numa=False
            ),
            lambda: hardware.get_sound_model(flavor, image_meta),
        ),
        "scheduler": first_refusal(
            lambda: hardware.get_vtpm_constraint(flavor, image_meta),
            lambda: hardware.get_secure_boot_constraint(flavor, image_meta),
            lambda: hardware.get_maxphysaddr_mode(flavor, image_meta),
        ),
        "spawn": first_refusal(
            lambda: hardware.get_best_cpu_topology(flavor, image_meta),
            lambda: video_ram(flavor, image_meta),
            lambda: hardware.get_usb_model(flavor, image_meta),
            lambda: hardware.get_redirected_usb_ports(flavor, image_meta),
        ),
    }


def create_time(case):
    """Server create's own check of the pair alone (the ``api`` phase above), objects built
    from the same input."""
    flavor = flavor_object(case["flavor"])
    image = image_dict(case.get("image") or {})
    member = CONTEXTS[False]
    return first_refusal(
        lambda: compute_api.API._validate_flavor_image_nostatus(member, image, flavor, None)
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


def requested_resources(flavor):
    """What the scheduler asks Placement for, for a flavor booted from an image: Nova's own
    ``resources_from_flavor_and_bfv``, merged over the request groups."""
    from nova.scheduler import utils as scheduler_utils

    return dict(scheduler_utils.resources_from_flavor_and_bfv(flavor_object(flavor), False))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--time"]:
        json.dump(timed(json.load(sys.stdin), int(sys.argv[2])), sys.stdout)
    elif sys.argv[1:2] == ["--resources"]:
        json.dump([requested_resources(flavor) for flavor in json.load(sys.stdin)], sys.stdout)
    else:
        json.dump([verdict(case) for case in json.load(sys.stdin)], sys.stdout)
