"""Validating instances and clusters, and the plugin side of the SPI.

A plugin may implement ``validate_images(cluster, reconcile=True)`` (or, as Sahara's plugins
do, ``validate_images(cluster, test_only=False, image_arguments=None)``); a plugin that does
not is simply not validated. The rules of the contract are enforced here rather than left to each
plugin: asking a plugin that cannot reconcile to reconcile, or a plugin that cannot avoid
changes to only check, raises instead of silently doing the other thing.
"""

from __future__ import annotations

import inspect
import logging
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from onespec.validators_runtime.images.calling import (
    call_custom,
    refuse_positional,
    resolve_env,
    resolve_mode,
)
from onespec.validators_runtime.images.errors import (
    ImageArgumentError,
    ImageError,
    ImageValidationError,
)
from onespec.validators_runtime.images.model import ImageValidator, SpecValidator
from onespec.validators_runtime.images.report import Outcome, ValidationReport
from onespec.validators_runtime.images.root import ImageSpec

LOG = logging.getLogger(__name__)

#: How many instances a cluster validation works on at once, unless told otherwise.
DEFAULT_MAX_WORKERS = 8


def _is_remote(candidate: Any) -> bool:
    return callable(getattr(candidate, "execute_command", None))


def validate_instance(
    instance_or_remote: Any,
    validators: Sequence[ImageValidator],
    *positional: Any,
    reconcile: bool | None = None,
    test_only: bool | None = None,
    env_map: Mapping[str, Any] | None = None,
    image_arguments: Mapping[str, Any] | None = None,
    **options: Any,
) -> list[ValidationReport]:
    """Run every validator against one instance (or a remote to it); return their reports.

    An instance is anything with a ``remote()`` context manager, as cluster instances have. The
    mode is a keyword, ``reconcile`` (default true) or Sahara's ``test_only``: Sahara passed
    ``test_only`` third and positionally, the blueprint ``reconcile``, so a positional mode is
    refused rather than read either way. ``options`` are those of
    ``ImageSpec.validate`` (an unknown one is a TypeError). When checking only,
    every validator runs even after a failure, so one call reports everything; when
    reconciling, the first failure stops the run. Raises ImageValidationError naming every
    failure, with the first failed report attached.
    """
    refuse_positional("validate_instance", positional)
    mode = resolve_mode(reconcile, test_only)
    env = resolve_env(env_map, image_arguments)
    unknown = sorted(set(options) - _OPTIONS)
    if unknown:
        raise TypeError(f"validate_instance() got unexpected keyword(s): {', '.join(unknown)}")
    if _is_remote(instance_or_remote):
        return _validate_through(instance_or_remote, validators, mode, env, options)
    with instance_or_remote.remote() as remote:
        return _validate_through(remote, validators, mode, env, options)


#: The options validate_instance passes on to each validator.
_OPTIONS = frozenset({"distro", "progress", "timeout", "copy_destination"})


def _validate_through(
    remote: Any,
    validators: Sequence[ImageValidator],
    reconcile: bool,
    env: Mapping[str, Any],
    options: Mapping[str, Any],
) -> list[ValidationReport]:
    reports: list[ValidationReport] = []
    failures: list[ImageValidationError] = []
    for validator in validators:
        try:
            if isinstance(validator, SpecValidator):
                result = validator.validate(remote, reconcile=reconcile, env_map=env, **options)
            else:
                distro = options.get("distro")
                result = call_custom(
                    validator,
                    remote,
                    reconcile=reconcile,
                    env=env,
                    distro=str(distro) if distro is not None else None,
                )
        except ImageArgumentError:
            raise  # the caller's mistake, not the image's: before anything ran
        except ImageValidationError as exc:
            failures.append(exc)
            if exc.report is not None:
                reports.append(exc.report)
            if reconcile:
                break
            continue
        if isinstance(result, ValidationReport):
            reports.append(result)
    if failures:
        first = next((f.report for f in failures if f.report is not None), None)
        raise ImageValidationError(
            "; ".join(str(f) for f in failures), report=first, reports=reports
        )
    return reports


# --- Clusters -------------------------------------------------------------------------------------


def instance_name(instance: Any) -> str:
    """How an instance is named in reports: its instance_name, name, hostname or id."""
    for attribute in ("instance_name", "name", "hostname", "instance_id", "id"):
        value = getattr(instance, attribute, None)
        if value:
            return str(value)
    return repr(instance)


def instances_of(cluster: Any) -> list[Any]:
    """A cluster's instances: ``cluster.instances``, or those of its ``node_groups``."""
    if hasattr(cluster, "instances"):
        return list(cluster.instances)
    if hasattr(cluster, "node_groups"):
        return [i for group in cluster.node_groups for i in group.instances]
    return list(cluster)


