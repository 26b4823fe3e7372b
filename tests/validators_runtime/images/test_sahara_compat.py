"""Sahara's interface over onespec: remotes, validate_instance, the classes and the plugin SPI."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from onespec.validators_runtime.images import LocalRemote, sahara
from onespec.validators_runtime.images.errors import RemoteCommandError
from onespec.validators_runtime.images.root import loads
from tests.validators_runtime.images.test_reconcile_packages import PackageManagerRemote


class SaharaStyleRemote:
    """Plays a Sahara remote: ``(code, stdout)``, ``write_file_to``, ``get_os_distrib``."""

    def __init__(self, inner: PackageManagerRemote, distro: str) -> None:
        self.inner = inner
        self.distro = distro
        self.calls: list[tuple[str, dict]] = []
        self.files: dict[str, bytes | str] = {}

    def execute_command(self, cmd, run_as_root=False, get_stderr=False, raise_when_error=True):
        self.calls.append((cmd, {"run_as_root": run_as_root, "raise": raise_when_error}))
        if cmd.startswith("chmod "):
            return 0, ""
        code, stdout, _ = self.inner.execute_command(cmd, raise_when_error=False)
        if raise_when_error and code:
            raise RuntimeError(f"{cmd} failed")
        return code, stdout

    def write_file_to(self, path, data, run_as_root=False):
        self.files[path] = data

    def get_os_distrib(self):
        return self.distro


class Instance:
    def __init__(self, remote) -> None:
        self._remote = remote

    @contextmanager
    def remote(self):
        yield self._remote


SPEC = "validators:\n  - package: java\n"


def _instance(distro: str = "centos") -> tuple[Instance, SaharaStyleRemote]:
    inner = PackageManagerRemote({}, family="redhat", installable={"java": "1.8-1"})
    remote = SaharaStyleRemote(inner, distro)
    return Instance(remote), remote


def test_positional_test_only_means_test_only_here():
    instance, remote = _instance()
    with pytest.raises(sahara.ImageValidationError, match="not installed: java"):
        sahara.validate_instance(instance, [loads(SPEC)], True)
    assert not any("install" in cmd for cmd, _ in remote.calls)


def test_reconciling_through_a_sahara_remote_uses_its_distribution():
    instance, remote = _instance("redhat")
    (report,) = sahara.validate_instance(instance, [loads(SPEC)], False)
    assert str(report.outcome) == "reconciled"
    assert not any("os-release" in cmd for cmd, _ in remote.calls)
    assert any("dnf install -y java" in cmd for cmd, _ in remote.calls)
    assert all(options["raise"] is False for _, options in remote.calls)


def test_the_adapter_raises_only_when_asked():
    _, remote = _instance()
    adapted = sahara.as_remote(remote)
    assert adapted.execute_command("rpm -q --queryformat x -- java", raise_when_error=False)[0]
    with pytest.raises(RemoteCommandError):
        adapted.execute_command("rpm -q --queryformat x -- java")
    adapted.write_file("/tmp/x", b"data", 0o600)
    assert remote.files == {"/tmp/x": b"data"}
    assert remote.calls[-1][0] == "chmod 600 -- /tmp/x"


def test_transform_exception_uses_message_and_passes_results_on():
    @sahara.transform_exception(ValueError, sahara.ImageValidationError)
    def fails():
        error = ValueError("x")
        error.message = "bad image"
        raise error

    @sahara.transform_exception(ValueError, sahara.ImageValidationError)
    def works():
        return 3

    with pytest.raises(sahara.ImageValidationError, match="bad image"):
        fails()
    assert works() == 3


def test_the_validator_map_adds_custom_kinds():
    class Mine(sahara.ImageValidator):
        def validate(self, remote, test_only=False, **kwargs):  # pragma: no cover
            return None

    kinds = sahara.get_validator_map({"mine": Mine})
    assert kinds["mine"] is Mine and kinds["package"] is sahara.SaharaPackageValidator
    assert sahara.DISTRO_KEY == "distro" and sahara.TEST_ONLY_KEY == "test_only"


# --- The rest of Sahara's interface -------------------------------------------------------------


def test_packages_print_as_sahara_printed_them():
    validator = sahara.SaharaPackageValidator.from_spec([{"java": {"version": "8"}}, "hadoop"])
    assert isinstance(validator, sahara.SaharaPackageValidator)
    assert [str(p) for p in validator.packages] == ["java-8", "hadoop"]
    assert str(sahara.SaharaPackageValidator.Package("java", "8")) == "java-8"
    assert validator.packages[0].name == "java" and validator.packages[0].version == "8"


def test_from_spec_list_and_get_class_from_spec_use_the_map():
    kinds = sahara.SaharaImageValidatorBase.get_validator_map()
    built = sahara.SaharaImageValidatorBase.from_spec_list(
        [{"package": "java"}, {"any": [{"package": "a"}, {"package": "b"}]}], kinds, []
    )
    assert [type(v) for v in built] == [sahara.SaharaPackageValidator, sahara.SaharaAnyValidator]
    assert all(isinstance(v, sahara.SaharaPackageValidator) for v in built[1].validators)
    assert sahara.SaharaImageValidatorBase.get_class_from_spec({"os_case": []}, kinds) == (
        sahara.SaharaOSCaseValidator,
        [],
    )
    with pytest.raises(sahara.ImageValidationSpecificationError, match="'pakage'"):
        sahara.SaharaImageValidatorBase.get_class_from_spec({"pakage": "x"}, kinds)


def test_os_case_lists_its_distros_as_sahara_did():
    spec = [{"redhat": [{"package": "nfs-utils"}]}, {"debian": [{"package": "nfs-common"}]}]
    validator = sahara.SaharaOSCaseValidator.from_spec(spec, sahara.get_validator_map(), [])
    assert [d.distro for d in validator.distros] == ["redhat", "debian"]
    first = validator.distros[0].validator
    assert isinstance(first, sahara.SaharaAllValidator)
    assert first.validators[0].packages[0].name == "nfs-utils"


def test_a_whole_spec_keeps_its_declared_arguments_when_built_through_the_map():
    spec = {
        "arguments": {"java": {"default": "openjdk", "choices": ["openjdk", "oracle"]}},
        "validators": [
            {"argument_case": {"argument_name": "java", "cases": {"openjdk": [{"package": "j"}]}}}
        ],
    }
    validator = sahara.SaharaImageValidator.from_spec(spec, sahara.get_validator_map(), [])
    assert isinstance(validator.validators[0], sahara.SaharaArgumentCaseValidator)
    (argument,) = validator.get_argument_list()
    assert argument.choices == ["openjdk", "oracle"] and argument.default == "openjdk"
    argument.default = "oracle"  # as Ambari's plugin changes a default on the list it is given
    assert validator.arguments["java"].default == "oracle"


def test_try_validate_returns_a_false_attempt_instead_of_raising():
    _, remote = _instance()
    validator = sahara.SaharaPackageValidator.from_spec("java")
    attempt = validator.try_validate(remote, test_only=True)
    assert not attempt and isinstance(attempt, sahara.ValidationAttemptFailed)
    assert "not installed: java" in str(attempt.exception)
    assert validator.try_validate(remote, test_only=False) is True
    assert not any("install" in cmd for cmd, _ in remote.calls[:2])


def test_a_sahara_validate_reads_the_distribution_from_image_arguments():
    _, remote = _instance("ubuntu")  # the remote says ubuntu; Sahara's inner validators read
    validator = sahara.SaharaPackageValidator.from_spec("java")  # image_arguments['distro']
    report = validator.validate(remote, test_only=False, image_arguments={"distro": "centos"})
    assert report.distro.startswith("centos")
    assert any("rpm -q" in cmd for cmd, _ in remote.calls)


def test_a_list_of_arguments_given_back_stands_for_their_defaults():
    spec = sahara.SaharaImageValidator.from_spec(
        {
            "arguments": {"pkg": {"default": "java", "choices": ["java", "jre"]}},
            "validators": [
                {"argument_case": {"argument_name": "pkg", "cases": {"jre": [{"package": "x"}]}}}
            ],
        }
    )
    _, remote = _instance()
    arguments = spec.get_argument_list()
    report = spec.validate(remote, test_only=True, image_arguments=arguments)
    assert report.passed  # java: no case, nothing to do
    arguments[0].default = "jre"
    with pytest.raises(sahara.ImageValidationError, match="not installed: x"):
        spec.validate(remote, test_only=True, image_arguments=arguments)
    with pytest.raises(TypeError, match="image_arguments must be a mapping"):
        spec.validate(remote, test_only=True, image_arguments=3)
    with pytest.raises(TypeError):
        spec.validate(remote, test_only=True, image_argument={})  # a misspelt keyword


def test_from_yaml_reads_spec_and_roots_inside_the_package(tmp_path, monkeypatch):
    package = tmp_path / "plugin_pkg"
    images = package / "plugins" / "res" / "images"
    (images / "common").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (images / "common" / "check").write_text("exit 0\n")
    (images / "image.yaml").write_text("validators:\n  - script: common/check\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = sahara.SaharaImageValidator.from_yaml(
        "plugins/res/images/image.yaml",
        resource_roots=["plugins/res/images"],
        package="plugin_pkg",
    )
    assert isinstance(spec, sahara.SaharaImageValidator)
    (script,) = spec.validators
    assert isinstance(script, sahara.SaharaScriptValidator)
    assert script.env_vars == ["test_only", "distro"]
    assert spec.file == str(images / "image.yaml")
    with pytest.raises(sahara.ImageValidationSpecificationError, match="leads out of package"):
        sahara.SaharaImageValidator.from_yaml(
            "plugins/res/images/image.yaml", resource_roots=["../.."], package="plugin_pkg"
        )
    with pytest.raises(sahara.ImageValidationSpecificationError, match="not installed"):
        sahara.SaharaImageValidator.from_yaml("image.yaml", package="no_such_plugin_pkg")


class SaharaPlugin:
    """A plugin as Sahara's define the SPI."""

    def __init__(self) -> None:
        self.calls: list[dict] = []

    def get_image_arguments(self, hadoop_version):
        return NotImplemented if hadoop_version == "1.0" else ["arguments"]

    def validate_images(self, cluster, test_only=False, image_arguments=None):
        self.calls.append({"test_only": test_only, "image_arguments": image_arguments})


