"""Annotation, resolution and introspection, on the specification's own example and beyond.

The seed's example (``data/seed``): a Puppet and a Docker implementation of
``OS::TripleO::Controller``, an environment that requires ``deployment: puppet``, and
environments that leave no candidate or two.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from onespec.validators_runtime.heat import template_capabilities as api
from onespec.validators_runtime.heat.hot_loader import LoadError, load, loads
from onespec.validators_runtime.heat.template_capabilities import (
    CapabilitiesError,
    OutputError,
    ResolutionError,
    check_heat_environment,
    deep_update,
    evaluate,
    parse_section,
)
from onespec.validators_runtime.problems import Location

DATA = Path(__file__).resolve().parent / "data"
SEED = DATA / "seed"

#: The sections Heat's ``environment_format.SECTIONS`` accepts, written out independently of
#: onespec's definitions.
HEAT_ENVIRONMENT_SECTIONS = {
    "parameters",
    "resource_registry",
    "parameter_defaults",
    "encrypted_param_names",
    "event_sinks",
    "parameter_merge_strategies",
}
HOT_SECTIONS = {
    "heat_template_version",
    "description",
    "parameter_groups",
    "parameters",
    "resources",
    "outputs",
    "conditions",
}


def heat_accepts_environment(text: str) -> None:
    """Heat's ``environment_format.parse`` and its registry's rules, restated for the tests."""
    environment = yaml.safe_load(text) or {}
    assert isinstance(environment, dict)
    for section, value in environment.items():
        assert section in HEAT_ENVIRONMENT_SECTIONS, f'environment has wrong section "{section}"'
        assert value is not None, f'environment has empty section "{section}"'

    def walk(node):
        for key, value in node.items():
            if key in ("hooks", "restricted_actions"):
                continue
            if isinstance(value, dict):
                walk(value)
            else:
                assert value is None or isinstance(value, str), f"{key}: {value!r}"

    walk(environment.get("resource_registry", {}))


@pytest.fixture
def seed(tmp_path, monkeypatch):
    """A copy of the seed's example, as the working directory."""
    target = tmp_path / "templates"
    shutil.copytree(SEED, target)
    monkeypatch.chdir(target)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return target


# --- The sections --------------------------------------------------------------------------------


def test_values_are_normalised_to_tuples():
    assert parse_section(
        {"deployment": "puppet", "resource_type": ["OS::A", "OS::B", "OS::A"]}, "capabilities"
    ) == {"deployment": ("puppet",), "resource_type": ("OS::A", "OS::B")}


def test_extra_keys_are_allowed():
    assert parse_section({"anything": "goes", "x-y.z": ["1"]}, "capabilities") == {
        "anything": ("goes",),
        "x-y.z": ("1",),
    }


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("capabilities: puppet\n", 2, "must be a mapping of names to values, not str"),
        (
            "capabilities:\n  ha: yes\n",
            3,
            "capabilities ha must be a string or a list of strings, not a boolean (YAML 1.1 reads",
        ),
        ("capabilities:\n  version: 1.0\n", 3, "not a number (1.0; quote it"),
        ("capabilities:\n  a: []\n", 3, "capabilities a is an empty list"),
        (
            "capabilities:\n  a: [x, {y: z}]\n",
            3,
            "capabilities a[1] must be a string or a list of strings, not a mapping",
        ),
        ("capabilities:\n  a:\n    - x\n    - ''\n", 5, "not an empty string"),
        ("capabilities:\n  on: x\n", 2, "key must be a non-empty string, not a boolean"),
        ("capabilities:\n  a: ~\n", 3, "not empty (null)"),
    ],
)
def test_malformed_capabilities_are_placed_and_explained(text, line, words):
    loaded = loads("heat_template_version: 2015-10-15\n" + text, "t.yaml")
    with pytest.raises(CapabilitiesError) as caught:
        api.template_capabilities(loaded)
    assert caught.value.line == line
    assert caught.value.path == "t.yaml"
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"t.yaml:{line}: ")