@dataclass
class InstanceResult:
    """What validating one instance gave: its reports, or the error that stopped it."""

    instance: str
    reports: list[ValidationReport] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """True when the instance passed (possibly after reconciling)."""
        return self.error is None

    @property
    def outcome(self) -> Outcome:
        """failed, reconciled when anything was reconciled, else passed."""
        if self.error is not None:
            return Outcome.FAILED
        if any(report.outcome is Outcome.RECONCILED for report in self.reports):
            return Outcome.RECONCILED
        return Outcome.PASSED

    def to_dict(self, *, timings: bool = True) -> dict[str, Any]:
        """A JSON-ready mapping."""
        data: dict[str, Any] = {
            "instance": self.instance,
            "outcome": str(self.outcome),
            "error": self.error,
            "reports": [report.to_dict(timings=timings) for report in self.reports],
        }
        if timings:
            data["seconds"] = round(self.seconds, 6)
        return data


@dataclass
class ClusterReport:
    """Every instance's result, in the cluster's order."""

    instances: list[InstanceResult]

    @property
    def passed(self) -> bool:
        """True when every instance passed."""
        return all(result.passed for result in self.instances)

    @property
    def failed(self) -> list[InstanceResult]:
        """The instances that failed."""
        return [result for result in self.instances if not result.passed]

    def to_dict(self, *, timings: bool = True) -> dict[str, Any]:
        """A JSON-ready mapping."""
        return {
            "passed": self.passed,
            "instances": [result.to_dict(timings=timings) for result in self.instances],
        }


def _one(
    instance: Any, validators: Sequence[ImageValidator], reconcile: bool, kwargs: Mapping[str, Any]
) -> InstanceResult:
    name = instance_name(instance)
    result = InstanceResult(name)
    started = time.perf_counter()
    try:
        result.reports = validate_instance(instance, validators, reconcile=reconcile, **kwargs)
    except ImageValidationError as exc:
        result.error = str(exc)
        result.reports = list(exc.reports)
    except (ImageError, OSError) as exc:  # unreachable instance, broken connection
        result.error = f"{type(exc).__name__}: {exc}"
    finally:
        result.seconds = time.perf_counter() - started
    return result


def validate_cluster(
    cluster: Any,
    validators: Sequence[ImageValidator],
    *positional: Any,
    reconcile: bool | None = None,
    test_only: bool | None = None,
    max_workers: int = DEFAULT_MAX_WORKERS,
    **kwargs: Any,
) -> ClusterReport:
    """Validate every instance of ``cluster`` concurrently, at most ``max_workers`` at a time.

    Each instance gets its own result: one instance's failure, or its unreachable remote, never
    hides another's outcome. Raises ImageValidationError listing every failed instance, with
    the :class:`ClusterReport` as ``cluster_report``; returns the report when all passed.
    """
    refuse_positional("validate_cluster", positional)
    mode = resolve_mode(reconcile, test_only)
    if max_workers < 1:
        raise ValueError(f"max_workers must be at least 1, not {max_workers}")
    unknown = sorted(set(kwargs) - _OPTIONS - {"env_map", "image_arguments"})
    if unknown:
        raise TypeError(f"validate_cluster() got unexpected keyword(s): {', '.join(unknown)}")
    instances = instances_of(cluster)
    results: list[InstanceResult] = []
    if instances:
        with ThreadPoolExecutor(
            max_workers=min(max_workers, len(instances)), thread_name_prefix="onespec-image"
        ) as pool:
            futures = [pool.submit(_one, i, validators, mode, kwargs) for i in instances]
            results = [future.result() for future in futures]
    report = ClusterReport(results)
    if not report.passed:
        listed = "; ".join(f"{r.instance}: {r.error}" for r in report.failed)
        error = ImageValidationError(
            f"{len(report.failed)} of {len(results)} instances failed image validation: {listed}",
            report=next((r.reports[0] for r in report.failed if r.reports), None),
        )
        # Only a cluster's failure carries the whole cluster's report, so the class declares none.
        error.cluster_report = report  # type: ignore[attr-defined]
        raise error
    return report


# --- Plugins --------------------------------------------------------------------------------------


class ImageValidationPlugin:
    """A plugin that may validate the images of its clusters.

    Implementing ``validate_images(self, cluster, reconcile=True)`` is optional. Two flags say
    what the implementation can do; :func:`call_validate_images` enforces them.
    """

    #: False when validate_images cannot change an image to fix it.
    image_validation_can_reconcile: ClassVar[bool] = True
    #: False when validate_images cannot avoid changing the image (a tool that always applies).
    image_validation_can_check_only: ClassVar[bool] = True


