"""The definitions vocabulary: the seed shape, name templates, malformed definitions, coercion."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from onespec.definitions.model import (
    MAX_LENGTH,
    DefinitionError,
    EnumMember,
    ExtraSpec,
    LiteralText,
    Namespace,
    Parameter,
    Status,
    Support,
    UnlistedKeyHint,
    Value,
    segments_text,
)
from onespec.definitions.nova_shape import ExtraSpecValidator, coerce_definition

CPU_LIST = r"\^?\d+((-\d+)?(,\^?\d+(-\d+)?)?)*"


def numa_nodes(value_type: Any = int) -> ExtraSpec:
    """The first example of the specification, as written there."""
    return ExtraSpecValidator(
        name="hw:numa_nodes",
        description=(
            "The number of virtual NUMA nodes to allocate to configure the guest with. Each "
            "virtual NUMA node will be mapped to a unique host NUMA node. Only supported by the "
            "libvirt virt driver."
        ),
        value={
            "type": value_type,
            "description": "The number of virtual NUMA nodes to allocate",
            "min": 1,
        },
    )


def numa_cpu(value_type: Any = str, parameter_type: Any = int) -> ExtraSpec:
    """The second example of the specification, as written there."""
    return ExtraSpecValidator(
        name="hw:numa_cpu.{id}",
        description=(
            "A mapping of **guest** CPUs to the **guest** NUMA node identified by ``{id}``."
        ),
        parameters=[
            {
                "name": "id",
                "type": parameter_type,
                "description": "The ID of the **guest** NUMA node.",
            },
        ],
        value={
            "type": value_type,
            "description": "The guest CPUs, in the form of a CPU map.",
            "pattern": CPU_LIST,
        },
    )


# --- The seed shape ----------------------------------------------------------------------------


def test_seed_shape_builds_numa_nodes():
    spec = numa_nodes()
    assert isinstance(spec, ExtraSpec)
    assert spec.name == "hw:numa_nodes"
    assert spec.namespace == "hw"
    assert spec.description.startswith("The number of virtual NUMA nodes")
    assert isinstance(spec.value, Value)
    assert spec.value.type is int
    assert spec.value.min == 1
    assert spec.value.max is None
    assert spec.value.description == "The number of virtual NUMA nodes to allocate"
    assert spec.parameters == ()
    assert not spec.is_patterned
    assert spec.status == Status()
    assert spec.status.level is Support.SUPPORTED
    assert not spec.deprecated


def test_seed_shape_builds_numa_cpu_with_an_int_parameter():
    spec = numa_cpu()
    assert spec.name == "hw:numa_cpu.{id}"
    assert spec.namespace == "hw"
    assert spec.is_patterned
    assert spec.value.type is str
    assert spec.value.pattern == CPU_LIST
    (parameter,) = spec.parameters
    assert isinstance(parameter, Parameter)
    assert parameter.name == "id"
    assert parameter.type is int
    assert parameter.description == "The ID of the **guest** NUMA node."
    assert parameter.regex == "[0-9]+"
    regex = re.compile(spec.name_regex())
    match = regex.fullmatch("hw:numa_cpu.12")
    assert match is not None
    assert match.group("id") == "12"
    assert regex.fullmatch("hw:numa_cpu.x") is None


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (int, int),
        ("int", int),
        ("integer", int),
        (str, str),
        ("str", str),
        ("string", str),
        (bool, bool),
        ("bool", bool),
        ("boolean", bool),
    ],
)
def test_value_type_given_as_object_or_name(given, expected):
    spec = ExtraSpecValidator(name="hw:x", value={"type": given})
    assert spec.value.type is expected


def test_type_names_and_type_objects_give_equal_definitions():
    assert numa_nodes("int") == numa_nodes(int)
    assert numa_nodes("integer") == numa_nodes(int)
    assert numa_cpu("str", "int") == numa_cpu(str, int)


def test_seed_deprecated_flag_marks_the_spec_deprecated():
    spec = ExtraSpecValidator(name="hide_x", value={"type": bool}, deprecated=True)
    assert spec.deprecated
    assert spec.status.level is Support.DEPRECATED


def test_seed_enum_members_become_enum_member_objects():
    spec = ExtraSpecValidator(
        name="hw:policy",
        value={
            "type": str,
            "enum": ["plain", ("pair", "a pair"), {"value": "mapped", "description": "a map"}],
        },
    )
    assert spec.value.enum == (
        EnumMember("plain"),
        EnumMember("pair", "a pair"),
        EnumMember("mapped", "a map"),
    )
    assert spec.value.enum_values == ("plain", "pair", "mapped")


def test_seed_takes_extra_spec_fields_as_keywords():
    spec = ExtraSpecValidator(
        name="hw:x",
        value={"type": int},
        virt_drivers=["libvirt"],
        status=Status(Support.EXPERIMENTAL, since="30.0.0"),
    )
    assert spec.virt_drivers == ("libvirt",)
    assert spec.status.level is Support.EXPERIMENTAL


def test_seed_rejects_unknown_extra_spec_fields():
    with pytest.raises(DefinitionError) as info:
        ExtraSpecValidator(name="hw:x", value={"type": int}, virt_driver=["libvirt"])
    assert info.value.name == "hw:x"
    assert "virt_driver" in str(info.value)


# --- Name templates ----------------------------------------------------------------------------


def numa_cpus() -> ExtraSpec:
    return ExtraSpec(
        name="hw:numa_cpus.{id}",
        description="CPUs of a guest NUMA node.",
        value=Value(type=str, pattern=CPU_LIST),
        parameters=(Parameter("id", int, min=0),),
    )


@pytest.mark.parametrize("key", ["hw:numa_cpus.0", "hw:numa_cpus.7", "hw:numa_cpus.123"])
def test_name_regex_matches_the_literal_template(key):
    assert re.fullmatch(numa_cpus().name_regex(), key)


@pytest.mark.parametrize(
    "key",
    [
        "hw:numa_cpus_0",  # Nova's unescaped '.' let these through
        "hw:numa_cpusX0",
        "hw:numa_cpus-1",
        "hw:numa_cpus.",
        "hw:numa_cpus.a",
        "hw:numa_cpus.0.1",
        "xhw:numa_cpus.0",
    ],
)
def test_name_regex_escapes_literal_text(key):
    assert re.fullmatch(numa_cpus().name_regex(), key) is None


def test_name_regex_escapes_the_regex_metacharacters_a_key_may_hold():
    spec = ExtraSpecValidator(name="x:a.b-c d.{p}", value={"type": str}, parameters=[{"name": "p"}])
    regex = re.compile(spec.name_regex())
    assert regex.fullmatch("x:a.b-c d.value")
    assert regex.fullmatch("x:aXb-c dXvalue") is None
    assert regex.fullmatch("x:ab") is None


@pytest.mark.parametrize(
    "name", ["x:a\nb", "x:a\x00", "x:a+b", "x:(d)", "x:a\tb", "x:é", "x:a/b", "x:a\u2028b"]
)
def test_a_name_holding_what_the_api_refuses_in_a_key_is_refused(name):
    with pytest.raises(DefinitionError, match="Nova's API refuses in a key"):
        ExtraSpec(name=name, description="", value=Value(type=str))


def test_a_name_may_hold_every_character_the_api_allows_in_a_key():
    ExtraSpec(name="Ab9_:. -z", description="", value=Value(type=str))


def test_name_regex_names_each_parameter_group():
    spec = ExtraSpecValidator(
        name="trait{group}:CUSTOM_{trait}",
        value={"type": str, "enum": ["required", "forbidden"]},
        parameters=[
            {"name": "group", "pattern": "[a-zA-Z0-9_-]*"},
            {"name": "trait", "pattern": "[A-Z0-9_]+"},
        ],
    )
    match = re.fullmatch(spec.name_regex(), "trait_NET1:CUSTOM_PHYSNET_A")
    assert match is not None
    assert match.groupdict() == {"group": "_NET1", "trait": "PHYSNET_A"}
    assert re.fullmatch(spec.name_regex(), "trait:CUSTOM_lower") is None


def test_string_parameter_by_default_matches_anything_but_a_colon():
    spec = ExtraSpecValidator(name="agg:{key}", value={"type": str}, parameters=[{"name": "key"}])
    assert re.fullmatch(spec.name_regex(), "agg:anything-at.all")
    assert re.fullmatch(spec.name_regex(), "agg:a:b") is None


def test_namespace_is_derived_without_parameters():
    spec = ExtraSpecValidator(
        name="trait{group}:CUSTOM_{trait}",
        value={"type": str},
        parameters=[{"name": "group"}, {"name": "trait"}],
    )
    assert spec.namespace == "trait"
    assert spec.key_prefix == (LiteralText("trait"), spec.parameters[0])
    assert spec.key_rest == (LiteralText("CUSTOM_"), spec.parameters[1])
    assert segments_text(spec.key_prefix) == "trait{group}"
    assert segments_text(spec.key_rest) == "CUSTOM_{trait}"


def test_a_name_without_a_colon_has_the_unnamed_namespace():
    spec = ExtraSpecValidator(name="hide_hypervisor_id", value={"type": bool})
    assert spec.namespace == ""
    assert spec.key_prefix == ()
    assert spec.key_rest == (LiteralText("hide_hypervisor_id"),)


def test_key_prefix_and_rest_split_at_the_first_colon():
    spec = ExtraSpecValidator(
        name="capabilities:cpu_info{filter}",
        value={"type": str},
        parameters=[{"name": "filter", "pattern": r"(:\w+)*"}],
    )
    assert spec.namespace == "capabilities"
    assert segments_text(spec.key_prefix) == "capabilities"
    assert segments_text(spec.key_rest) == "cpu_info{filter}"

    nested = ExtraSpecValidator(name="a:b:c", value={"type": str})
    assert nested.namespace == "a"
    assert nested.key_prefix == (LiteralText("a"),)
    assert nested.key_rest == (LiteralText("b:c"),)


def test_rest_may_be_a_lone_parameter():
    spec = ExtraSpecValidator(
        name="aggregate_instance_extra_specs:{key}",
        value={"type": str},
        parameters=[{"name": "key", "pattern": ".+"}],
    )
    assert spec.namespace == "aggregate_instance_extra_specs"
    assert spec.key_rest == (spec.parameters[0],)


def test_an_explicit_namespace_overrides_the_derived_one():
    spec = ExtraSpecValidator(name="hw:x", value={"type": int}, namespace="hardware")
    assert spec.namespace == "hardware"


def test_a_name_of_exactly_the_maximum_length_is_accepted():
    name = "hw:" + "a" * (MAX_LENGTH - 3)
    assert len(ExtraSpecValidator(name=name, value={"type": str}).name) == MAX_LENGTH


# --- Malformed definitions ---------------------------------------------------------------------

MALFORMED = [
    pytest.param(
        {"name": "hw:a", "value": {"type": int, "minimum": 1}},
        "value",
        ["minimum"],
        id="unknown-value-key",
    ),
    pytest.param(
        {"name": "hw:a", "value": {"type": float}},
        "value.type",
        ["float", "str, int or bool"],
        id="bad-type",
    ),
    pytest.param(
        {"name": "hw:a", "value": {"type": "float"}},
        "value.type",
        ["float"],
        id="bad-type-name",
    ),
    pytest.param(
        {"name": "hw:a", "value": {"type": int, "min": 5, "max": 1}},
        "value",
        ["min 5", "max 1"],
        id="min-above-max",
    ),
    pytest.param(
        {"name": "hw:a", "value": {"type": str, "min": 1}},
        "value",
        ["min", "str"],
        id="min-on-str",
    ),
    pytest.param(
        {"name": "hw:a", "value": {"type": bool, "max": 1}},
        "value",
        ["max", "bool"],
        id="max-on-bool",
    ),
    pytest.param(
        {"name": "hw:a", "value": {"type": int, "enum": ["a", "b"]}},
        "value.enum",
        ["enum", "int"],
        id="enum-on-int",
    ),
    pytest.param(
        {"name": "hw:a", "value": {"type": int, "pattern": "[0-9]+"}},
        "value.pattern",
        ["pattern", "int"],
        id="pattern-on-int",
    ),
    pytest.param(
        {"name": "hw:a", "value": {"type": str, "pattern": "(["}},
        "value.pattern",
        ["'(['", "not a valid regular expression"],
        id="invalid-regex",
    ),
    pytest.param(
        {"name": "hw:a.{id}", "value": {"type": str}},
        "name",
        ["{id}", "no parameter"],
        id="undeclared-parameter",
    ),
    pytest.param(
        {"name": "hw:a", "value": {"type": str}, "parameters": [{"name": "id", "type": int}]},
        "parameters",
        ["'id'", "do not appear in the name"],
        id="parameter-not-in-name",
    ),
    pytest.param(
        {"name": "hw:a", "value": {"type": str, "enum": ["x", "y", "x"]}},
        "value.enum",
        ["'x'", "more than once"],
        id="duplicate-enum-member",
    ),
    pytest.param(
        {"name": "hw:a", "value": {"type": int, "default": "1"}},
        "value.default",
        ["'1'", "int"],
        id="str-default-on-int",
    ),
    pytest.param(
        {"name": "hw:a", "value": {"type": bool, "default": 1}},
        "value.default",
        ["1", "bool"],
        id="int-default-on-bool",
    ),
    pytest.param(
        # bool is a subclass of int in Python, but True is not an integer extra-spec value:
        # min and max already refuse booleans for the same reason.
        {"name": "hw:a", "value": {"type": int, "default": True}},
        "value.default",
        ["True", "int"],
        id="bool-default-on-int",
    ),
    pytest.param(
        {"name": ":a", "value": {"type": str}},
        "name",
        ["colon"],
        id="leading-colon",
    ),
    pytest.param(
        {"name": "hw:" + "a" * (MAX_LENGTH - 2), "value": {"type": str}},
        "name",
        ["longer than 255"],
        id="name-too-long",
    ),
    pytest.param(
        {
            "name": "hw:{a}{b}",
            "value": {"type": str},
            "parameters": [{"name": "a"}, {"name": "b"}],
        },
        "name",
        ["two parameters", "separated"],
        id="adjacent-parameters",
    ),
    pytest.param(
        {"name": "hw:a.{id}", "value": {"type": str}, "parameters": [{"name": "id", "typ": int}]},
        "parameters[0]",
        ["typ"],
        id="unknown-parameter-key",
    ),
    pytest.param(
        {"name": "hw:a.{id}", "value": {"type": str}, "parameters": [{"name": "id", "type": bool}]},
        "parameters.id",
        ["bool"],
        id="bool-parameter",
    ),
    pytest.param(
        {
            "name": "hw:a.{id}",
            "value": {"type": str},
            "parameters": [{"name": "id", "type": int, "min": 3, "max": 1}],
        },
        "parameters.id",
        ["min 3", "max 1"],
        id="parameter-min-above-max",
    ),
    pytest.param(
        {
            "name": "hw:a.{id}",
            "value": {"type": str},
            "parameters": [{"name": "id", "pattern": "(["}],
        },
        "parameters.id.pattern",
        ["not a valid regular expression"],
        id="invalid-parameter-regex",
    ),
    pytest.param(
        {"name": "hw:a{", "value": {"type": str}},
        "name",
        ["unbalanced brace"],
        id="unbalanced-brace",
    ),
]


@pytest.mark.parametrize(("kwargs", "field_path", "fragments"), MALFORMED)
def test_malformed_definition_names_definition_and_field(kwargs, field_path, fragments):
    with pytest.raises(DefinitionError) as info:
        ExtraSpecValidator(**kwargs)
    exc = info.value
    assert exc.name == kwargs["name"]
    assert exc.field == field_path
    message = str(exc)
    assert message.startswith(f"definition {kwargs['name']!r}, field {field_path!r}: ")
    for fragment in fragments:
        assert fragment in message
    assert isinstance(exc, ValueError)


@pytest.mark.parametrize(
    ("level", "extra"),
    [
        (Support.SUPPORTED, {"replacement": "hw:other"}),
        (Support.EXPERIMENTAL, {"removal": "33.0.0"}),
    ],
)
def test_replacement_or_removal_on_a_non_deprecated_status(level, extra):
    with pytest.raises(DefinitionError) as info:
        Status(level, **extra)
    exc = info.value
    assert "only a deprecated spec" in str(exc)
    # The error must say which field is wrong, as every other definition error does.
    assert exc.field is not None
    assert exc.field.startswith("status")
    assert exc.field in str(exc)


def test_replacement_on_a_deprecated_status_is_fine():
    status = Status(Support.DEPRECATED, since="21.0.0", replacement="hw:x", removal="33.0.0")
    assert status.deprecated
    assert status.replacement == "hw:x"


def test_status_level_must_be_known():
    with pytest.raises(DefinitionError, match="status must be one of"):
        Status("retired")
    assert Status("deprecated").level is Support.DEPRECATED


def test_deprecated_flag_and_status_together_are_refused():
    with pytest.raises(DefinitionError) as info:
        ExtraSpecValidator(
            name="hw:a", value={"type": int}, deprecated=True, status=Status(Support.DEPRECATED)
        )
    assert info.value.name == "hw:a"
    assert info.value.field == "status"


def test_a_definition_needs_a_value():
    with pytest.raises(DefinitionError) as info:
        ExtraSpecValidator(name="hw:a")
    assert info.value.name == "hw:a"
    assert info.value.field == "value"


def test_a_value_needs_a_type():
    with pytest.raises(DefinitionError) as info:
        ExtraSpecValidator(name="hw:a", value={"min": 1})
    assert (info.value.name, info.value.field) == ("hw:a", "value")
    assert "'type'" in str(info.value)


@pytest.mark.parametrize("name", ["", None, 3])
def test_a_definition_needs_a_name(name):
    with pytest.raises(DefinitionError, match="non-empty string name"):
        ExtraSpecValidator(name=name, value={"type": int})


def test_typed_model_is_checked_too():
    with pytest.raises(DefinitionError) as info:
        ExtraSpec(name=":x", description="", value=Value(type=int))
    assert (info.value.name, info.value.field) == (":x", "name")
    with pytest.raises(DefinitionError) as info:
        Value(type=int, min=2, max=1)
    assert info.value.field == "value"
    with pytest.raises(DefinitionError) as info:
        Value(type=str, enum=("a", "a"))
    assert info.value.field == "value.enum"


def test_namespace_name_must_be_a_plain_prefix():
    assert Namespace("hw", "Hardware", "").name == "hw"
    for bad in ("hw:x", "trait{group}"):
        with pytest.raises(DefinitionError):
            Namespace(bad, "t", "d")


@pytest.mark.parametrize(
    ("template", "reason", "field"),
    [
        ("capabilities:stats", "why", "template"),
        ("{name}{name}", "why", "template"),
        ("x:{name}", " ", "reason"),
    ],
)
def test_an_unlisted_key_hint_holds_its_name_once_and_says_why(template, reason, field):
    with pytest.raises(DefinitionError) as info:
        UnlistedKeyHint(template, reason)
    assert info.value.field == field


def test_a_namespace_refuses_a_hint_that_is_not_one():
    with pytest.raises(DefinitionError):
        Namespace("capabilities", "t", "d", unlisted_key_hint="capabilities:stats:{name}")


# --- coerce_definition -------------------------------------------------------------------------


@dataclass
class NovaExtraSpecValidator:
    """Imitates ``nova.api.validation.extra_specs.base.ExtraSpecValidator``."""

    name: str
    description: str
    value: dict[str, Any]
    deprecated: bool = False
    parameters: list[dict[str, Any]] = field(default_factory=list)
    name_regex: str = field(init=False, default="")
    value_regex: str | None = field(init=False, default=None)

    def __post_init__(self):
        if self.value["type"] not in (int, str, bool):
            raise ValueError("Unsupported parameter type")
        name_regex = self.name
        for param in self.parameters:
            name_regex = name_regex.replace(
                f"{{{param['name']}}}", f"(?P<{param['name']}>{param['pattern']})"
            )
        self.name_regex = name_regex
        self.value_regex = self.value.get("pattern")


def test_coerce_passes_an_extra_spec_through():
    spec = numa_nodes()
    assert coerce_definition(spec) is spec


def test_coerce_a_mapping_of_seed_keywords():
    spec = coerce_definition(
        {
            "name": "hw:numa_cpu.{id}",
            "description": "CPUs of a guest NUMA node.",
            "parameters": [{"name": "id", "type": "int", "description": "The node."}],
            "value": {"type": "str", "pattern": CPU_LIST},
            "deprecated": True,
        }
    )
    assert spec.name == "hw:numa_cpu.{id}"
    assert spec.parameters == (Parameter("id", int, "The node."),)
    assert spec.value == Value(type=str, pattern=CPU_LIST)
    assert spec.deprecated


def test_coerce_a_malformed_mapping_names_the_definition():
    with pytest.raises(DefinitionError) as info:
        coerce_definition({"name": "foo:bar", "value": {"type": bool, "descripton": "x"}})
    assert (info.value.name, info.value.field) == ("foo:bar", "value")
    assert "descripton" in str(info.value)


def test_coerce_a_nova_validator_object():
    nova = NovaExtraSpecValidator(
        name="hw:numa_cpus.{num}",
        description="A mapping of guest CPUs to the guest NUMA node identified by ``{num}``.",
        parameters=[{"name": "num", "pattern": r"\d+", "description": "The ID of the node."}],
        value={"type": str, "description": "The guest CPUs.", "pattern": CPU_LIST},
    )
    spec = coerce_definition(nova)
    assert isinstance(spec, ExtraSpec)
    assert spec.name == "hw:numa_cpus.{num}"
    assert spec.description == nova.description
    assert spec.namespace == "hw"
    assert spec.value == Value(type=str, description="The guest CPUs.", pattern=CPU_LIST)
    assert spec.parameters == (Parameter("num", str, "The ID of the node.", pattern=r"\d+"),)
    assert not spec.deprecated
    # Nova's own regex lets the wrong key through; the coerced definition does not.
    assert re.fullmatch(nova.name_regex, "hw:numa_cpus_0")
    assert re.fullmatch(spec.name_regex(), "hw:numa_cpus_0") is None
    assert re.fullmatch(spec.name_regex(), "hw:numa_cpus.0")


def test_coerce_a_deprecated_nova_validator_object():
    nova = NovaExtraSpecValidator(
        name="hide_hypervisor_id",
        description="Deprecated.",
        value={"type": bool, "description": "Whether to hide the hypervisor."},
        deprecated=True,
    )
    spec = coerce_definition(nova)
    assert spec.deprecated
    assert spec.namespace == ""
    assert spec.value.type is bool


def test_coerce_an_object_with_only_name_and_value():
    class Minimal:
        name = "foo:bar"
        value = {"type": bool}  # noqa: RUF012

    spec = coerce_definition(Minimal())
    assert spec == ExtraSpecValidator(name="foo:bar", value={"type": bool})


def test_coerce_a_malformed_nova_object_names_the_definition():
    nova = NovaExtraSpecValidator(name="foo:bar", description="", value={"type": int, "min": "1"})
    with pytest.raises(DefinitionError) as info:
        coerce_definition(nova)
    assert info.value.name == "foo:bar"
    assert info.value.field == "value.min"


@pytest.mark.parametrize("obj", [None, 42, "hw:x", ["hw:x"], object()])
def test_coerce_refuses_anything_else(obj):
    with pytest.raises(DefinitionError, match="is not an extra-spec definition"):
        coerce_definition(obj)


# --- Frozen, hashable values -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "attribute", "new"),
    [
        (numa_nodes(), "name", "hw:other"),
        (numa_nodes(), "value", Value(type=str)),
        (numa_nodes().value, "min", 0),
        (numa_cpu().parameters[0], "name", "other"),
        (EnumMember("a"), "value", "b"),
        (Status(), "level", Support.DEPRECATED),
        (Namespace("hw", "Hardware", ""), "title", "x"),
    ],
)
def test_definitions_are_frozen(obj, attribute, new):
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(obj, attribute, new)


def test_definitions_are_equal_and_hashable_by_value():
    first, second = numa_cpu(), numa_cpu()
    assert first is not second
    assert first == second
    assert hash(first) == hash(second)
    assert len({first, second, numa_nodes(), numa_nodes()}) == 2
    assert {first: "x"}[second] == "x"
    assert hash(first.value) == hash(second.value)
    assert hash(first.parameters[0]) == hash(second.parameters[0])


def test_definitions_differing_in_any_field_are_unequal():
    base = numa_nodes()
    assert base != dataclasses.replace(base, description="other")
    assert base != dataclasses.replace(base, value=Value(type=int, min=2))
    assert base != dataclasses.replace(base, status=Status(Support.DEPRECATED))
    assert base != dataclasses.replace(base, virt_drivers=("libvirt",))


@pytest.mark.parametrize(
    ("version", "shown"),
    [
        ("22.0.0", "22.0.0 (Victoria)"),
        ("13.0.0", "13.0.0 (Mitaka)"),
        ("29.1.2", "29.1.2 (2024.1 Caracal)"),
        ("34.0.0", "34.0.0 (2026.2 Hibiscus)"),
        # Not one of Nova's releases: left as written, never given a wrong name.
        ("1.0", "1.0"),
        ("12.0.0", "12.0.0"),
        ("99.0.0", "99.0.0"),
        ("22", "22"),
        ("22.x", "22.x"),
        ("٢٢.0.0", "٢٢.0.0"),
        (None, None),
    ],
)
def test_a_nova_version_is_shown_with_its_release_name(
    version: str | None, shown: str | None
) -> None:
    from onespec.definitions.model import nova_release

    assert nova_release(version) == shown


def test_a_deprecation_names_nova_releases_by_name() -> None:
    from onespec.definitions.model import deprecation_sentence

    assert deprecation_sentence("This extra spec", "21.0.0", "23.0.0", "x") == (
        "This extra spec is deprecated since 21.0.0 (Ussuri) and will be removed in "
        "23.0.0 (Wallaby). Use x instead."
    )