class PlainPlugin:
    def validate_images(self, cluster, test_only=False):
        return test_only


def test_the_plugin_spi_as_sahara_plugins_define_it():
    plugin = SaharaPlugin()
    sahara.call_validate_images(plugin, object(), test_only=True, image_arguments={"a": "1"})
    sahara.call_validate_images(plugin, object())
    assert plugin.calls == [
        {"test_only": True, "image_arguments": {"a": "1"}},
        {"test_only": False, "image_arguments": None},
    ]
    assert sahara.call_validate_images(PlainPlugin(), object(), test_only=True) is True
    with pytest.raises(TypeError, match="takes no image_arguments"):
        sahara.call_validate_images(PlainPlugin(), object(), image_arguments={"a": "1"})
    assert sahara.get_image_arguments(plugin, "2.0") == ["arguments"]
    assert sahara.get_image_arguments(plugin, "1.0") is None
    assert sahara.get_image_arguments(PlainPlugin(), "2.0") is None


def test_a_onespec_remote_faces_sahara_code_and_is_unwrapped_again():
    inner = PackageManagerRemote({"java": "1.8-1"}, family="redhat")
    facing = sahara.SaharaFacingRemote(inner)
    assert facing.execute_command("rpm -q --queryformat x java", raise_when_error=False) == (
        0,
        "java\t(none)\t1.8\t1\n",
    )
    assert sahara.as_remote(facing) is inner
    with pytest.raises(RemoteCommandError):
        facing.execute_command("rpm -q --queryformat x absent")
    report = sahara.SaharaPackageValidator.from_spec("java").validate(
        facing, test_only=True, image_arguments={"distro": "centos"}
    )
    assert report.passed


