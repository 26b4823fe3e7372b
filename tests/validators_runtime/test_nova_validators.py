"""The Nova adapter: Nova's validator interface over onespec, proven by Nova's own tests.

The unit tests run here, without Nova. The peer tests run Nova 34.0.0's own
``test_validators.py``, ``test_flavors_extraspecs.py`` and functional
``test_flavor_extraspecs.py`` in the ``nova-tests`` environment twice: as released, and with
``nova.api.validation.extra_specs.validators`` replaced by the adapter through ``sys.modules``.
"""

from __future__ import annotations

import re
import sysconfig

import pytest

from onespec.definitions.nova_differences import DIFFERENCES
from onespec.validators_runtime import nova_validators
from onespec.validators_runtime.extra_specs import ExtraSpecValidationError
from tests import peers
from tests.conftest import ROOT
from tests.validators_runtime.test_isolation import imported_after, offending

NOVA_TESTS = (
    "nova.tests.unit.api.validation.extra_specs.test_validators",
    "nova.tests.unit.api.openstack.compute.test_flavors_extraspecs",
    "nova.tests.functional.test_flavor_extraspecs",
)

#: Nova's tests that fail with the adapter on purpose: test id -> the title of the entry of
#: ``onespec.definitions.nova_differences`` that explains why. None do with Nova 34.0.0: its tests
#: never exercise a key or value on which the verdicts differ.
DELIBERATE: dict[str, str] = {}


# --- Without Nova --------------------------------------------------------------------------------


def test_valid_specs_pass_and_foreign_keys_are_left_alone():
    for key, value in {
        "hw:cpu_policy": "dedicated",
        "hw:numa_cpus.0": "0-3",
        "resources1:VCPU": "2",
        "trait_foo:CUSTOM_BAR": "required",
        "foo": "bar",
        "hww:cpu_policy": "x",
    }.items():
        assert nova_validators.validate(key, value) is None


def test_refusals_name_every_problem_and_start_as_novas_do():
    with pytest.raises(ExtraSpecValidationError) as caught:
        nova_validators.validate("hw:cpu_policy", "sharrred")
    assert [f.code for f in caught.value.findings] == ["invalid-value"]
    with pytest.raises(ExtraSpecValidationError) as caught:
        nova_validators.validate("hw:cpu_policyyyy", "shared")
    assert caught.value.findings[0].code == "unknown-key"


def test_namespaces_are_spelt_as_nova_spells_them():
    assert {
        "hw",
        "hw_rng",
        "quota",
        "resources(?P<group>([a-zA-Z0-9_-]{1,64})?)",
        "trait(?P<group>([a-zA-Z0-9_-]{1,64})?)",
    } <= nova_validators.NAMESPACES
    for namespace in nova_validators.NAMESPACES:
        re.compile(namespace)


def test_validators_have_novas_shape():
    validator = nova_validators.VALIDATORS["hw:numa_cpus.{num}"]
    assert validator.value["type"] is str and "pattern" in validator.value
    assert [p["name"] for p in validator.parameters] == ["num"]
    assert re.fullmatch(validator.name_regex, "hw:numa_cpus.3").groupdict() == {"num": "3"}
    assert "hw:numa_cpus.{id}" not in nova_validators.VALIDATORS
    # The dot is a dot, unlike in Nova (onespec.definitions.nova_differences: "The dot in numbered
    # keys").
    assert not re.fullmatch(validator.name_regex, "hw:numa_cpus_3")
    assert nova_validators.VALIDATORS["hw:numa_nodes"].value["min"] == 1
    assert nova_validators.VALIDATORS["hw:cpu_policy"].value["enum"] == [
        "dedicated",
        "shared",
        "mixed",
    ]
    assert "NUMA" in validator.description
    # Nova's value objects carry a description too.
    assert "CPU" in validator.value["description"]
    assert set(validator.value) == {"type", "pattern", "description"}


#: Values tried on every validator: one of them suits each type and most enums.
SAMPLES = ("1", "0", "true", "x", "required", "dedicated", "-1")


def test_every_validator_object_accepts_what_validate_accepts_for_its_key():
    """Before, the objects of group_policy and hide_hypervisor_id refused their own key."""
    checked = 0
    for name, validator in nova_validators.VALIDATORS.items():
        if validator.parameters:
            continue
        values = (*SAMPLES, *validator.value.get("enum", ()))
        for value in values:
            try:
                nova_validators.validate(name, value)
            except ExtraSpecValidationError as refused:
                with pytest.raises(ExtraSpecValidationError) as also:
                    validator.validate(name, value)
                assert [f.code for f in also.value.findings] == [f.code for f in refused.findings]
            else:
                validator.validate(name, value)
            checked += 1
    assert checked > 800
    for name in ("group_policy", "hide_hypervisor_id"):
        assert nova_validators.VALIDATORS[name].name_regex == name


def test_a_validator_refuses_a_name_it_does_not_govern():
    validator = nova_validators.VALIDATORS["hw:numa_nodes"]
    validator.validate("hw:numa_nodes", "2")
    with pytest.raises(ExtraSpecValidationError, match="Validation failed; expected a name"):
        validator.validate("hw:numa_mem.0", "2")


def test_importing_the_adapter_imports_no_tooling():
    modules = imported_after(
        "from onespec.validators_runtime import nova_validators\n"
        "nova_validators.validate('hw:cpu_policy', 'dedicated')\n"
    )
    assert offending(modules) == set()


# --- In Nova's own environment -------------------------------------------------------------------


