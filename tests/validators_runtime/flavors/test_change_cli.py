"""``onespec validate resize`` and ``validate rebuild`` on files, as the client prints them."""

from __future__ import annotations

import json
from pathlib import Path

from tests.commands import onespec


def _write(path: Path, document: dict) -> str:
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def _flavor(tmp_path: Path, name: str, disk: int, **specs: str) -> str:
    document = {"id": name, "name": name, "vcpus": 1, "ram": 1024, "disk": disk}
    return _write(tmp_path / f"{name}.json", {**document, "properties": specs})


def _image(tmp_path: Path, name: str, **properties: str) -> str:
    document = {"id": name, "name": name, "status": "active", "properties": properties}
    return _write(tmp_path / f"{name}.json", document)


def test_a_resize_to_a_smaller_disk_is_refused_with_novas_exceptions(tmp_path):
    old, new = _flavor(tmp_path, "big", 20), _flavor(tmp_path, "small", 10)
    image = _image(tmp_path, "centos")
    result = onespec("validate", "resize", old, new, "--image", image, "-f", "json")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    codes = {f["code"]: f for f in report["findings"]}
    assert codes["resize-root-disk-down"]["nova_exception"] == "ResizeError"
    assert codes["resize-root-disk-down"]["phase"] == "resize"
    # The server's image holds the old root disk as its min_disk: Nova's API refuses first.
    assert codes["flavor-disk-below-image-min-disk"]["phase"] == "api"
    assert (report["old_flavor"], report["new_flavor"], report["image"]) == (
        "big",
        "small",
        "centos",
    )


def test_a_volume_backed_server_may_shrink_its_flavors_disk(tmp_path):
    old, new = _flavor(tmp_path, "big", 20), _flavor(tmp_path, "small", 0)
    image = _image(tmp_path, "centos")
    result = onespec("validate", "resize", old, new, "--image", image, "--volume-backed")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Nova's checks accept it" in result.stdout


def test_a_rebuild_that_changes_the_numa_topology_is_refused(tmp_path):
    flavor = _flavor(tmp_path, "m1", 10)
    old, new = _image(tmp_path, "plain"), _image(tmp_path, "pinned", hw_cpu_policy="dedicated")
    result = onespec("validate", "rebuild", flavor, "--from-image", old, "--image", new)
    assert result.returncode == 1
    assert "[rebuild-numa-constraints-change] (ImageNUMATopologyRebuildConflict, rebuild)" in (
        result.stdout
    )
    assert "new_image.hw_cpu_policy='dedicated'" in result.stdout


def test_a_rebuild_with_the_same_image_changes_nothing(tmp_path):
    flavor = _flavor(tmp_path, "m1", 10)
    pinned = _image(tmp_path, "pinned", hw_cpu_policy="dedicated")
    result = onespec("validate", "rebuild", flavor, "--from-image", pinned, "--image", pinned)
    assert result.returncode == 0, result.stdout


def test_an_image_given_as_a_flavor_is_a_usage_error(tmp_path):
    image = _image(tmp_path, "centos")
    result = onespec("validate", "resize", image, _flavor(tmp_path, "m1", 1))
    assert result.returncode == 2
    assert "OLD_FLAVOR" in result.stderr


def test_a_disabled_flag_that_is_not_a_boolean_names_its_field(tmp_path):
    old = _flavor(tmp_path, "m1", 1)
    new = _write(
        tmp_path / "bad.json",
        {"id": "m2", "vcpus": 1, "ram": 1024, "disk": 1, "OS-FLV-DISABLED:disabled": [1]},
    )
    result = onespec("validate", "resize", old, new)
    assert result.returncode == 1
    assert "new_flavor.OS-FLV-DISABLED:disabled must be true or false" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_change_never_applies_the_disabled_flavor_rule_to_the_new_pair() -> None:
    """A rebuild keeps the server's flavor, disabled since or not; a resize to a disabled
    flavor is the resize's own refusal, once."""
    from onespec.validators_runtime._generated.flavor_rules import RULES
    from onespec.validators_runtime.flavors import validate_rebuild, validate_resize
    from onespec.validators_runtime.flavors.change import NOT_ON_CHANGE

    assert {rule[0] for rule in RULES} >= NOT_ON_CHANGE
    disabled = {"id": "f1", "vcpus": 1, "ram": 512, "disk": 1, "OS-FLV-DISABLED:disabled": True}
    enabled = {"id": "f0", "vcpus": 1, "ram": 512, "disk": 1}
    image = {"id": "i1", "min_disk": 0}
    rebuilt = validate_rebuild(disabled, image, {"id": "i2", "min_disk": 0})
    assert [f.code for f in rebuilt if f.severity == "error"] == []
    resized = validate_resize(enabled, disabled, image)
    refusals = [f.nova_exception for f in resized if f.severity == "error"]
    assert refusals == ["FlavorNotFound"]
