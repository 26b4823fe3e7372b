"""The Glance metadefs: what Glance accepts, what the catalogue holds, what the cases expect.

Every check runs on the committed files as parsed from disk, so what is tested is what an operator
loads. Glance's own hand-kept files go through the same checks, to show that they catch real
faults and not only the ones this generator could make.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from onespec.definitions.extra_specs import namespaces
from onespec.definitions.model import ExtraSpec, Namespace, Parameter, Status, Support, Value
from onespec.definitions.registry import in_tree
from onespec.generator.extra_specs import metadefs
from onespec.generator.extra_specs.glance_rules import (
    FLAVOR,
    IMAGE,
    METADEF_SCHEMA,
    NAME_LIMIT,
    NAMESPACE_DESCRIPTION_LIMIT,
    VOLUME,
    MetadefError,
    check_document,
    cross_file_problems,
    flavor_properties,
    problems,
    schema_errors,
)
from onespec.generator.extra_specs.metadefs import (
    DEPRECATED_TITLE,
    EXPANSIONS,
    IMAGE_KEYS,
    LEFT_OUT,
    keys_of,
    render_texts,
)
from onespec.validators_runtime.cli import cli
from onespec.validators_runtime.extra_specs import ExtraSpecValidationError, validate
from tests import peers
from tests.conftest import CASES
from tests.generator.metadef_engine import check_value, find_property

GLANCE = peers.peer("glance")
#: Glance's own hand-kept catalogue, as its package installs it.
CATALOGUE = GLANCE.location / "etc" / "glance" / "metadefs"
CATALOGUE_NAMES = (
    sorted(path.name for path in CATALOGUE.glob("*.json"))
    if peers.is_provided(GLANCE)
    else ["glance-not-provided"]
)


def catalogue() -> Path:
    """Glance's catalogue folder (skips, or fails under CI, when Glance is not provided)."""
    peers.require("glance")
    return CATALOGUE


COMMITTED = sorted(
    metadefs.OUTPUT_DIR.glob(f"{metadefs.FILE_PREFIX}*.json")
)  # the extra-spec files
FILES = {path.name: metadefs.loads(path.read_text(encoding="utf-8")) for path in COMMITTED}
CASE_LIST = yaml.safe_load((CASES / "extra_specs.yaml").read_text(encoding="utf-8"))

#: What the checks find in Glance 33.0.0's own catalogue. Integer defaults come back from
#: Glance's API as strings, two files leave "visibility" unset, software-databases.json lists
#: two SQL Server editions twice and gives Oracle a default that is not one of its editions, and
#: two files define the same image properties. compute-vtpm.json's "traits:" prefix is not
#: flagged: it is well separated, and Nova reads it as the granular group "s" (see the case
#: file), so it works, if by accident.
CORPUS_PROBLEMS = {
    "compute-aggr-iops-filter.json": [
        "properties['max_io_ops_per_host']: default 8 is not a string; "
        "Glance hands it back as text",
    ],
    "glance-common-image-props.json": ["(top level): no 'visibility'; Glance stores NULL"],
    "operating-system.json": ["(top level): no 'visibility'; Glance stores NULL"],
    "compute-host-capabilities.json": [
        f"properties['cpu_info:topology:{name}']: default 1 is not a string; "
        "Glance hands it back as text"
        for name in ("cores", "threads", "sockets")
    ],
}
_DATABASE_PORTS = {
    0: ("mysql_listen_port", 3606),
    1: ("postgresql_listen_port", 5432),
    3: ("oracle_listen_port", 1521),
    4: ("db2_port", 5432),
    5: ("mongodb_listen_port", 27017),
    6: ("couchbaseserver_listen_port", 11211),
    7: ("redis_listen_port", 6379),
    8: ("couchdb_listen_port", 5984),
    9: ("cassandra_listen_port", 9160),
    11: ("hazlecast_port", 5701),
}
CORPUS_PROBLEMS["software-databases.json"] = sorted(
    [
        f"objects[{index}].properties['sw_database_{name}']: default {port} is not a string; "
        "Glance hands it back as text"
        for index, (name, port) in _DATABASE_PORTS.items()
    ]
    + [
        "objects[2].properties['sw_database_sqlserver_edition']: enum lists "
        "'Business Intelligence', 'Express' more than once",
        "objects[2].properties['sw_database_sqlserver_listen_port']: default 1433 is not a "
        "string; Glance hands it back as text",
        "objects[3].properties['sw_database_oracle_edition']: default 'Express' is not one of "
        "the enum values",
    ]
)
CORPUS_PROBLEMS["software-webservers.json"] = [
    f"objects[{index}].properties['sw_webserver_{server}_{scheme}_port']: default {port} is not "
    "a string; Glance hands it back as text"
    for index, server in enumerate(("apache", "nginx", "iis"))
    for scheme, port in (("http", 80), ("https", 443))
]
CORPUS_CROSS_FILE_PROBLEMS = [
    f"compute-vmware.json: OS::Glance::Image key {key!r} is also in compute-libvirt-image.json"
    for key in ("hw_vif_model", "hw_vif_multiqueue_enabled")
]