def test_resource_type_is_not_allowed_in_requires():
    with pytest.raises(CapabilitiesError) as caught:
        parse_section({"resource_type": "OS::A"}, "requires")
    assert "resource_type is not allowed in requires" in str(caught.value)


@pytest.mark.parametrize(
    ("template", "required", "matched"),
    [
        ({"deployment": ("puppet",)}, {"deployment": ("puppet",)}, True),
        ({"deployment": ("docker",)}, {"deployment": ("puppet",)}, False),
        ({"deployment": ("puppet", "docker")}, {"deployment": ("puppet",)}, True),
        ({"deployment": ("puppet",)}, {"deployment": ("puppet", "ansible")}, True),
        ({"deployment": ("docker", "x")}, {"deployment": ("puppet", "ansible")}, False),
        ({}, {"deployment": ("puppet",)}, False),
        ({"deployment": ("puppet",), "extra": ("y",)}, {"deployment": ("puppet",)}, True),
        ({"a": ("1",), "b": ("2",)}, {"a": ("1",), "b": ("3",)}, False),
        ({"a": ("1",)}, {}, True),
    ],
)
def test_a_list_on_either_side_matches_when_they_share_a_member(template, required, matched):
    assert evaluate(template, required)[0] is matched


def test_a_type_based_annotation_limits_the_types():
    caps = {"resource_type": ("OS::TripleO::ControllerPostDeployment", "OS::TripleO::X")}
    assert evaluate(caps, {}, "OS::TripleO::X")[0]
    matched, reasons = evaluate(caps, {}, "OS::TripleO::Compute")
    assert not matched
    assert reasons[0] == (
        "resource_type is [OS::TripleO::ControllerPostDeployment, OS::TripleO::X], not "
        "OS::TripleO::Compute"
    )
    assert evaluate({"deployment": ("puppet",)}, {}, "OS::Anything")[0]  # no types: any type


@given(
    st.dictionaries(st.sampled_from("abc"), st.sets(st.sampled_from("xyz"), min_size=1)),
    st.dictionaries(st.sampled_from("abc"), st.sets(st.sampled_from("xyz"), min_size=1)),
)
def test_matching_is_set_intersection_per_required_key(template, required):
    caps = {k: tuple(sorted(v)) for k, v in template.items()}
    wanted = {k: tuple(sorted(v)) for k, v in required.items()}
    expected = all(key in template and template[key] & values for key, values in required.items())
    matched, reasons = evaluate(caps, wanted)
    assert matched is bool(expected)
    assert len(reasons) == max(len(required), 1)


# --- The seed's examples -------------------------------------------------------------------------


def test_find_returns_both_controllers(seed):
    result = api.find(
        ["./docker", "./puppet"], {"resource_type": "OS::TripleO::Controller"}, recursive=True
    )
    assert result.matches == ("docker/controller.yaml", "puppet/controller.yaml")
    assert result.problems == ()


def test_find_with_several_constraints(seed):
    result = api.find(
        ["puppet/controller.yaml", "docker/controller.yaml"],
        [("deployment", "puppet"), ("resource_type", "OS::TripleO::Controller")],
    )
    assert result.matches == ("puppet/controller.yaml",)
    assert api.find(["."], {"deployment": "chef"}, recursive=True).matches == ()


def test_find_without_recursion_skips_directories(seed):
    result = api.find(["puppet"], {"deployment": "puppet"})
    assert result.matches == ()
    assert [str(p) for p in result.problems] == ["puppet: is a directory (scan it with -r)"]


def test_the_two_summaries_of_the_seed(seed):
    result = api.summary(["puppet/controller.yaml", "docker/controller.yaml"])
    assert result.to_dict() == {
        "labels": {"deployment": ["docker", "puppet"]},
        "resource_types": {
            "OS::TripleO::Controller": ["docker/controller.yaml", "puppet/controller.yaml"]
        },
        "problems": [],
    }


