"""What checking a spec's packages costs in remote commands: constant, not one per package.

Each figure comes from a real validation of this machine through a LocalRemote that counts the
commands it runs; the packages are ones installed here (dpkg), so every check passes and nothing
is installed. Two shapes of spec are measured: one ``package`` list, and one ``package``
validator per package (the shape most real plugin specs have). A time per spec is printed too,
for a feel of the cost; the target is on the command counts, which hold on any machine.
"""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
import time
from pathlib import Path

from onespec.validators_runtime.images import LocalRemote, SaharaImageValidator

SIZES = (5, 50)
#: The most commands checking installed packages may cost: reading os-release, one query.
COMMANDS_TARGET = 2


class CountingRemote(LocalRemote):
    """A LocalRemote that counts the commands it runs."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def execute_command(self, cmd, run_as_root=False, raise_when_error=True, timeout=None):
        self.count += 1
        return super().execute_command(cmd, run_as_root, raise_when_error, timeout)


def installed(count: int) -> list[str]:
    done = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package}\t${Status}\n"],
        capture_output=True,
        text=True,
        check=True,
    )
    names = sorted(
        line.split("\t")[0]
        for line in done.stdout.splitlines()
        if line.endswith("install ok installed") and ":" not in line.split("\t")[0]
    )
    if len(names) < count:
        raise RuntimeError(f"only {len(names)} packages are installed here; {count} are needed")
    return names[:count]


def spec_text(names: list[str], shape: str) -> str:
    if shape == "list":
        return "validators:\n  - package:\n" + "".join(f"      - {n}\n" for n in names)
    return "validators:\n" + "".join(f"  - package: {n}\n" for n in names)


def measure(directory: Path, names: list[str], shape: str) -> tuple[int, float]:
    """(commands, seconds) of one validation without reconcile."""
    path = directory / f"{shape}-{len(names)}.yaml"
    path.write_text(spec_text(names, shape), encoding="utf-8")
    spec = SaharaImageValidator.from_yaml(path)
    with CountingRemote() as remote:
        started = time.perf_counter()
        report = spec.validate(remote, reconcile=False)
        elapsed = time.perf_counter() - started
    if not report.passed:
        raise RuntimeError(f"{path.name} failed on this machine: {report.summary()}")
    return remote.count, elapsed


def _line(label: str, figure: str, ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"{label:<58} {figure}{mark}")


#: The most CPU seconds loading a spec of 40,000 packages, or refusing a hostile one, may take.
LOAD_SECONDS_TARGET = 1.0


def _hostile_specs() -> dict[str, str]:
    """A few specs the loader must refuse cheaply (the tests hold each to its error)."""
    bomb = ["a0: &a0 [" + ", ".join(["x"] * 9) + "]"]
    bomb += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    return {
        "an alias bomb": "\n".join(bomb) + "\nvalidators: []\n",
        "5,000-deep lists": "validators: " + "[" * 5000 + "]" * 5000 + "\n",
        "a 5,000-digit integer": "validators:\n  - package: {x: {version: " + "1" * 5000 + "}}\n",
    }


def loading() -> int:
    """CPU seconds to load 40,000 packages and to refuse each hostile spec."""
    from onespec.validators_runtime.images import ImageValidationSpecificationError
    from onespec.validators_runtime.images.root import loads

    missed = 0
    print(f"Image specs: CPU seconds to load or refuse (target < {LOAD_SECONDS_TARGET:.0f} s)")
    cases = {
        "40,000 packages": "validators:\n  - package:\n"
        + "".join(f"      - pkg{i}\n" for i in range(40_000)),
        **_hostile_specs(),
    }
    for label, text in cases.items():
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            with contextlib.suppress(ImageValidationSpecificationError):
                loads(text, file="bench.yaml")
            best = min(best, time.process_time() - started)
        ok = best < LOAD_SECONDS_TARGET
        missed += not ok
        _line(f"  {label}", f"{best:6.3f} s", ok)
    return missed


def run() -> int:
    missed = loading()
    print()
    print(
        "Image validation: remote commands per spec of installed packages "
        f"(target <= {COMMANDS_TARGET})"
    )
    try:
        names = installed(max(SIZES))
    except (OSError, subprocess.CalledProcessError, RuntimeError) as exc:
        print(f"  skipped: this benchmark needs dpkg ({exc})")
        return 1
    with tempfile.TemporaryDirectory(prefix="onespec-images-") as directory:
        for shape, label in (("list", "one package list"), ("each", "one validator per package")):
            counts = {}
            for size in SIZES:
                commands, seconds = measure(Path(directory), names[:size], shape)
                counts[size] = commands
                ok = commands <= COMMANDS_TARGET
                missed += not ok
                _line(
                    f"  {size} packages, {label}",
                    f"{commands:3d} commands  {seconds * 1000:6.1f} ms",
                    ok,
                )
            constant = counts[SIZES[0]] == counts[SIZES[-1]]
            missed += not constant
            _line(
                f"  {label}: {SIZES[0]} vs {SIZES[-1]} packages",
                "constant" if constant else "GROWS",
                constant,
            )
    return missed
