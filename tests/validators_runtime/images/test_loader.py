"""The loader: every error names file, YAML path, line and reason; oddities are warnings."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from onespec.validators_runtime._generated import image_validators as tables
from onespec.validators_runtime._generated.image_validators import SCHEMA
from onespec.validators_runtime.images import (
    DEFAULT_VALIDATOR_MAP,
    ImageValidationError,
    ImageValidationSpecificationError,
    ImageValidator,
    LocalRemote,
    Outcome,
    SaharaImageValidator,
    SaharaImageValidatorBase,
    SaharaPackageValidator,
    SaharaScriptValidator,
)
from onespec.validators_runtime.images.reading import read_yaml
from onespec.validators_runtime.images.root import loads
from onespec.validators_runtime.problems import key_path_text
from tests.validators_runtime.images.helpers import write_spec

#: (spec text, YAML path, line, words of the reason)
ERRORS = [
    ("[]\n", None, 1, "a spec must be a mapping"),
    ("arguments: {}\n", None, 1, "a spec needs 'validators'"),
    ("validators:\n  - packages: curl\n", "validators[0].packages", 2, "did you mean 'package'?"),
    ("validators:\n  - {package: a, script: b}\n", "validators[0]", 2, "exactly one key"),
    ("validators:\n  - any: []\n", "validators[0].any", 2, "at least one alternative"),
    ("validators:\n  - package: []\n", "validators[0].package", 2, "must not be empty"),
    (
        "validators:\n  - package:\n      lzo:\n        version: 2.10\n",
        "validators[0].package.lzo.version",
        4,
        "quote it",
    ),
    ("validators:\n  - os_case: {debian: []}\n", "validators[0].os_case", 2, "non-empty list"),
    (
        "validators:\n  - argument_case: {argument_name: x, cases: {a: []}}\n",
        "validators[0].argument_case.argument_name",
        2,
        "argument 'x' is not declared",
    ),
    (
        "arguments:\n  x: {default: a}\nvalidators:\n  - argument_case: {argument_name: x}\n",
        "validators[0].argument_case",
        4,
        "needs 'cases'",
    ),
    (
        "arguments:\n  x:\n    default: c\n    choices: [a, b]\nvalidators: []\n",
        "arguments.x.default",
        3,
        "is not one of the choices",
    ),
    (
        "arguments:\n  x:\n    description: no default\nvalidators: []\n",
        "arguments.x",
        2,
        "needs a default",
    ),
    (
        "arguments:\n  x: {default: a, choices: [a]}\nvalidators:\n"
        "  - argument_set: {argument_name: x, value: b}\n",
        "validators[0].argument_set.value",
        4,
        "is not a choice",
    ),
    (
        "arguments:\n  SIV_DISTRO: {default: a}\nvalidators: []\n",
        "arguments.SIV_DISTRO",
        2,
        "reserved",
    ),
    ("validators: [\n", None, 2, "not valid YAML"),
    ("validators:\n  - script: missing.sh\n", "validators[0].script", 2, "not a file"),
]


@pytest.mark.parametrize(("text", "path", "line", "words"), ERRORS)
def test_errors_name_file_path_line_and_reason(tmp_path, text, path, line, words):
    spec_file = write_spec(tmp_path, text)
    with pytest.raises(ImageValidationSpecificationError) as caught:
        SaharaImageValidator.from_yaml(spec_file)
    error = caught.value
    assert (error.file, error.path, error.line) == (str(spec_file), path, line)
    assert words in error.reason
    assert words in str(error) and str(spec_file) in str(error)


def test_unknown_keys_and_duplicates_are_warnings_with_their_paths(tmp_path):
    text = """\
    extra: 1
    arguments:
      x:
        default: a
        hidden: true
        description: one
        description: two
    validators:
      - package:
          curl:
            version: "7.88.1-10"
            arch: amd64
      - script:
          s:
            inline: "true"
            enf_vars: [x]
      - package: [curl, curl]
      - os_case:
          - ubunut:
              - package: curl
    """
    spec = SaharaImageValidator.from_yaml(write_spec(tmp_path, text))
    warnings = {(w.path, w.line): w.message for w in spec.warnings}
    assert "'extra' is not one of them" in warnings[("extra", 1)]
    assert "'hidden' is not one of them" in warnings[("arguments.x.hidden", 5)]
    assert "given twice; the last wins" in warnings[("arguments.x.description", 7)]
    assert "'arch' is not one of them" in warnings[("validators[0].package.curl.arch", 12)]
    assert "did you mean 'env_vars'?" in warnings[("validators[1].script.s.enf_vars", 16)]
    assert "listed more than once" in warnings[("validators[2].package", 17)]
    assert "names no known distribution" in warnings[("validators[3].os_case[0].ubunut", 19)]
    assert spec.arguments["x"].description == "two"


def test_key_paths_read_as_in_every_location():
    assert key_path_text(("validators", 2, "script", "a/b", "env_vars", 0)) == (
        "validators[2].script['a/b'].env_vars[0]"
    )
    assert key_path_text(("arguments", "x")) == "arguments.x"
    assert key_path_text(()) == ""


def test_every_built_in_kind_is_in_the_grammar_and_back():
    assert set(DEFAULT_VALIDATOR_MAP) == set(tables.KINDS)
    assert set(SCHEMA["$defs"]["validator"]["properties"]) == set(tables.KINDS)


def test_the_schema_and_the_loader_agree_on_structure(tmp_path):
    """Specs the schema refuses, the loader refuses too (the loader checks more)."""
    for text, *_ in ERRORS:
        try:
            data, _ = read_yaml(text, "x")
        except ImageValidationSpecificationError:
            continue
        if list(Draft202012Validator(SCHEMA).iter_errors(data)):
            with pytest.raises(ImageValidationSpecificationError):
                loads(text, resource_roots=[tmp_path])


NAME = tables.PATTERNS["package-name"]


@given(st.text(alphabet="abcXYZ019+._-;$ `'\"|&()\n~:", min_size=1, max_size=12))
def test_a_package_name_loads_exactly_when_it_matches_the_grammar(name):
    text = "validators:\n  - package: " + json.dumps(name) + "\n"
    try:
        loads(text)
        loaded = True
    except ImageValidationSpecificationError:
        loaded = False
    assert loaded == bool(re.fullmatch(NAME, name))
    if loaded:
        assert not set(name) & set(";$ `'\"|&()\n~:")


@given(st.text(alphabet="ab019+._-~:;$ `'\"()", min_size=1, max_size=12))
def test_a_version_loads_exactly_when_it_matches_the_grammar(version):
    text = "validators:\n  - package: {lzo: {version: " + json.dumps(version) + "}}\n"
    try:
        loads(text)
        loaded = True
    except ImageValidationSpecificationError:
        loaded = False
    assert loaded == bool(re.fullmatch(tables.PATTERNS["package-version"], version))
    if loaded:
        assert not set(version) & set(";$ `'\"()")


# --- Custom kinds --------------------------------------------------------------------------------


class FileExists(SaharaImageValidatorBase):
    """A custom kind written as the SPI describes: from_spec and a seed-shaped validate."""

    def __init__(self, path: str) -> None:
        self.file = path

    @classmethod
    def from_spec(cls, spec, validator_map, resource_roots):
        if not isinstance(spec, str) or not spec.startswith("/"):
            raise ImageValidationSpecificationError(f"{spec!r} is not an absolute path")
        return cls(spec)

    def validate(self, remote, reconcile=True, env_map=None, **kwargs):
        import shlex

        code, _, _ = remote.execute_command(
            f"test -e {shlex.quote(self.file)}", raise_when_error=False
        )
        if code != 0:
            raise ImageValidationError(f"{self.file} does not exist")


def test_custom_kinds_come_from_the_validator_map(tmp_path):
    text = "validators:\n  - file_exists: /etc/os-release\n  - file_exists: /nonexistent\n"
    spec = SaharaImageValidator.from_yaml(
        write_spec(tmp_path, text), validator_map={"file_exists": FileExists}
    )
    with LocalRemote() as remote, pytest.raises(ImageValidationError) as caught:
        spec.validate(remote, reconcile=False)
    steps = [(s.path, s.outcome, s.commands) for s in caught.value.report.steps if s.depth == 1]
    assert steps == [
        ("validators[0].file_exists", Outcome.PASSED, ["test -e /etc/os-release"]),
        ("validators[1].file_exists", Outcome.FAILED, ["test -e /nonexistent"]),
    ]
    bad = write_spec(tmp_path, "validators:\n  - file_exists: relative\n", "bad.yaml")
    with pytest.raises(ImageValidationSpecificationError) as refused:
        SaharaImageValidator.from_yaml(bad, validator_map={"file_exists": FileExists})
    assert refused.value.path == "validators[0].file_exists"
    assert "not an absolute path" in refused.value.reason
    with pytest.raises(ImageValidationSpecificationError, match="unknown validator kind"):
        SaharaImageValidator.from_yaml(write_spec(tmp_path, text, "plain.yaml"))


def test_built_in_classes_build_from_their_spec_alone(tmp_path):
    package = SaharaPackageValidator.from_spec(["curl", {"lzo": {"version": "2.10-2"}}])
    assert package.label() == "curl lzo=2.10-2"
    script = SaharaScriptValidator.from_spec({"s": {"inline": "exit 0"}})
    with LocalRemote() as remote:
        assert script.validate(remote, reconcile=False).outcome is Outcome.PASSED
    assert isinstance(script, ImageValidator)
