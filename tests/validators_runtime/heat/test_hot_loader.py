"""Loading templates and environments as Heat does: JSON first, the C loader, dates as strings,
the size limit, empty files, non-mappings, duplicate keys, alias bombs; every error placed."""

from __future__ import annotations

import json
import time

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from onespec.validators_runtime import yaml_limits
from onespec.validators_runtime.heat import hot_loader
from onespec.validators_runtime.heat.hot_loader import (
    MAX_TEMPLATE_SIZE,
    HeatLoader,
    LoadError,
    classify,
    load,
    load_template,
    loads,
)


class HeatReferenceLoader(yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader):
    """Heat's own loader, as ``heat.common.template_format`` writes it, for comparison."""

    def _construct_yaml_str(self, node):
        return self.construct_scalar(node)


HeatReferenceLoader.add_constructor(
    "tag:yaml.org,2002:str", HeatReferenceLoader._construct_yaml_str
)
HeatReferenceLoader.add_constructor(
    "tag:yaml.org,2002:timestamp", HeatReferenceLoader._construct_yaml_str
)


def heat_simple_parse(text: str):
    """``heat.common.template_format.simple_parse``, minus the error wording."""
    try:
        return json.loads(text)
    except ValueError:
        data = yaml.load(text, Loader=HeatReferenceLoader)  # noqa: S506 - Heat's safe loader
        return {} if data is None else data


def test_the_c_loader_is_used_when_available():
    assert hasattr(yaml, "CSafeLoader") == hot_loader.C_LOADER
    if hot_loader.C_LOADER:  # libyaml parses; the counting composer composes
        assert issubclass(HeatLoader, yaml._yaml.CParser)
    assert issubclass(HeatLoader, yaml_limits.CountingComposer)
    assert issubclass(hot_loader.HeatPythonLoader, yaml.parser.Parser)
    assert issubclass(hot_loader.HeatPythonLoader, yaml.constructor.SafeConstructor)


def test_unquoted_dates_stay_strings():
    loaded = loads("heat_template_version: 2015-10-15\nwhen: 2001-12-14t21:59:43.10-05:00\n")
    assert loaded.data == {
        "heat_template_version": "2015-10-15",
        "when": "2001-12-14t21:59:43.10-05:00",
    }
    assert loaded.format == "yaml"


def test_yaml_1_1_scalars_are_read_as_heat_reads_them():
    text = "a: yes\nb: 0755\nc: 1.5\nd: ~\ne: 'yes'\nf: 2015-04-30\n"
    assert loads(text).data == heat_simple_parse(text)
    assert loads(text).data == {
        "a": True,
        "b": 493,
        "c": 1.5,
        "d": None,
        "e": "yes",
        "f": "2015-04-30",
    }


def test_json_is_tried_first():
    loaded = loads('{"heat_template_version": "2015-10-15", "resources": {}}', "t.json")
    assert loaded.format == "json"
    assert loaded.data == {"heat_template_version": "2015-10-15", "resources": {}}


def test_json_that_fails_is_read_as_yaml_as_heat_does():
    # Not JSON (single quotes), but a YAML flow mapping.
    loaded = loads("{'heat_template_version': '2015-10-15'}")
    assert loaded.format == "yaml"
    assert loaded.data == {"heat_template_version": "2015-10-15"}


@pytest.mark.parametrize("text", ["", "\n", "# only a comment\n", "---\n", "~\n"])
def test_an_empty_file_is_an_empty_mapping(text):
    assert loads(text).data == {}


@pytest.mark.parametrize(
    ("text", "line"),
    [("- a\n- b\n", 1), ("\n\njust a string\n", 3), ("[1, 2]", 1), ("42", 1), ('"x"', 1)],
)
def test_anything_but_a_mapping_is_an_error_with_its_line(text, line):
    with pytest.raises(LoadError) as caught:
        loads(text, "t.yaml")
    error = caught.value
    assert error.code == "not-a-mapping"
    assert error.path == "t.yaml"
    assert error.line == line
    assert "The template is not a JSON object or YAML mapping." in str(error)
    assert str(error).startswith(f"t.yaml:{line}: ")


def test_syntax_errors_name_the_file_and_line_in_one_sentence():
    text = "heat_template_version: 2015-10-15\nresources:\n  a: [1, 2\n  b: 3\n"
    with pytest.raises(LoadError) as caught:
        loads(text, "broken.yaml")
    error = caught.value
    assert error.code == "syntax"
    assert error.path == "broken.yaml"
    assert error.line == 4
    assert str(error).startswith("broken.yaml:4: not valid YAML: ")
    assert "\n" not in str(error) and "<unicode string>" not in str(error)