def test_the_seed_resolves_to_puppet(seed):
    resolution = api.resolve(["environment.yaml"])
    registry = resolution.environment["resource_registry"]
    assert registry == {"OS::TripleO::Controller": str(seed / "puppet" / "controller.yaml")}
    assert "requires" not in resolution.environment
    assert resolution.requires == {"deployment": ("puppet",)}
    (decision,) = resolution.decisions
    assert decision.chosen.path == "puppet/controller.yaml"
    assert decision.line == 6
    assert resolution.annotated == ("puppet/controller.yaml",)
    heat_accepts_environment(resolution.to_yaml())
    assert check_heat_environment(resolution.environment) == []


def test_a_later_environment_changes_the_choice(seed):
    resolution = api.resolve(["environment.yaml", "docker.yaml"])
    assert resolution.environment["resource_registry"]["OS::TripleO::Controller"].endswith(
        "docker/controller.yaml"
    )
    (decision,) = resolution.decisions
    assert decision.environment == "environment.yaml"  # where the list was written


def test_no_candidate_is_an_error_listing_each_candidate_and_why(seed):
    with pytest.raises(ResolutionError) as caught:
        api.resolve(["ansible.yaml"])
    assert str(caught.value) == (
        "1 resource type could not be resolved:\n"
        "ansible.yaml:5: OS::TripleO::Controller: no candidate satisfies requires "
        "{deployment: ansible}:\n"
        "  puppet/controller.yaml (capabilities {deployment: puppet, resource_type: "
        "OS::TripleO::Controller}): does not match: deployment: puppet does not match ansible; "
        "resource_type names OS::TripleO::Controller\n"
        "  docker/controller.yaml (capabilities {deployment: docker, resource_type: "
        "OS::TripleO::Controller}): does not match: deployment: docker does not match ansible; "
        "resource_type names OS::TripleO::Controller"
    )
    (decision,) = caught.value.failed
    assert [c.matched for c in decision.candidates] == [False, False]


def test_two_candidates_is_an_error_naming_the_keys_that_tell_them_apart(seed):
    with pytest.raises(ResolutionError) as caught:
        api.resolve(["any.yaml"])
    message = str(caught.value)
    assert message.startswith(
        "1 resource type could not be resolved:\n"
        "any.yaml:2: OS::TripleO::Controller: 2 candidates satisfy the requires of the "
        "environments (there are none), and exactly one must; add a requires key on which they "
        "differ (deployment):\n"
    )
    assert "  puppet/controller.yaml (capabilities {deployment: puppet, " in message
    assert "  docker/controller.yaml (capabilities {deployment: docker, " in message
    assert message.count(": matches: ") == 2


def test_the_written_directory_is_heat_valid(seed, tmp_path):
    resolution = api.resolve(["environment.yaml"])
    out = tmp_path / "out"
    written = api.write_resolution(resolution, out)
    assert written.files == ("puppet/controller.yaml", "scripts/first-boot.sh")
    assert written.stripped == ("puppet/controller.yaml",)
    assert Path(written.root) == seed
    environment_text = (out / "environment.yaml").read_text()
    heat_accepts_environment(environment_text)
    assert yaml.safe_load(environment_text) == {
        "resource_registry": {"OS::TripleO::Controller": "puppet/controller.yaml"}
    }
    copy = load(out / "puppet" / "controller.yaml")
    assert set(copy.data) <= HOT_SECTIONS
    original = load(seed / "puppet" / "controller.yaml").data
    assert copy.data == {k: v for k, v in original.items() if k != "capabilities"}
    # Only the lines of the section are gone: the rest of the text is untouched.
    assert copy.text.startswith("heat_template_version: 2015-10-15\n\ndescription: The controller")
    assert "\n\n\n" not in copy.text
    assert (out / "scripts" / "first-boot.sh").read_bytes() == (
        seed / "scripts" / "first-boot.sh"
    ).read_bytes()


