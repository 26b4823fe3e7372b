"""Out-of-tree definitions loaded through real, installed distributions.

Each scenario copies plugin modules from ``tests/fixtures/`` into a temporary directory next to a
hand-written ``*.dist-info/`` (``METADATA`` and ``entry_points.txt``), and runs a fresh interpreter
with that directory on ``PYTHONPATH``: ``importlib.metadata`` discovers the entry points as it
would in a deployment, and the once-per-process default registry is built from scratch.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from onespec.validators_runtime._generated import extra_specs as generated
from tests.conftest import ROOT, SRC

#: Each scenario is a fresh interpreter: the entry points are discovered once per process.
pytestmark = pytest.mark.process

PLUGINS = Path(__file__).resolve().parents[1] / "fixtures"
GROUP = "onespec.extra_specs"
IN_TREE_COUNT = len(generated.SPECS)

# name: (version, modules copied from tests/fixtures, {entry point name: target})
DISTRIBUTIONS: dict[str, tuple[str, tuple[str, ...], dict[str, str]]] = {
    "acme-filters": ("1.0", ("acme_filters",), {"acme": "acme_filters:EXTRA_SPECS"}),
    "nova-style-plugins": (
        "2.3",
        ("nova_style", "nova_register"),
        {
            "nova-objects": "nova_style:VALIDATORS",
            "nova-callable": "nova_style:load",
            "nova-register": "nova_register",
        },
    ),
    "acme-clash": ("0.2", ("clash_plugin",), {"acme-clash": "clash_plugin:EXTRA_SPECS"}),
    "acme-shadow": ("0.3", ("shadow_plugin",), {"acme-shadow": "shadow_plugin:EXTRA_SPECS"}),
    "acme-shadow-traits": (
        "0.5",
        ("shadow_literal_rest_plugin",),
        {"acme-shadow-traits": "shadow_literal_rest_plugin:EXTRA_SPECS"},
    ),
    "acme-broken": ("0.1", ("broken_plugin",), {"acme-broken": "broken_plugin:EXTRA_SPECS"}),
    "acme-malformed": (
        "0.4",
        ("malformed_plugins",),
        {
            "bad-bound": "malformed_plugins:BAD_BOUND",
            "with-int": "malformed_plugins:WITH_INT",
            "not-a-list": "malformed_plugins:NOT_A_LIST",
            "ghost": "malformed_plugins:NOPE",
            "exploding": "malformed_plugins:explode",
        },
    ),
    "dup-alpha": ("1.0", ("dup_alpha",), {"aa-dupe": "dup_alpha:EXTRA_SPECS"}),
    "dup-zeta": ("1.0", ("dup_zeta",), {"zz-dupe": "dup_zeta:EXTRA_SPECS"}),
}


def label(entry_point: str) -> str:
    """How every report names an entry point: ``entry point 'x' (module:attr) from dist 1.0``."""
    for dist, (version, _, entry_points) in DISTRIBUTIONS.items():
        if entry_point in entry_points:
            return (
                f"entry point {entry_point!r} ({entry_points[entry_point]}) from {dist} {version}"
            )
    raise KeyError(entry_point)


def install(site: Path, *dists: str) -> Path:
    """Install ``dists`` into ``site`` the way pip lays them out: modules and a dist-info."""
    site.mkdir(parents=True, exist_ok=True)
    for dist in dists:
        version, modules, entry_points = DISTRIBUTIONS[dist]
        for module in modules:
            shutil.copy(PLUGINS / f"{module}.py", site / f"{module}.py")
        info = site / f"{dist.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n", encoding="utf-8"
        )
        lines = [f"[{GROUP}]", *(f"{name} = {target}" for name, target in entry_points.items())]
        (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (info / "RECORD").write_text("", encoding="utf-8")
    return site


def python(sites: list[Path], *args: str) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter that sees ``sites`` (in that order), then onespec and the tests."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*map(str, sites), str(SRC), str(ROOT)])
    env.pop("PYTHONSAFEPATH", None)
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=sites[0],
        timeout=120,
        check=False,
    )


PROBE = r"""
import json, sys

