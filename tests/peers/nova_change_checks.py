"""Nova's own verdict on resizes and rebuilds (runs in the Nova environment, Nova 34.0.0).

Reads a JSON list on standard input, each case either::

    {"operation": "resize", "old_flavor": {...}, "new_flavor": {...}, "image": {...},
     "volume_backed": false}
    {"operation": "rebuild", "flavor": {...}, "old_image": {...}, "new_image": {...}}

(flavors and images in the shape of ``Example``'s documents: ``id``, sizes, ``extra_specs``,
``OS-FLV-DISABLED:disabled``; ``id`` and ``properties``) and prints, for each, the class name
of what Nova raises at each stage, or null:

``api``
    resize: ``block_accelerators`` (Nova's decorator on ``API.resize``, applied to a function
    that does nothing), then the body of ``API.resize`` itself; rebuild:
    ``reject_vtpm_instances('rebuild')``, then the body of ``API.rebuild``. Each runs Nova's
    own code on Nova's objects (``Flavor``, ``Instance`` with the system metadata Nova stores
    for its image); only what reaches a database, the message bus, Glance or Cinder is
    replaced -- the service version (the newest), quota (room enough), the request spec read
    from the database, the image fetched from Glance (the case's), saving and casting -- since
    none of them can run without a deployed cloud;
``conductor``
    rebuild: ``ComputeTaskManager._validate_image_traits_for_rebuild``, up to the point where
    it asks Placement for the server's allocations (a host's traits are no part of the case);
``compute``
    resize: ``LibvirtDriver.migrate_disk_and_power_off``, up to the point where it starts
    moving disks (it needs a host from there).
"""

import inspect
import json
import sys
import warnings
from unittest import mock

warnings.simplefilter("ignore")

from nova import context as nova_context  # noqa: E402
from nova import exception, objects, utils  # noqa: E402

objects.register_all()

from nova.compute import api as compute_api  # noqa: E402
from nova.compute import flavors as compute_flavors  # noqa: E402
from nova.compute import utils as compute_utils  # noqa: E402
from nova.conductor import manager as conductor_manager  # noqa: E402
from nova.virt.libvirt import driver as libvirt_driver  # noqa: E402
from nova.virt.libvirt import utils as libvirt_utils  # noqa: E402

NEWEST = 10**6
INSTANCE_UUID = "6c4a5a5e-3f0c-4f6d-9d55-0d1d3f8d2f10"


class Reached(Exception):
    """Raised where Nova's code would go on to need a running cloud: the checks before it
    passed."""


def flavor_object(document, number):
    return objects.Flavor(
        id=number,
        flavorid=str(document.get("id", f"flavor-{number}")),
        name=str(document.get("name", "checked")),
        vcpus=document["vcpus"],
        memory_mb=document["ram"],
        root_gb=document.get("disk", 0),
        ephemeral_gb=document.get("OS-FLV-EXT-DATA:ephemeral", 0),
        swap=document.get("swap", 0),
        disabled=bool(document.get("OS-FLV-DISABLED:disabled", False)),
        extra_specs=dict(document.get("extra_specs", {})),
    )


def image_dict(document):
    return {
        "id": str(document.get("id", "image")),
        "name": str(document.get("name", "checked")),
        "status": "active",
        "min_ram": document.get("min_ram", 0),
        "min_disk": document.get("min_disk", 0),
        "size": document.get("size", 0),
        "properties": dict(document.get("properties", {})),
    }


def instance_of(flavor, image):
    """An Instance as Nova holds one booted from ``image``: the image's properties in its
    system metadata, as Nova's own ``get_system_metadata_from_image`` stores them."""
    system_metadata = utils.get_system_metadata_from_image(image, flavor)
    system_metadata["image_base_image_ref"] = image["id"]
    return objects.Instance(
        uuid=INSTANCE_UUID,
        flavor=flavor,
        system_metadata=system_metadata,
        image_ref=image["id"],
        host="host",
        node="node",
        vm_state="active",
        task_state=None,
        locked=False,
        project_id="project",
        user_id="user",
        key_name=None,
        metadata={},
    )


def refused(call):
    try:
        call()
    except Reached:
        return None
    except (exception.NovaException, ValueError) as error:
        return type(error).__name__
    return None


def request_spec():
    return objects.RequestSpec(
        id=1,
        pci_requests=objects.InstancePCIRequests(requests=[]),
        scheduler_hints={},
        force_hosts=[],
        force_nodes=[],
    )


def _deployment(api, volume_backed):
    """What reaches a deployed cloud, replaced: the patches every operation shares."""
    api.compute_task_api = mock.Mock()
    return [
        mock.patch.object(objects.service, "get_minimum_version_all_cells", return_value=NEWEST),
        mock.patch.object(compute_api, "instance_has_share", return_value=False),
        mock.patch.object(compute_utils, "is_volume_backed_instance", return_value=volume_backed),
        mock.patch.object(objects.RequestSpec, "get_by_instance_uuid", return_value=request_spec()),
        mock.patch.object(objects.RequestSpec, "save"),
        mock.patch.object(objects.Instance, "save"),
        mock.patch.object(api, "_record_action_start"),
    ]


