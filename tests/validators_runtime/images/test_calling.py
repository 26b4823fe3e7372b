"""A check never becomes a change, however the validation is called.

Sahara's shipped plugins call ``validate(remote, test_only=True, image_arguments=args)`` and
``validate_instance(instance, validators, test_only, ...)``; the blueprint's names are
``reconcile`` and ``env_map``. Both spellings must mean what they say, a contradiction or an
unknown keyword must be refused, and a positional mode (whose meaning the two interfaces invert)
must be refused with a message naming the keywords.
"""

from __future__ import annotations

import hashlib
import re
from typing import ClassVar

import pytest

from onespec.validators_runtime.images import (
    ImageValidationError,
    ImageValidator,
    Outcome,
    validate_cluster,
    validate_instance,
)
from onespec.validators_runtime.images.remote import RemoteBase
from onespec.validators_runtime.images.root import loads
from tests.validators_runtime.images.test_reconcile_packages import PackageManagerRemote

SPEC = """
arguments:
  java:
    description: which java
    choices: [openjdk, oracle]
    default: openjdk
validators:
  - argument_case:
      argument_name: java
      cases:
        openjdk:
          - package: openjdk
        oracle:
          - package: oracle
"""


def _remote() -> PackageManagerRemote:
    return PackageManagerRemote({}, family="debian", installable={"openjdk": "1", "oracle": "1"})


def _installs(remote: PackageManagerRemote) -> list[str]:
    return [c for c in remote.commands if "apt-get" in c]


def test_test_only_true_checks_and_installs_nothing():
    remote = _remote()
    with pytest.raises(ImageValidationError, match="not installed: oracle"):
        loads(SPEC).validate(
            remote, test_only=True, image_arguments={"java": "oracle"}, distro="debian"
        )
    assert _installs(remote) == []


def test_test_only_false_reconciles_with_image_arguments():
    remote = _remote()
    report = loads(SPEC).validate(
        remote, test_only=False, image_arguments={"java": "oracle"}, distro="debian"
    )
    assert report.outcome is Outcome.RECONCILED
    assert _installs(remote) == ["DEBIAN_FRONTEND=noninteractive apt-get -y install oracle"]


@pytest.mark.parametrize(("reconcile", "test_only"), [(True, True), (False, False)])
def test_contradicting_reconcile_and_test_only_are_refused(reconcile, test_only):
    remote = _remote()
    with pytest.raises(TypeError, match="contradict"):
        loads(SPEC).validate(remote, reconcile=reconcile, test_only=test_only, distro="debian")
    assert remote.commands == []


def test_agreeing_reconcile_and_test_only_are_accepted():
    remote = _remote()
    with pytest.raises(ImageValidationError):
        loads(SPEC).validate(remote, reconcile=False, test_only=True, distro="debian")
    assert _installs(remote) == []


def test_env_map_and_a_different_image_arguments_are_refused():
    with pytest.raises(TypeError, match="image_arguments"):
        loads(SPEC).validate(
            _remote(),
            reconcile=False,
            env_map={"java": "openjdk"},
            image_arguments={"java": "oracle"},
            distro="debian",
        )


def test_an_unknown_keyword_is_refused_by_name():
    remote = _remote()
    with pytest.raises(TypeError, match="test_onyl"):
        loads(SPEC).validate(remote, test_onyl=True, distro="debian")
    assert remote.commands == []


def test_a_positional_mode_is_refused_naming_the_keywords():
    remote = _remote()
    with pytest.raises(TypeError, match=r"reconcile=.*test_only="):
        loads(SPEC).validate(remote, True)
    assert remote.commands == []


def test_validate_instance_takes_test_only_and_image_arguments():
    remote = _remote()
    with pytest.raises(ImageValidationError, match="not installed: oracle"):
        validate_instance(
            remote,
            [loads(SPEC)],
            test_only=True,
            image_arguments={"java": "oracle"},
            distro="debian",
        )
    assert _installs(remote) == []


def test_validate_instance_refuses_saharas_positional_test_only():
    remote = _remote()
    with pytest.raises(TypeError, match="test_only="):
        validate_instance(remote, [loads(SPEC)], True)
    assert remote.commands == []


def test_validate_instance_refuses_an_unknown_keyword():
    remote = _remote()
    with pytest.raises(TypeError, match="reconcle"):
        validate_instance(remote, [loads(SPEC)], reconcle=False, distro="debian")
    assert remote.commands == []


def test_validate_cluster_refuses_a_positional_mode():
    with pytest.raises(TypeError, match="test_only="):
        validate_cluster([], [loads(SPEC)], True)


class SaharaStyle(ImageValidator):
    """A custom kind written the way Sahara's validators were."""

    calls: ClassVar[list] = []

    @classmethod
    def from_spec(cls, spec, validator_map, resource_roots):
        return cls()

    def validate(self, remote, test_only=False, image_arguments=None, **kwargs):
        SaharaStyle.calls.append((test_only, dict(image_arguments or {}), kwargs))