#: Cases on which the metadef engine and the runtime disagree, by design: the runtime caps every
#: value at 255 characters, but an integer property has no length constraint to carry that cap.
ENGINE_EXCEPTIONS = {("hw:numa_nodes", 256), ("quota:cpu_shares", 256)}


def validator() -> Draft202012Validator:
    Draft202012Validator.check_schema(METADEF_SCHEMA)
    return Draft202012Validator(METADEF_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)


def flavor_keys(files=FILES) -> Counter:
    return Counter(key for key, _, _ in flavor_properties(files))


def committed_by_key() -> dict[str, dict]:
    return {key: dict(schema) for key, _, schema in flavor_properties(FILES)}


# --- What Glance accepts -------------------------------------------------------------------------


def test_there_are_files_to_check():
    assert len(COMMITTED) == 13
    assert sum(flavor_keys().values()) == 538


@pytest.mark.parametrize("path", COMMITTED, ids=[path.name for path in COMMITTED])
def test_every_emitted_file_passes_the_schema_and_has_no_problems(path):
    document = FILES[path.name]
    validator().validate(document)
    assert problems(document) == []


def test_no_key_is_offered_twice_across_the_files():
    assert cross_file_problems(FILES) == []


def test_glance_catalogue_is_there():
    assert len(list(catalogue().glob("*.json"))) == 32


@pytest.mark.parametrize("name", CATALOGUE_NAMES)
def test_glance_catalogue_files_show_exactly_their_known_problems(name):
    document = metadefs.loads((catalogue() / name).read_text(encoding="utf-8"))
    assert list(validator().iter_errors(document)) == []
    assert sorted(problems(document)) == sorted(CORPUS_PROBLEMS.get(name, []))


def test_glance_catalogue_offers_two_image_properties_twice():
    files = {
        p.name: metadefs.loads(p.read_text(encoding="utf-8"))
        for p in sorted(catalogue().glob("*.json"))
    }
    assert sorted(cross_file_problems(files)) == sorted(CORPUS_CROSS_FILE_PROBLEMS)


def minimal(**properties) -> dict:
    return {
        "namespace": "OS::Test::Demo",
        "visibility": "public",
        "protected": True,
        "resource_type_associations": [{"name": FLAVOR, "prefix": "demo:"}],
        "properties": properties or {"key": {"title": "Key", "type": "string"}},
    }


