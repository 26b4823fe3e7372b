"""Sahara's real code on the compatibility module, in the Sahara peer environments.

``sahara.plugins.images`` is swapped for ``onespec.validators_runtime.images.sahara`` (no file of
Sahara changes); the scripts are ``tests/peers/sahara_unit_tests.py`` and
``tests/peers/sahara_plugin_images.py``.
"""

from __future__ import annotations

import pytest

from tests import peers

#: Sahara's own tests of its image module that pass unchanged on the compatibility module.
UNCHANGED = {"test_package_spec", "test_all_spec", "test_any_spec", "test_os_case_spec"}

#: Those that do not, each for a difference the image-spec guide documents ("Porting a Sahara
#: plugin"): the words the failure must contain.
DELIBERATELY_DIFFERENT = {
    # Names that reach scripts as environment variables must be shell variable names.
    "test_script_spec": "'extra-file' is not a shell variable name",
    "test_sahara_image_validator_spec": "'java-version' is not a shell variable name",
    # Package commands: one quoted query of the whole list, not `rpm -q java-8` per validator.
    # (A Mock remote's answer is not (code, stdout) at all.)
    "test_package_validator_redhat": "'Mock' object is not subscriptable",
    "test_package_validator_debian": "'Mock' object is not subscriptable",
    # Scripts: written to a private directory (its name from mktemp, which the mock answers
    # "fedora" as it answers everything: refused before anything is written or removed).
    "test_script_validator": "mktemp -d answered 'fedora'",
    # Validators run through a remote with one context, not a mapping they mutate.
    "test_any_validator": "neither a onespec nor a Sahara remote",
    "test_all_validator": "neither a onespec nor a Sahara remote",
    "test_os_case_validator": "neither a onespec nor a Sahara remote",
    "test_sahara_argument_case_validator": "neither a onespec nor a Sahara remote",
    "test_sahara_argument_set_validator": "neither a onespec nor a Sahara remote",
    # A custom validator taking **kwargs is given both spellings of the mode and arguments.
    "test_sahara_image_validator": "reconcile=True",
}


@pytest.fixture(scope="module")
def unit_tests():
    return peers.run_script("sahara-tests", "sahara_unit_tests.py")["tests"]


def test_sahara_own_tests_all_pass_on_sahara_own_module():
    original = peers.run_script("sahara-tests", "sahara_unit_tests.py", "--original")["tests"]
    assert set(original) == UNCHANGED | set(DELIBERATELY_DIFFERENT)
    assert {name for name, t in original.items() if t["outcome"] == "passed"} == set(original)


def test_sahara_own_tests_on_the_compatibility_module(unit_tests):
    passed = {name for name, test in unit_tests.items() if test["outcome"] == "passed"}
    assert passed == UNCHANGED
    for name, words in DELIBERATELY_DIFFERENT.items():
        assert unit_tests[name]["outcome"] in ("failed", "error"), name
        assert words in unit_tests[name]["detail"], (name, unit_tests[name])


@pytest.fixture(scope="module")
def plugin_runs(tmp_path_factory):
    return peers.run_script(
        "sahara", "sahara_plugin_images.py", str(tmp_path_factory.mktemp("throwaway-root"))
    )


def test_every_plugin_version_with_a_spec_runs_its_own_image_path(plugin_runs):
    plugins = {key.split()[0] for key in plugin_runs}
    assert plugins == {"ambari", "cdh", "mapr", "spark"}
    assert len(plugin_runs) == 11
    for key, entry in plugin_runs.items():
        assert entry["arguments"], key
        for distro in ("centos", "ubuntu"):
            run = entry[f"reconcile on played {distro}"]
            assert run["error"] is None, (key, distro, run)
            assert run["installed"] and run["scripts"], (key, distro)


def test_checking_on_a_throwaway_root_installs_nothing_and_names_what_is_missing(plugin_runs):
    for key, entry in plugin_runs.items():
        run = entry["check on throwaway root"]
        assert run["error"].startswith("ImageValidationError: "), (key, run)
        # Raised by the Sahara interface (its exceptions module converts the engine's error),
        # as Sahara's class where Sahara is installed.
        assert run["raised_in"].endswith(
            "onespec/validators_runtime/images/sahara/exceptions.py"
        ), key
        assert "not installed: " in run["error"], key
        assert run["installing"] == [], (key, run)
        # The private working directory is gone once the run ends.
        assert not any(path.startswith("tmp/onespec-siv.") for path in run["changed_in_root"])


def test_checking_runs_a_script_only_where_sahara_would(plugin_runs):
    """Why the throwaway root: asked only to check, some shipped scripts still change the
    image. Spark's install_spark makes /tmp/spark; nothing failed before it, so it runs, as on
    Sahara. MapR's repository scripts (which make /opt/mapr-repository) come after a package
    that is missing here: they are not run, as Sahara, stopping at the first failure, did not."""
    spark = plugin_runs["spark 2.3"]["check on throwaway root"]
    mapr = plugin_runs["mapr 5.2.0.mrv2"]["check on throwaway root"]
    assert "tmp/spark" in spark["not_on_this_machine"]
    assert "opt/mapr-repository" not in mapr["not_on_this_machine"]
    assert "not installed: " in mapr["error"]


def test_the_plugins_own_check_only_path_breaks_in_the_plugins(plugin_runs):
    """Asked only to check, the shipped plugins iterate over one instance: their own bug."""
    for key, entry in plugin_runs.items():
        run = entry["validate_images test_only"]
        assert run["error"] == "TypeError: 'Instance' object is not iterable", key
        assert "/sahara_plugin_" in run["raised_in"] and run["commands"] == 0, key