def test_writing_refuses_a_directory_that_has_files(seed, tmp_path):
    resolution = api.resolve(["environment.yaml"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(OutputError) as caught:
        api.write_resolution(resolution, out)
    assert caught.value.usage
    written = api.write_resolution(resolution, out, overwrite=True)
    assert (out / "keep.txt").read_text() == "mine"
    assert Path(written.environment).is_file()


def test_writing_never_follows_a_link_out_of_the_directory(seed, tmp_path):
    resolution = api.resolve(["environment.yaml"])
    out = tmp_path / "out"
    outside = tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (out / "puppet").symlink_to(outside)
    with pytest.raises(OutputError) as caught:
        api.write_resolution(resolution, out, overwrite=True)
    assert "symbolic link" in str(caught.value)
    assert list(outside.iterdir()) == []


def test_a_reference_that_escapes_the_root_is_reported(seed, tmp_path):
    template = seed / "puppet" / "controller.yaml"
    template.write_text(
        template.read_text().replace("../scripts/first-boot.sh", "../../secret.txt")
    )
    (tmp_path / "secret.txt").write_text("secret")
    resolution = api.resolve(["environment.yaml"])
    with pytest.raises(OutputError) as caught:
        api.write_resolution(resolution, tmp_path / "out")
    (problem,) = caught.value.problems
    assert problem.startswith("puppet/controller.yaml:19: get_file '../../secret.txt' names ")
    assert "which lies outside" in problem
    assert not (tmp_path / "out").exists()
    # A root that holds it is the user's explicit choice.
    written = api.write_resolution(resolution, tmp_path / "out", root=tmp_path)
    assert "secret.txt" in written.files


def test_a_missing_reference_is_reported(seed, tmp_path):
    (seed / "scripts" / "first-boot.sh").unlink()
    resolution = api.resolve(["environment.yaml"])
    with pytest.raises(OutputError) as caught:
        api.write_resolution(resolution, tmp_path / "out")
    assert "which does not exist" in caught.value.problems[0]


# --- Environments and merging --------------------------------------------------------------------


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def template(name: str, **capabilities: object) -> str:
    body = "heat_template_version: 2016-04-08\n"
    if capabilities:
        body += yaml.safe_dump({"capabilities": capabilities}, default_flow_style=False)
    return body + "resources: {}\n"


def test_paths_are_relative_to_each_environment_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "t" / "a.yaml", template("a", deployment="puppet"))
    write(tmp_path / "t" / "b.yaml", template("b", deployment="docker"))
    write(
        tmp_path / "envs" / "deep" / "one.yaml",
        "requires: {deployment: docker}\n"
        "resource_registry:\n  OS::X: [../../t/a.yaml, ../../t/b.yaml]\n"
        "  OS::Y: ../../t/a.yaml\n  OS::Z: OS::Heat::None\n",
    )
    resolution = api.resolve(["envs/deep/one.yaml"])
    registry = resolution.environment["resource_registry"]
    assert registry == {
        "OS::X": str(tmp_path / "t" / "b.yaml"),
        "OS::Y": str(tmp_path / "t" / "a.yaml"),
        "OS::Z": "OS::Heat::None",
    }


def test_environments_merge_as_the_heat_client_merges_them(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.yaml", template("a", deployment="puppet", ha="yes"))
    write(tmp_path / "b.yaml", template("b", deployment="puppet", ha="no"))
    write(
        tmp_path / "first.yaml",
        "requires: {deployment: puppet, ha: 'yes'}\n"
        "parameters: {A: 1, B: 2}\n"
        "parameter_defaults: {Nested: {x: 1, y: 2}}\n"
        "resource_registry:\n"
        "  OS::Pick: [a.yaml, b.yaml]\n"
        "  OS::Gone: a.yaml\n"
        "  resources:\n    srv:\n      hooks: [pre-create, pre-update]\n"
        "event_sinks: [{type: zaqar-queue, target: one}]\n",
    )
    write(
        tmp_path / "sub" / "second.yaml",
        "requires: {ha: 'no'}\n"
        "parameters: {B: 3}\n"
        "parameter_defaults: {Nested: {y: 3}}\n"
        "resource_registry:\n"
        "  OS::Gone: null\n"
        "  resources:\n    srv:\n      restricted_actions: replace\n"
        "event_sinks: [{type: zaqar-queue, target: two}]\n",
    )
    resolution = api.resolve(["first.yaml", "sub/second.yaml"])
    environment = resolution.environment
    assert resolution.requires == {"deployment": ("puppet",), "ha": ("no",)}
    assert environment["parameters"] == {"A": 1, "B": 3}
    assert environment["parameter_defaults"] == {"Nested": {"x": 1, "y": 3}}
    assert environment["event_sinks"] == [{"type": "zaqar-queue", "target": "two"}]
    registry = environment["resource_registry"]
    assert registry["OS::Pick"] == str(tmp_path / "b.yaml")
    assert registry["OS::Gone"] is None  # removes the mapping, as in Heat's registry
    assert registry["resources"] == {
        "srv": {"hooks": ["pre-create", "pre-update"], "restricted_actions": "replace"}
    }
    heat_accepts_environment(resolution.to_yaml())


def test_deep_update_is_the_heat_clients():
    old = {"a": {"x": 1}, "b": 1, "c": {"y": 2}}
    assert deep_update(old, {"a": {"z": 2}, "b": None, "c": None, "d": [1]}) == {
        "a": {"x": 1, "z": 2},
        "b": None,
        "c": {"y": 2},  # a null never replaces a mapping
        "d": [1],
    }


def test_base_url_is_honoured_and_dropped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "lib" / "a.yaml", template("a", deployment="puppet"))
    write(tmp_path / "lib" / "b.yaml", template("b", deployment="docker"))
    write(
        tmp_path / "env.yaml",
        "requires: {deployment: puppet}\n"
        "resource_registry:\n  base_url: lib\n  OS::X: [a.yaml, b.yaml]\n",
    )
    registry = api.resolve(["env.yaml"]).environment["resource_registry"]
    assert registry == {"OS::X": str(tmp_path / "lib" / "a.yaml")}


def test_lists_in_per_resource_entries_resolve_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.yaml", template("a", deployment="puppet", resource_type="OS::Nova::Server"))
    write(tmp_path / "b.yaml", template("b", deployment="puppet", resource_type="OS::Other"))
    write(
        tmp_path / "env.yaml",
        "requires: {deployment: puppet}\n"
        "resource_registry:\n  resources:\n    my_server:\n"
        "      OS::Nova::Server: [a.yaml, b.yaml]\n      hooks: pre-create\n",
    )
    resolution = api.resolve(["env.yaml"])
    assert resolution.environment["resource_registry"]["resources"]["my_server"] == {
        "OS::Nova::Server": str(tmp_path / "a.yaml"),
        "hooks": "pre-create",
    }
    (decision,) = resolution.decisions
    assert decision.name == "resources/my_server/OS::Nova::Server"
    assert decision.candidates[1].reasons[0] == "resource_type is OS::Other, not OS::Nova::Server"


def test_a_broken_candidate_makes_the_list_unresolvable(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.yaml", template("a", deployment="puppet"))
    write(tmp_path / "b.yaml", "heat_template_version: 2016-04-08\ncapabilities: {x: [}\n")
    write(tmp_path / "env.yaml", "resource_registry:\n  OS::X: [a.yaml, b.yaml, c.yaml]\n")
    write(tmp_path / "env2.yaml", "requires: {deployment: puppet}\n")
    with pytest.raises(ResolutionError) as caught:
        api.resolve(["env.yaml", "env2.yaml"])
    message = str(caught.value)
    assert "2 of the candidates cannot be read, so the choice cannot be made" in message
    assert "  b.yaml: cannot be used: b.yaml:2: not valid YAML:" in message
    assert "  c.yaml: cannot be used: c.yaml: cannot read the file:" in message


def test_a_type_name_candidate_declares_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.yaml", template("a", deployment="puppet"))
    write(
        tmp_path / "env.yaml",
        "requires: {deployment: puppet}\nresource_registry:\n  OS::X: [OS::Heat::None, a.yaml]\n",
    )
    resolution = api.resolve(["env.yaml"])
    assert resolution.environment["resource_registry"]["OS::X"] == str(tmp_path / "a.yaml")
    none = resolution.decisions[0].candidates[0]
    assert none.reasons[0] == "declares no deployment (requires puppet)"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("resources: {}\n", 1, 'environment has wrong section "resources"'),
        ("heat_template_version: 2015-10-15\n", 1, "this file is a template, not an environment"),
        ("parameters:\n", 1, 'environment has empty section "parameters"'),
        ("requires:\n  resource_type: OS::X\n", 2, "resource_type is not allowed in requires"),
        ("resource_registry: [a.yaml]\n", 1, "resource_registry must be a mapping, not a list"),
        ("resource_registry:\n  OS::X: 3\n", 2, "must be a template path, a resource type, null"),
        ("resource_registry:\n  OS::X: []\n", 2, "not a list"),
    ],
)
def test_malformed_environments_are_refused_in_heats_words(tmp_path, text, line, words):
    path = write(tmp_path / "env.yaml", text)
    with pytest.raises(CapabilitiesError) as caught:
        api.resolve([str(path)])
    assert caught.value.line == line
    assert words in str(caught.value)