def test_duplicate_keys_are_warnings_with_both_lines():
    text = "a: 1\nb:\n  c: 2\n  d: 3\n  c: 4\na: 5\n"
    loaded = loads(text, "dup.yaml")
    assert loaded.data == {"a": 5, "b": {"c": 4, "d": 3}}  # YAML keeps the last, as Heat does
    found = {(w.location.line, w.code) for w in loaded.warnings}
    assert found == {(5, "duplicate-key"), (6, "duplicate-key")}
    messages = sorted(str(w) for w in loaded.warnings)
    assert messages[0].startswith("dup.yaml:5: duplicate key 'c' at lines 3 and 5")
    assert messages[1].startswith("dup.yaml:6: duplicate key 'a' at lines 1 and 6")
    # the shared shape of a problem: a warning, in the file, at the line, naming the key
    assert {(w.severity, w.location.file, w.value) for w in loaded.warnings} == {
        ("warning", "dup.yaml", "a"),
        ("warning", "dup.yaml", "c"),
    }


def test_keys_that_yaml_reads_alike_are_duplicates_too():
    loaded = loads("on: 1\nyes: 2\n")  # both are the boolean True in YAML 1.1
    assert loaded.data == {True: 2}
    assert [w.location.line for w in loaded.warnings] == [2]


def test_merge_keys_are_not_duplicates():
    text = "base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  x: 3\n"
    loaded = loads(text)
    assert loaded.data["derived"] == {"x": 3, "y": 2}
    assert loaded.warnings == ()


def test_duplicate_keys_in_json_are_found_too():
    loaded = loads('{\n  "a": 1,\n  "a": 2\n}\n', "dup.json")
    assert loaded.format == "json"
    assert loaded.data == {"a": 2}
    assert [(w.location.line, w.code) for w in loaded.warnings] == [(3, "duplicate-key")]
    assert "at lines 2 and 3" in loaded.warnings[0].message


def billion_laughs(levels: int = 9, width: int = 10) -> str:
    lines = ['a0: &a0 ["lol"]']
    for level in range(1, levels + 1):
        items = ", ".join([f"*a{level - 1}"] * width)
        lines.append(f"a{level}: &a{level} [{items}]")
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_fails_fast_with_its_line():
    # The work is bounded by the line it stops at (a million nodes); the processor time this
    # process spends (not wall time, which other work on the machine stretches) backs it up.
    started = time.process_time()
    with pytest.raises(LoadError) as caught:
        loads(billion_laughs(), "bomb.yaml")
    assert time.process_time() - started < 1.0
    error = caught.value
    assert error.code == "alias-limit"
    assert error.path == "bomb.yaml"
    assert error.line == 7  # where the expansion first passes a million nodes
    assert "alias bomb" in str(error)


def test_modest_aliases_load():
    text = "common: &c [a, b]\nx: *c\ny: *c\n"
    data = loads(text).data
    assert data == {"common": ["a", "b"], "x": ["a", "b"], "y": ["a", "b"]}
    # the mapping, three keys, and each of three lists of two, expanded
    assert yaml_limits.shared_shape(data, 1_000_000) == (13, 2)


def test_the_alias_limit_is_configurable():
    with pytest.raises(LoadError) as caught:
        loads("common: &c [a, b]\nx: *c\ny: *c\n", "t.yaml", alias_limit=12)
    assert caught.value.code == "alias-limit"
    assert "more than 12 nodes" in str(caught.value)
    assert caught.value.line == 1  # the document's mapping, which passes 12 once complete


def test_a_recursive_alias_is_refused():
    with pytest.raises(LoadError) as caught:
        loads("a: &a\n  - *a\n", "loop.yaml")
    assert caught.value.code == "alias-limit"
    assert "refers to itself" in str(caught.value)
    assert "(a recursive alias)" in str(caught.value)
    assert caught.value.line == 2  # where the alias is


def flow_bomb(levels: int = 11) -> str:
    """The issue's bomb: each alias right after a colon in flow style (``{"k":*a}``)."""
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    for level in range(1, levels + 1):
        items = ",".join([f'{{"k":*a{level - 1}}}'] * 9)
        lines.append(f"a{level}: &a{level} [{items}]")
    return "\n".join(lines) + "\n"


def test_an_alias_after_a_colon_in_flow_style_is_counted_too():
    text = flow_bomb()
    assert len(text) < 1200
    started = time.process_time()
    with pytest.raises(LoadError) as caught:
        loads(text, "env.yaml")
    assert time.process_time() - started < 1.0
    assert caught.value.code == "alias-limit"
    assert caught.value.path == "env.yaml" and caught.value.line == 7