request = json.loads(sys.argv[1])
from onespec.validators_runtime import extra_specs as runtime

def problem(p):
    return {"source": p.source, "kind": p.kind, "message": p.message, "name": p.name}

registry = runtime.default_registry()
assert runtime.default_registry() is registry
out = {
    "sources": registry.sources,
    "problems": [problem(p) for p in registry.problems],
    "size": len(registry),
    "lookups": {key: registry.lookup(key) for key in request["lookups"]},
    "results": [],
}
for mode, specs in request["checks"]:
    try:
        findings, valid = runtime.validate(specs, mode=mode), True
    except runtime.ExtraSpecValidationError as exc:
        findings, valid = exc.findings, False
    out["results"].append(
        {
            "valid": valid,
            "findings": {f.key: f.to_dict() for f in findings if f.code != "deprecated"},
            "deprecated": {f.key: f.to_dict() for f in findings if f.code == "deprecated"},
        }
    )
if request["build"]:
    from onespec.definitions import registry as catalogue

    built = catalogue.build()
    out["build"] = {
        "in_tree": len(built.in_tree),
        "names": [d.name for d in built.definitions],
        "namespaces": [n.name for n in built.namespaces],
        "sources": {n: s for n, s in built.sources.items() if s != catalogue.IN_TREE},
        "plugins": [
            {
                "label": p.label,
                "entry_point": p.entry_point,
                "target": p.target,
                "distribution": p.distribution,
                "names": [d.name for d in p.definitions],
            }
            for p in built.plugins
        ],
        "problems": [problem(p) for p in built.problems],
    }
print(json.dumps(out))
"""

CLI = (
    "import sys; from onespec.validators_runtime.cli import main; "
    "sys.argv = ['onespec', *sys.argv[1:]]; main()"
)


def probe(sites, checks=(), lookups=(), build=False) -> dict:
    """Build the default registry in a fresh process; validate ``checks`` ((mode, specs) pairs)."""
    request = {"checks": list(checks), "lookups": list(lookups), "build": build}
    done = python(sites, "-c", PROBE, json.dumps(request))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    result["stderr"] = done.stderr
    return result


def onespec(sites, *args: str) -> subprocess.CompletedProcess[str]:
    """The ``onespec`` command line in a fresh process that sees ``sites``."""
    return python(sites, "-c", CLI, *args)


#: A validation result without a single finding.
VALID = {"valid": True, "findings": {}, "deprecated": {}}


def strict(**specs: str):
    """A strict-mode check of ``specs``; ``__`` in a keyword stands for the key's colon."""
    return ("strict", {key.replace("__", ":"): value for key, value in specs.items()})


# --- the installations -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """Plugins in the seed shape, as Nova-style objects, a callable and a register() module."""
    return [install(tmp_path_factory.mktemp("good"), "acme-filters", "nova-style-plugins")]


@pytest.fixture(scope="module")
def clashing(tmp_path_factory):
    """A good plugin, one redefining an in-tree name, one defining keys in-tree patterns own."""
    site = tmp_path_factory.mktemp("clashing")
    return [install(site, "acme-filters", "acme-clash", "acme-shadow")]


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    """Good plugins next to one that cannot be imported and several that are malformed."""
    site = tmp_path_factory.mktemp("broken")
    return [install(site, "acme-filters", "nova-style-plugins", "acme-broken", "acme-malformed")]


@pytest.fixture(scope="module")
def everything(tmp_path_factory):
    return [install(tmp_path_factory.mktemp("everything"), *DISTRIBUTIONS)]


