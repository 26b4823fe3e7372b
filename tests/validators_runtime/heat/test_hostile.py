"""Input built to hurt the capabilities commands (issue 13, section 3), run as a user runs them.

Each case runs ``onespec`` in a child process and checks what a user sees: a clear error naming
the file, no traceback, exit 1 (or 2 for a usage error), and a cost under :data:`SECONDS` of CPU
and :data:`MEGABYTES` of peak memory (the child's ``VmHWM``, read while it runs). The resolve
cases also check what is left on disk: a refused resolve writes nothing, copies never widen a
file's mode, and temporaries are never written through a planted link.
"""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.measure import run_capped

ONESPEC = Path(sys.executable).with_name("onespec")
SECONDS = 1.0
MEGABYTES = 200.0


def run(*args: str, cwd: Path) -> tuple[float, float, int, str]:
    """``onespec ARGS`` in ``cwd``: CPU seconds, peak MB, exit status, stdout and stderr."""
    measured = run_capped([str(ONESPEC), *args], cwd=cwd, memory_kb=2097152, deadline=30)
    return measured.seconds, measured.megabytes, measured.status, measured.output


def flow_bomb(levels: int = 11) -> str:
    """The issue's 988-byte kind of bomb: each alias right after a colon in flow style."""
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    for level in range(1, levels + 1):
        items = ",".join([f'{{"k":*a{level - 1}}}'] * 9)
        lines.append(f"a{level}: &a{level} [{items}]")
    return "\n".join(lines) + "\n"


def _environment_bomb() -> str:
    return "parameter_defaults:\n" + "".join(f"  {line}\n" for line in flow_bomb().splitlines())


def _registry_bomb() -> str:
    text = flow_bomb().replace("a0: &a0", "x0: &a0")
    body = "".join(f"  {line}\n" for line in text.splitlines())
    return "resource_registry:\n  OS::A: a.yaml\nparameter_defaults:\n" + body


def _deep_environment() -> str:
    return "parameter_defaults:\n  x: " + "[" * 5000 + "]" * 5000 + "\n"  # about 10 KB


def _deep_block_environment() -> str:
    return "parameter_defaults:\n  x:\n    " + "- " * 4000 + "1\n"


def _merge_chain(links: int = 3000) -> str:
    """Each mapping merges the previous one: built naively, the last has ``links`` keys and
    all of them together millions, from 100 KB of text."""
    lines = ["parameter_defaults:", "  a0: &a0 {k0: 1}"]
    lines += [f"  a{i}: &a{i} {{<<: *a{i - 1}, k{i}: 1}}" for i in range(1, links + 1)]
    return "\n".join(lines) + "\n"


#: A YAML integer longer than Python turns into an int (4,300 digits by default).
HUGE_INTEGER = "9" * 5000


def _cost_ok(label: str, seconds: float, megabytes: float) -> None:
    assert seconds < SECONDS, f"{label}: {seconds:.2f} s"
    assert megabytes < MEGABYTES, f"{label}: {megabytes:.0f} MB"


@pytest.mark.parametrize(
    ("label", "command", "text", "words"),
    [
        ("environment alias bomb", "resolve", _environment_bomb(), "alias bomb"),
        ("registry alias bomb", "choices", _registry_bomb(), "alias bomb"),
        ("deep environment", "resolve", _deep_environment(), "nest"),
        ("deep block environment", "resolve", _deep_block_environment(), "nest"),
        ("deep environment", "choices", _deep_environment(), "nest"),
        ("recursive alias", "resolve", "parameter_defaults: &p\n  x: [*p]\n", "refers to itself"),
        ("merge chain", "resolve", _merge_chain(), "alias bomb"),
        ("merge chain", "choices", _merge_chain(), "alias bomb"),
        ("huge integer", "resolve", f"parameter_defaults:\n  x: {HUGE_INTEGER}\n", "digits"),
        ("huge integer", "choices", f"parameter_defaults:\n  x: {HUGE_INTEGER}\n", "digits"),
    ],
)
def test_a_hostile_environment_is_a_located_error(tmp_path, label, command, text, words):
    path = tmp_path / "env.yaml"
    path.write_text(text)
    args = ["-e", "env.yaml"] if command == "resolve" else ["--no-cache", "env.yaml"]
    seconds, megabytes, status, output = run("template-capabilities", command, *args, cwd=tmp_path)
    assert "Traceback" not in output, output[-2000:]
    assert status == 1, output[-2000:]
    assert "env.yaml:" in output and words in output, output[-2000:]
    _cost_ok(label, seconds, megabytes)


@pytest.mark.parametrize("label", ["summary", "find"])
def test_a_hostile_template_in_a_recursive_scan_is_reported_not_fatal(tmp_path, label):
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "bomb.yaml").write_text("heat_template_version: 2016-10-14\n" + flow_bomb())
    (tmp_path / "t" / "deep.yaml").write_text(
        "heat_template_version: 2016-10-14\n" + _deep_block_environment()
    )
    args = ("template-capabilities", label, "--no-cache", "-r", "t", "-v")
    if label == "find":
        args += ("-c", "k=v")
    seconds, megabytes, _, output = run(*args, cwd=tmp_path)
    assert "Traceback" not in output, output[-2000:]
    assert "bomb.yaml:" in output and "alias bomb" in output, output
    assert "deep.yaml:" in output and "nest" in output, output
    _cost_ok(label, seconds, megabytes)