@pytest.mark.parametrize(
    "text",
    [
        "resource_registry: " + "[" * 900 + "]" * 900 + "\n",
        "resource_registry:\n  " + "- " * 3000 + "x\n",
        '{"resource_registry": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"resource_registry": ' + "[" * 300 + "]" * 300 + "}",
    ],
    ids=["flow", "block", "json-deeper-than-python", "json"],
)
def test_deep_nesting_is_a_located_error(text):
    started = time.process_time()
    with pytest.raises(LoadError) as caught:
        loads(text, "deep.yaml")
    assert time.process_time() - started < 1.0
    assert caught.value.path == "deep.yaml"
    assert caught.value.line is not None
    assert caught.value.code in {"too-deep", "syntax"}
    assert "deep" in str(caught.value) or "depth" in str(caught.value)


def test_the_size_limit_is_heats_with_its_kind_of_message(tmp_path):
    text = "heat_template_version: 2015-10-15\ndescription: " + "x" * MAX_TEMPLATE_SIZE + "\n"
    with pytest.raises(LoadError) as caught:
        loads(text, "big.yaml")
    error = caught.value
    assert error.code == "too-large"
    assert error.line == 2
    assert "Request limit exceeded: template size (524,336 characters) exceeds the maximum " in (
        str(error)
    )
    assert "(524,288 characters; Heat's max_template_size)" in str(error)
    at_limit = "a: " + "x" * (MAX_TEMPLATE_SIZE - 3)
    assert len(loads(at_limit).data["a"]) == MAX_TEMPLATE_SIZE - 3
    assert loads(text, max_size=None).data["description"].startswith("xxx")
    assert loads(text, max_size=len(text)).data


def test_the_limit_counts_characters_not_bytes(tmp_path):
    path = tmp_path / "wide.yaml"
    path.write_text("a: " + "é" * 100 + "\n", encoding="utf-8")  # 104 characters, 204 bytes
    assert load(path, max_size=104).data["a"] == "é" * 100
    with pytest.raises(LoadError):
        load(path, max_size=103)


def test_a_huge_file_is_refused_without_reading_it_whole(tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_bytes(b"a: " + b"x" * 5000 + b"\n")
    with pytest.raises(LoadError) as caught:
        load(path, max_size=1000)
    assert caught.value.code == "too-large"
    assert caught.value.path == str(path)
    assert caught.value.line == 1


def test_a_file_that_is_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(LoadError) as caught:
        load(path)
    assert (caught.value.code, caught.value.line) == ("encoding", 2)


def test_a_missing_file_is_a_load_error(tmp_path):
    with pytest.raises(LoadError) as caught:
        load(tmp_path / "missing.yaml")
    assert caught.value.code == "unreadable"
    assert "missing.yaml" in str(caught.value)


def test_unsafe_tags_are_refused():
    with pytest.raises(LoadError) as caught:
        loads("a: !!python/object/apply:os.system ['true']\n", "evil.yaml")
    assert caught.value.code == "syntax"
    assert caught.value.line == 1


def test_a_template_needs_a_version(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("resources: {}\n")
    with pytest.raises(LoadError) as caught:
        load_template(path)
    assert "Template format version not found" in str(caught.value)
    path.write_text("heat_template_version: 2016-04-08\n")
    assert load_template(path).data["heat_template_version"] == "2016-04-08"


def test_lines_of_sections_are_known():
    text = (
        "heat_template_version: 2015-10-15\n"
        "capabilities:\n"
        "  deployment: puppet\n"
        "  resource_type:\n"
        "    - OS::A\n"
        "    - OS::B\n"
        "resources: {}\n"
    )
    loaded = loads(text)
    assert loaded.line("capabilities") == 2
    assert loaded.line("capabilities", "deployment") == 3
    assert loaded.line("capabilities", "resource_type", 1) == 6
    assert loaded.line("capabilities", "missing") == 2
    assert loaded.line("resources") == 7


@pytest.mark.parametrize(
    "text",
    [
        "heat_template_version: 2015-10-15\ncapabilities:\n  a: b\n",
        '{"heat_template_version": "2015-10-15",\n "capabilities": {\n  "a": "b"}}\n',
    ],
    ids=["yaml", "json"],
)
def test_lines_are_found_only_when_a_message_needs_one(monkeypatch, text):
    composed = []
    real = hot_loader._lines_of
    monkeypatch.setattr(hot_loader, "_lines_of", lambda *args: composed.append(1) or real(*args))
    loaded = loads(text)
    assert composed == []  # loading alone never composes the text again
    assert loaded.line("capabilities", "a") == 3
    assert loaded.line("capabilities") == 2
    assert composed == [1]  # once, then remembered


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        ({"heat_template_version": "2015-10-15"}, "template"),
        ({"AWSTemplateFormatVersion": "2010-09-09"}, "template"),
        ({"HeatTemplateFormatVersion": "2012-12-12"}, "template"),
        ({"resource_registry": {}}, "environment"),
        ({"requires": {"a": "b"}, "parameter_defaults": {}}, "environment"),
        ({}, "other"),
        ({"mysql::server::package_name": "x"}, "other"),
        ({"root_template": "overcloud.yaml", "topics": []}, "other"),
    ],
)
def test_classification(data, kind):
    assert classify(data)[0] == kind