def run_novas_tests(which: str) -> dict:
    return peers.run_script(
        "nova-tests", "nova_adapter.py", "tests", str(ROOT), which, *NOVA_TESTS, timeout=900
    )


@pytest.fixture(scope="module")
def with_adapter() -> dict:
    return run_novas_tests("adapter")


@pytest.fixture(scope="module")
def as_released() -> dict:
    return run_novas_tests("nova")


def failed(report: dict) -> set[str]:
    return {test for test, result in report["result"].items() if result["outcome"] != "pass"}


def test_the_adapter_is_what_novas_api_calls(with_adapter, as_released):
    assert with_adapter["controller_validators"] == "onespec.validators_runtime.nova_validators"
    assert as_released["controller_validators"] == "nova.api.validation.extra_specs.validators"
    # A listed difference shows which module answered.
    assert with_adapter["maxphysaddr_accepted"] is True
    assert as_released["maxphysaddr_accepted"] is False


def test_novas_tests_pass_as_released(as_released):
    assert failed(as_released) == set()
    assert len(as_released["result"]) >= 50


def test_novas_tests_pass_with_the_adapter_but_for_listed_differences(with_adapter, as_released):
    assert set(with_adapter["result"]) == set(as_released["result"])
    details = {test: with_adapter["result"][test].get("detail") for test in failed(with_adapter)}
    assert set(details) == set(DELIBERATE), details
    modules = {test.rsplit(".", 2)[0] for test in with_adapter["result"]}
    assert modules == set(NOVA_TESTS)


def test_every_deliberate_failure_is_a_listed_difference():
    titles = {difference.title for difference in DIFFERENCES}
    assert set(DELIBERATE.values()) <= titles


# --- Nova's own code reading the adapter ---------------------------------------------------------


def run_drop_in(*arguments: str) -> dict:
    return peers.run_script(
        "nova", "nova_docs_and_plugins.py", arguments[0], str(ROOT), *arguments[1:], timeout=900
    )


@pytest.fixture(scope="module")
def docs_extension(tmp_path_factory) -> dict:
    """Nova's docs extension (doc/ext/extra_specs.py of the pinned Nova source) run twice."""
    extension = peers.require("nova-31.0.0") / "doc" / "ext"
    sphinx_site = sysconfig.get_paths()["purelib"]
    return {
        which: run_drop_in(
            "docs", which, str(extension), sphinx_site, str(tmp_path_factory.mktemp(which))
        )
        for which in ("adapter", "nova")
    }


def _fields(text: str) -> dict[str, list[tuple[str, str]]]:
    """Each documented spec's Type/Min/Max fields, from the extension's text output."""
    found = {}
    block = r"^(\S[^\n]*)\n\n((?:   (?:Type|Min|Max):\n      [^\n]*\n\n)+)"
    for match in re.finditer(block, text, re.MULTILINE):
        found[match.group(1)] = re.findall(r"   (Type|Min|Max):\n      ([^\n]*)", match.group(2))
    return found


def test_novas_docs_extension_renders_the_adapters_table(docs_extension):
    adapter, nova = docs_extension["adapter"], docs_extension["nova"]
    assert adapter["warnings"] == nova["warnings"] == []
    # Every spec Nova documents, under Nova's name (hw:numa_cpus.{num}, not {id}) ...
    assert set(nova["documented"]) <= set(adapter["documented"])
    assert "hw:numa_cpus.{num}" in adapter["documented"]
    assert len(nova["documented"]) > 500
    # ... with the same type; bounds differ only where onespec states one Nova checks elsewhere.
    ours, theirs = _fields(adapter["text"]), _fields(nova["text"])
    assert set(theirs) <= set(ours)
    for name, fields in theirs.items():
        assert fields[0] == ours[name][0], name
    extra = {name for name in theirs if theirs[name] != ours[name]}
    assert all(name.startswith("resources{group}:") for name in extra), extra


PLUGIN = """\
from nova.api.validation.extra_specs import base


def register():
    return [
        base.ExtraSpecValidator(
            name="acme:widgets",
            description="How many widgets.",
            value={"type": int, "min": 1, "max": 8, "description": "A count."},
        )
    ]
"""


def test_a_third_party_nova_validator_plugin_is_enforced_through_the_adapter(tmp_path):
    """Before, the adapter dropped Nova's plugins: Nova refused acme:widgets=0, it accepted."""
    site = tmp_path / "site"
    info = site / "acme_validators-1.0.dist-info"
    info.mkdir(parents=True)
    (site / "acme_validators.py").write_text(PLUGIN, encoding="utf-8")
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: acme-validators\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[nova.api.extra_spec_validators]\nacme = acme_validators\n", encoding="utf-8"
    )
    specs = ("acme:widgets=0", "acme:widgets=1", "acme:widgets=8", "acme:widgets=9", "acme:x=1")
    nova = run_drop_in("plugin", "nova", str(site), *specs)
    adapter = run_drop_in("plugin", "adapter", str(site), *specs)
    assert nova["registered"] == adapter["registered"] == ["acme:widgets"]
    accepted = {spec: verdict == "accepted" for spec, verdict in nova["verdicts"].items()}
    assert accepted == {
        "acme:widgets=0": False,
        "acme:widgets=1": True,
        "acme:widgets=8": True,
        "acme:widgets=9": False,
        "acme:x=1": False,
    }
    assert {
        spec: verdict == "accepted" for spec, verdict in adapter["verdicts"].items()
    } == accepted
    assert "less than the minimum of 1" in adapter["verdicts"]["acme:widgets=0"]