def test_a_minimal_document_is_clean():
    assert schema_errors(minimal()) == []
    assert problems(minimal()) == []


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d["properties"]["key"].update(deprecated=True), "'deprecated' was unexpected"),
        (lambda d: d["properties"]["key"].pop("title"), "'title' is a required property"),
        (lambda d: d["properties"]["key"].update(enum=[1, 2]), "1 is not of type 'string'"),
        (lambda d: d["properties"]["key"].update(minimum=0.5), "0.5 is not of type 'integer'"),
        (lambda d: d["properties"]["key"].update(default=[1]), "is not of type"),
        (lambda d: d.update(description="x" * 501), "is too long"),
        (lambda d: d.update(namespace="N" * 81), "is too long"),
        (lambda d: d["resource_type_associations"][0].update(x=1), "'x' was unexpected"),
        (
            lambda d: d.update(objects=[{"name": "o", "properties": {}, "x": 1}]),
            "'x' was unexpected",
        ),
        (lambda d: d.update(tags=[{"name": "t", "x": 1}]), "'x' was unexpected"),
        (lambda d: d.update(extra=1), "'extra' was unexpected"),
        (lambda d: d["properties"]["key"].update(items={"enum": ["a"]}), "'type' is a required"),
    ],
)
def test_the_schema_refuses_what_wsme_refuses(change, fragment):
    document = minimal()
    change(document)
    assert any(fragment in error for error in schema_errors(document)), schema_errors(document)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d.pop("visibility"), "no 'visibility'"),
        (lambda d: d.pop("protected"), "no 'protected'"),
        (lambda d: d["resource_type_associations"][0].update(prefix="demo"), "must end in"),
        (lambda d: d["resource_type_associations"][0].update(prefix=""), "must end in"),
        (
            lambda d: d["resource_type_associations"].append({"name": FLAVOR, "prefix": "x:"}),
            "a second association",
        ),
        (
            lambda d: d["properties"]["key"].update(enum=["a", "b", "a"]),
            "enum lists 'a' more than once",
        ),
        (
            lambda d: d["properties"]["key"].update(enum=["a"], default="b"),
            "default 'b' is not one of the enum values",
        ),
        (lambda d: d["properties"]["key"].update(default=True), "not a string"),
        (lambda d: d["properties"]["key"].update(default="é"), "not ASCII"),
        (lambda d: d["properties"]["key"].update(pattern="(?P<x>a)"), "Python-only"),
        (lambda d: d["properties"]["key"].update(pattern="("), "does not compile"),
        (lambda d: d["properties"]["key"].update(minimum=2, maximum=1), "greater than maximum"),
        (lambda d: d["properties"].update({"k" * 81: {"title": "t", "type": "string"}}), "80"),
        (
            lambda d: d.update(
                objects=[{"name": "o", "required": ["key"], "properties": {"x": d["properties"]}}]
            ),
            "'required' is dropped",
        ),
        (lambda d: d.update(objects=[{"name": "o"}]), "without properties"),
        (
            lambda d: d.update(
                objects=[{"name": "o", "properties": {"key": d["properties"]["key"]}}]
            ),
            "the same name as properties['key']",
        ),
    ],
)
def test_problems_finds_what_a_schema_cannot_say(change, fragment):
    document = minimal()
    change(document)
    assert any(fragment in problem for problem in problems(document)), problems(document)


def test_duplicate_keys_in_the_text_are_refused():
    with pytest.raises(MetadefError, match="'a' appears twice"):
        metadefs.loads('{"a": 1, "a": 2}')


def test_a_bad_document_is_reported_with_its_file_and_key():
    document = minimal()
    document["properties"]["hide_hypervisor_id"] = {"title": "t", "type": "x", "deprecated": 1}
    with pytest.raises(MetadefError) as caught:
        check_document("onespec-compute-demo.json", document)
    message = str(caught.value)
    assert message.startswith("onespec-compute-demo.json: ")
    assert "properties.hide_hypervisor_id" in message
    assert "'deprecated' was unexpected" in message


# --- The catalogue, all of it, once --------------------------------------------------------------


def test_every_non_patterned_flavor_key_is_exactly_one_flavor_property():
    counts = flavor_keys()
    for definition in in_tree():
        if not definition.is_patterned:
            assert counts[definition.name] == 1, definition.name


def test_every_patterned_definition_is_expanded_or_left_out():
    counts = flavor_keys()
    for definition in (d for d in in_tree() if d.is_patterned):
        keys = keys_of(definition)
        if definition.name in LEFT_OUT:
            assert keys == ()
            continue
        assert keys, definition.name
        for parameter in definition.parameters:
            assert (definition.namespace, parameter.name) in EXPANSIONS
        for key in keys:
            assert counts[key.key] == 1, key.key


def test_the_runtime_knows_every_exported_flavor_key():
    for key in flavor_keys():
        try:
            validate({key: ""}, mode="strict")
        except ExtraSpecValidationError as exc:
            codes = {finding.code for finding in exc.findings}
            assert codes <= {"invalid-value", "deprecated"}, (key, codes)


def test_an_expansion_the_parameter_refuses_is_an_error(monkeypatch):
    monkeypatch.setitem(EXPANSIONS, ("hw", "id"), EXPANSIONS["hw", "id"]._replace(values=("-1",)))
    (definition,) = (d for d in in_tree() if d.name == "hw:numa_mem.{id}")
    with pytest.raises(MetadefError, match=r"'hw:numa_mem.\{id\}'.*\['-1'\]"):
        keys_of(definition)