def test_an_environment_that_cannot_be_loaded_is_a_load_error(tmp_path):
    path = write(tmp_path / "env.yaml", "- a list\n")
    with pytest.raises(LoadError):
        api.resolve([str(path)])


# --- Stripping -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "heat_template_version: 2015-10-15\ncapabilities:\n  a: b\nresources: {}\n",
        "heat_template_version: 2015-10-15\nresources: {}\ncapabilities: {a: b}\n",
        "heat_template_version: 2015-10-15\nresources: {}\ncapabilities:\n  a: b\n...\n",
        "# head\nheat_template_version: 2015-10-15\n\ncapabilities:\n  a: [b,\n    c]\n"
        "  # inside\n\n# about resources\nresources: {}\n",
        "{heat_template_version: 2015-10-15, capabilities: {a: b}, resources: {}}\n",
        '{"heat_template_version": "2015-10-15", "capabilities": {"a": "b"}, "resources": {}}',
        "'capabilities': {a: b}\nheat_template_version: 2015-10-15\n",
    ],
)
def test_stripping_removes_exactly_the_section(text):
    loaded = loads(text)
    stripped = api.strip_capabilities(loaded)
    assert loads(stripped).data == {k: v for k, v in loaded.data.items() if k != "capabilities"}
    if "# about resources" in text:
        assert "# about resources\nresources: {}" in stripped
        assert stripped.startswith("# head\n")


