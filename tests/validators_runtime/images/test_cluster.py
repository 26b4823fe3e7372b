"""Clusters are validated concurrently in a bounded pool; plugins follow the SPI's rules."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import pytest

from onespec.validators_runtime.images import (
    ImageValidationError,
    ImageValidationPlugin,
    LocalRemote,
    Outcome,
    RemoteError,
    SaharaImageValidator,
    SpecImageValidationPlugin,
    call_validate_images,
    validate_cluster,
    validate_instance,
)
from tests.validators_runtime.images.helpers import write_spec
from tests.validators_runtime.images.test_local import NO_SUCH_PACKAGE


class Gauge:
    """Counts how many instances are being validated at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = 0
        self.peak = 0

    @contextmanager
    def inside(self):
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        try:
            time.sleep(0.05)
            yield
        finally:
            with self.lock:
                self.now -= 1


class Instance:
    def __init__(self, name: str, gauge: Gauge, reachable: bool = True) -> None:
        self.instance_name = name
        self.gauge = gauge
        self.reachable = reachable

    @contextmanager
    def remote(self):
        with self.gauge.inside():
            if not self.reachable:
                raise RemoteError(f"cannot connect to {self.instance_name}")
            with LocalRemote() as remote:
                yield remote


class Cluster:
    def __init__(self, instances) -> None:
        self.instances = instances


@pytest.fixture
def coreutils(tmp_path):
    return SaharaImageValidator.from_yaml(
        write_spec(tmp_path, "validators:\n  - package: coreutils\n")
    )


def test_every_instance_is_validated_at_most_max_workers_at_a_time(coreutils):
    gauge = Gauge()
    cluster = Cluster([Instance(f"node-{i}", gauge) for i in range(6)])
    report = validate_cluster(cluster, [coreutils], reconcile=False, max_workers=2)
    assert [r.instance for r in report.instances] == [f"node-{i}" for i in range(6)]
    assert report.passed and all(r.outcome is Outcome.PASSED for r in report.instances)
    assert gauge.peak == 2


def test_the_default_pool_is_eight(coreutils):
    gauge = Gauge()
    validate_cluster(
        Cluster([Instance(str(i), gauge) for i in range(12)]), [coreutils], reconcile=False
    )
    assert gauge.peak == 8


def test_one_failure_never_hides_another_result(tmp_path, coreutils):
    missing = SaharaImageValidator.from_yaml(
        write_spec(tmp_path, f"validators:\n  - package: {NO_SUCH_PACKAGE}\n", "missing.yaml")
    )
    gauge = Gauge()
    cluster = Cluster(
        [Instance("good", gauge), Instance("down", gauge, reachable=False), Instance("ok", gauge)]
    )
    with pytest.raises(ImageValidationError) as caught:
        validate_cluster(cluster, [coreutils, missing], reconcile=False)
    report = caught.value.cluster_report
    by_name = {r.instance: r for r in report.instances}
    assert set(by_name) == {"good", "down", "ok"}
    assert "cannot connect to down" in by_name["down"].error
    for name in ("good", "ok"):
        result = by_name[name]
        assert [r.outcome for r in result.reports] == [Outcome.PASSED, Outcome.FAILED]
        assert NO_SUCH_PACKAGE in result.error
    assert "3 of 3 instances failed" in str(caught.value)


def test_validate_instance_takes_an_instance_or_a_remote(coreutils):
    (report,) = validate_instance(Instance("one", Gauge()), [coreutils], reconcile=False)
    assert report.passed
    with LocalRemote() as remote:
        (report,) = validate_instance(remote, [coreutils], reconcile=False)
    assert report.target == "local"


# --- Plugins --------------------------------------------------------------------------------------


class Silent(ImageValidationPlugin):
    """A plugin that does not implement validate_images."""


class CheckOnly(ImageValidationPlugin):
    image_validation_can_reconcile = False

    def __init__(self) -> None:
        self.calls = []

    def validate_images(self, cluster, reconcile=True):
        self.calls.append(reconcile)
        return "checked"


class AlwaysApplies(ImageValidationPlugin):
    image_validation_can_check_only = False

    def validate_images(self, cluster, reconcile=True):
        return "applied"


def test_a_plugin_without_the_method_is_not_validated():
    assert call_validate_images(Silent(), Cluster([])) is None


def test_a_plugin_that_cannot_reconcile_raises_when_asked_to():
    plugin = CheckOnly()
    with pytest.raises(ImageValidationError, match="cannot reconcile"):
        call_validate_images(plugin, Cluster([]), reconcile=True)
    assert plugin.calls == []
    assert call_validate_images(plugin, Cluster([]), reconcile=False) == "checked"


def test_a_plugin_that_cannot_avoid_changes_raises_when_asked_only_to_check():
    with pytest.raises(ImageValidationError, match="without changing them"):
        call_validate_images(AlwaysApplies(), Cluster([]), reconcile=False)
    assert call_validate_images(AlwaysApplies(), Cluster([]), reconcile=True) == "applied"


def test_a_spec_plugin_validates_its_clusters(tmp_path):
    spec = write_spec(
        tmp_path, "arguments:\n  v: {required: true}\nvalidators:\n  - package: bash\n"
    )

    class Plugin(SpecImageValidationPlugin):
        image_spec = spec
        image_validation_workers = 3

        def image_arguments(self, cluster):
            return {"v": "1"}

    gauge = Gauge()
    report = call_validate_images(
        Plugin(), Cluster([Instance(str(i), gauge) for i in range(5)]), reconcile=False
    )
    assert report.passed and len(report.instances) == 5
    assert gauge.peak == 3