# --- Properties ---------------------------------------------------------------------------------

_keys = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12
)
_scalars = st.one_of(
    st.text(max_size=20),
    st.integers(-(10**6), 10**6),
    st.booleans(),
    st.none(),
    st.dates().map(lambda d: d.isoformat()),
)
_documents = st.dictionaries(
    _keys,
    st.recursive(
        _scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=4),
        max_leaves=12,
    ),
    max_size=6,
)


@given(_documents, st.sampled_from(["yaml", "json"]))
def test_loading_agrees_with_heats_own_parse(document, style):
    if style == "json":
        text = json.dumps(document)
    else:
        text = yaml.safe_dump(document, allow_unicode=True, default_flow_style=False)
    loaded = loads(text)
    assert loaded.data == heat_simple_parse(text)
    assert loaded.warnings == ()


@given(st.text(max_size=200))
def test_any_text_loads_or_fails_with_a_placed_load_error(text):
    try:
        loaded = loads(text, "any.yaml")
    except LoadError as error:
        assert error.path == "any.yaml"
        assert str(error).startswith("any.yaml")
        if error.code in {"syntax", "not-a-mapping"}:
            assert error.line is None or error.line >= 1
    else:
        assert isinstance(loaded.data, dict)


# --- The fast path: libyaml composes, one pass measures (issue 22) ------------------------------


def test_a_plain_template_is_measured_without_the_counting_composer():
    text = "heat_template_version: 2016-10-14\nresources:\n  a: {type: OS::Heat::Value}\n"
    _, data, _ = yaml_limits.load_fast(hot_loader.HeatCLoader, text)
    assert data == {
        "heat_template_version": "2016-10-14",
        "resources": {"a": {"type": "OS::Heat::Value"}},
    }
    # the mapping, two keys and their values, one key and its mapping, one key and its value
    assert yaml_limits.tree_shape(data) == (9, 3)


def test_shared_collections_are_measured_once_each_and_counted_in_full():
    leaf = ["x"] * 9
    levels = [leaf]
    for _ in range(30):  # 9**30 nodes once expanded: measured by visiting 31 lists
        levels.append([levels[-1]] * 9)
    assert yaml_limits.tree_shape(levels[-1]) is None  # shared: not a tree
    assert yaml_limits.shared_shape(levels[-1], 1_000_000) is None  # passes the limit
    small = [[leaf] * 3, leaf]
    assert yaml_limits.shared_shape(small, 1_000_000) == (1 + 2 + 3 + 3 * 9 + 9, 3)


def test_a_collection_that_contains_itself_is_refused_by_the_measure():
    loop: list = []
    loop.append(loop)
    assert yaml_limits.tree_shape(loop) is None
    assert yaml_limits.shared_shape(loop, 1_000_000) is None


@pytest.mark.parametrize(
    "text",
    [
        "a: &a [1, 2]\nb: *a\n",  # an alias to a collection: measured, still fast
        "a: 1\n",
    ],
)
def test_the_fast_path_takes_documents_within_the_limits(text):
    assert yaml_limits.load_fast(hot_loader.HeatCLoader, text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "a: &a {k: 1}\nb: {<<: *a, j: 2}\n",  # merge keys with aliases: counted instead
        "x: " + "[" * 600 + "]" * 600 + "\n",  # could nest past what libyaml may recurse
        "a: &a [*a]\n",  # a loop
    ],
)
def test_the_fast_path_hands_doubtful_documents_to_the_counting_composer(text):
    assert yaml_limits.load_fast(hot_loader.HeatCLoader, text) is None


def test_the_nesting_bound_is_never_below_the_real_depth():
    for text in (
        "- " * 50 + "x\n",
        "a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 40)),
        "a: " + "[" * 30 + "]" * 30 + "\n",
        "a:\n- b:\n  - c:\n    - d\n",
    ):
        data = yaml.load(text, Loader=yaml.CSafeLoader)
        assert yaml_limits.nesting_bound(text) >= yaml_limits.tree_shape(data)[1], text
