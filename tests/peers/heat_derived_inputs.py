"""The inputs Heat's own SoftwareDeployment adds to a derived config, per signal transport.

Runs in the Heat environment. Calls ``SoftwareDeployment._build_derived_inputs`` -- the code
that builds what a server receives -- on a deployment whose engine-side services (the stack,
keystone, the signal URLs and credentials) are stand-ins, and prints, as JSON, for each signal
transport the names of the inputs it added, in order, and Heat's full list of the names it may
add (``DERIVED_CONFIG_INPUTS``).
"""

import json
import sys
import warnings

warnings.simplefilter("ignore")

from heat.engine.resources.openstack.heat.software_deployment import (  # noqa: E402
    SoftwareDeployment,
)


class _Stack:
    stack_user_project_id = "project"

    def identifier(self):
        class Identifier:
            def stack_path(self):
                return "stack/id"

        return Identifier()


class _Deployment(SoftwareDeployment):
    """A deployment whose services answer with fixed values; only Heat's input building runs."""

    def __new__(cls, transport):  # no resource machinery: nothing of it is needed
        return object.__new__(cls)

    def __init__(self, transport):
        self.properties = {
            self.SERVER: "server",
            self.INPUT_VALUES: {},
            self.SIGNAL_TRANSPORT: transport,
        }
        self._stack = _Stack()
        self._name = "deployment"

    stack = property(lambda self: self._stack)
    name = property(lambda self: self._name)

    def _get_ec2_signed_url(self, *args, **kwargs):
        return "https://cfn.example/signal"

    def _get_swift_signal_url(self, *args, **kwargs):
        return "https://swift.example/signal"

    def _get_heat_signal_credentials(self):
        return {
            "auth_url": "https://keystone.example/v3",
            "username": "user",
            "user_id": "user-id",
            "password": "password",
            "project_id": "project",
            "domain_id": "domain",
            "region_name": "RegionOne",
        }

    def _get_zaqar_signal_queue_id(self):
        return "queue"


if __name__ == "__main__":
    source = {"inputs": []}
    report = {
        "derived_config_inputs": list(SoftwareDeployment.DERIVED_CONFIG_INPUTS),
        "transports": {},
    }
    for transport in json.load(sys.stdin)["transports"]:
        inputs = _Deployment(transport)._build_derived_inputs("CREATE", source)
        report["transports"][transport] = [i.name() for i in inputs]
    json.dump(report, sys.stdout)
