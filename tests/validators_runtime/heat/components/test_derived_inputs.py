"""The derived config, as Heat sends it: the inputs a deployment adds, per signal transport.

Heat 27.0.1's own ``SoftwareDeployment._build_derived_inputs`` runs in the Heat environment
(``tests/peers/heat_derived_inputs.py``), and for each signal transport the names of the inputs
it adds are compared with what ``onespec component metadata --signal-transport`` adds. onespec
adds one input Heat does not -- ``deploy_status``, the point of the blueprint -- and nothing
else differs. Every name Heat may add is reserved: a component cannot declare it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from onespec.validators_runtime._generated import components as facts
from onespec.validators_runtime.heat.components import ComponentValidationError, validate_component
from tests import peers

ONESPEC = Path(sys.executable).with_name("onespec")
APPSERVER = Path(__file__).parent / "data" / "appserver" / "appserver.yaml"
#: What onespec adds that Heat does not.
ONESPECS_OWN = ("deploy_status",)


@pytest.fixture(scope="module")
def heat() -> dict:
    return peers.run_script(
        "heat", "heat_derived_inputs.py", stdin={"transports": list(facts.SIGNAL_TRANSPORTS)}
    )


def _onespec_inputs(transport: str) -> list[dict]:
    printed = subprocess.run(
        [
            *(str(ONESPEC), "component", "metadata", str(APPSERVER)),
            *("--resource", "appserver-deployment", "--action", "CREATE"),
            *("--signal-transport", transport, "--format", "json"),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(printed)["inputs"]


@pytest.mark.parametrize("transport", facts.SIGNAL_TRANSPORTS)
def test_the_inputs_a_deployment_adds_are_heats_for_each_transport(heat, transport):
    added = [
        item["name"]
        for item in _onespec_inputs(transport)
        if item["name"].startswith("deploy_") and item["name"] not in ONESPECS_OWN
    ]
    assert added == heat["transports"][transport]


def test_credentials_and_urls_are_placeholders():
    values = {i["name"]: i["value"] for i in _onespec_inputs("ZAQAR_SIGNAL")}
    for name in ("deploy_password", "deploy_auth_url", "deploy_queue_id"):
        assert values[name].startswith("<") and "set by Heat" in values[name]
    assert {i["name"]: i["value"] for i in _onespec_inputs("TEMP_URL_SIGNAL")}[
        "deploy_signal_verb"
    ] == "PUT"


def test_every_name_heat_may_add_is_reserved(heat):
    assert set(heat["derived_config_inputs"]) <= set(facts.RESERVED_INPUT_NAMES)
    script = {"tool": "script", "config": "#!/bin/sh\ntrue\n"}
    for name in heat["derived_config_inputs"]:
        with pytest.raises(ComponentValidationError) as caught:
            validate_component({"configs": [script], "inputs": [{"name": name}]})
        assert [p.code for p in caught.value.problems] == ["reserved-name"], name