@given(
    st.dictionaries(
        st.sampled_from(["description", "parameters", "resources", "outputs"]),
        st.dictionaries(st.text("abc", min_size=1, max_size=3), st.text("xyz", max_size=3)),
    ),
    st.dictionaries(st.text("abc", min_size=1, max_size=3), st.text("xyz", min_size=1)),
    st.integers(0, 4),
)
def test_stripping_any_block_template(sections, capabilities, position):
    items = list(sections.items())
    items.insert(min(position, len(items)), ("capabilities", capabilities))
    document = {"heat_template_version": "2015-10-15", **dict(items)}
    text = yaml.safe_dump(document, sort_keys=False, default_flow_style=False)
    stripped = api.strip_capabilities(loads(text))
    assert loads(stripped).data == {k: v for k, v in document.items() if k != "capabilities"}


# --- Introspection details -----------------------------------------------------------------------


def test_scan_classifies_and_reports(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "t.yaml", template("t", deployment="puppet"))
    write(tmp_path / "bad.yaml", "heat_template_version: 2015-10-15\ncapabilities: [x]\n")
    write(tmp_path / "broken.yaml", "a: [\n")
    write(tmp_path / "env.yaml", "resource_registry: {OS::X: t.yaml}\n")
    write(tmp_path / "other.yml", "foo::bar: 1\n")
    write(tmp_path / "notes.txt", "ignored by -r\n")
    write(tmp_path / ".hidden" / "h.yaml", template("h"))
    result = api.scan(["."], recursive=True, cache=False)
    kinds = {record.path: record.kind for record in result.records}
    assert kinds == {
        "bad.yaml": "template",
        "broken.yaml": "other",  # met on the walk: not Heat's, and the scan goes on
        "env.yaml": "environment",
        "other.yml": "other",
        "t.yaml": "template",
    }
    (error,) = result.errors
    assert error.code == "invalid-section"
    assert error.location == Location("bad.yaml", 2, "capabilities")  # file, line, key path
    assert str(error).startswith(
        "bad.yaml:2: capabilities: the capabilities section must be a mapping"
    )
    broken = next(r for r in result.records if r.path == "broken.yaml")
    assert broken.detail.startswith("not a template or environment (not valid YAML:")
    assert [r.path for r in result.of_kind("template")] == ["t.yaml"]
    # Named explicitly, the same file is an error.
    (named,) = api.scan(["broken.yaml"], cache=False).records
    assert named.kind == "error"
    assert str(named.problems[0]).startswith("broken.yaml:2: not valid YAML:")


