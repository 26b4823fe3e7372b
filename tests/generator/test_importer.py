"""``onespec import glance-metadefs``: unit checks, and the round trip through Glance 33.0.0.

The round trip imports Glance's own catalogue, installs the written package with onespec (from
this checkout) into a fresh virtual environment, and checks there that ``onespec definitions
doctor`` lists it with its clashes (the in-tree catalogue wins them), that the package's own
test passes, and that the generator's metadefs of the imported definitions load with Glance's
loader (the glance peer).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest
from click.testing import CliRunner

from onespec.definitions.model import ExtraSpec
from onespec.definitions.registry import in_tree
from onespec.generator.importer.metadefs import FLAVOR, read_directory, read_namespace
from onespec.generator.importer.package import (
    PackageNameError,
    module_name,
    namespace_module,
    render_package,
)
from onespec.validators_runtime.cli import cli
from onespec.validators_runtime.extra_specs import compile_registry
from tests import peers
from tests.conftest import ROOT

PACKAGE = "glance-catalogue"


def write(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def namespace(properties: dict, prefix: str | None = "acme:") -> dict:
    associations = [{"name": "OS::Glance::Image", "prefix": "acme_"}]
    if prefix is not None:
        associations.append({"name": FLAVOR, "prefix": prefix})
    return {
        "namespace": "OS::Acme::Things",
        "display_name": "Acme things",
        "description": "Things of Acme.",
        "resource_type_associations": associations,
        "properties": properties,
    }


# --- Reading metadefs ----------------------------------------------------------------------------


def test_types_enums_bounds_and_defaults_are_carried(tmp_path):
    path = write(
        tmp_path / "acme.json",
        namespace(
            {
                "tier": {
                    "title": "Tier",
                    "description": "The tier.",
                    "type": "string",
                    "enum": ["gold", "silver"],
                    "default": "gold",
                },
                "slots": {"type": "integer", "minimum": 1, "maximum": 8, "description": "Slots."},
                "fast": {"type": "boolean", "description": "Fast."},
                "code": {"type": "string", "pattern": "^[A-Z]+$", "maxLength": 12},
            }
        ),
    )
    imported = read_namespace(path, set())
    by_name = {d.name: d for d in imported.definitions}
    assert set(by_name) == {"acme:tier", "acme:slots", "acme:fast", "acme:code"}
    assert by_name["acme:tier"].value.enum_values == ("gold", "silver")
    assert by_name["acme:tier"].value.default == "gold"
    assert by_name["acme:tier"].description == "Tier. The tier."
    assert (by_name["acme:slots"].value.min, by_name["acme:slots"].value.max) == (1, 8)
    assert by_name["acme:fast"].value.type is bool
    assert by_name["acme:code"].value.max_length == 12
    assert imported.not_carried == ()


def test_what_cannot_be_carried_is_listed_with_its_reason(tmp_path):
    path = write(
        tmp_path / "acme.json",
        namespace(
            {
                "list": {"type": "array", "items": {"type": "string"}},
                "ratio": {"type": "number"},
                "mode": {"type": "string", "enum": ["a"], "operators": ["<or>"]},
            }
        ),
    )
    imported = read_namespace(path, {"acme:taken"})
    assert [d.name for d in imported.definitions] == ["acme:mode"]
    reasons = {item.what: item.reason for item in imported.not_carried}
    assert "array" in reasons["properties.list (acme:list)"]
    assert "number" in reasons["properties.ratio (acme:ratio)"]
    assert "operators" in reasons["properties.mode (acme:mode)"]


def test_image_only_namespaces_and_repeated_keys_are_not_carried(tmp_path):
    image_only = write(tmp_path / "a.json", namespace({"x": {"type": "string"}}, prefix=None))
    first = write(tmp_path / "b.json", namespace({"x": {"type": "string"}}))
    second = write(tmp_path / "c.json", namespace({"x": {"type": "integer"}}))
    imported = read_directory(tmp_path)
    assert [len(ns.definitions) for ns in imported] == [0, 1, 0]
    assert FLAVOR in imported[0].not_carried[0].reason
    assert "first is kept" in imported[2].not_carried[0].reason
    assert {image_only.name, first.name, second.name} == {ns.source for ns in imported}


def test_the_written_modules_define_what_was_read(tmp_path):
    path = write(tmp_path / "acme.json", namespace({"tier": {"type": "string", "enum": ["a"]}}))
    imported = read_directory(tmp_path)
    files = render_package("acme-specs", imported)
    module = files[next(p for p in files if p.name == "os_acme_things.py")]
    scope: dict = {}
    exec(compile(module, "os_acme_things.py", "exec"), scope)  # noqa: S102 - our own output
    assert scope["EXTRA_SPECS"] == imported[0].definitions
    assert all(isinstance(d, ExtraSpec) for d in scope["EXTRA_SPECS"])
    assert module_name("acme-specs") == "acme_specs"
    pyproject = files[next(p for p in files if p.name == "pyproject.toml")]
    assert '[project.entry-points."onespec.extra_specs"]' in pyproject
    assert path.exists()


def test_a_package_name_that_cannot_be_a_module_is_refused():
    with pytest.raises(PackageNameError, match="--package"):
        module_name("9 lives")


def test_the_command_refuses_a_directory_without_metadefs(tmp_path):
    result = import_metadefs(tmp_path)
    assert result.exit_code == 2
    assert "no metadef files" in result.output


# --- The round trip --------------------------------------------------------------------------


def run(*command: str | Path, cwd: Path | None = None, check: bool = True):
    result = subprocess.run(
        [str(part) for part in command], capture_output=True, text=True, cwd=cwd, timeout=600
    )
    if check and result.returncode != 0:
        raise AssertionError(f"{command} failed:\n{result.stdout}\n{result.stderr}")
    return result


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory):
    metadefs = peers.require("glance") / "etc" / "glance" / "metadefs"
    work = tmp_path_factory.mktemp("import")
    package = work / "package"
    result = CliRunner().invoke(
        cli,
        [
            "import",
            "glance-metadefs",
            str(metadefs),
            "--package",
            PACKAGE,
            "--output",
            str(package),
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    environment = work / "venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    python = environment / "bin" / "python"
    pip = (python, "-m", "pip", "--disable-pip-version-check", "--quiet", "install")
    run(*pip, "--no-deps", ROOT, package)
    requirements = ("PyYAML", "jsonschema", "click", "os-traits", "os-resource-classes", "pytest")
    run(*pip, "--constraint", ROOT / "constraints.txt", *requirements)
    return {"report": report, "package": package, "python": python, "work": work}


def test_glances_catalogue_imports_with_every_loss_reported(round_trip):
    report = round_trip["report"]
    assert report["definitions"] > 50
    assert len(report["namespaces"]) == len(
        list((peers.require("glance") / "etc" / "glance" / "metadefs").glob("*.json"))
    )
    assert report["not_carried"]
    assert all(item["reason"] for item in report["not_carried"])


def test_doctor_lists_the_package_and_its_clashes_and_the_catalogue_wins(round_trip):
    python = round_trip["python"]
    onespec = python.parent / "onespec"
    doctor = run(onespec, "definitions", "doctor", "--format", "json", check=False)
    assert doctor.returncode == 1  # clashes are problems
    found = json.loads(doctor.stdout)
    (source,) = found["out_of_tree"]
    assert f"from {PACKAGE} 0.1.0" in source["source"]
    imported = [
        d
        for path in sorted((round_trip["package"] / module_name(PACKAGE)).glob("*.py"))
        for d in _definitions_of(path)
    ]
    catalogue = compile_registry(in_tree())
    governed = {d.name for d in imported if catalogue.lookup(d.name) is not None}
    clashes = {p["name"] for p in found["problems"] if p["kind"] == "clash"}
    assert clashes == governed and governed
    assert {p["kind"] for p in found["problems"]} == {"clash"}
    assert source["definitions"] == len(imported) - len(governed)
    # Glance allows only shared and dedicated; the in-tree definition, which wins, allows mixed.
    # mixed with the dedicated mask Nova needs beside it (a rule between the two keys).
    mixed = ("hw:cpu_policy=mixed", "hw:cpu_dedicated_mask=^0")
    assert run(onespec, "validate", "extra-specs", *mixed).returncode == 0
    round_trip["counts"] = (len(imported), len(governed), source["definitions"])


def _definitions_of(path: Path) -> tuple[ExtraSpec, ...]:
    if path.name == "__init__.py":
        return ()
    scope: dict = {}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), scope)  # noqa: S102
    return scope["EXTRA_SPECS"]


def test_the_packages_own_test_passes(round_trip):
    package = round_trip["package"]
    result = run(
        round_trip["python"], "-m", "pytest", "-q", "-p", "no:cacheprovider", package / "tests"
    )
    assert "2 passed" in result.stdout


METADEFS_SCRIPT = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from onespec.definitions.registry import load
    from onespec.generator.extra_specs.metadefs import render_texts

    registry = load()
    mine = [d for d in registry.definitions if sys.argv[2] in registry.sources[d.name]]
    spaces = [n for n in registry.namespaces if any(d.namespace == n.name for d in mine)]
    for name, text in render_texts(mine, spaces).items():
        Path(sys.argv[1], name).write_text(text, encoding="utf-8")
    print(len(mine))
    """
)


