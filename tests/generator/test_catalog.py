"""The schema catalog routes the project's example files to schemas that accept them.

Each example under ``doc/source/examples/editors/`` is matched against the catalog's
``fileMatch`` globs as yaml-language-server matches them (a pattern without a slash against
the file name, one with a slash against the path), then validated with the schema the catalog
points to, found by its ``$id`` among the generated files.
"""

from __future__ import annotations

import copy
import json
import re
from fnmatch import fnmatchcase
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from tests.conftest import ROOT

SCHEMAS = ROOT / "outputs" / "schemas"
EXAMPLES = ROOT / "doc" / "source" / "examples" / "editors"
CATALOG = json.loads((SCHEMAS / "catalog.json").read_text(encoding="utf-8"))


def glob_regex(pattern: str) -> re.Pattern[str]:
    """``**/`` is any number of folders, ``*`` anything within one path segment."""
    parts = []
    for piece in re.split(r"(\*\*/|\*)", pattern):
        if piece == "**/":
            parts.append("(?:.*/)?")
        elif piece == "*":
            parts.append("[^/]*")
        else:
            parts.append(re.escape(piece))
    return re.compile("(?:.*/)?" + "".join(parts))


def matches(pattern: str, path: str) -> bool:
    if "/" not in pattern:
        return fnmatchcase(path.rsplit("/", 1)[-1], pattern)
    return glob_regex(pattern).fullmatch(path) is not None


def schemas_by_id() -> dict[str, dict]:
    found = {}
    for path in SCHEMAS.glob("*.schema.json"):
        schema = json.loads(path.read_text(encoding="utf-8"))
        found[schema["$id"]] = schema
    return found


def validator(url: str) -> Draft202012Validator:
    """The schema at ``url``, its references to sibling schemas resolved among the others."""
    schemas = schemas_by_id()
    registry = Registry().with_resources(
        (id_, Resource.from_contents(schema)) for id_, schema in schemas.items()
    )
    return Draft202012Validator(schemas[url], registry=registry)


def routed(path: Path) -> list[str]:
    """The URLs of the catalog entries whose patterns match ``path``."""
    relative = path.relative_to(ROOT).as_posix()
    return [
        entry["url"]
        for entry in CATALOG["schemas"]
        if any(matches(pattern, relative) for pattern in entry["fileMatch"])
    ]


def examples() -> list[Path]:
    return sorted(p for p in EXAMPLES.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))


def test_the_catalog_has_schemastores_shape():
    assert CATALOG["$schema"] == "https://json.schemastore.org/schema-catalog.json"
    assert CATALOG["version"] == 1
    for entry in CATALOG["schemas"]:
        assert set(entry) == {"name", "description", "fileMatch", "url"}
        assert entry["name"] and entry["description"] and entry["fileMatch"]


def test_every_url_is_the_id_of_a_generated_schema():
    ids = schemas_by_id()
    assert {entry["url"] for entry in CATALOG["schemas"]} <= set(ids)


@pytest.mark.parametrize("path", examples(), ids=lambda p: p.relative_to(EXAMPLES).as_posix())
def test_each_example_is_routed_to_one_schema_that_accepts_it(path):
    urls = routed(path)
    assert len(urls) == 1, urls
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = list(validator(urls[0]).iter_errors(document))
    assert errors == []


def test_every_catalog_entry_has_an_example():
    used = {url for path in examples() for url in routed(path)}
    assert used == {entry["url"] for entry in CATALOG["schemas"]}


def test_a_broken_example_is_refused_through_the_same_route():
    path = EXAMPLES / "gold.extra-specs.yaml"
    (url,) = routed(path)
    document = copy.deepcopy(yaml.safe_load(path.read_text(encoding="utf-8")))
    document["hw:cpu_policy"] = "sharrred"
    document["hw:cpu_pollicy"] = "shared"
    errors = list(Draft202012Validator(schemas_by_id()[url]).iter_errors(document))
    assert len(errors) == 2


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("*.hot.yaml", "a/b/web.hot.yaml", True),
        ("*.hot.yaml", "a/b/web.yaml", False),
        ("**/environments/*.yaml", "environments/x.yaml", True),
        ("**/environments/*.yaml", "a/environments/x.yaml", True),
        ("**/environments/*.yaml", "a/environments/b/x.yaml", False),
        ("**/resources/images/image.yaml", "p/spark/resources/images/image.yaml", True),
    ],
)
def test_the_globs_read_as_editors_read_them(pattern, path, expected):
    assert matches(pattern, path) is expected


def test_files_named_otherwise_are_left_alone():
    seed = (
        ROOT / "tests" / "validators_runtime" / "heat" / "template_capabilities" / "data" / "seed"
    )
    assert routed(seed / "docker.yaml") == []