def test_the_decision_tables_name_only_what_the_catalogue_has():
    names = {d.name: d for d in in_tree()}
    assert set(LEFT_OUT) <= {name for name, d in names.items() if d.is_patterned}
    assert set(names) >= IMAGE_KEYS
    assert all(names[key].namespace == "hw" for key in IMAGE_KEYS)
    used = {(d.namespace, p.name) for d in names.values() for p in d.parameters}
    assert set(EXPANSIONS) <= used


def test_the_files_offer_nothing_the_catalogue_does_not_define():
    expected = Counter(key.key for d in in_tree() for key in keys_of(d))
    assert flavor_keys() == expected


def test_numa_keys_are_enumerated_for_eight_nodes_in_objects():
    shared = FILES["onespec-compute-hw-shared.json"]
    names = [obj["name"] for obj in shared["objects"]]
    assert names == [f"NUMA node {n}" for n in range(8)]
    assert sorted(shared["objects"][3]["properties"]) == ["numa_cpus.3", "numa_mem.3"]
    assert find_property(FILES, "hw:numa_mem.7")["minimum"] == 1
    assert find_property(FILES, "hw:numa_cpus.8") is None


def test_the_aggregate_namespace_has_no_file():
    assert not any("aggregate" in name for name in FILES)
    assert LEFT_OUT["aggregate_instance_extra_specs:{key}"] == ""


def test_traits_and_resources_are_listed_ungrouped_with_their_values():
    assert find_property(FILES, "trait:HW_CPU_X86_AVX2")["enum"] == ["required", "forbidden"]
    assert find_property(FILES, "trait1:HW_CPU_X86_AVX2") is None
    assert find_property(FILES, "resources:VCPU") == {
        "title": "VCPU",
        "type": "integer",
        # No minimum: Nova's API takes a negative amount (its scheduler skips it).
        "description": find_property(FILES, "resources:VCPU")["description"],
    }
    assert find_property(FILES, "capabilities:cpu_info")["type"] == "string"


# --- Resource types and prefixes -----------------------------------------------------------------


def associations(document: dict) -> dict[str, dict]:
    return {a["name"]: a for a in document["resource_type_associations"]}


def test_only_the_listed_hw_keys_are_offered_to_images_and_volumes():
    for resource_type in (IMAGE, VOLUME):
        offered = {key for key, _, _ in flavor_properties(FILES, resource_type)}
        expected = {
            key.key.replace("hw:", "hw_", 1)
            for d in in_tree()
            if d.name in IMAGE_KEYS
            for key in keys_of(d)
        }
        assert offered == expected
    volume = associations(FILES["onespec-compute-hw-shared.json"])[VOLUME]
    assert volume == {"name": VOLUME, "prefix": "hw_", "properties_target": "image"}


def test_every_file_is_for_flavors_with_one_separated_prefix():
    for name, document in FILES.items():
        flavor = associations(document)[FLAVOR]
        prefix = flavor.get("prefix", "")
        assert prefix == "" or prefix[-1] in ":_", name
        assert (prefix == "") == (name == "onespec-compute-unprefixed.json")


def test_keys_without_a_namespace_have_a_namespace_without_a_prefix():
    assert "prefix" not in associations(FILES["onespec-compute-unprefixed.json"])[FLAVOR]
    assert find_property(FILES, "group_policy")["enum"] == ["isolate", "none"]


def test_names_and_keys_fit_glance_columns():
    for name, document in FILES.items():
        assert len(document["namespace"]) <= NAME_LIMIT
        assert len(document["display_name"]) <= NAME_LIMIT
        assert len(document["description"]) <= NAMESPACE_DESCRIPTION_LIMIT
        assert document["visibility"] == "public", name
        assert document["protected"] is True, name
    for resource_type in (FLAVOR, IMAGE, VOLUME):
        for key, _, _ in flavor_properties(FILES, resource_type):
            assert len(key) <= NAME_LIMIT, key


# --- Values --------------------------------------------------------------------------------------


def test_values_map_to_types_and_constraints():
    by_key = committed_by_key()
    assert by_key["hw:redirected_usb_ports"]["minimum"] == 0
    assert by_key["hw:redirected_usb_ports"]["maximum"] == 15
    assert by_key["hw:boot_menu"]["type"] == "boolean"
    assert by_key["hw:cpu_policy"]["enum"] == ["dedicated", "shared", "mixed"]
    assert by_key["pci_passthrough:alias"]["pattern"].startswith("^(?:")
    assert by_key["pci_passthrough:alias"]["pattern"].endswith(")$(?!\\n)")
    assert by_key["accel:device_profile"]["maxLength"] == 255