def test_metadefs_of_the_imported_definitions_load_in_glance(round_trip):
    out = round_trip["work"] / "metadefs"
    out.mkdir()
    written = run(round_trip["python"], "-c", METADEFS_SCRIPT, out, PACKAGE)
    assert int(written.stdout) > 0
    result = subprocess.run(
        [
            str(peers.PROGRAMS["glance"].python),
            str(ROOT / "tests" / "peers" / "glance_roundtrip.py"),
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = json.loads(result.stdout)
    assert report["failures"] == [] and result.returncode == 0
    flavor_keys = {
        key
        for entry in report["namespaces"].values()
        for key in entry["keys"].get("OS::Nova::Flavor", [])
    }
    assert len(flavor_keys) >= int(written.stdout)
    print(f"imported definitions loaded by Glance: {len(flavor_keys)} flavor keys", file=sys.stderr)


# --- From Nova's validator modules -------------------------------------------------------------

NOVA_MODULE = '''
"""Validators for the acme namespace."""
from nova.api.validation.extra_specs import base

SHARED = 'Shared words.'

EXTRA_SPEC_VALIDATORS = [
    base.ExtraSpecValidator(
        name='acme:slot.{id}',
        description=SHARED + ' A slot.',
        value={'type': int, 'min': 1},
        parameters=[{'name': 'id', 'pattern': r'\\d+', 'description': 'The slot.'}],
    ),
]
for kind in ('a', 'b'):
    EXTRA_SPEC_VALIDATORS.append(
        base.ExtraSpecValidator(name=f'acme:{kind}', description='x', value={'type': str})
    )
for trait in os_traits.get_traits():
    EXTRA_SPEC_VALIDATORS.append(
        base.ExtraSpecValidator(name=f'acme:{trait}', description='x', value={'type': str})
    )
'''


def nova_tree(tmp_path: Path) -> Path:
    folder = tmp_path / "nova" / "api" / "validation" / "extra_specs"
    folder.mkdir(parents=True)
    for name in ("__init__.py", "base.py", "validators.py"):
        (folder / name).write_text("", encoding="utf-8")
    (folder / "acme.py").write_text(NOVA_MODULE, encoding="utf-8")
    return tmp_path


def test_literal_validators_are_read_without_importing_nova(tmp_path):
    from onespec.generator.importer.nova import read_tree

    (acme,) = read_tree(nova_tree(tmp_path))
    definition, *looped = acme.definitions
    assert definition.name == "acme:slot.{id}"
    assert definition.description == "Shared words. A slot."
    assert definition.value.min == 1
    assert definition.parameters[0].pattern == r"\d+"
    # A loop over literals is unrolled; a loop over what only Nova's libraries know is not.
    assert [d.name for d in looped] == ["acme:a", "acme:b"]
    (lost,) = acme.not_carried
    assert "a loop over unknown values" in lost.reason and lost.source == "acme.py"
    assert (
        lost.what
        == f"line {NOVA_MODULE.splitlines().index('for trait in os_traits.get_traits():') + 1}"
    )


def test_the_nova_command_writes_a_package_that_loads(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        ["import", "nova", str(nova_tree(tmp_path)), "--package", "acme", "--output", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "3 definitions from 1 validator modules" in result.output
    module = out / "acme" / "nova_acme.py"
    assert [d.name for d in _definitions_of(module)] == ["acme:slot.{id}", "acme:a", "acme:b"]
    assert "a loop over unknown values" in module.read_text(encoding="utf-8")


def test_nova_34s_own_validators_import_and_compile(tmp_path):
    from onespec.generator.importer.nova import read_tree

    site = next((peers.require("nova") / "lib").glob("python3*/site-packages"))
    namespaces = read_tree(site)
    definitions = [d for ns in namespaces for d in ns.definitions]
    names = {d.name for d in definitions}
    # 34.0.0 registers the real names (fixed in 32.0.0) and never registered maxphysaddr.
    assert {"hw:cpu_max_sockets", "hw:cpu_policy", "hw:numa_cpus.{num}"} <= names
    assert not any(name.startswith("hw:maxphysaddr") for name in names)
    assert len(compile_registry(definitions)) == len(definitions) > 40
    lost = [item for ns in namespaces for item in ns.not_carried]
    assert "traits.py" in {item.source for item in lost}


def test_import_and_audit_read_the_same_nova_catalogue(tmp_path):
    """One reader serves both: ``import nova`` writes what ``audit --catalogue nova`` checks."""
    from onespec.generator.importer.nova import read_tree
    from onespec.generator.review.catalogues import load

    site = next((peers.require("nova") / "lib").glob("python3*/site-packages"))
    imported = [d for ns in read_tree(site) for d in ns.definitions]
    audited = load("nova", [site]).definitions
    assert imported == list(audited)
    # Before one reader served both, the import carried 51 of Nova 34's definitions.
    assert len(imported) > 140


# --- Input never becomes code ------------------------------------------------------------------


def import_metadefs(source: Path):
    """``onespec import glance-metadefs SOURCE`` into ``SOURCE/out``, in-process."""
    arguments = ["--package", "x", "--output", str(source / "out")]
    return CliRunner().invoke(cli, ["import", "glance-metadefs", str(source), *arguments])


#: Text that would run code if it were pasted into a module rather than spelt as a literal: it
#: closes a docstring and a string of either quote, starts a statement, and holds a backslash,
#: a NUL and a lone surrogate (what an undecodable byte of a file name becomes).
HOSTILE = "x\"\"\"\nimport pathlib; pathlib.Path({marker!r}).touch()\n'''\\\x00\udcff\"'#"


def _imports_cleanly(package: Path, module: str, marker: Path) -> dict:
    """Import the written package in a fresh interpreter; what its modules hold, as JSON."""
    probe = (
        "import importlib, json, sys\n"
        f"package = importlib.import_module({module!r})\n"
        "modules = [m for m in package.MODULES]\n"
        "print(json.dumps([{\n"
        "    'namespace': m.NAMESPACE, 'display_name': m.DISPLAY_NAME, 'source': m.SOURCE,\n"
        "    'description': m.DESCRIPTION, 'not_carried': m.NOT_CARRIED,\n"
        "    'specs': [[d.name, d.description, list(d.value.enum_values), d.value.pattern,\n"
        "               d.value.default] for d in m.EXTRA_SPECS]} for m in modules],\n"
        "    ensure_ascii=True))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=package,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert not marker.exists(), "importing the written package ran code from its input"
    return json.loads(result.stdout)


def test_hostile_metadef_fields_reach_the_package_as_data_only(tmp_path):
    marker = tmp_path / "ran"
    hostile = HOSTILE.format(marker=str(marker))
    short = HOSTILE.format(marker="ran")
    source = tmp_path / "metadefs"
    source.mkdir()
    document = {
        # Glance's namespace names have at most 80 characters (longer is a located error): the
        # same payload, with a marker relative to where the package is imported.
        "namespace": short,
        "display_name": hostile,
        "description": hostile,
        "resource_type_associations": [{"name": FLAVOR, "prefix": "acme:"}],
        "properties": {
            "tier": {"type": "string", "title": hostile, "description": hostile,
                     "enum": [hostile, "b"], "default": hostile},
            "code": {"type": "string", "description": "d", "pattern": hostile},
            hostile: {"type": "string", "description": "refused: not a key the API accepts"},
            "ops": {"type": "string", "description": "d", "operators": [hostile]},
        },
    }  # fmt: skip
    # A file name holds anything but "/" and NUL.
    spelt = hostile.replace("/", "_").replace("\x00", "")
    file_name = os.fsdecode(b"bad\xff" + spelt.encode("utf-8", "surrogateescape"))
    write(source / (file_name + ".json"), document)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        ["import", "glance-metadefs", str(source), "--package", "acme", "--output", str(out)],
    )
    assert result.exit_code == 0, result.output
    (module,) = _imports_cleanly(out, "acme", marker)
    assert not (out / "ran").exists(), "importing the written package ran its namespace"
    assert module["namespace"] == short
    assert module["display_name"] == module["description"] == hostile
    assert module["source"] == file_name + ".json"
    by_name = {spec[0]: spec for spec in module["specs"]}
    assert by_name["acme:tier"][2:] == [[hostile, "b"], None, hostile]
    assert by_name["acme:tier"][1].startswith(hostile.strip()[:3])
    assert by_name["acme:code"][3] == hostile
    refused = [what for what, _ in module["not_carried"] if hostile in what]
    assert len(refused) == 1 and "(acme:" + hostile + ")" in refused[0]


def test_hostile_nova_module_names_and_texts_reach_the_package_as_data_only(tmp_path):
    marker = tmp_path / "ran"
    hostile = HOSTILE.format(marker=str(marker))
    tree = nova_tree(tmp_path)
    folder = tree / "nova" / "api" / "validation" / "extra_specs"
    stem = os.fsdecode(hostile.replace("/", "_").encode("utf-8", "surrogateescape") + b"\xfe")
    stem = stem.replace("\x00", "")  # the one character a file name cannot hold
    (folder / "acme.py").rename(folder / f"{stem}.py")
    (folder / "other.py").write_text(
        f"{hostile!r}\n"
        "from nova.api.validation.extra_specs import base\n"
        "EXTRA_SPEC_VALIDATORS = [base.ExtraSpecValidator(\n"
        f"    name='other:x', description={hostile!r},\n"
        f"    value={{'type': str, 'enum': [{hostile!r}], 'description': {hostile!r}}})]\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["import", "nova", str(tree), "--package", "acme", "--output", str(out)]
    )
    assert result.exit_code == 0, result.output
    modules = {m["source"]: m for m in _imports_cleanly(out, "acme", marker)}
    assert set(modules) == {f"{stem}.py", "other.py"}
    assert modules[f"{stem}.py"]["namespace"] == f"nova.{stem}"
    assert modules["other.py"]["description"] == hostile
    (spec,) = modules["other.py"]["specs"]
    assert spec[:3] == ["other:x", hostile, [hostile]]
    for text in (out / "acme").glob("*.py"):
        assert "import glance-metadefs" not in text.read_text(encoding="utf-8")
        assert (
            "`onespec import nova`" in text.read_text(encoding="utf-8")
            or text.name == "__init__.py"
        )


@pytest.mark.parametrize(
    ("document", "where"),
    [
        ({"resource_type_associations": [{"name": FLAVOR, "prefix": 5}]}, "[0].prefix"),
        ({"resource_type_associations": "OS::Nova::Flavor"}, "resource_type_associations"),
        ({"resource_type_associations": [5]}, "resource_type_associations[0]"),
        ({"properties": "tier"}, "properties"),
        ({"properties": {"tier": "string"}}, "properties.tier"),
        ({"objects": {"a": 1}}, "objects"),
        ({"objects": [{"name": "o", "properties": ["a"]}]}, "objects[o].properties"),
        ({"display_name": ["x"]}, "display_name"),
        ({"properties": {"t": {"type": "string", "title": 5}}}, "properties.t.title"),
    ],
)
def test_wrongly_typed_metadef_fields_are_located_errors(tmp_path, document, where):
    base = namespace({"ok": {"type": "string"}})
    write(tmp_path / "bad.json", {**base, **document})
    result = import_metadefs(tmp_path)
    assert result.exit_code == 2, result.output
    assert "bad.json" in result.output and where in result.output
    assert ("Traceback" not in result.output and result.exception is None) or isinstance(
        result.exception, SystemExit
    )


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ({"type": ["string", "null"]}, "type ['string', 'null'] has no counterpart"),
        ({"type": "string", "enum": "gold"}, "enum 'gold' is not a list of strings"),
        ({"type": "string", "maxLength": True}, "maxLength True is not a length"),
    ],
)
def test_wrongly_typed_property_rules_are_listed_as_not_carried(tmp_path, raw, reason):
    imported = read_namespace(write(tmp_path / "a.json", namespace({"p": raw})), set())
    (item,) = imported.not_carried
    assert item.reason.startswith(reason)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested deeper"),
        (b'{"namespace": "\xff"}', "not UTF-8"),
        (b'{"namespace": ' + b"9" * 5000 + b"}", "not a JSON document"),
    ],
)
def test_unreadable_metadef_files_are_located_errors(tmp_path, content, message):
    (tmp_path / "bad.json").write_bytes(content)
    result = import_metadefs(tmp_path)
    assert result.exit_code == 2 and message in result.output, result.output
    assert f"{tmp_path / 'bad.json'}: " in result.output


