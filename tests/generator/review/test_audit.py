"""``onespec audit``: reads against definitions, on small trees and on real Nova releases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from onespec.validators_runtime.cli import cli
from tests.generator.review.conftest import write_tree

VALIDATORS = "nova/api/validation/extra_specs/"

#: A tiny Nova: a validator module (one for-loop, one enum from another module) and code.
TINY_NOVA = {
    "nova/__init__.py": "",
    "nova/objects/fields.py": """
        class Policy:
            SHARED = 'shared'
            DEDICATED = 'dedicated'
            ALL = (SHARED, DEDICATED)
    """,
    VALIDATORS + "base.py": "class ExtraSpecValidator: pass\n",
    VALIDATORS + "hw.py": """
        from nova.api.validation.extra_specs import base
        from nova.objects import fields

        VALIDATORS = [
            base.ExtraSpecValidator(
                name='hw:cpu_policy', description='d',
                value={'type': str, 'enum': fields.Policy.ALL},
            ),
            base.ExtraSpecValidator(name='hw:max_cpu_sockets', description='d',
                                    value={'type': int, 'min': 1}),
        ]
        for key, unit in (('cpu', 'MHz'), ('vif', 'Mbps')):
            VALIDATORS.append(base.ExtraSpecValidator(
                name=f'quota:{key}_limit', description=f'in {unit}', value={'type': int}))
    """,
    "nova/virt/hardware.py": """
        def _get_flavor_image_meta(key, flavor, image_meta, default=None, prefix='hw'):
            flavor_key = ':'.join([prefix, key])
            return flavor.get('extra_specs', {}).get(flavor_key, default), None

        def topology(flavor, image_meta):
            sockets, image_sockets = _get_flavor_image_meta('cpu_max_sockets', flavor, image_meta)
            return sockets

        def policy(flavor, image_meta):
            policy, image_policy = _get_flavor_image_meta('cpu_policy', flavor, image_meta)
            if policy == 'isolated':
                return 1
            return policy in ('shared', 'dedicated')
    """,
    "nova/virt/driver.py": """
        def limits(flavor):
            return {k: flavor.extra_specs.get('quota:' + k) for k in ('cpu_limit', 'vif_limit')}
    """,
    "nova/tests/test_hw.py": "KEY = 'hw:only_in_tests'\n",
}


def run(*args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, ["audit", *args, "--format", "json"])
    return result.exit_code, json.loads(result.stdout) if result.stdout.startswith("{") else {}


def by_code(report: dict) -> dict[str, set[tuple[str, str, int | None]]]:
    codes: dict[str, set[tuple[str, str, int | None]]] = {}
    for finding in report["findings"]:
        codes.setdefault(finding["code"], set()).add(
            (finding["path"], finding["file"], finding["line"])
        )
    return codes


def test_each_kind_of_finding_is_reported_with_file_and_line(tmp_path: Path) -> None:
    root = write_tree(tmp_path, TINY_NOVA)
    code, report = run(str(root / "nova"), "--catalogue", "nova")
    assert code == 1
    found = by_code(report)
    # The idiom builds hw:cpu_max_sockets from 'cpu_max_sockets'; nothing defines it.
    assert found["undefined-read"] == {("hw:cpu_max_sockets", "nova/virt/hardware.py", 7)}
    # hw:max_cpu_sockets is defined (hw.py line 10) and read nowhere.
    assert found["never-read"] == {("hw:max_cpu_sockets", VALIDATORS + "hw.py", 10)}
    # 'isolated' is not in the enum read from fields.Policy.ALL; the tuple's members are.
    assert found["unknown-enum-value"] == {("hw:cpu_policy", "nova/virt/hardware.py", 12)}
    # Both quota keys come from the loop and are read through the 'quota:' prefix; the key in
    # tests is not read by the service.
    assert report["definitions"] == 4


def test_a_clean_tree_exits_0(tmp_path: Path) -> None:
    files = dict(TINY_NOVA)
    files["nova/virt/hardware.py"] = (
        files["nova/virt/hardware.py"]
        .replace("'cpu_max_sockets'", "'max_cpu_sockets'")
        .replace("'isolated'", "'shared'")
    )
    root = write_tree(tmp_path, files)
    code, report = run(str(root / "nova"), "--catalogue", "nova")
    assert (code, report["findings"]) == (0, [])


def test_an_idioms_file_teaches_a_new_reader(tmp_path: Path) -> None:
    files = dict(TINY_NOVA)
    files["nova/virt/other.py"] = (
        "def f(flavor):\n    return read_spec(flavor, 'max_cpu_sockets')\n"
    )
    files["nova/virt/hardware.py"] = "x = 1\n"
    files["nova/virt/driver.py"] = "P = 'quota:'\nQ = 'hw:cpu_policy'\n"
    root = write_tree(tmp_path, files)
    idioms = tmp_path / "idioms.yaml"
    idioms.write_text(
        "idioms:\n  - {function: read_spec, argument: 1, prefix: hw}\n", encoding="utf-8"
    )
    before, _ = run(str(root / "nova"), "--catalogue", "nova")
    after, report = run(str(root / "nova"), "--catalogue", "nova", "--idioms", str(idioms))
    assert (before, after, report["findings"]) == (1, 0, [])


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text("x = 1\n", encoding="utf-8")
    assert CliRunner().invoke(cli, ["audit", str(tmp_path), "--catalogue", "nova"]).exit_code == 2
    assert CliRunner().invoke(cli, ["audit", str(tmp_path), "--catalogue", "nope"]).exit_code == 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("idioms: 3\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["audit", str(tmp_path), "--idioms", str(bad)])
    assert result.exit_code == 1 and "bad.yaml" in result.output  # invalid content
    missing = CliRunner().invoke(cli, ["audit", str(tmp_path), "--idioms", str(tmp_path / "no")])
    assert missing.exit_code == 2 and "no such file" in missing.output


def _keys(report: dict, code: str) -> set[str]:
    return {f["path"] for f in report["findings"] if f["code"] == code}


def test_nova_34_reads_maxphysaddr_which_only_onespec_defines(nova_34: Path) -> None:
    _, against_nova = run(str(nova_34 / "nova"), "--catalogue", "nova")
    assert {"hw:maxphysaddr_mode", "hw:maxphysaddr_bits"} <= _keys(against_nova, "undefined-read")
    _, against_onespec = run(str(nova_34 / "nova"))
    undefined = _keys(against_onespec, "undefined-read")
    assert not {k for k in undefined if k.startswith("hw:maxphysaddr")}


def test_nova_31_reads_cpu_max_and_defines_max_cpu(nova_31: Path) -> None:
    code, report = run(str(nova_31 / "nova"), "--catalogue", "nova")
    assert code == 1
    names = ("sockets", "cores", "threads")
    assert {f"hw:cpu_max_{n}" for n in names} <= _keys(report, "undefined-read")
    assert {f"hw:max_cpu_{n}" for n in names} <= _keys(report, "never-read")
    reads = [f for f in report["findings"] if f["path"] == "hw:cpu_max_sockets"]
    assert reads[0]["file"] == "nova/virt/hardware.py" and reads[0]["line"] > 0


def test_enum_constants_compared_are_read_from_their_module(tmp_path: Path) -> None:
    files = dict(TINY_NOVA)
    files["nova/objects/fields.py"] = "class Policy:\n    SHARED = 'shared'\n    ALL = (SHARED,)\n"
    files["nova/objects/fields.py"] += "class Legacy:\n    PINNED = 'pinned'\n"
    files["nova/virt/legacy.py"] = """
        from nova.objects import fields
        from nova.virt.hardware import _get_flavor_image_meta

        def legacy(flavor, image_meta):
            policy, _ = _get_flavor_image_meta('cpu_policy', flavor, image_meta)
            if policy == fields.Policy.SHARED:
                return 0
            return policy == fields.Legacy.PINNED
    """
    root = write_tree(tmp_path, files)
    _, report = run(str(root / "nova"), "--catalogue", "nova")
    enum_findings = {
        (f["file"], f["line"], f["message"].split("compared with ")[1].split(",")[0])
        for f in report["findings"]
        if f["code"] == "unknown-enum-value"
    }
    assert ("nova/virt/legacy.py", 9, "'pinned'") in enum_findings
    assert not any(file == "nova/virt/legacy.py" and line == 7 for file, line, _ in enum_findings)


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("print 'hw:cpu_pollicy'\n", "Missing parentheses"),
        (b"# -*- coding: klingon -*-\nx = 'hw:cpu_pollicy'\n", "unknown encoding"),
        (b"x = 'hw:cpu_pollicy'\x00\n", "null"),
        ("x = " + "+".join(["'hw:cpu_pollicy'"] * 3000) + "\n", "nested deeper"),
    ],
)
def test_files_that_are_not_python_are_reported_not_skipped(tmp_path: Path, source, why) -> None:
    """Before, such a file was put in a list never shown: a typo in it was a silent 0 errors."""
    root = write_tree(tmp_path, TINY_NOVA)
    bad = root / "nova" / "virt" / "old.py"
    bad.write_bytes(source if isinstance(source, bytes) else source.encode())
    code, report = run(str(root / "nova"), "--catalogue", "nova")
    assert code == 1
    (finding,) = [f for f in report["findings"] if f["code"] == "unparsable"]
    assert finding["file"] == "nova/virt/old.py" and finding["severity"] == "error"
    assert why in finding["message"]
    text = CliRunner().invoke(cli, ["audit", str(root / "nova"), "--catalogue", "nova"])
    assert "nova/virt/old.py" in text.output and "unparsable" in text.output


def test_findings_have_the_one_json_shape_of_every_report(tmp_path: Path) -> None:
    from onespec.validators_runtime.problems import Problem

    root = write_tree(tmp_path, TINY_NOVA)
    _, report = run(str(root / "nova"), "--catalogue", "nova")
    shape = set(Problem("c", "m").to_dict())
    assert report["findings"] and all(set(f) == shape | {"keys"} for f in report["findings"])
    assert all(f["keys"] == [f["path"]] for f in report["findings"])
