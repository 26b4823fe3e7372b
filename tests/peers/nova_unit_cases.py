"""The flavor + image pairs of Nova's own unit tests of ``nova/virt/hardware.py`` (runs in the
``nova-tests`` environment).

Runs Nova's ``test_hardware`` test classes with the hardware functions that judge a flavor and
an image wrapped, so that every ``(Flavor, ImageMeta)`` pair a test hands them is recorded;
prints the pairs as JSON in the shape ``nova_flavor_checks.py`` and onespec read (flavor
fields and string extra specs; image properties as Glance would hold them). Only the inputs
are taken from the tests: the verdicts come from running Nova's functions on them again.

The output is committed as ``tests/cases/nova_hardware_unit_cases.json``. Nova's test module
imports ``ddt``, which the ``nova-tests`` environment pins (``nova-tests.txt``); to harvest
again::

    .peers/venvs/nova-tests/bin/python tests/peers/nova_unit_cases.py \
        > tests/cases/nova_hardware_unit_cases.json
"""

import functools
import io
import json
import sys
import unittest
import warnings

warnings.simplefilter("ignore")

from nova import objects  # noqa: E402
from nova.virt import hardware  # noqa: E402

objects.register_all()

from nova.tests.unit.virt import test_hardware  # noqa: E402

JUDGES = (
    "numa_get_constraints",
    "get_cpu_topology_constraints",
    "get_best_cpu_topology",
    "get_number_of_serial_ports",
    "get_locked_memory_constraint",
    "get_mem_encryption_constraint",
    "get_pmu_constraint",
    "get_vif_multiqueue_constraint",
    "get_pci_numa_policy_constraint",
    "get_vtpm_constraint",
    "get_secure_boot_constraint",
    "get_maxphysaddr_mode",
    "get_realtime_cpu_constraint",
    "get_cpu_policy_constraint",
    "get_cpu_thread_policy_constraint",
    "get_sound_model",
    "get_usb_model",
)

CLASSES = (
    "VCPUTopologyTest",
    "NUMATopologyTest",
    "NumberOfSerialPortsTest",
    "VirtLockMemoryTestCase",
    "VirtMemoryPagesTestCase",
    "CPURealtimeTestCase",
    "EmulatorThreadsTestCase",
    "MemEncryptionNotRequiredTestCase",
    "MemEncryptionFlavorImageConflictTestCase",
    "MemEncryptionRequestedWithoutUEFITestCase",
    "MemEncryptionRequestedWithInvalidMachineTypeTestCase",
    "MemEncryptionRequestedWithoutStatelessFirmware",
    "MemEncryptionRequestedWithoutDisabledVideoModel",
    "MemEncryptionRequiredTestCase",
    "PCINUMAAffinityPolicyTest",
    "PMUEnabledTest",
    "VIFMultiqueueEnabledTest",
    "VTPMConfigTest",
    "SecureBootPolicyTest",
    "MaxphysaddrModeTest",
)

recorded = {}


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, set | frozenset):
        return ",".join(str(cpu) for cpu in sorted(value))
    return str(value)


def _properties(image_meta):
    props = {}
    for name in image_meta.properties.fields:
        if not image_meta.properties.obj_attr_is_set(name):
            continue
        value = getattr(image_meta.properties, name)
        if name in ("hw_numa_cpus", "hw_numa_mem"):
            props.update({f"{name}.{node}": _text(part) for node, part in enumerate(value)})
        elif name == "traits_required":
            props.update({f"trait:{trait}": "required" for trait in value})
        elif isinstance(value, bool | int | str):
            props[name] = _text(value)
        else:
            return None
    return props


def _case(flavor, image_meta):
    if not isinstance(flavor, objects.Flavor) or not isinstance(image_meta, objects.ImageMeta):
        return None
    if not (flavor.obj_attr_is_set("vcpus") and flavor.obj_attr_is_set("memory_mb")):
        return None
    specs = flavor.extra_specs if flavor.obj_attr_is_set("extra_specs") else {}
    if not all(isinstance(v, str) for v in specs.values()):
        return None
    props = _properties(image_meta)
    if props is None:
        return None
    return {
        "flavor": {
            "vcpus": flavor.vcpus,
            "ram": flavor.memory_mb,
            "disk": flavor.root_gb if flavor.obj_attr_is_set("root_gb") and flavor.root_gb else 1,
            "extra_specs": dict(specs),
        },
        "image": {"properties": props},
    }


def recording(name, function):
    @functools.wraps(function)
    def wrapper(flavor, image_meta=None, *args, **kwargs):
        try:
            case = _case(flavor, image_meta)
        except Exception:
            # A test's odd input (a mock, a half-built object) is simply not recorded.
            case = None
        if case is not None:
            recorded.setdefault(json.dumps(case, sort_keys=True), case)
        if image_meta is None:
            return function(flavor, *args, **kwargs)
        return function(flavor, image_meta, *args, **kwargs)

    return wrapper


def harvest():
    for name in JUDGES:
        setattr(hardware, name, recording(name, getattr(hardware, name)))
    loader = unittest.TestLoader()
    suite = unittest.TestSuite(
        loader.loadTestsFromTestCase(getattr(test_hardware, cls)) for cls in CLASSES
    )
    result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
    return {"ran": result.testsRun, "cases": list(recorded.values())}


if __name__ == "__main__":
    json.dump(harvest(), sys.stdout)