def _in(patches, call):
    for patch in patches:
        patch.start()
    try:
        return refused(call)
    finally:
        for patch in reversed(patches):
            patch.stop()


def resize(case):
    old = flavor_object(case["old_flavor"], 1)
    new = flavor_object(
        case["new_flavor"], 1 if case["new_flavor"].get("id") == case["old_flavor"].get("id") else 2
    )
    image = image_dict(case.get("image") or {})
    instance = instance_of(old, image)
    volume_backed = bool(case.get("volume_backed"))
    api = object.__new__(compute_api.API)
    ctx = nova_context.get_admin_context()
    body = inspect.unwrap(compute_api.API.resize)
    patches = [
        *_deployment(api, volume_backed),
        mock.patch.object(api, "_allow_cross_cell_resize", return_value=False),
        mock.patch.object(api, "_allow_resize_to_same_host", return_value=True),
        mock.patch.object(api, "_check_quota_for_upsize"),
        mock.patch.object(compute_flavors, "get_flavor_by_flavor_id", return_value=new),
    ]
    accelerators = compute_api.block_accelerators()(lambda self, context, instance: None)
    first = refused(lambda: accelerators(api, ctx, instance))
    api_stage = first or _in(patches, lambda: body(api, ctx, instance, flavor_id=new.flavorid))
    return {"api": api_stage, "compute": disk_down(instance, new, volume_backed)}


def disk_down(instance, new, volume_backed):
    """The libvirt driver's refusal to shrink disks, before it touches any."""
    driver = object.__new__(libvirt_driver.LibvirtDriver)
    mapping = []
    if volume_backed:
        mapping = [{"boot_index": 0, "mount_device": "/dev/vda", "connection_info": {}}]
    info = {"block_device_mapping": mapping, "ephemerals": []}
    with mock.patch.object(libvirt_utils, "get_instance_path", side_effect=Reached):
        try:
            driver.migrate_disk_and_power_off(None, instance, "dest", new, None, info)
        except Reached:
            return None
        except exception.InstanceFaultRollback as rollback:
            return type(rollback.inner_exception).__name__
    return None


def rebuild(case):
    flavor = flavor_object(case["flavor"], 1)
    old_image = image_dict(case["old_image"])
    new_image = image_dict(case["new_image"])
    instance = instance_of(flavor, old_image)
    api = object.__new__(compute_api.API)
    ctx = nova_context.get_admin_context()
    body = inspect.unwrap(compute_api.API.rebuild)
    patches = [
        *_deployment(api, False),
        mock.patch.object(api, "_get_image", return_value=(new_image["id"], new_image)),
        mock.patch.object(
            objects.BlockDeviceMappingList,
            "get_by_instance_uuid",
            return_value=objects.BlockDeviceMappingList(objects=[]),
        ),
        mock.patch.object(compute_utils, "get_root_bdm", return_value=None),
        mock.patch.object(api, "_check_metadata_properties_quota"),
        mock.patch.object(api, "_check_injected_file_quota"),
        mock.patch.object(api, "_handle_kernel_and_ramdisk", return_value=(None, None)),
    ]
    vtpm = compute_api.reject_vtpm_instances("rebuild")(lambda self, context, instance: None)
    first = refused(lambda: vtpm(api, ctx, instance))
    api_stage = first or _in(patches, lambda: body(api, ctx, instance, new_image["id"], "password"))
    conductor = None
    if api_stage is None and old_image["id"] != new_image["id"]:
        conductor = traits_for_rebuild(ctx, flavor_object(case["flavor"], 1), old_image, new_image)
    return {"api": api_stage, "conductor": conductor}


def traits_for_rebuild(ctx, flavor, old_image, new_image):
    instance = instance_of(flavor, old_image)
    manager = object.__new__(conductor_manager.ComputeTaskManager)
    manager.image_api = None  # the image comes from the case, not from Glance
    placement = mock.Mock()
    placement.get_allocations_for_consumer.side_effect = Reached
    from_dict = objects.ImageMeta.from_dict(new_image)
    with (
        mock.patch.object(objects.ImageMeta, "from_image_ref", return_value=from_dict),
        mock.patch.object(
            conductor_manager.ComputeTaskManager,
            "report_client",
            new_callable=mock.PropertyMock,
            return_value=placement,
        ),
    ):
        return refused(
            lambda: manager._validate_image_traits_for_rebuild(ctx, instance, new_image["id"])
        )


if __name__ == "__main__":
    checks = {"resize": resize, "rebuild": rebuild}
    json.dump([checks[case["operation"]](case) for case in json.load(sys.stdin)], sys.stdout)
