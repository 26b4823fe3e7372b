"""Sahara's interface over onespec: a Sahara remote and Sahara's validate_instance."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from tests.images.test_reconcile_packages import PackageManagerRemote
from validators_runtime.images import sahara
from validators_runtime.images.errors import RemoteCommandError
from validators_runtime.images.spec import loads


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
