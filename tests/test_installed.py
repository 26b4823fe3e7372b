"""onespec installed, not cloned: the wheel and the sdist, each in a clean virtual environment.

A deployer runs ``pip install onespec`` and never sees the checkout. So the test builds both
artifacts with ``python -m build``, installs each into a new venv (core dependencies first, then
the ``api`` extra) and, from a directory that is not the checkout, runs the README's tour, the
commands that used to assume a checkout, and the :mod:`onespec.validators_runtime.resources` API.
One venv per artifact, and pip's own cache, keep the cost to about a minute each.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.test_readme import MARK, blocks
from tests.validators_runtime.test_entry_points import install as install_plugins


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory) -> dict[str, Path]:
    """The sdist, and the wheel built from it, as ``python -m build`` makes them."""
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (wheel,) = out.glob("onespec-*.whl")
    (sdist,) = out.glob("onespec-*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


class Installed:
    """A clean venv with one artifact installed, and a working directory outside the checkout."""

    def __init__(self, base: Path, artifact: Path) -> None:
        self.artifact = artifact
        self.prefix = base / "venv"
        self.cwd = base / "elsewhere"
        self.cwd.mkdir()
        venv.create(self.prefix, with_pip=True)
        self.bin = self.prefix / "bin"
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))},
            "PATH": f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}",
            "VIRTUAL_ENV": str(self.prefix),
            "XDG_STATE_HOME": str(base / "state"),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        }
        self.pip_install(str(artifact))

    def pip_install(self, *requirements: str) -> None:
        result = self.run(
            "python",
            "-m",
            "pip",
            "install",
            "--quiet",
            "--constraint",
            str(ROOT / "constraints.txt"),
            *requirements,
            timeout=900,
        )
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]

    def run(self, *argv: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.bin / argv[0]), *argv[1:]],
            cwd=self.cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            **kwargs,
        )

    def site_packages(self) -> Path:
        (site,) = self.prefix.glob("lib/python*/site-packages")
        return site


@pytest.fixture(scope="module", params=["wheel", "sdist"])
def installed(request, artifacts, tmp_path_factory) -> Installed:
    return Installed(tmp_path_factory.mktemp(request.param), artifacts[request.param])


def _check_core(env: Installed) -> None:
    """Everything a core install (no extra) must do, outside any checkout."""
    # Nothing of the checkout is reachable: the packages come from the venv.
    where = env.run("python", "-c", "import onespec.validators_runtime as r; print(r.__file__)")
    assert str(env.site_packages()) in where.stdout, where

    # One name in site-packages: the distribution's files all live under onespec/ (its
    # scripts and metadata aside), and its top_level.txt, where the build writes one, agrees.
    assert _top_level_names(env) == {"onespec"}
    short = env.run(
        "python",
        "-c",
        "import onespec\nprint(onespec.__version__)\nonespec.validate({'hw:cpu_policy': 'x'})\n",
    )
    assert short.stdout.strip() == "0.1.0", short
    assert short.returncode == 1 and "ExtraSpecValidationError" in short.stderr, short
    module = env.run("python", "-m", "onespec", "validate", "extra-specs", "hw:numa_nodes=2")
    assert module.returncode == 0 and "valid" in module.stdout, module

    # The README's console tour, as written, with the venv activated instead of .venv.
    block = blocks("console")[0]  # the tour; the later blocks run examples/ of a checkout
    commands = [line[2:] for line in block.splitlines() if line.startswith("$ ")]
    expected_lines = block.splitlines()
    assert commands[0] == ". .venv/bin/activate"
    script = f". {env.bin}/activate\n" + "".join(
        f"{command}\n__rc=$?; printf '%s\\n' '{MARK}'; (exit $__rc)\n" for command in commands[1:]
    )
    tour = subprocess.run(
        ["bash", "--noprofile", "--norc"],
        input=script,
        cwd=env.cwd,
        env=env.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    printed = "".join(tour.stdout.split(f"{MARK}\n"))
    shown = [line for line in expected_lines if not line.startswith("$ ")]
    assert printed.splitlines() == shown, tour.stderr

    # The README's Python session, run by the installed interpreter.
    (session,) = blocks("pycon")
    doctest_run = env.run(
        "python",
        "-c",
        "import doctest, sys\n"
        "test = doctest.DocTestParser().get_doctest(sys.stdin.read(), {}, 'README', None, 0)\n"
        "runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)\n"
        "runner.run(test)\n"
        "sys.exit(1 if runner.failures or not runner.tries else 0)\n",
        input=session,
    )
    assert doctest_run.returncode == 0, doctest_run.stdout + doctest_run.stderr

    # The service needs the api extra: say which, exit 2, no traceback.
    for argv in (["serve"], ["db", "upgrade"], ["policy", "sample"]):
        result = env.run("onespec", *argv)
        assert result.returncode == 2, (argv, result.stdout, result.stderr)
        assert "its 'api' extra" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr and "ModuleNotFoundError" not in result.stderr

    # --check has no committed files to compare against outside a checkout: refused, clearly.
    for argv in (["generate", "all", "--check"], ["generate", "metadefs"]):
        result = env.run("onespec", *argv)
        assert result.returncode == 2, (argv, result.stdout, result.stderr)
        assert "not run from a source checkout" in result.stderr, result.stderr
        assert "--output-dir" in result.stderr
        assert "differ" not in result.stderr
    assert list(env.cwd.iterdir()) == [], "a refused command must write nothing"

    # The published files load through importlib.resources and equal the committed ones.
    loaded = env.run(
        "python",
        "-c",
        "import json; from onespec.validators_runtime import resources as r\n"
        "print(json.dumps({'schemas': {n: r.schema(n) for n in r.schema_names()},"
        " 'metadefs': {n: r.metadef(n) for n in r.metadef_names()}}))",
    )
    assert loaded.returncode == 0, loaded.stderr
    published = json.loads(loaded.stdout)
    for kind, directory in (("schemas", "schemas"), ("metadefs", "glance-metadefs")):
        committed = {
            path.name: json.loads(path.read_text(encoding="utf-8"))
            for path in (ROOT / "outputs" / directory).glob("*.json")
        }
        assert published[kind] == committed, kind
    assert (
        "data"
        in env.run(
            "python",
            "-c",
            "from onespec.validators_runtime import resources as r; print(r.directory('schemas'))",
        ).stdout
    )

    # A deployer writes the Glance files and the schemas where they want them, with the
    # definitions an installed out-of-tree package adds.
    install_plugins(env.site_packages(), "acme-filters")
    glance = env.cwd / "etc" / "glance" / "metadefs"
    glance.mkdir(parents=True)
    (glance / "compute-host-capabilities.json").write_text("{}\n")  # Glance's own file
    for kind, target in (("metadefs", glance), ("schemas", env.cwd / "schemas")):
        written = env.run("onespec", "generate", kind, "--output-dir", str(target))
        assert written.returncode == 0, written.stderr
        checked = env.run("onespec", "generate", kind, "--output-dir", str(target), "--check")
        assert checked.returncode == 0, checked.stdout + checked.stderr
    names = sorted(path.name for path in glance.iterdir())
    assert "compute-host-capabilities.json" in names, "a file that is not onespec's was removed"
    assert set(names) - {"compute-host-capabilities.json"} >= set(published["metadefs"])
    acme = [n for n in names if "acme" in n]
    assert acme, names
    assert "acme:foo" in (glance / acme[0]).read_text() or "foo" in (glance / acme[0]).read_text()
    flavor = json.loads((env.cwd / "schemas" / "flavor-extra-specs.schema.json").read_text())
    assert "acme:foo" in flavor["properties"], sorted(flavor["properties"])[:5]

    # Drift in the deployer's directory is reported against that directory.
    (env.cwd / "schemas" / "flavor-extra-specs.schema.json").write_text("{}\n")
    drift = env.run(
        "onespec", "generate", "schemas", "--output-dir", str(env.cwd / "schemas"), "--check"
    )
    assert drift.returncode == 1, drift.stderr
    assert "flavor-extra-specs.schema.json" in drift.stderr


def _top_level_names(env: Installed) -> set[str]:
    """The top-level import names the installed distribution put into site-packages."""
    listed = env.run(
        "python",
        "-c",
        "import importlib.metadata as m, json\n"
        "d = m.distribution('onespec')\n"
        "print(json.dumps({'files': [str(f) for f in d.files or ()],"
        " 'top_level': d.read_text('top_level.txt')}))",
    )
    assert listed.returncode == 0, listed.stderr
    record = json.loads(listed.stdout)
    names = {
        Path(name).parts[0]
        for name in record["files"]
        if not Path(name).parts[0].endswith(".dist-info") and not name.startswith("..")
    }
    if record["top_level"] is not None:
        assert set(record["top_level"].split()) == names, record["top_level"]
    return names


def _check_clashing_neighbours(env: Installed) -> None:
    """onespec next to things named like its folders: a user's files, another distribution."""
    # A definitions.py and a generator.py in the working directory (on sys.path first).
    (env.cwd / "definitions.py").write_text("raise SystemExit('the user module was imported')\n")
    (env.cwd / "generator.py").write_text("raise SystemExit('the user module was imported')\n")
    try:
        checked = env.run(
            "python",
            "-c",
            "import onespec\n"
            "print(onespec.validate({'hw:cpu_policy': 'dedicated', 'hw:numa_nodes': '2'}))\n"
            "from onespec.generator.extra_specs import rst\n",
        )
        assert checked.returncode == 0 and checked.stdout.strip() == "[]", checked
        command = env.run("onespec", "validate", "extra-specs", "hw:cpu_policy=dedicatd")
        assert command.returncode == 1 and "dedicated" in command.stdout, command
    finally:
        (env.cwd / "definitions.py").unlink()
        (env.cwd / "generator.py").unlink()

    # The package index's unrelated ``definitions`` distribution, installed beside onespec: each
    # keeps its own files, and removing onespec leaves the other whole.
    env.pip_install("definitions==0.2.0")
    theirs = env.site_packages() / "definitions" / "__init__.py"
    before = theirs.read_bytes()
    works = env.run("onespec", "validate", "extra-specs", "hw:cpu_policy=dedicated")
    assert works.returncode == 0, works
    assert theirs.read_bytes() == before
    imported = env.run("python", "-c", "import definitions, onespec.definitions.model as m")
    assert imported.returncode == 0, imported.stderr


