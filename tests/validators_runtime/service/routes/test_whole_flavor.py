"""An extra-spec write checks the flavor's extra specs together: refuse, warn or per-key.

A real waitress server over SQLite and PostgreSQL; the findings are read back from the HTTP
answer and checked against the error schema the service publishes (Nova's fault shape).
"""

from __future__ import annotations

import threading

import jsonschema
import pytest

from onespec.validators_runtime import resources
from onespec.validators_runtime.service import flavor_check
from onespec.validators_runtime.service.app import create_app
from tests.validators_runtime.service.conftest import ADMIN, MEMBER, error_of

V286 = {**ADMIN, "OpenStack-API-Version": "compute 2.86"}
V285 = {**ADMIN, "OpenStack-API-Version": "compute 2.85"}
SPECS = "/flavors/rt.large/os-extra_specs"
ERROR_SCHEMA = jsonschema.Draft202012Validator(resources.schema("nova-fault.schema.json"))


def stored(api):
    return api.get(SPECS, headers=MEMBER).json()["extra_specs"]


def warnings_of(response) -> list[str]:
    return response.raw.headers.getlist("Warning")


def test_refuse_is_the_default_and_names_rule_keys_exception_and_phase(serve):
    api = serve()
    body = {"extra_specs": {"hw:cpu_realtime": "yes", "hw:cpu_realtime_mask": "^0"}}
    response = api.post(SPECS, json=body, headers=V286)
    assert response.status_code == 400, response.text
    ERROR_SCHEMA.validate(response.json())
    error = error_of(response)
    assert "together break 1 rule" in error["message"]
    assert "Set hw:cpu_policy=dedicated" in error["message"]
    (finding,) = error["findings"]
    assert finding["code"] == "realtime-needs-pinning"
    assert finding["path"] == "hw:cpu_realtime"
    assert finding["keys"] == ["hw:cpu_realtime", "hw:cpu_realtime_mask"]
    assert (finding["nova_exception"], finding["phase"]) == ("RealtimeConfigurationInvalid", "api")
    assert stored(api) == {}
    # Sent together with what they need, the same keys are stored.
    body["extra_specs"]["hw:cpu_policy"] = "dedicated"
    response = api.post(SPECS, json=body, headers=V286)
    assert response.status_code == 200
    assert warnings_of(response) == []


def test_a_write_is_judged_on_the_flavor_it_leaves(serve):
    api = serve()
    assert (
        api.post(
            SPECS,
            json={"extra_specs": {"hw:cpu_policy": "mixed", "hw:cpu_dedicated_mask": "^0"}},
            headers=V286,
        ).status_code
        == 200
    )
    # One key at a time: deleting the mask leaves a mixed flavor without one.
    response = api.delete(f"{SPECS}/hw:cpu_dedicated_mask", headers=V286)
    assert response.status_code == 400
    assert error_of(response)["findings"][0]["code"] == "mixed-needs-a-mask"
    # Setting the policy alone to dedicated leaves a mask that needs 'mixed'.
    response = api.put(f"{SPECS}/hw:cpu_policy", json={"hw:cpu_policy": "dedicated"}, headers=V286)
    assert response.status_code == 400
    assert error_of(response)["findings"][0]["nova_exception"] == "RequiredMixedInstancePolicy"
    # Replacing the set is judged on the new set alone.
    response = api.put(SPECS, json={"extra_specs": {"hw:cpu_policy": "dedicated"}}, headers=V286)
    assert response.status_code == 200
    assert stored(api) == {"hw:cpu_policy": "dedicated"}


def test_what_the_flavor_already_broke_is_a_warning_not_a_refusal(serve):
    api = serve()
    # Stored unchecked below 2.86: a thread policy without pinned CPUs.
    body = {"extra_specs": {"hw:cpu_thread_policy": "isolate"}}
    assert api.post(SPECS, json=body, headers=V285).status_code == 200
    response = api.post(SPECS, json={"extra_specs": {"hw:pmu": "false"}}, headers=V286)
    assert response.status_code == 200
    (warning,) = warnings_of(response)
    assert warning.startswith('299 onespec "thread-policy-needs-pinning: ')
    assert warning.endswith('(CPUThreadPolicyConfigurationInvalid, api)"')
    # Mending it is accepted without a warning.
    response = api.post(SPECS, json={"extra_specs": {"hw:cpu_policy": "dedicated"}}, headers=V286)
    assert response.status_code == 200
    assert warnings_of(response) == []