def test_implementations_are_normalised_per_environment():
    assert api.implementation("environments/docker.yaml", "../docker/x.yaml") == "docker/x.yaml"
    assert api.implementation("root.yaml", "docker/x.yaml") == "docker/x.yaml"
    assert api.implementation("e/x.yaml", "OS::Heat::None") == "OS::Heat::None"
    assert api.implementation("e/x.yaml", None) == "null"
    assert api.implementation("e/x.yaml", "https://h/t.yaml") == "https://h/t.yaml"
    assert api.implementation("e/x.yaml", "file:///abs/t.yaml") == "/abs/t.yaml"


def test_choices_reports_types_mapped_differently(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "root.yaml", "resource_registry:\n  OS::A: a/one.yaml\n  OS::B: b.yaml\n")
    write(
        tmp_path / "envs" / "x.yaml",
        "resource_registry:\n  OS::A: ../a/two.yaml\n  OS::B: ../b.yaml\n",
    )
    write(tmp_path / "envs" / "y.yaml", "resource_registry:\n  OS::A: [../a/one.yaml, c.yaml]\n")
    write(tmp_path / "t.yaml", template("t"))
    result = api.choices(["root.yaml", "envs/x.yaml", "envs/y.yaml", "t.yaml"])
    assert result.types == {
        "OS::A": {
            "a/one.yaml": ["envs/y.yaml", "root.yaml"],
            "a/two.yaml": ["envs/x.yaml"],
            "envs/c.yaml": ["envs/y.yaml"],
        }
    }
    assert [str(p) for p in result.problems] == [
        "t.yaml: is not an environment (heat_template_version: 2016-04-08)"
    ]


def test_display_paths_are_relative_below_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert api.display_path(str(tmp_path / "a" / "b.yaml")) == os.path.join("a", "b.yaml")
    assert api.display_path("/elsewhere/b.yaml") == "/elsewhere/b.yaml"