def _check_api_extra(env: Installed) -> None:
    """With the api extra, the service commands run."""
    env.pip_install(f"onespec[api] @ {env.artifact.as_uri()}")
    sample = env.run("onespec", "policy", "sample")
    assert sample.returncode == 0, sample.stderr
    database = f"sqlite:///{env.cwd / 'state' / 'onespec.db'}"
    upgraded = env.run("onespec", "db", "upgrade", "--database-url", database)
    assert upgraded.returncode == 0, upgraded.stderr
    server = subprocess.Popen(
        [str(env.bin / "onespec"), "serve", "--database-url", database, "--port", "0"],
        cwd=env.cwd,
        env=env.env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        banner = server.stderr.readline()
        assert re.search(r"onespec API on http://127\.0\.0\.1:\d+/", banner), banner
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_an_installed_onespec_works_outside_a_checkout(installed):
    _check_core(installed)
    _check_api_extra(installed)
    _check_clashing_neighbours(installed)


def test_uninstalling_onespec_leaves_a_neighbour_whole(artifacts, tmp_path):
    env = Installed(tmp_path, artifacts["wheel"])
    env.pip_install("definitions==0.2.0")
    theirs = env.site_packages() / "definitions" / "__init__.py"
    before = theirs.read_bytes()
    removed = env.run("python", "-m", "pip", "uninstall", "--yes", "onespec")
    assert removed.returncode == 0, removed.stderr
    assert theirs.read_bytes() == before
    assert not (env.site_packages() / "onespec").exists()
    imported = env.run("python", "-c", "import definitions")
    assert imported.returncode == 0, imported.stderr