def test_a_test_only_among_the_arguments_never_overrides_the_mode():
    """Sahara's scripts list test_only in env_vars; a value given for it must not reach them."""
    script = sahara.SaharaScriptValidator.from_spec(
        {"probe": {"inline": 'echo "$test_only $SIV_RECONCILE"; exit 1'}}
    )
    assert "test_only" in script.env_vars
    with LocalRemote() as remote, pytest.raises(sahara.ImageValidationError) as caught:
        script.validate(
            remote, test_only=True, image_arguments={"test_only": "0", "distro": "ubuntu"}
        )
    (command,) = [c for c in caught.value.report.commands if c.startswith("env ")]
    assert "test_only=1" in command and "test_only=0" not in command


def test_onespec_scripts_keep_reserved_variables_whatever_the_arguments_say():
    from onespec.validators_runtime.images import SaharaScriptValidator

    script = SaharaScriptValidator(b"exit 1", ["test_only", "distro"], name="probe")
    with LocalRemote() as remote, pytest.raises(sahara.ImageValidationError) as caught:
        script.validate(
            remote, reconcile=False, env_map={"test_only": "0", "distro": "x"}, distro="ubuntu"
        )
    (command,) = [c for c in caught.value.report.commands if c.startswith("env ")]
    assert "test_only=1" in command and "test_only=0" not in command
    assert "distro=ubuntu" in command and "distro=x" not in command