def test_a_sahara_style_custom_validator_is_told_test_only():
    SaharaStyle.calls = []
    spec = loads("validators:\n  - mine: {}\n", validator_map={"mine": SaharaStyle})
    spec.validate(_remote(), reconcile=False, env_map={"x": "1"}, distro="debian")
    ((test_only, arguments, _),) = SaharaStyle.calls
    assert test_only is True
    assert arguments["x"] == "1"


class NoKeywords(ImageValidator):
    """A custom kind that takes only the blueprint's two parameters."""

    seen: ClassVar[list] = []

    @classmethod
    def from_spec(cls, spec, validator_map, resource_roots):
        return cls()

    def validate(self, remote, reconcile=True):
        NoKeywords.seen.append(reconcile)


def test_a_custom_validator_gets_only_the_keywords_it_takes():
    NoKeywords.seen = []
    spec = loads("validators:\n  - mine: {}\n", validator_map={"mine": NoKeywords})
    assert spec.validate(_remote(), reconcile=False, distro="debian").outcome is Outcome.PASSED
    assert NoKeywords.seen == [False]


class FileRemote(RemoteBase):
    """Answers sha256sum from a dict of files; records writes."""

    target = "files"

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = dict(files)
        self.writes: list[str] = []

    def execute_command(self, cmd, run_as_root=False, raise_when_error=True, timeout=None):
        path = cmd.split("-- ", 1)[1].split()[0].strip("'")
        if path in self.files:
            return 0, f"{hashlib.sha256(self.files[path]).hexdigest()}  {path}\n", ""
        return 1, "", ""

    def write_file(self, path, data, mode=0o644):
        self.writes.append(path)
        self.files[path] = data if isinstance(data, bytes) else data.encode()


COPY = "validators:\n  - copy_script: {helper.sh: {inline: 'echo hi'}}\n"


def test_copy_script_writes_nothing_when_only_checking():
    remote = FileRemote({})
    with pytest.raises(ImageValidationError, match=re.escape("/tmp/helper.sh")):
        loads(COPY).validate(remote, reconcile=False, distro="debian")
    assert remote.writes == []


def test_copy_script_passes_when_checking_an_image_that_has_the_file():
    remote = FileRemote({"/tmp/helper.sh": b"echo hi"})
    assert loads(COPY).validate(remote, reconcile=False, distro="debian").outcome is (
        Outcome.PASSED
    )
    assert remote.writes == []


def test_copy_script_writes_when_reconciling():
    remote = FileRemote({})
    report = loads(COPY).validate(remote, reconcile=True, distro="debian")
    assert report.outcome is Outcome.RECONCILED
    assert remote.writes == ["/tmp/helper.sh"]


# --- Sahara's constructors and exceptions -----------------------------------------------------


def test_the_whole_spec_constructor_takes_a_parsed_spec(tmp_path):
    from onespec.validators_runtime.images import SaharaImageValidator

    (tmp_path / "check.sh").write_text("true\n")
    spec = SaharaImageValidator.from_spec(
        {"validators": [{"package": "curl"}, {"script": "check.sh"}]}, {}, [str(tmp_path)]
    )
    assert isinstance(spec, SaharaImageValidator)
    assert spec.packages() == ["curl"]
    assert [type(v).kind for v in spec.validators] == ["package", "script"]


def test_the_whole_spec_constructor_reports_errors_by_yaml_path():
    from onespec.validators_runtime.images import (
        ImageValidationSpecificationError,
        SaharaImageValidator,
    )

    with pytest.raises(ImageValidationSpecificationError) as caught:
        SaharaImageValidator.from_spec({"validators": [{"package": "bad name"}]}, {}, [])
    assert caught.value.path == "validators[0].package"
    assert "<spec>" not in str(caught.value)


class Wrapper(ImageValidator):
    """A custom kind that builds a built-in one, as Sahara's plugins' validators did."""

    @classmethod
    def from_spec(cls, spec, validator_map, resource_roots):
        from onespec.validators_runtime.images import SaharaPackageValidator

        return SaharaPackageValidator.from_spec(spec, validator_map, resource_roots)

    def validate(self, remote, reconcile=True, **kwargs):  # pragma: no cover - never run
        raise AssertionError


def test_an_error_inside_a_custom_kind_names_the_file(tmp_path):
    from onespec.validators_runtime.images import (
        ImageValidationSpecificationError,
        SaharaImageValidator,
    )
    from tests.validators_runtime.images.helpers import write_spec

    path = write_spec(tmp_path, "validators:\n  - wrap: ['ok', 'not ok']\n")
    with pytest.raises(ImageValidationSpecificationError) as caught:
        SaharaImageValidator.from_yaml(path, {"wrap": Wrapper}, [str(tmp_path)])
    text = str(caught.value)
    assert "<spec>" not in text
    assert text.startswith(f"{path}:2: validators[0].wrap")
    assert "package[1]" in text and "'not ok'" in text
    assert caught.value.file == str(path)


def test_image_validation_error_has_a_message():
    assert ImageValidationError("the image is unfit").message == "the image is unfit"


