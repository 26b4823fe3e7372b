"""Nova's own tests and API path with onespec's adapter in place of Nova's validators.

Runs in the ``nova-tests`` environment (Nova 34.0.0 and its test harness). Usage::

    python nova_adapter.py tests ONESPEC_ROOT adapter|nova TEST_MODULE...
    python nova_adapter.py bench ONESPEC_ROOT adapter|nova

``adapter`` puts ``onespec.validators_runtime.nova_validators`` in ``sys.modules`` under the name
``nova.api.validation.extra_specs.validators`` before Nova imports it; no file of Nova changes.
``nova`` runs Nova as released, for comparison. ``tests`` prints each test's outcome as JSON;
``bench`` times ``FlavorExtraSpecsController.create`` at microversion 2.86 (schema, policy,
validation and the flavor object, with the database call stubbed) and prints seconds per call.
"""

import json
import os
import sys
import time
import unittest
import warnings

warnings.simplefilter("ignore")

VALIDATORS_MODULE = "nova.api.validation.extra_specs.validators"


def swap_in_adapter(root):
    sys.path.insert(0, os.path.join(root, "src"))  # onespec, from this checkout
    import nova.api.validation.extra_specs as package

    from onespec.validators_runtime import nova_validators

    sys.modules[VALIDATORS_MODULE] = nova_validators
    package.validators = nova_validators
    return nova_validators


def point_at_installed_paste_config():
    """The wheel installs api-paste.ini under sys.prefix; Nova's fixture looks beside the code."""
    from nova.tests.fixtures import conf as conf_fixture

    original = conf_fixture.ConfFixture.setUp

    def setUp(self):
        original(self)
        path = os.path.join(sys.prefix, "etc", "nova", "api-paste.ini")
        self.conf.set_default("api_paste_config", path, group="wsgi")

    conf_fixture.ConfFixture.setUp = setUp


class Outcomes(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.outcomes = {}

    def addSuccess(self, test):
        self.outcomes[test.id()] = {"outcome": "pass"}

    def addFailure(self, test, err):
        self.outcomes[test.id()] = {
            "outcome": "fail",
            "detail": self._exc_info_to_string(err, test),
        }

    def addError(self, test, err):
        self.outcomes[test.id()] = {
            "outcome": "error",
            "detail": self._exc_info_to_string(err, test),
        }

    def addSkip(self, test, reason):
        self.outcomes[test.id()] = {"outcome": "skip", "detail": reason}


def run_tests(modules):
    point_at_installed_paste_config()
    suite = unittest.defaultTestLoader.loadTestsFromNames(modules)
    result = Outcomes()
    suite.run(result)
    for test, err in result.errors:  # import errors of a whole module have no addError test
        result.outcomes.setdefault(test.id(), {"outcome": "error", "detail": err})
    return result.outcomes


SPECS = {
    "hw:cpu_policy": "dedicated",
    "hw:cpu_thread_policy": "prefer",
    "hw:numa_nodes": "2",
    "hw:numa_cpus.0": "0-3",
    "hw:numa_mem.0": "2048",
    "hw:mem_page_size": "large",
    "resources:VCPU": "4",
    "resources1:CUSTOM_GPU": "1",
    "trait:HW_CPU_X86_AVX2": "required",
    "quota:cpu_shares": "2048",
}


def bench():
    """Time the API path inside a Nova test case, which provides its configuration and policy."""
    from nova import test
    from nova.api.openstack.compute import flavors_extraspecs
    from nova.tests.unit.api.openstack import fakes
    from nova.tests.unit.objects import test_flavor

    figures = {}

    class Bench(test.NoDBTestCase):
        def test_create(self):
            controller = flavors_extraspecs.FlavorExtraSpecsController()
            self.useFixture(fixtures_patch("nova.objects.flavor._flavor_extra_specs_add"))
            projects = "nova.objects.Flavor._get_projects_from_db"
            self.useFixture(fixtures_patch(projects)).mock.return_value = []
            get = self.useFixture(
                fixtures_patch("nova.objects.Flavor._flavor_get_by_flavor_id_from_db")
            ).mock
            for label, specs in (("1 spec", dict(list(SPECS.items())[:1])), ("10 specs", SPECS)):

                def call(specs=specs):
                    get.return_value = dict(test_flavor.fake_flavor, extra_specs={})
                    req = fakes.HTTPRequest.blank(
                        "/v2.1/flavors/1/os-extra_specs", use_admin_context=True, version="2.86"
                    )
                    result = controller.create(req, "1", body={"extra_specs": dict(specs)})
                    assert result["extra_specs"] == specs, result

                figures[label] = median_per_call(call, loops=200)
            validate = flavors_extraspecs.validators.validate

            def validate_all():
                for key, value in SPECS.items():
                    validate(key, value)

            figures["validate, per spec"] = median_per_call(validate_all, loops=500) / len(SPECS)

    def fixtures_patch(target):
        import fixtures

        return fixtures.MockPatch(target)

    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(Bench).run(result)
    if result.errors or result.failures:
        raise SystemExit(str(result.errors or result.failures))
    return figures


def median_per_call(call, loops, repeats=7):
    call()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(loops):
            call()
        samples.append((time.perf_counter() - start) / loops)
    samples.sort()
    return samples[len(samples) // 2]


def accepts(controller_module, key, value):
    """Whether the controller's validators accept a spec on which onespec and Nova differ."""
    from nova import exception

    try:
        controller_module.validators.validate(key, value)
    except exception.ValidationError:
        return False
    return True


def main(argv):
    action, root, which, *modules = argv
    # Nova's tests log to standard output: keep it for the report alone.
    report_stream = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    if which == "adapter":
        swap_in_adapter(root)
    from nova.api.validation.extra_specs import validators

    report = {"validators_module": getattr(validators, "__name__", "")}
    report["result"] = run_tests(modules) if action == "tests" else bench()
    from nova.api.openstack.compute import flavors_extraspecs

    # The module the API controller actually calls, after every test has run.
    report["controller_validators"] = flavors_extraspecs.validators.__name__
    report["maxphysaddr_accepted"] = accepts(flavors_extraspecs, "hw:maxphysaddr_mode", "emulate")
    json.dump(report, report_stream)
    report_stream.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
