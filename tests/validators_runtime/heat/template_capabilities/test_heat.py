"""Heat's own parsers judge what ``capabilities resolve`` writes, and what it starts from.

Heat 27.0.1 runs in a virtual environment of its own (``make peers``); ``tests/peers/
heat_check.py`` feeds texts to ``environment_format.parse``, ``template_format.parse`` and
``Template(...).validate()``.
"""

from __future__ import annotations

from pathlib import Path

from onespec.validators_runtime.heat import template_capabilities as api
from tests import peers
from tests.validators_runtime.heat.template_capabilities.test_capabilities import SEED, seed  # noqa: F401 - the fixture


def heat(environments=(), templates=()) -> dict[str, list[str | None]]:
    request = {"environments": list(environments), "templates": list(templates)}
    return peers.run_script("heat", "heat_check.py", stdin=request)


def test_heat_refuses_the_seed_as_written():
    """Why onespec exists: Heat knows neither ``requires`` nor ``capabilities``."""
    verdicts = heat(
        environments=[(SEED / "environment.yaml").read_text()],
        templates=[(SEED / name / "controller.yaml").read_text() for name in ("puppet", "docker")],
    )
    assert verdicts["environments"] == ['ValueError: environment has wrong section "requires"']
    assert (
        verdicts["templates"]
        == ["InvalidTemplateSection: The template section is invalid: capabilities"] * 2
    )


def test_heat_accepts_what_resolve_writes_for_the_seed(seed, tmp_path):  # noqa: F811
    out = tmp_path / "out"
    written = api.write_resolution(api.resolve(["environment.yaml"]), out)
    templates = [(out / path).read_text() for path in written.files if path.endswith(".yaml")]
    assert templates
    verdicts = heat(environments=[(out / "environment.yaml").read_text()], templates=templates)
    assert verdicts == {"environments": [None], "templates": [None] * len(templates)}


def test_heat_accepts_each_resolution_of_a_later_environment(seed, tmp_path):  # noqa: F811
    resolutions = [api.resolve(["environment.yaml", name]) for name in ("docker.yaml",)]
    texts = [resolution.to_yaml() for resolution in resolutions]
    assert heat(environments=texts)["environments"] == [None] * len(texts)
    assert Path("docker.yaml").is_file()
