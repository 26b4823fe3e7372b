"""How fast template capabilities are introspected, against bare parsing of the same files.

``find`` and ``summary`` load every file as Heat does (JSON first, the C loader, duplicate keys,
the YAML limits -- expanded size, nesting, loops -- in force, classification) and must keep at
least 90 % of the files per second of the bare C loader (read the file,
``yaml.load(text, Loader=yaml.CSafeLoader)``) on the same files: the real TripleO 18.0.0 tree,
and a generated tree of 5,000 templates. Before timing anything it checks that the loader the
scans use still refuses an alias bomb, a recursive alias, deep nesting, too many nodes, a
template over Heat's size, a 4,301-digit integer, and still warns of a duplicate key: the
speed is that of the bounded loads. A repeated query over
unchanged files goes through the cache and must be at least 10 times faster than parsing.
Every figure is the median of several runs; ratios compare runs made moments apart.
"""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from onespec.validators_runtime.heat import hot_loader
from onespec.validators_runtime.heat import template_capabilities as api
from tests import peers

#: TripleO's released tree, from its source distribution (``make peers``).
TRIPLEO = peers.peer("tripleo-heat-templates")

SPEED_TARGET = 0.90
CACHE_TARGET = 10.0
GENERATED = 5_000


def _seconds(call: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``call`` over ``repeats`` runs, after one run to warm up."""
    call()
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def _paired(first: Callable[[], object], second: Callable[[], object], repeats: int):
    """Medians of two calls whose runs alternate, so that machine noise hits both alike."""
    first()
    second()
    a, b = [], []
    for _ in range(repeats):
        for call, into in ((first, a), (second, b)):
            started = time.perf_counter()
            call()
            into.append(time.perf_counter() - started)
    return statistics.median(a), statistics.median(b)


def bare_parse(files: list[str]) -> None:
    """The baseline: read each file and parse it with PyYAML's C loader, nothing else."""
    loader = yaml.CSafeLoader
    for path in files:
        # A real tree holds Jinja sources too: failing to parse them is work done all the same.
        with open(path, encoding="utf-8") as stream, contextlib.suppress(yaml.YAMLError):
            yaml.load(stream.read(), Loader=loader)  # noqa: S506 - CSafeLoader is safe


def files_of(root: Path) -> list[str]:
    return [path for path, problem in api.iter_files([root], True) if problem is None]


_WORDS = ["controller", "compute", "storage", "network", "config", "port", "vip", "server"]


def _template(rng: random.Random, number: int) -> str:
    """A HOT template shaped like TripleO's: parameters, resources, outputs, some capabilities."""
    lines = ["heat_template_version: 2015-10-15", "", f"description: Generated template {number}"]
    if number % 3 == 0:
        lines += [
            "",
            "capabilities:",
            f"  deployment: {rng.choice(['puppet', 'docker', 'ansible'])}",
            f"  resource_type: OS::Generated::{rng.choice(_WORDS).title()}",
        ]
    lines += ["", "parameters:"]
    for index in range(rng.randint(6, 20)):
        lines += [
            f"  {rng.choice(_WORDS).title()}Parameter{index}:",
            f"    type: {rng.choice(['string', 'number', 'json', 'comma_delimited_list'])}",
            f"    default: '{rng.choice(_WORDS)}-{index}'",
            "    description: >",
            f"      The {rng.choice(_WORDS)} setting number {index}, used by the"
            f" {rng.choice(_WORDS)} resources.",
        ]
    lines += ["", "resources:"]
    for index in range(rng.randint(3, 12)):
        lines += [
            f"  Resource{index}:",
            f"    type: OS::Heat::{rng.choice(['StructuredConfig', 'SoftwareConfig', 'Value'])}",
            "    properties:",
            "      config:",
            "        hiera:",
            "          datafiles:",
            f"            {rng.choice(_WORDS)}:",
            "              mapped_data:",
        ]
        for key in range(rng.randint(2, 6)):
            lines.append(
                f"                {rng.choice(_WORDS)}::key_{key}: "
                f"{{get_param: {rng.choice(_WORDS).title()}Parameter{key}}}"
            )
    lines += ["", "outputs:", "  result:", "    value: {get_attr: [Resource0, value]}", ""]
    return "\n".join(lines)


def generate_tree(root: Path, count: int = GENERATED) -> None:
    """``count`` templates in 50 directories, dated an hour ago (so the cache may keep them)."""
    rng = random.Random(7)
    past = time.time() - 3600
    for number in range(count):
        folder = root / f"group{number % 50:02d}"
        folder.mkdir(exist_ok=True)
        path = folder / f"template{number:05d}.yaml"
        path.write_text(_template(rng, number), encoding="utf-8")
        os.utime(path, (past, past))


def _line(label: str, figure: str, ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"{label:<64} {figure}{mark}")


def measure_tree(name: str, root: Path, cache_dir: Path, repeats: int) -> int:
    """Print the speed of find and summary over ``root``, and of the cache; return misses."""
    missed = 0
    files = files_of(root)
    constraint = {"resource_type": "OS::TripleO::Controller"}
    print(f"{name}: {len(files):,} files")
    for label, query in (
        ("find", lambda **o: api.find([root], constraint, recursive=True, **o)),
        ("summary", lambda **o: api.summary([root], recursive=True, **o)),
    ):
        bare, ours = _paired(lambda: bare_parse(files), lambda q=query: q(cache=False), repeats)
        ratio = bare / ours
        ok = ratio >= SPEED_TARGET
        missed += not ok
        _line(
            f"  {label}, no cache: {len(files) / ours:,.0f} files/s vs bare C loader "
            f"{len(files) / bare:,.0f}",
            f"{ratio:6.0%} (target >= {SPEED_TARGET:.0%})",
            ok,
        )
    query = lambda **o: api.find([root], constraint, recursive=True, **o)  # noqa: E731
    query(cache=True, cache_dir=cache_dir)  # fill the cache
    parsed, cached = _paired(
        lambda: query(cache=False), lambda: query(cache=True, cache_dir=cache_dir), repeats
    )
    speedup = parsed / cached
    ok = speedup >= CACHE_TARGET
    missed += not ok
    _line(
        f"  find repeated, cached: {cached * 1000:,.1f} ms vs {parsed * 1000:,.1f} ms parsing",
        f"{speedup:6.1f}x (target >= {CACHE_TARGET:.0f}x)",
        ok,
    )
    return missed


#: What the measured loads must still refuse or report, through the loader the scans use:
#: (what, text, the load error's code or None for a duplicate-key warning, options). Heat's
#: size limit is lifted but for the size case, so that each case meets its own bound; the node
#: count is checked against a limit of 1,000 (a million nodes take the counting composer
#: seconds to refuse), the other cases against the defaults.
_HOSTILE: tuple[tuple[str, str, str | None, dict[str, int | None]], ...] = (
    (
        "alias bomb",
        "a0: &a0 [x]\n"
        + "".join(f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 10)}]\n" for n in range(1, 10)),
        "alias-limit",
        {},
    ),
    ("recursive alias", "a: &a [*a]\n", "alias-limit", {}),
    ("depth", "a:\n  " + "- " * 300 + "x\n", "too-deep", {}),
    ("node count", "[" + ", ".join(["x"] * 1_000) + "]\n", "alias-limit", {"alias_limit": 1_000}),
    (
        "size",
        "a: " + "x" * hot_loader.MAX_TEMPLATE_SIZE + "\n",
        "too-large",
        {"max_size": hot_loader.MAX_TEMPLATE_SIZE},
    ),
    ("4,301-digit int", "a: " + "9" * 4301 + "\n", "syntax", {}),
    ("duplicate keys", "a: 1\na: 2\n", None, {}),
)