# --- The plugin SPI -----------------------------------------------------------------------------


class SaharaPlugin:
    """validate_images as Sahara's plugins define it."""

    def __init__(self) -> None:
        self.calls: list = []

    def validate_images(self, cluster, test_only=False, image_arguments=None):
        self.calls.append((test_only, image_arguments))


class KwargsPlugin:
    def __init__(self) -> None:
        self.calls: list = []

    def validate_images(self, cluster, **kwargs):
        self.calls.append(kwargs)


def test_call_validate_images_tells_a_sahara_plugin_test_only():
    from onespec.validators_runtime.images import call_validate_images

    plugin = SaharaPlugin()
    call_validate_images(plugin, [], reconcile=False)
    call_validate_images(plugin, [], test_only=False)
    assert plugin.calls == [(True, None), (False, None)]


def test_call_validate_images_gives_both_spellings_to_kwargs():
    from onespec.validators_runtime.images import call_validate_images

    plugin = KwargsPlugin()
    call_validate_images(plugin, [], test_only=True)
    assert plugin.calls == [{"reconcile": False, "test_only": True}]


def test_call_validate_images_refuses_a_positional_mode_and_contradictions():
    from onespec.validators_runtime.images import call_validate_images

    plugin = SaharaPlugin()
    with pytest.raises(TypeError, match="test_only="):
        call_validate_images(plugin, [], True)
    with pytest.raises(TypeError, match="contradict"):
        call_validate_images(plugin, [], reconcile=True, test_only=True)
    assert plugin.calls == []


def test_a_spec_plugin_takes_test_only_and_refuses_a_positional_mode(tmp_path):
    from onespec.validators_runtime.images import SpecImageValidationPlugin
    from tests.validators_runtime.images.helpers import write_spec

    spec = write_spec(tmp_path, "validators:\n  - package: bash\n")

    class Plugin(SpecImageValidationPlugin):
        image_spec = spec

    assert Plugin().validate_images([], test_only=True).passed
    with pytest.raises(TypeError, match="test_only="):
        Plugin().validate_images([], True)


def test_an_argument_error_is_an_image_validation_error_and_is_raised_as_itself():
    from onespec.validators_runtime.images import ImageArgumentError

    remote = _remote()
    with pytest.raises(ImageValidationError) as caught:
        validate_instance(
            remote,
            [loads(SPEC)],
            test_only=True,
            image_arguments={"java": "ibm"},
            distro="debian",
        )
    assert isinstance(caught.value, ImageArgumentError)
    assert caught.value.message == caught.value.reason
    assert "one of openjdk, oracle" in caught.value.message
    assert remote.commands == []


def test_image_argument_from_spec_reads_saharas_arguments_mapping():
    from onespec.validators_runtime.images import ImageArgument, ImageValidationSpecificationError

    arguments = ImageArgument.from_spec(
        {"java": {"description": "d", "default": "openjdk", "choices": ["openjdk", "oracle"]}}
    )
    assert arguments == {
        "java": ImageArgument("java", "d", "openjdk", False, ("openjdk", "oracle"))
    }
    with pytest.raises(ImageValidationSpecificationError, match=r"arguments\.java\.default"):
        ImageArgument.from_spec({"java": {"default": "x", "choices": ["y"]}})


def test_the_sahara_modules_call_validate_images_takes_cluster_by_name():
    """The guide writes ``call_validate_images(plugin, cluster, test_only=...)``; the keyword
    was ``cluster_`` once, so ``cluster=`` was a TypeError."""
    from onespec.validators_runtime.images import sahara

    plugin = SaharaPlugin()
    cluster = object()
    seen = []
    plugin.validate_images = lambda cluster, test_only=False, image_arguments=None: seen.append(
        (cluster, test_only)
    )
    sahara.call_validate_images(plugin, cluster=cluster, test_only=True)
    sahara.call_validate_images(plugin, cluster, test_only=False)
    assert seen == [(cluster, True), (cluster, False)]


def test_a_sahara_shaped_custom_validator_reads_the_distribution_from_its_arguments(tmp_path):
    """Sahara set ``image_arguments["distro"]`` for every validator; custom kinds read it."""
    from onespec.validators_runtime.images import sahara

    seen = []

    class ReadsDistro(sahara.SaharaImageValidatorBase):
        def validate(self, remote, test_only=False, image_arguments=None, **kwargs):
            seen.append(image_arguments[sahara.DISTRO_KEY])

    spec = sahara.SaharaImageValidator(sahara.SaharaAllValidator([ReadsDistro()]), {})
    spec.validate(
        sahara.SaharaFacingRemote(_Silent()), test_only=True, image_arguments={"distro": "ubuntu"}
    )
    assert seen == ["ubuntu"]


class _Silent:
    """A onespec remote on which every command succeeds and prints nothing."""

    target = "silent"

    def execute_command(self, cmd, run_as_root=False, raise_when_error=True, timeout=None):
        return 0, "", ""

    def write_file(self, path, data, mode=0o644):
        pass

    def close(self):
        pass