def test_only_string_defaults_are_emitted():
    by_key = committed_by_key()
    assert by_key["hw:cpu_policy"]["default"] == "shared"
    assert "default" not in by_key["hw_rng:allowed"]
    assert 'Default: "true".' in by_key["hw_rng:allowed"]["description"]
    for key, schema in by_key.items():
        if "default" in schema:
            assert isinstance(schema["default"], str), key


def test_descriptions_are_plain_text():
    for key, schema in committed_by_key().items():
        assert "``" not in schema["description"], key
        assert schema["title"], key


def test_deprecated_keys_are_marked_in_title_and_description():
    by_key = committed_by_key()
    deprecated = [d for d in in_tree() if d.deprecated]
    assert [d.name for d in deprecated] == ["hide_hypervisor_id"]
    for definition in deprecated:
        schema = by_key[definition.name]
        assert schema["title"].startswith(DEPRECATED_TITLE)
        first = schema["description"].split("\n\n", 1)[0]
        # The same wording as the reference and the runtime's warning.
        assert first == (
            "This extra spec is deprecated since 21.0.0 (Ussuri). "
            'Use "hw:hide_hypervisor_id" instead.'
        )
    marked = {key for key, s in by_key.items() if s["title"].startswith(DEPRECATED_TITLE)}
    assert marked == {d.name for d in deprecated}


# --- The metadef engine against the shared cases -------------------------------------------------


def mapped_cases() -> list[dict]:
    return [case for case in CASE_LIST if find_property(FILES, case["key"]) is not None]


MAPPED = mapped_cases()


def test_most_cases_map_to_a_property():
    assert len(MAPPED) == 496


def test_no_unknown_or_invalid_key_maps_to_a_property():
    for case in MAPPED:
        assert case["expect"] in {"valid", "deprecated", "invalid-value"}, case


@pytest.mark.parametrize("case", MAPPED, ids=[f"{c['key']}={c['value'][:40]}" for c in MAPPED])
def test_the_engine_agrees_with_the_runtime(case):
    verdict = check_value(find_property(FILES, case["key"]), case["value"])
    expected = case["expect"] != "invalid-value"
    if (case["key"], len(case["value"])) in ENGINE_EXCEPTIONS:
        assert verdict is not expected
    else:
        assert verdict is expected


def test_every_engine_exception_is_still_a_case():
    present = {(case["key"], len(case["value"])) for case in MAPPED}
    assert present >= ENGINE_EXCEPTIONS


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        ({"type": "integer", "minimum": 1}, " 2 ", True),
        ({"type": "integer", "minimum": 1}, "0", False),
        ({"type": "integer", "maximum": 15}, "0xf", False),
        ({"type": "boolean"}, " Yes ", True),
        ({"type": "boolean"}, "00", False),
        ({"type": "string", "enum": ["a"]}, "a ", False),
        ({"type": "string", "pattern": "^(?:a+)$"}, "aa", True),
        ({"type": "string", "pattern": "^(?:a+)$"}, "aa\n", False),  # ECMA "$": no newline
        ({"type": "string", "maxLength": 2}, "abc", False),
    ],
)
def test_check_value_applies_each_constraint(schema, value, expected):
    assert check_value(schema, value) is expected


def test_check_value_refuses_a_type_it_has_no_rule_for():
    with pytest.raises(ValueError, match="'array'"):
        check_value({"type": "array"}, "x")


# --- Determinism and drift -----------------------------------------------------------------------


def test_rendering_is_deterministic_and_matches_the_committed_files():
    first = render_texts(in_tree(), namespaces())
    assert first == render_texts(in_tree(), namespaces())
    assert sorted(first) == [path.name for path in COMMITTED]
    for path in COMMITTED:
        assert path.read_text(encoding="utf-8") == first[path.name], (
            f"{path.name} is stale: run `onespec generate metadefs`"
        )


def test_files_are_canonical_text():
    for path in COMMITTED:
        text = path.read_text(encoding="utf-8")
        assert text.endswith("}\n") and not text.endswith("\n\n")
        assert text.startswith('{\n  "description": ')
        assert text == metadefs.dumps(json.loads(text))