# --- resolve --output-dir ---------------------------------------------------------------------


def _tree(tmp_path: Path, registry: dict[str, str]) -> Path:
    """An environment in tmp/env/ that maps types to ``registry`` and resolves one list."""
    env = tmp_path / "env"
    env.mkdir()
    for name in ("a.yaml", "b.yaml"):
        (env / name).write_text(
            f"heat_template_version: 2016-10-14\ncapabilities:\n  k: [{name[0]}]\n"
        )
    lines = "".join(f"  {json.dumps(k)}: {json.dumps(v)}\n" for k, v in registry.items())
    (env / "environment.yaml").write_text(
        "requires:\n  k: a\nresource_registry:\n  OS::Choice:\n    - a.yaml\n    - b.yaml\n" + lines
    )
    return env


@pytest.mark.parametrize(
    "entry",
    ["../../../../../../../../etc/passwd", "/etc/hostname", "file:///etc/os-release"],
)
def test_resolve_refuses_a_registry_entry_outside_the_root_and_writes_nothing(tmp_path, entry):
    env = _tree(tmp_path, {"OS::Stolen": entry})
    out = tmp_path / "out"
    seconds, megabytes, status, output = run(
        "template-capabilities",
        "resolve",
        "-e",
        "env/environment.yaml",
        "--output-dir",
        "out",
        cwd=tmp_path,
    )
    assert "Traceback" not in output
    assert status == 1, output
    assert "OS::Stolen" in output and "outside" in output and str(env) in output, output
    assert not out.exists()
    _cost_ok(entry, seconds, megabytes)


def test_resolve_refuses_a_symbolic_link_out_of_the_root(tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("heat_template_version: 2016-10-14\n")
    env = _tree(tmp_path, {"OS::Stolen": "link.yaml"})
    (env / "link.yaml").symlink_to(secret)
    _, _, status, output = run(
        "template-capabilities",
        "resolve",
        "-e",
        "env/environment.yaml",
        "--output-dir",
        "out",
        cwd=tmp_path,
    )
    assert status == 1, output
    assert "a symbolic link to" in output and "outside" in output
    assert not (tmp_path / "out").exists()


def test_a_copy_never_gets_a_wider_mode_than_its_source(tmp_path):
    env = _tree(tmp_path, {"OS::Private": "private.yaml", "OS::Linked": "linked.yaml"})
    private = env / "private.yaml"
    private.write_text("heat_template_version: 2016-10-14\n")
    private.chmod(0o640)
    (env / "linked.yaml").symlink_to("private.yaml")  # inside the root: allowed
    _, _, status, output = run(
        "template-capabilities",
        "resolve",
        "-e",
        "env/environment.yaml",
        "--output-dir",
        "out",
        cwd=tmp_path,
    )
    assert status == 0, output
    mode = stat.S_IMODE((tmp_path / "out" / "private.yaml").stat().st_mode)
    assert mode & ~0o640 == 0, oct(mode)


def test_a_planted_link_at_the_old_temporary_name_is_not_written_through(tmp_path):
    _tree(tmp_path, {})
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("untouched\n")
    (out / ".environment.yaml.onespec-tmp").symlink_to(victim)
    (out / "old").write_text("x")
    _, _, status, output = run(
        "template-capabilities",
        "resolve",
        "-e",
        "env/environment.yaml",
        "--output-dir",
        "out",
        "--overwrite",
        cwd=tmp_path,
    )
    assert status == 0, output
    assert victim.read_text() == "untouched\n"
    assert [p.name for p in out.iterdir() if p.name.endswith(".onespec-tmp")] == [
        ".environment.yaml.onespec-tmp"
    ]


def test_a_refused_overwrite_writes_nothing(tmp_path):
    env = _tree(tmp_path, {"OS::Nested": "sub/n.yaml"})
    (env / "sub").mkdir()
    (env / "sub" / "n.yaml").write_text("heat_template_version: 2016-10-14\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "sub").symlink_to(elsewhere)
    _, _, status, output = run(
        "template-capabilities",
        "resolve",
        "-e",
        "env/environment.yaml",
        "--output-dir",
        "out",
        "--overwrite",
        cwd=tmp_path,
    )
    assert status == 1, output
    assert "symbolic link" in output
    assert sorted(p.name for p in out.iterdir()) == ["sub"]  # no environment.yaml
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize(
    "name", ["a\nresource_registry: {OS::Evil: evil.yaml}\n#.yaml", "b\u2028c.yaml", "d\re.yaml"]
)
def test_a_file_name_cannot_inject_yaml_into_the_written_environment(tmp_path, name):
    env = _tree(tmp_path, {})
    (env / "environment.yaml").rename(env / name)
    _, _, status, output = run(
        "template-capabilities", "resolve", "-e", f"env/{name}", "--output-dir", "out", cwd=tmp_path
    )
    assert status == 0, output
    printed = subprocess.run(
        [str(ONESPEC), "template-capabilities", "resolve", "-e", f"env/{name}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for text in ((tmp_path / "out" / "environment.yaml").read_text(), printed):
        data = yaml.safe_load(text)
        assert list(data) == ["resource_registry"]
        assert list(data["resource_registry"]) == ["OS::Choice"]