def test_warn_stores_and_answers_with_warning_headers(serve):
    api = serve(FLAVOR_CHECK="warn")
    body = {"extra_specs": {"hw:cpu_policy": "mixed", "hw:locked_memory": "true"}}
    response = api.post(SPECS, json=body, headers=V286)
    assert response.status_code == 200
    assert response.json() == body
    codes = sorted(w.split('"', 1)[1].split(":", 1)[0] for w in warnings_of(response))
    assert codes == ["locked-memory-needs-page-size", "mixed-needs-a-mask"]
    assert stored(api) == body["extra_specs"]


def test_what_a_flavor_asks_of_an_image_is_a_warning_even_when_refusing(serve):
    api = serve()
    body = {"extra_specs": {"hw:mem_encryption": "true"}}
    response = api.post(SPECS, json=body, headers=V286)
    assert response.status_code == 200
    (warning,) = warnings_of(response)
    assert "mem-encryption-needs-uefi" in warning and "uefi" in warning


def test_per_key_stores_what_nova_stores(serve):
    api = serve(FLAVOR_CHECK="per-key")
    body = {"extra_specs": {"hw:cpu_realtime": "yes"}}
    response = api.post(SPECS, json=body, headers=V286)
    assert response.status_code == 200
    assert warnings_of(response) == []
    # Each key on its own is still checked.
    response = api.post(SPECS, json={"extra_specs": {"hw:cpu_policy": "dedicatd"}}, headers=V286)
    assert response.status_code == 400


def test_the_check_follows_the_validation_parameter_and_microversion(serve):
    api = serve()
    body = {"extra_specs": {"hw:emulator_threads_policy": "isolate"}}
    assert api.post(SPECS, json=body, headers=V285).status_code == 200
    assert api.post(SPECS + "?validation=off", json=body, headers=V286).status_code == 200
    response = api.post(SPECS + "?validation=permissive", json=body, headers=V286)
    assert response.status_code == 200  # already broken before: a warning
    assert warnings_of(response)


def test_rules_that_need_the_flavor_size_are_left_to_validate_flavor(serve):
    api = serve()
    # hw:numa_nodes=2 with 3 vCPUs is refused by Nova, but the service does not know the vCPUs.
    body = {
        "extra_specs": {
            "hw:numa_nodes": "2",
            "hw:cpu_dedicated_mask": "0-99",
            "hw:cpu_policy": "mixed",
        }
    }
    assert api.post(SPECS, json=body, headers=V286).status_code == 200
    assert {"numa-nodes-split-unevenly", "dedicated-mask-invalid"} <= flavor_check.SIZED_RULES
    assert "realtime-needs-pinning" not in flavor_check.SIZED_RULES


def test_rules_whose_verdict_ignores_the_sizes_are_applied():
    """Derived from what each rule reads: a vCPU listed on two NUMA nodes is wrong whatever the
    flavor's vCPUs, and a mask read only to know whether it selects any vCPU is settled by the
    stand-in's vCPUs."""
    specs = {
        "hw:numa_nodes": "2",
        "hw:numa_cpus.0": "0-1",
        "hw:numa_cpus.1": "1",
        "hw:numa_mem.0": "512",
        "hw:numa_mem.1": "512",
    }
    assert "numa-cpu-duplicated" in {f.code for f in flavor_check.findings(specs)}
    masked = {"hw:cpu_dedicated_mask": "^0"}
    assert "dedicated-mask-needs-mixed" in {f.code for f in flavor_check.findings(masked)}


@pytest.mark.parametrize("attempt", range(3))
def test_concurrent_halves_of_a_broken_flavor_cannot_both_be_stored(serve, attempt):
    # Each write alone leaves a valid flavor; together they ask for pinned CPUs both through
    # hw:cpu_policy and through resources:PCPU. The check runs under the flavor's write lock,
    # so whichever comes second sees the first and is refused.
    api = serve(threads=8)
    halves = [{"hw:cpu_policy": "dedicated"}, {"resources:PCPU": "4"}]
    answers: list[int] = []
    start = threading.Barrier(len(halves))

    def write(half):
        start.wait()
        answers.append(api.post(SPECS, json={"extra_specs": half}, headers=V286).status_code)

    threads = [threading.Thread(target=write, args=(half,)) for half in halves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200, 400]
    assert len(stored(api)) == 1


def test_an_unknown_mode_is_refused_naming_the_choices(database_url):
    with pytest.raises(ValueError, match="FLAVOR_CHECK setting is 'strict'; it takes refuse, warn"):
        create_app({"DATABASE_URL": database_url, "FLAVOR_CHECK": "strict"})