def test_each_checked_document_is_what_its_text_reads_back_as():
    """The checks run on the documents, not on their text parsed again: that is sound only while
    a document holds JSON's own types (a tuple or a number as a key would read back otherwise)."""
    documents = metadefs.checked_documents(in_tree(), namespaces())
    for name, text in render_texts(in_tree(), namespaces()).items():
        assert metadefs.loads(text) == documents[name], name


def test_properties_keep_catalogue_order():
    names = list(FILES["onespec-compute-hw.json"]["properties"])
    catalogue = [d.name[3:] for d in in_tree() if d.namespace == "hw" and d.name not in IMAGE_KEYS]
    assert names == catalogue


def test_generate_check_passes_on_the_committed_files():
    result = CliRunner().invoke(cli, ["generate", "metadefs", "--check"])
    assert result.exit_code == 0, result.output


def test_generate_check_reports_drift_and_stale_files(tmp_path, monkeypatch):
    copy = tmp_path / "glance-metadefs"
    shutil.copytree(metadefs.OUTPUT_DIR, copy)
    (copy / "onespec-compute-os.json").write_text("{}\n", encoding="utf-8")
    (copy / "onespec-compute-gone.json").write_text("{}\n", encoding="utf-8")
    monkeypatch.setattr(metadefs, "OUTPUT_DIR", copy)
    result = CliRunner().invoke(cli, ["generate", "metadefs", "--check"])
    assert result.exit_code != 0
    assert "onespec-compute-os.json" in result.output
    assert "onespec-compute-gone.json" in result.output


# --- Limits on unusual definitions ---------------------------------------------------------------


def demo_namespace(description: str) -> Namespace:
    return Namespace("demo", "Demo", description)


def test_a_long_description_still_fits_glance_limits():
    sentence = "This sentence is here to make the description long enough to be cut. "
    namespace = demo_namespace(sentence * 20 + "\n\nA second paragraph that moves to each key.")
    definition = ExtraSpec(
        name="demo:key_" + "x" * 60,
        description=sentence * 200,
        value=Value(type=str, enum=("a", "b"), default="a"),
    )
    texts = render_texts([definition], [namespace])
    document = json.loads(texts["onespec-compute-demo.json"])
    assert len(document["description"]) <= NAMESPACE_DESCRIPTION_LIMIT
    assert document["description"].endswith("cut.")
    (schema,) = document["properties"].values()
    assert len(schema["description"]) > 10_000
    assert schema["description"].endswith("A second paragraph that moves to each key.")


def test_a_single_overlong_sentence_is_cut_at_a_word():
    namespace = demo_namespace("word " * 300)
    definition = ExtraSpec(name="demo:key", description="d", value=Value(type=int))
    document = json.loads(render_texts([definition], [namespace])["onespec-compute-demo.json"])
    assert document["description"].endswith("word...")
    assert len(document["description"]) <= NAMESPACE_DESCRIPTION_LIMIT


def test_a_key_longer_than_a_glance_column_is_refused_with_its_name():
    definition = ExtraSpec(name="demo:" + "k" * 81, description="d", value=Value(type=bool))
    with pytest.raises(MetadefError, match=r"onespec-compute-demo\.json: .*'k{81}'"):
        render_texts([definition], [demo_namespace("Demo keys.")])


def test_an_unplanned_pattern_must_be_decided():
    definition = ExtraSpec(
        name="demo:{thing}",
        description="d",
        value=Value(type=str),
        parameters=(Parameter("thing"),),
    )
    with pytest.raises(MetadefError, match=r"'demo:\{thing\}'.*EXPANSIONS.*LEFT_OUT"):
        keys_of(definition)


def test_a_deprecation_names_release_replacement_and_removal():
    definition = ExtraSpec(
        name="demo:old",
        description="Old.",
        value=Value(type=bool),
        status=Status(Support.DEPRECATED, since="30.0.0", replacement="demo:new", removal="32.0.0"),
    )
    document = json.loads(
        render_texts([definition], [demo_namespace("Demo.")])["onespec-compute-demo.json"]
    )
    schema = document["properties"]["old"]
    assert schema["title"] == "DEPRECATED: Old"
    assert schema["description"].startswith(
        "This extra spec is deprecated since 30.0.0 (2024.2 Dalmatian) and will be removed in "
        '32.0.0 (2025.2 Flamingo). Use "demo:new" instead.'
    )