def test_a_fifo_named_like_a_metadef_file_is_refused_without_reading(tmp_path):
    os.mkfifo(tmp_path / "pipe.json")
    result = import_metadefs(tmp_path)
    said = "pipe.json: is a named pipe (FIFO), not a regular file"
    assert result.exit_code == 2 and said in result.output


@pytest.mark.parametrize(
    "package", ["acme\n", " acme", 'acme"\ninjected = 1', "ácme", "-acme", "class"]
)
def test_package_names_that_are_not_distribution_names_are_refused(package):
    with pytest.raises(PackageNameError, match="--package"):
        module_name(package)


def test_a_namespace_spelt_like_a_keyword_gets_a_module_it_can_import():
    assert namespace_module("class") == "ns_class"
    assert namespace_module("OS::Import") == "os_import"


def test_a_namespace_name_longer_than_glance_stores_is_a_located_error(tmp_path):
    """5,000 characters once reached the file system as a module name (OSError, a traceback)
    and left a partial package behind."""
    write(tmp_path / "long.json", {**namespace({"p": {"type": "string"}}), "namespace": "N" * 5000})
    result = import_metadefs(tmp_path)
    assert result.exit_code == 2, result.output
    assert f"{tmp_path / 'long.json'}: namespace: is 5,000 characters long" in result.output
    assert "at most 80" in result.output
    assert sorted(path.name for path in tmp_path.iterdir()) == ["long.json"]


def test_a_write_that_fails_halfway_leaves_nothing_behind(tmp_path, monkeypatch):
    write(tmp_path / "a.json", namespace({"p": {"type": "string"}}))
    written = []
    real = Path.write_text

    def fail_on_the_second(self, *args, **kwargs):
        written.append(self)
        if len(written) == 2:
            raise OSError(28, "No space left on device", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", fail_on_the_second)
    result = import_metadefs(tmp_path)
    assert result.exit_code == 1, result.output
    assert "No space left on device; nothing was written" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.json"]