def call_validate_images(
    plugin: Any,
    cluster: Any,
    *positional: Any,
    reconcile: bool | None = None,
    test_only: bool | None = None,
    image_arguments: Any = None,
) -> Any:
    """Call a plugin's ``validate_images`` if it has one, under the SPI's rules.

    A plugin without the method is not validated (None is returned): the SPI is optional. A
    plugin asked to reconcile that cannot, or asked only to check that cannot avoid changes,
    raises ImageValidationError before it touches anything. The mode is a keyword
    (``reconcile`` or ``test_only``) and reaches the plugin under the name its signature
    takes: Sahara's plugins take ``test_only``, and a ``reconcile`` they do not name would
    vanish into ``**kwargs`` while their ``test_only=False`` default reconciled.
    ``image_arguments``, when given, is passed as ``image_arguments`` to a plugin that takes
    it; one that does not is refused with a TypeError rather than validated without them.
    """
    refuse_positional("call_validate_images", positional)
    mode = resolve_mode(reconcile, test_only)
    method = getattr(plugin, "validate_images", None)
    name = type(plugin).__name__
    if method is None:
        LOG.debug("%s does not validate images; provisioning proceeds unchecked", name)
        return None
    if mode and not getattr(plugin, "image_validation_can_reconcile", True):
        raise ImageValidationError(
            f"{name} cannot reconcile images; ask it to check only (reconcile=False)"
        )
    if not mode and not getattr(plugin, "image_validation_can_check_only", True):
        raise ImageValidationError(
            f"{name} cannot validate images without changing them; reconcile=False is refused"
        )
    keywords: dict[str, Any] = dict(_mode_keywords(method, mode, name))
    if image_arguments is not None:
        if not _takes(method, "image_arguments"):
            raise TypeError(
                f"{name}.validate_images takes no image_arguments: it cannot be given them"
            )
        keywords["image_arguments"] = image_arguments
    return method(cluster, **keywords)


def _takes(method: Any, keyword: str) -> bool:
    """Whether ``method`` accepts ``keyword``: by name, or through ``**kwargs``."""
    try:
        parameters = inspect.signature(method).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return False
    return keyword in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


def _mode_keywords(method: Any, reconcile: bool, name: str) -> dict[str, bool]:
    """The mode as ``method`` takes it: ``reconcile``, ``test_only``, or both for ``**kwargs``."""
    parameters: Mapping[str, inspect.Parameter]
    try:
        parameters = inspect.signature(method).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        parameters = {}
    offered = {"reconcile": reconcile, "test_only": not reconcile}
    keywords = {key: value for key, value in offered.items() if key in parameters}
    if not keywords and any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        keywords = offered
    if not keywords:
        raise ImageValidationError(
            f"{name}.validate_images takes neither reconcile nor test_only: it cannot be told "
            "whether it may change the images"
        )
    return keywords


class SpecImageValidationPlugin(ImageValidationPlugin):
    """A plugin whose images are described by an image spec.

    Set ``image_spec`` (a path) and, if its scripts live elsewhere, ``image_resource_roots``;
    override :meth:`image_arguments` to derive argument values from the cluster. Every
    instance is validated concurrently (``image_validation_workers`` at a time).
    """

    image_spec: ClassVar[str | Path | None] = None
    image_resource_roots: ClassVar[Sequence[str | Path] | None] = None
    image_validator_map: ClassVar[Mapping[str, type[ImageValidator]] | None] = None
    image_validation_workers: ClassVar[int] = DEFAULT_MAX_WORKERS

    def image_validator(self, cluster: Any) -> ImageSpec:
        """The loaded spec for ``cluster`` (the same file for every cluster by default)."""
        if self.image_spec is None:
            raise ImageValidationError(f"{type(self).__name__} names no image_spec")
        return ImageSpec.from_yaml(
            self.image_spec, self.image_validator_map, self.image_resource_roots
        )

    def image_arguments(self, cluster: Any) -> dict[str, str]:
        """The argument values for ``cluster``'s validation; none by default."""
        return {}

    def validate_images(
        self,
        cluster: Any,
        *positional: Any,
        reconcile: bool | None = None,
        test_only: bool | None = None,
        image_arguments: Mapping[str, Any] | None = None,
    ) -> ClusterReport:
        """Validate every instance of ``cluster`` against the plugin's spec.

        The mode is a keyword, ``reconcile`` (default true) or Sahara's ``test_only``;
        ``image_arguments``, when given, replace ``image_arguments(cluster)``.
        """
        refuse_positional("validate_images", positional)
        return validate_cluster(
            cluster,
            [self.image_validator(cluster)],
            reconcile=resolve_mode(reconcile, test_only),
            max_workers=self.image_validation_workers,
            env_map=(
                image_arguments if image_arguments is not None else self.image_arguments(cluster)
            ),
        )


def iter_reports(report: ClusterReport) -> Iterable[tuple[str, ValidationReport]]:
    """(instance name, report) for every report of a cluster validation."""
    for result in report.instances:
        for single in result.reports:
            yield result.instance, single