def _holds(text: str, code: str | None, options: dict[str, int | None]) -> bool:
    settings: dict[str, int | None] = {"max_size": None, **options}
    try:
        loaded = hot_loader.loads(text, "hostile.yaml", reword=False, **settings)  # type: ignore[arg-type]
    except hot_loader.LoadError as error:
        return error.code == code
    return code is None and any(w.code == "duplicate-key" for w in loaded.warnings)


def limits_in_force() -> int:
    """Check that every bound holds on the path measured, print one line; 1 if any does not."""
    failed = [case[0] for case in _HOSTILE if not _holds(*case[1:])]
    shown = f"{len(_HOSTILE) - len(failed)}/{len(_HOSTILE)}"
    _line(
        f"  limits in force: {', '.join(case[0] for case in _HOSTILE)}",
        shown + (f" (not: {', '.join(failed)})" if failed else ""),
        not failed,
    )
    return 1 if failed else 0


def run() -> int:
    missed = 0
    print("Template capabilities: find and summary vs bare parsing; the cache")
    missed += limits_in_force()
    with tempfile.TemporaryDirectory(prefix="onespec-bench-") as temporary:
        base = Path(temporary)
        if peers.is_provided(TRIPLEO):
            missed += measure_tree(
                "TripleO 18.0.0 tree", TRIPLEO.location, base / "cache-tripleo", 5
            )
        else:
            print(f"  skipped the real tree: run `{peers.MAKE_TARGET}` to provide it")
        tree = base / "generated"
        tree.mkdir()
        generate_tree(tree)
        missed += measure_tree("Generated tree", tree, base / "cache-generated", 3)
    return missed