def test_the_plain_environment_has_no_plugins():
    """The baseline the scenarios are compared with: nothing in the group without our dists."""
    done = python(
        [ROOT], "-c", f"import importlib.metadata as m; print(len(m.entry_points(group={GROUP!r})))"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"


def test_the_installation_is_discovered_by_importlib_metadata(everything):
    code = (
        "import importlib.metadata as m, json; "
        f"print(json.dumps(sorted([e.name, e.value, e.dist.name, e.dist.version] "
        f"for e in m.entry_points(group={GROUP!r}))))"
    )
    done = python(everything, "-c", code)
    assert done.returncode == 0, done.stderr
    expected = sorted(
        [name, target, dist, version]
        for dist, (version, _, entry_points) in DISTRIBUTIONS.items()
        for name, target in entry_points.items()
    )
    assert json.loads(done.stdout) == expected


# --- plugins in the seed shape -----------------------------------------------------------------


ACME = {"acme:foo", "acme:size", "acme:lane.{n}", "acme:old_foo"}
NOVA_OBJECTS = {"novaobj:mode", "novaobj:count", "novaobj:queue{num}", "novaobj:legacy"}


def test_a_seed_shaped_plugin_validates(good):
    result = probe(
        good,
        checks=[
            strict(acme__foo="beta", acme__size="8", **{"acme:lane.3": "yes"}),
            strict(acme__foo="delta"),
            strict(acme__foo="alhpa"),
            strict(acme__size="9"),
            strict(acme__size="0"),
            strict(**{"acme:lane.1": "maybe"}),
        ],
        lookups=["acme:foo", "acme:lane.2", "acme:lane.4"],
    )
    ok, bad_enum, typo, too_big, too_small, bad_bool = result["results"]
    assert ok == VALID

    assert bad_enum["valid"] is False
    finding = bad_enum["findings"]["acme:foo"]
    assert finding["code"] == "invalid-value"
    assert finding["severity"] == "error"
    assert finding["value"] == "delta"
    assert "alpha, beta, gamma" in finding["message"]

    assert typo["findings"]["acme:foo"]["suggestion"] == "alpha"
    assert "maximum of 8" in too_big["findings"]["acme:size"]["message"]
    assert too_big["findings"]["acme:size"]["suggestion"] == "8"
    assert "minimum of 1" in too_small["findings"]["acme:size"]["message"]
    assert bad_bool["findings"]["acme:lane.1"]["code"] == "invalid-value"

    assert result["lookups"] == {
        "acme:foo": "acme:foo",
        "acme:lane.2": "acme:lane.{n}",
        "acme:lane.4": None,  # n is at most 3
    }


def test_an_unknown_key_in_a_plugin_namespace_gets_a_suggestion(good):
    result = probe(
        good,
        checks=[
            strict(acme__fo="alpha"),
            ("permissive", {"acme:fo": "alpha"}),
            ("off", {"acme:fo": "alpha"}),
            strict(**{"acme:lane.4": "yes"}),
        ],
    )
    unknown, permissive, off, out_of_range = result["results"]
    assert unknown["valid"] is False
    finding = unknown["findings"]["acme:fo"]
    assert finding["code"] == "unknown-key"
    assert finding["severity"] == "error"
    assert finding["suggestion"] == "acme:foo"
    assert "'acme'" in finding["message"]
    assert permissive["valid"] is True
    assert permissive["findings"]["acme:fo"]["severity"] == "warning"
    assert off == VALID
    assert out_of_range["findings"]["acme:lane.4"]["code"] == "unknown-key"


def test_a_deprecated_plugin_definition_warns(good):
    result = probe(good, checks=[strict(acme__old_foo="anything")])
    [deprecated] = result["results"]
    assert deprecated["valid"] is True
    assert deprecated["findings"] == {}
    finding = deprecated["deprecated"]["acme:old_foo"]
    assert (finding["code"], finding["severity"]) == ("deprecated", "warning")


# --- Nova-style objects, callables and register() ----------------------------------------------


def test_nova_style_objects_validate(good):
    result = probe(
        good,
        checks=[
            strict(novaobj__mode="fast", novaobj__count="4", novaobj__queue7="abc"),
            strict(novaobj__mode="medium"),
            strict(novaobj__count="5"),
            strict(novaobj__queue7="ABC"),
            strict(novaobj__queueX="abc"),
            strict(novaobj__legacy="on"),
            strict(novaobj__legacy="sometimes"),
        ],
        lookups=["novaobj:queue12"],
    )
    ok, enum, bound, pattern, parameter, legacy, legacy_bad = result["results"]
    assert ok == VALID
    assert "fast, slow" in enum["findings"]["novaobj:mode"]["message"]
    assert enum["findings"]["novaobj:mode"]["code"] == "invalid-value"
    assert "maximum of 4" in bound["findings"]["novaobj:count"]["message"]
    assert pattern["valid"] is False
    assert pattern["findings"]["novaobj:queue7"]["code"] == "invalid-value"
    assert "[a-z]+" in pattern["findings"]["novaobj:queue7"]["message"]
    assert parameter["findings"]["novaobj:queueX"]["code"] == "unknown-key"
    assert legacy["valid"] is True
    assert legacy["findings"] == {}
    assert legacy["deprecated"]["novaobj:legacy"]["severity"] == "warning"
    assert legacy_bad["valid"] is False
    assert legacy_bad["findings"]["novaobj:legacy"]["code"] == "invalid-value"
    assert legacy_bad["deprecated"]["novaobj:legacy"]["code"] == "deprecated"
    assert result["lookups"] == {"novaobj:queue12": "novaobj:queue{num}"}


def test_a_callable_and_a_register_module_validate(good):
    result = probe(
        good,
        checks=[
            strict(novacall__flag="true", novareg__level="3"),
            strict(novacall__flag="maybe"),
            strict(novareg__level="0"),
            strict(novareg__levle="3"),
        ],
    )
    ok, flag, level, typo = result["results"]
    assert ok == VALID
    assert flag["findings"]["novacall:flag"]["code"] == "invalid-value"
    assert "minimum of 1" in level["findings"]["novareg:level"]["message"]
    assert typo["findings"]["novareg:levle"]["suggestion"] == "novareg:level"


def test_every_definition_is_labelled_with_its_entry_point(good):
    result = probe(good)
    expected = {name: label("acme") for name in ACME}
    expected.update({name: label("nova-objects") for name in NOVA_OBJECTS})
    expected["novacall:flag"] = label("nova-callable")
    expected["novareg:level"] = label("nova-register")
    assert result["sources"] == expected
    assert label("acme") == "entry point 'acme' (acme_filters:EXTRA_SPECS) from acme-filters 1.0"
    assert result["problems"] == []
    assert result["size"] == IN_TREE_COUNT + len(expected)


def test_in_tree_validation_is_unchanged_by_good_plugins(good):
    result = probe(
        good,
        checks=[
            strict(hw__cpu_policy="dedicated", hw__numa_nodes="2"),
            strict(hw__cpu_policy="dedicatd"),
            strict(hw__cpu_pollicy="dedicated"),
            strict(hide_hypervisor_id="true"),
        ],
    )
    ok, value, key, deprecated = result["results"]
    assert ok == VALID
    assert value["findings"]["hw:cpu_policy"]["suggestion"] == "dedicated"
    assert key["findings"]["hw:cpu_pollicy"]["suggestion"] == "hw:cpu_policy"
    assert deprecated["valid"] is True
    assert deprecated["deprecated"]["hide_hypervisor_id"]["suggestion"] == "hw:hide_hypervisor_id"


def test_the_command_line_validates_plugin_keys(good):
    done = onespec(good, "validate", "extra-specs", "acme:foo=alpha", "novaobj:mode=fast")
    assert done.returncode == 0, done.stdout + done.stderr
    done = onespec(good, "validate", "extra-specs", "acme:foo=delta")
    assert done.returncode == 1
    assert "alpha, beta, gamma" in done.stdout
    done = onespec(good, "validate", "extra-specs", "--format", "json", "acme:fo=alpha")
    assert done.returncode == 1
    [finding] = json.loads(done.stdout)["findings"]
    assert finding["suggestion"] == "acme:foo"


def test_doctor_lists_good_plugins_and_exits_zero(good):
    done = onespec(good, "definitions", "doctor")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"In-tree catalogue: {IN_TREE_COUNT} definitions" in done.stdout
    assert "Out-of-tree definitions:\n" in done.stdout
    assert f"  {label('acme')}: 4 definitions\n" in done.stdout
    assert f"  {label('nova-objects')}: 4 definitions\n" in done.stdout
    assert f"  {label('nova-callable')}: 1 definition\n" in done.stdout
    assert f"  {label('nova-register')}: 1 definition\n" in done.stdout
    assert "Problems: none." in done.stdout

    done = onespec(good, "definitions", "doctor", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["in_tree"]["definitions"] == IN_TREE_COUNT
    assert report["out_of_tree"] == sorted(
        [
            {"source": label("acme"), "definitions": 4},
            {"source": label("nova-objects"), "definitions": 4},
            {"source": label("nova-callable"), "definitions": 1},
            {"source": label("nova-register"), "definitions": 1},
        ],
        key=lambda entry: entry["source"],
    )
    assert report["problems"] == []


# --- clashes with the in-tree catalogue --------------------------------------------------------


def test_the_in_tree_rules_win_a_name_clash(clashing):
    result = probe(
        clashing,
        checks=[
            strict(hw__cpu_policy="turbo"),
            # 'mixed', which only the in-tree definition allows (with the mask Nova then needs).
            strict(hw__cpu_policy="mixed", hw__cpu_dedicated_mask="^0"),
            strict(clash__kept="5"),
            strict(clash__kept="11"),
        ],
        lookups=["hw:cpu_policy"],
    )
    turbo, mixed, kept, kept_bad = result["results"]
    assert turbo["valid"] is False
    assert "dedicated, shared, mixed" in turbo["findings"]["hw:cpu_policy"]["message"]
    assert mixed == VALID
    # The rest of the clashing plugin still loads.
    assert kept == VALID
    assert "maximum of 10" in kept_bad["findings"]["clash:kept"]["message"]
    assert result["lookups"] == {"hw:cpu_policy": "hw:cpu_policy"}
    assert "hw:cpu_policy" not in result["sources"]
    assert result["sources"]["clash:kept"] == label("acme-clash")


def test_the_in_tree_pattern_wins_over_an_exact_plugin_key(clashing):
    result = probe(
        clashing,
        checks=[
            strict(**{"hw:numa_cpus.5": "anything"}),
            strict(**{"hw:numa_cpus.5": "0-3,^2"}),
            strict(trait__CUSTOM_ACME="maybe"),
            strict(trait__CUSTOM_ACME="forbidden"),
            strict(shadow__kept="yes"),
            strict(shadow__kept="sometimes"),
        ],
        lookups=["hw:numa_cpus.5", "trait:CUSTOM_ACME", "shadow:kept"],
    )
    cpus_bad, cpus_ok, custom_bad, custom_ok, kept_ok, kept_bad = result["results"]
    assert cpus_bad["valid"] is False
    assert cpus_bad["findings"]["hw:numa_cpus.5"]["code"] == "invalid-value"
    assert "guest CPU list" in cpus_bad["findings"]["hw:numa_cpus.5"]["message"]
    assert cpus_ok == VALID
    assert custom_bad["valid"] is False
    assert "required, forbidden" in custom_bad["findings"]["trait:CUSTOM_ACME"]["message"]
    assert custom_ok == VALID
    # The rest of the shadowing plugin still loads.
    assert kept_ok == VALID
    assert kept_bad["valid"] is False
    assert result["lookups"] == {
        "hw:numa_cpus.5": "hw:numa_cpus.{id}",
        "trait:CUSTOM_ACME": "trait{group}:CUSTOM_{trait}",
        "shadow:kept": "shadow:kept",
    }
    for name in ("hw:numa_cpus.5", "trait:CUSTOM_ACME"):
        assert name not in result["sources"]
    assert result["sources"]["shadow:kept"] == label("acme-shadow")


def test_clashes_are_reported_with_their_entry_point(clashing):
    result = probe(clashing)
    problems = {problem["name"]: problem for problem in result["problems"]}
    assert set(problems) == {"hw:cpu_policy", "hw:numa_cpus.5", "trait:CUSTOM_ACME"}
    assert len(result["problems"]) == 3
    assert {problem["kind"] for problem in result["problems"]} == {"clash"}

    name_clash = problems["hw:cpu_policy"]
    assert name_clash["source"] == label("acme-clash")
    assert "'hw:cpu_policy'" in name_clash["message"]
    assert "in-tree catalogue" in name_clash["message"]

    expected_owners = {
        "hw:numa_cpus.5": "hw:numa_cpus.{id}",
        "trait:CUSTOM_ACME": "trait{group}:CUSTOM_{trait}",
    }
    for name, owner in expected_owners.items():
        assert problems[name]["source"] == label("acme-shadow")
        assert repr(name) in problems[name]["message"]
        assert repr(owner) in problems[name]["message"]

    # Only what survived is counted: acme's four, one of acme-clash's, one of acme-shadow's.
    assert result["size"] == IN_TREE_COUNT + 6
    # Each problem is logged once, naming its entry point.
    for problem in result["problems"]:
        assert result["stderr"].count(f"{problem['source']}: {problem['message']}") == 1


def test_doctor_reports_clashes_and_exits_one(clashing):
    done = onespec(clashing, "definitions", "doctor")
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"  {label('acme')}: 4 definitions\n" in done.stdout
    assert f"  {label('acme-clash')}: 1 definition\n" in done.stdout
    assert f"  {label('acme-shadow')}: 1 definition\n" in done.stdout
    assert "Problems:\n" in done.stdout
    problem_lines = [line for line in done.stdout.splitlines() if line.startswith("  clash: ")]
    assert len(problem_lines) == 3
    [policy] = [line for line in problem_lines if "'hw:cpu_policy'" in line]
    assert policy.startswith(f"  clash: {label('acme-clash')}: defines 'hw:cpu_policy'")
    assert sum(label("acme-shadow") in line for line in problem_lines) == 2

    done = onespec(clashing, "definitions", "doctor", "--format", "json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    listed = {(p["source"], p["kind"], p["name"]) for p in report["problems"]}
    assert listed == {
        (label("acme-clash"), "clash", "hw:cpu_policy"),
        (label("acme-shadow"), "clash", "hw:numa_cpus.5"),
        (label("acme-shadow"), "clash", "trait:CUSTOM_ACME"),
    }
    assert {"source": label("acme-clash"), "definitions": 1} in report["out_of_tree"]


def test_the_command_line_keeps_the_in_tree_rules_under_a_clash(clashing):
    done = onespec(clashing, "validate", "extra-specs", "hw:cpu_policy=turbo")
    assert done.returncode == 1
    assert "dedicated, shared, mixed" in done.stdout
    done = onespec(clashing, "validate", "extra-specs", "hw:numa_cpus.5=anything")
    assert done.returncode == 1
    done = onespec(clashing, "validate", "extra-specs", "hw:cpu_policy=dedicated", "clash:kept=3")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def shadowing_traits(tmp_path_factory):
    """A plugin defining keys of in-tree definitions with a patterned prefix and a literal rest."""
    return [install(tmp_path_factory.mktemp("traits"), "acme-shadow-traits")]


def test_the_in_tree_rules_win_for_a_patterned_prefix_with_a_literal_rest(shadowing_traits):
    """`trait:HW_CPU_X86_AVX` is governed by the in-tree `trait{group}:HW_CPU_X86_AVX` exactly as
    `hw:numa_cpus.5` is by `hw:numa_cpus.{id}` (the runtime's own _shadowed() docstring names
    it), so the plugin must not change its rules."""
    result = probe(
        shadowing_traits,
        checks=[
            strict(trait__HW_CPU_X86_AVX="required"),
            strict(trait__HW_CPU_X86_AVX="maybe"),
            strict(resources__VCPU="2"),
            strict(resources__VCPU="lots"),
        ],
        lookups=["trait:HW_CPU_X86_AVX", "resources:VCPU"],
    )
    assert result["lookups"] == {
        "trait:HW_CPU_X86_AVX": "trait{group}:HW_CPU_X86_AVX",
        "resources:VCPU": "resources{group}:VCPU",
    }
    avx_ok, avx_bad, vcpu_ok, vcpu_bad = result["results"]
    assert avx_ok == VALID
    assert avx_bad["valid"] is False
    assert vcpu_ok == VALID
    assert vcpu_bad["valid"] is False
    assert result["sources"] == {}


def test_a_patterned_prefix_with_a_literal_rest_is_reported_as_a_clash(shadowing_traits):
    result = probe(shadowing_traits)
    listed = {(p["source"], p["kind"], p["name"]) for p in result["problems"]}
    assert listed == {
        (label("acme-shadow-traits"), "clash", "trait:HW_CPU_X86_AVX"),
        (label("acme-shadow-traits"), "clash", "resources:VCPU"),
    }
    done = onespec(shadowing_traits, "definitions", "doctor")
    assert done.returncode == 1, done.stdout
    assert f"  clash: {label('acme-shadow-traits')}: defines 'trait:HW_CPU_X86_AVX'" in done.stdout


def test_between_plugins_the_first_entry_point_by_name_wins(tmp_path):
    # zeta's distribution comes first on sys.path; the order must not depend on that.
    zeta = install(tmp_path / "zeta", "dup-zeta")
    alpha = install(tmp_path / "alpha", "dup-alpha")
    for sites in ([zeta, alpha], [alpha, zeta]):
        result = probe(
            sites,
            checks=[strict(dup__key="alpha"), strict(dup__key="zeta"), strict(dup__zeta_only="z")],
        )
        alpha_value, zeta_value, zeta_only = result["results"]
        assert alpha_value == VALID
        assert zeta_value["valid"] is False
        assert zeta_only == VALID
        assert result["sources"] == {"dup:key": label("aa-dupe"), "dup:zeta_only": label("zz-dupe")}
        [problem] = result["problems"]
        assert problem["kind"] == "clash"
        assert problem["name"] == "dup:key"
        assert problem["source"] == label("zz-dupe")
        assert label("aa-dupe") in problem["message"]


# --- broken and malformed plugins --------------------------------------------------------------


BROKEN_EXPECTED = {
    # entry point: (kind, words the message must hold)
    "acme-broken": ("import-error", ("ImportError", "libacme")),
    "ghost": ("import-error", ("AttributeError", "NOPE")),
    "exploding": ("import-error", ("RuntimeError", "licence server")),
    "bad-bound": ("malformed", ("malformed:size", "minimum")),
    "with-int": ("malformed", ("42",)),
    "not-a-list": ("malformed", ("dict", "not a list")),
}


def test_broken_and_malformed_plugins_are_reported_by_entry_point(broken):
    result = probe(broken)
    by_source = {problem["source"]: problem for problem in result["problems"]}
    assert len(result["problems"]) == len(BROKEN_EXPECTED)
    assert set(by_source) == {label(name) for name in BROKEN_EXPECTED}
    for name, (kind, words) in BROKEN_EXPECTED.items():
        problem = by_source[label(name)]
        assert problem["kind"] == kind, problem
        for word in words:
            assert word in problem["message"], problem
        assert problem["name"] is None
        # ... and logged once, naming the entry point.
        assert result["stderr"].count(f"{label(name)}: {problem['message']}") == 1


def test_a_malformed_entry_point_is_skipped_whole(broken):
    result = probe(
        broken,
        checks=[strict(malformed__before="x", malformed__ok="y", malformed__single="z")],
        lookups=["malformed:before", "malformed:ok", "malformed:single", "malformed:size"],
    )
    assert not any(name.startswith("malformed:") for name in result["sources"])
    assert set(result["lookups"].values()) == {None}
    # No definition claims the namespace, so its keys belong to "another service".
    assert result["results"] == [VALID]


def test_in_tree_and_good_plugins_still_work_next_to_broken_ones(broken):
    result = probe(
        broken,
        checks=[
            strict(hw__cpu_policy="dedicated", acme__foo="alpha", novaobj__mode="slow"),
            strict(hw__cpu_policy="dedicatd"),
            strict(acme__foo="delta"),
            strict(acme__fo="alpha"),
            strict(novareg__level="0"),
        ],
    )
    ok, in_tree, acme, acme_key, novareg = result["results"]
    assert ok == VALID
    assert in_tree["findings"]["hw:cpu_policy"]["suggestion"] == "dedicated"
    assert acme["findings"]["acme:foo"]["code"] == "invalid-value"
    assert acme_key["findings"]["acme:fo"]["suggestion"] == "acme:foo"
    assert novareg["valid"] is False
    assert set(result["sources"].values()) == {
        label(name) for name in ("acme", "nova-objects", "nova-callable", "nova-register")
    }
    assert result["size"] == IN_TREE_COUNT + 10


def test_doctor_reports_broken_plugins_and_exits_one(broken):
    done = onespec(broken, "definitions", "doctor")
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"  {label('acme')}: 4 definitions\n" in done.stdout
    for name, (kind, _) in BROKEN_EXPECTED.items():
        assert f"  {kind}: {label(name)}: " in done.stdout, name

    done = onespec(broken, "definitions", "doctor", "--format", "json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    listed = {(p["source"], p["kind"]) for p in report["problems"]}
    assert listed == {(label(name), kind) for name, (kind, _) in BROKEN_EXPECTED.items()}
    assert len(report["out_of_tree"]) == 4


def test_validation_still_works_on_the_command_line_next_to_broken_plugins(broken):
    done = onespec(broken, "validate", "extra-specs", "hw:cpu_policy=dedicated", "acme:foo=beta")
    assert done.returncode == 0, done.stdout + done.stderr
    done = onespec(broken, "validate", "extra-specs", "hw:cpu_policy=dedicatd")
    assert done.returncode == 1
    assert "did you mean 'dedicated'" in done.stdout.lower()


def test_the_command_line_warns_about_broken_plugins_when_validating(broken):
    """A broken plugin's keys pass unchecked (its namespace is unclaimed), so `validate` must at
    least say that the plugin did not load, as log_problems promises ("report each out-of-tree
    problem once, as a warning naming its entry point")."""
    done = onespec(broken, "validate", "extra-specs", "hw:cpu_policy=dedicated")
    assert done.returncode == 0, done.stdout + done.stderr
    assert label("acme-broken") in done.stderr


# --- onespec.definitions.registry.build() sees the same
# ------------------------------------------------


def test_the_registry_build_sees_the_same_plugins_and_clashes(everything):
    result = probe(everything, build=True)
    built = result["build"]
    loaded = ("aa-dupe", "acme", "acme-clash", "acme-shadow", "nova-callable", "nova-objects")
    loaded += ("acme-shadow-traits", "nova-register", "zz-dupe")

    # The same plugins, in the same fixed order (by entry-point name), labelled alike.
    assert [p["entry_point"] for p in built["plugins"]] == sorted(loaded)
    for plugin in built["plugins"]:
        assert plugin["label"] == label(plugin["entry_point"])
    names = {p["entry_point"]: p["names"] for p in built["plugins"]}
    assert names["acme-clash"] == ["hw:cpu_policy", "clash:kept"]
    assert set(names["acme"]) == ACME

    # Every definition the runtime took from a plugin, build() took from the same entry point.
    for name, source in result["sources"].items():
        assert built["sources"][name] == source
    assert "hw:cpu_policy" not in built["sources"]
    assert built["sources"]["dup:key"] == label("aa-dupe")

    # The same import errors, malformed plugins and name clashes.
    runtime_problems = [tuple(sorted(p.items())) for p in result["problems"]]
    built_problems = [tuple(sorted(p.items())) for p in built["problems"]]
    assert set(built_problems) <= set(runtime_problems)
    shared = [p for p in result["problems"] if "already governs" not in p["message"]]
    assert sorted(tuple(sorted(p.items())) for p in shared) == sorted(built_problems)
    kinds = sorted(p["kind"] for p in built["problems"])
    assert kinds.count("import-error") == 3
    assert kinds.count("malformed") == 3
    clashes = {(p["name"], p["source"]) for p in built["problems"] if p["kind"] == "clash"}
    assert ("hw:cpu_policy", label("acme-clash")) in clashes
    assert ("dup:key", label("zz-dupe")) in clashes

    # The in-tree catalogue comes first, then the plugins' definitions.
    assert built["in_tree"] == IN_TREE_COUNT
    assert built["names"][:IN_TREE_COUNT] == [record[0] for record in generated.SPECS]
    assert set(built["names"][IN_TREE_COUNT:]) == set(built["sources"])
    for namespace in ("acme", "novaobj", "novacall", "novareg", "clash", "shadow", "dup"):
        assert built["namespaces"].count(namespace) == 1
    assert built["namespaces"].count("hw") == 1
