"""The reStructuredText renderers, read as plain strings.

Whether the output is *valid* rST for Sphinx is checked by the real builds in
``tests/sphinxext/test_domain.py``; here each fact of a definition is looked for where the
reference promises to show it.
"""

from __future__ import annotations

import pytest

from onespec.definitions.model import (
    EnumMember,
    ExtraSpec,
    Namespace,
    Parameter,
    Status,
    Support,
    Value,
)
from onespec.definitions.nova_shape import ExtraSpecValidator
from onespec.definitions.registry import in_tree, load
from onespec.generator import rst
from onespec.generator.extra_specs import rst as spec_rst
from onespec.generator.extra_specs import schema
from onespec.generator.text import plain_text

SPECS = {spec.name: spec for spec in in_tree()}


def text_of(spec: ExtraSpec) -> str:
    return rst.render(spec_rst.extra_spec_lines(spec))


def lines_of(spec: ExtraSpec) -> list[str]:
    return list(spec_rst.extra_spec_lines(spec))


def field(spec: ExtraSpec, name: str) -> list[str]:
    """The lines of the field ``:name:`` of a rendered spec: its own line and its continuation."""
    lines = lines_of(spec)
    start = next((i for i, line in enumerate(lines) if line.startswith(f"   :{name}:")), None)
    if start is None:
        return []
    found = [lines[start]]
    for line in lines[start + 1 :]:
        if not line.startswith("      "):
            break
        found.append(line)
    return found


def namespace(name: str) -> Namespace:
    return next(ns for ns in load().namespaces if ns.name == name)


def small(**fields: object) -> ExtraSpec:
    """A hand-built spec: ``value`` and the other keywords as ExtraSpecValidator takes them."""
    fields.setdefault("name", "test:thing")
    fields.setdefault("description", "A thing to test with. It has two sentences.")
    fields.setdefault("value", {"type": str})
    return ExtraSpecValidator(**fields)  # type: ignore[arg-type]


# --- One extra spec ------------------------------------------------------------------------------


def test_the_key_is_the_directive_argument_followed_by_the_namespace_option():
    lines = lines_of(SPECS["hw:cpu_policy"])
    assert lines[:3] == [".. onespec:extra-spec:: hw:cpu_policy", "   :namespace: hw", ""]
    assert "   :deprecated:" not in lines


def test_a_patterned_key_is_the_argument_as_written():
    lines = lines_of(SPECS["hw:numa_cpus.{id}"])
    assert lines[0] == ".. onespec:extra-spec:: hw:numa_cpus.{id}"
    assert lines[1] == "   :namespace: hw"


def test_the_namespace_option_is_the_namespace_not_the_prefix_of_the_name():
    spec = small(name="resources{group}:THING", parameters=[{"name": "group", "type": int}])
    assert lines_of(spec)[1] == "   :namespace: resources"
    explicit = small(name="odd:key", namespace="elsewhere")
    assert lines_of(explicit)[1] == "   :namespace: elsewhere"


def test_the_unnamed_namespace_is_an_empty_option():
    lines = lines_of(SPECS["group_policy"])
    assert lines[1].rstrip() == "   :namespace:"


def test_the_description_is_the_indented_content_of_the_directive():
    spec = SPECS["hw:cpu_policy"]
    lines = lines_of(spec)
    assert f"   {spec.description}" in lines
    for line in lines[1:]:
        assert line == "" or line.startswith("   "), line
    assert lines[-1] == ""


def test_a_multi_line_description_keeps_its_lines_indented():
    spec = small(description="First paragraph.\n\nSecond paragraph,\nwrapped.")
    lines = lines_of(spec)
    start = lines.index("   First paragraph.")
    assert lines[start : start + 4] == [
        "   First paragraph.",
        "",
        "   Second paragraph,",
        "   wrapped.",
    ]


@pytest.mark.parametrize(
    ("name", "word"),
    [("hw:cpu_policy", "string"), ("hw:numa_nodes", "integer"), ("hw:cpu_realtime", "boolean")],
)
def test_the_type_is_named_in_words(name, word):
    assert field(SPECS[name], "Type") == [f"   :Type: {word}"]


def test_a_boolean_lists_its_spellings_and_other_types_do_not():
    (values,) = field(SPECS["hw:cpu_realtime"], "Values")
    for spelling in ("``true``", "``false``", "``yes``", "``no``", "``on``", "``off``"):
        assert spelling in values
    assert "in any case" in values
    assert field(SPECS["hw:numa_nodes"], "Values") == []
    assert field(SPECS["hw:cpu_policy"], "Values") == []


def test_each_allowed_value_is_listed_in_order_with_its_description():
    spec = SPECS["hw:cpu_policy"]
    lines = field(spec, "Allowed values")
    assert lines[0] == "   :Allowed values:"
    expected: list[str] = []
    for member in spec.value.enum:
        expected.append(f"      * ``{member.value}``")
        expected.append(f"        — {' '.join(member.description.split())}")
    assert lines[1:] == expected


def test_an_allowed_value_without_a_description_is_listed_alone():
    spec = small(value=Value(str, enum=(EnumMember("a", "The first."), EnumMember("b"))))
    assert field(spec, "Allowed values") == [
        "   :Allowed values:",
        "      * ``a``",
        "        — The first.",
        "      * ``b``",
    ]


@pytest.mark.parametrize(
    ("value", "bounds"),
    [
        ({"type": int, "min": 0, "max": 15}, "from 0 to 15"),
        ({"type": int, "min": 1}, "at least 1"),
        ({"type": int, "max": 8}, "at most 8"),
        ({"type": int, "min": -3, "max": -3}, "from -3 to -3"),
    ],
)
def test_bounds_are_shown_as_given(value, bounds):
    assert field(small(value=value), "Bounds") == [f"   :Bounds: {bounds}"]


def test_in_tree_bounds():
    assert field(SPECS["hw:redirected_usb_ports"], "Bounds") == ["   :Bounds: from 0 to 15"]
    assert field(SPECS["hw:numa_nodes"], "Bounds") == ["   :Bounds: at least 1"]


def test_an_unbounded_integer_has_no_bounds_field():
    assert field(small(value={"type": int}), "Bounds") == []


def test_a_pattern_is_shown_literally_with_its_hint():
    spec = SPECS["hw:numa_cpus.{id}"]
    assert field(spec, "Pattern") == [
        f"   :Pattern: ``{spec.value.pattern}`` ({spec.value.pattern_hint})"
    ]
    assert "a guest CPU list" in spec.value.pattern_hint


def test_a_pattern_without_a_hint_has_no_parentheses():
    spec = small(value={"type": str, "pattern": "[a-z]+"})
    assert field(spec, "Pattern") == ["   :Pattern: ``[a-z]+``"]


def test_a_maximum_length_is_shown():
    assert field(small(value={"type": str, "max_length": 64}), "Maximum length") == [
        "   :Maximum length: 64"
    ]


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ({"type": str, "default": "shared"}, "``shared``"),
        ({"type": bool, "default": True}, "``true``"),
        ({"type": bool, "default": False}, "``false``"),
        ({"type": int, "default": 0}, "``0``"),
        ({"type": int, "default": 42}, "``42``"),
    ],
)
def test_the_default_is_shown_booleans_in_lower_case(value, shown):
    assert field(small(value=value), "Default") == [f"   :Default: {shown}"]


def test_in_tree_defaults():
    assert field(SPECS["hw:cpu_policy"], "Default") == ["   :Default: ``shared``"]
    assert field(SPECS["hw_rng:allowed"], "Default") == ["   :Default: ``true``"]
    assert field(SPECS["hw:numa_nodes"], "Default") == []


def test_the_value_description_is_one_line():
    spec = small(value={"type": str, "description": "The value,\n   wrapped."})
    assert field(spec, "Value") == ["   :Value: The value, wrapped."]


def test_parameters_are_listed_with_their_rules():
    spec = SPECS["hw:numa_cpus.{id}"]
    assert field(spec, "Parameters") == [
        "   :Parameters:",
        "      * ``{id}`` (integer, at least 0) — The guest NUMA node number, counted from 0.",
    ]


def test_every_rule_of_a_parameter_is_listed():
    spec = small(
        name="test:{slot}.{name}",
        parameters=[
            Parameter("slot", int, "The slot.", min=1, max=4),
            Parameter("name", str, pattern="[a-z]+", max_length=8),
        ],
    )
    assert field(spec, "Parameters") == [
        "   :Parameters:",
        "      * ``{slot}`` (integer, from 1 to 4) — The slot.",
        "      * ``{name}`` (string, matching ``[a-z]+``, at most 8 characters)",
    ]


def test_virt_drivers_are_listed():
    assert field(SPECS["hw:cpu_policy"], "Virt drivers") == ["   :Virt drivers: libvirt"]
    spec = small(virt_drivers=("libvirt", "hyperv"))
    assert field(spec, "Virt drivers") == ["   :Virt drivers: libvirt, hyperv"]
    assert field(small(), "Virt drivers") == []


def test_the_rules_with_other_keys_are_listed_with_how_they_bite():
    (line,) = field(SPECS["hw:locked_memory"], "Rules with other keys")
    assert (
        ":onespec:flavor-rule:`locked-memory-needs-page-size` (Nova raises LockMemoryForbidden)"
        in line
    )
    (line,) = field(SPECS["quota:disk_read_bytes_sec"], "Rules with other keys")
    assert line == (
        "   :Rules with other keys: :onespec:flavor-rule:`disk-read-bytes-with-total` (a warning)"
    )
    assert field(SPECS["hw:watchdog_action"], "Rules with other keys") == []


def test_a_per_node_key_lists_the_rules_of_its_nodes():
    (line,) = field(SPECS["hw:numa_cpus.{id}"], "Rules with other keys")
    assert (
        ":onespec:flavor-rule:`numa-cpu-duplicated` (Nova raises ImageNUMATopologyCPUDuplicates)"
        in line
    )


def test_the_status_of_a_supported_spec_with_and_without_since():
    assert field(SPECS["hw:cpu_realtime"], "Status") == [
        "   :Status: supported, since 13.0.0 (Mitaka)"
    ]
    assert field(SPECS["hw:cpu_policy"], "Status") == ["   :Status: supported"]


def test_an_experimental_spec_has_a_note_and_its_status():
    spec = small(status=Status(Support.EXPERIMENTAL, since="30.0.0"))
    lines = lines_of(spec)
    assert field(spec, "Status") == ["   :Status: experimental, since 30.0.0 (2024.2 Dalmatian)"]
    note = lines.index("   .. note::")
    assert "experimental" in lines[note + 2]
    assert lines[note + 2].startswith("      ")
    assert note < lines.index(f"   {spec.description}"), "the note comes before the description"
    assert "   :deprecated:" not in lines
    assert ".. warning::" not in text_of(spec)


def test_a_deprecated_spec_is_flagged_and_boxed_with_since_and_replacement():
    spec = SPECS["hide_hypervisor_id"]
    lines = lines_of(spec)
    assert lines[:4] == [
        ".. onespec:extra-spec:: hide_hypervisor_id",
        "   :namespace: ",
        "   :deprecated:",
        "",
    ]
    box = lines.index("   .. warning::")
    sentence = lines[box + 2]
    assert sentence == (
        "      This extra spec is deprecated since 21.0.0 (Ussuri). "
        "Use :onespec:extra-spec:`hw:hide_hypervisor_id` instead."
    )
    assert box < lines.index(f"   {spec.description}"), "the warning comes before the description"
    assert field(spec, "Status") == [], "the box replaces the status field"


def test_the_deprecation_box_names_the_removal_release():
    spec = small(
        status=Status(Support.DEPRECATED, since="1.0", removal="3.0", replacement="test:new")
    )
    assert (
        "      This extra spec is deprecated since 1.0 and will be removed in 3.0. "
        "Use :onespec:extra-spec:`test:new` instead."
    ) in lines_of(spec)


def test_a_bare_deprecation_is_one_sentence():
    spec = small(deprecated=True)
    lines = lines_of(spec)
    assert "   :deprecated:" in lines
    box = lines.index("   .. warning::")
    assert lines[box + 2] == "      This extra spec is deprecated."
    removal_only = small(status=Status(Support.DEPRECATED, removal="3.0"))
    assert "      This extra spec is deprecated and will be removed in 3.0." in lines_of(
        removal_only
    )


def test_an_empty_description_leaves_the_fields():
    spec = small(description="", value={"type": int, "min": 1})
    lines = lines_of(spec)
    assert lines[:4] == [".. onespec:extra-spec:: test:thing", "   :namespace: test", "", ""]
    assert "   :Type: integer" in lines


def test_fields_come_in_the_documented_order():
    spec = small(
        value={
            "type": str,
            "enum": ["a"],
            "pattern": "a",
            "pattern_hint": "just a",
            "max_length": 1,
            "default": "a",
            "description": "The value.",
        },
        name="test:{n}",
        parameters=[{"name": "n", "type": int}],
        virt_drivers=["libvirt"],
        status=Status(since="1.0"),
    )
    names = [line.split(":")[1] for line in lines_of(spec) if line.startswith("   :")]
    assert names == [
        "namespace",
        "Type",
        "Allowed values",
        "Pattern",
        "Maximum length",
        "Default",
        "Value",
        "Parameters",
        "Virt drivers",
        "Status",
    ]


def test_every_in_tree_spec_renders_as_one_directive():
    for spec in in_tree():
        lines = lines_of(spec)
        assert lines[0] == f".. onespec:extra-spec:: {spec.name}"
        assert lines[1] == f"   :namespace: {spec.namespace}"
        assert [line for line in lines if line.startswith(".. ")] == [lines[0]]
        assert all(line == "" or line.startswith("   ") for line in lines[1:]), spec.name
        assert (f"   :Type: {spec_rst._TYPE_WORDS[spec.value.type.__name__]}") in lines


# --- Summary tables ------------------------------------------------------------------------------


def rows(lines: list[str]) -> list[list[str]]:
    """The cells of a list-table, row by row."""
    table: list[list[str]] = []
    for line in lines:
        if line.startswith("   * - "):
            table.append([line[len("   * - ") :]])
        elif line.startswith("     - "):
            table[-1].append(line[len("     - ") :])
    return table


def test_a_summary_is_a_list_table_with_a_header():
    lines = list(spec_rst.summary_lines(load().by_namespace("hw")))
    assert lines[:4] == [".. list-table::", "   :header-rows: 1", "   :widths: 30 25 45", ""]
    assert rows(lines)[0] == ["Key", "Value", "Description"]
    assert lines[-1] == ""


def test_a_summary_has_one_row_per_spec_in_order_linking_to_it():
    specs = load().by_namespace("hw")
    table = rows(list(spec_rst.summary_lines(specs)))[1:]
    assert [row[0] for row in table] == [f":onespec:extra-spec:`{s.name}`" for s in specs]
    assert all(len(row) == 3 for row in table)


def test_a_summary_marks_deprecated_specs():
    specs = load().by_namespace("")
    table = rows(list(spec_rst.summary_lines(specs)))
    assert table[1:] == [
        [
            ":onespec:extra-spec:`hide_hypervisor_id` (deprecated)",
            "boolean",
            spec_rst.first_sentence(SPECS["hide_hypervisor_id"].description),
        ],
        [
            ":onespec:extra-spec:`group_policy`",
            "``isolate``, ``none``",
            spec_rst.first_sentence(SPECS["group_policy"].description),
        ],
    ]


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ({"type": str, "enum": ["a", "b"]}, "``a``, ``b``"),
        ({"type": int, "min": 1, "max": 4}, "integer, from 1 to 4"),
        ({"type": int, "max": 4}, "integer, at most 4"),
        ({"type": int}, "integer"),
        (
            {"type": str, "pattern": "[a-z]+", "pattern_hint": "lower-case letters"},
            "lower-case letters",
        ),
        ({"type": str, "pattern": "[a-z]+"}, "string"),
        ({"type": bool}, "boolean"),
    ],
)
def test_the_summary_value_cell(value, cell):
    (row,) = rows(list(spec_rst.summary_lines([small(value=value)])))[1:]
    assert row[1] == cell


def test_the_summary_description_is_the_first_sentence_on_one_line():
    spec = small(description="First sentence,\n  wrapped. Second sentence.")
    (row,) = rows(list(spec_rst.summary_lines([spec])))[1:]
    assert row[2] == "First sentence, wrapped."


def test_the_reference_and_the_schema_summarise_every_key_with_the_same_sentence():
    for definition in in_tree():
        in_reference = plain_text(spec_rst.first_sentence(definition.description))
        assert schema.summary(definition).startswith(in_reference), definition.name


# --- Namespaces and the deprecated filter --------------------------------------------------------


def test_filter_deprecated_modes():
    specs = load().by_namespace("")
    assert [s.name for s in spec_rst.filter_deprecated(specs)] == [
        "hide_hypervisor_id",
        "group_policy",
    ]
    assert [s.name for s in spec_rst.filter_deprecated(specs, "include")] == [
        "hide_hypervisor_id",
        "group_policy",
    ]
    assert [s.name for s in spec_rst.filter_deprecated(specs, "only")] == ["hide_hypervisor_id"]
    assert [s.name for s in spec_rst.filter_deprecated(specs, "exclude")] == ["group_policy"]


def test_filter_deprecated_keeps_the_order_and_accepts_any_iterable():
    specs = [small(name=f"test:{i}", deprecated=i % 2 == 0) for i in range(6)]
    assert [s.name for s in spec_rst.filter_deprecated(iter(specs), "only")] == [
        "test:0",
        "test:2",
        "test:4",
    ]
    assert [s.name for s in spec_rst.filter_deprecated(iter(specs), "exclude")] == [
        "test:1",
        "test:3",
        "test:5",
    ]
    assert spec_rst.filter_deprecated(iter(specs)) == specs


def test_a_namespace_starts_with_its_introduction():
    ns = namespace("hw")
    lines = list(spec_rst.namespace_lines(ns, load().by_namespace("hw")))
    intro = ns.description.strip().splitlines()
    assert lines[: len(intro) + 1] == [*intro, ""]
    # Then the table of its keys, then the first entry.
    assert lines[len(intro) + 1] == ".. list-table::"
    first_entry = next(i for i, line in enumerate(lines) if line.startswith(".. onespec:"))
    assert lines[first_entry] == ".. onespec:extra-spec:: hw:cpu_realtime"
    assert len(rows(lines[:first_entry])) == len(load().by_namespace("hw")) + 1


def test_a_namespace_renders_every_spec_in_full():
    specs = load().by_namespace("hw")
    text = rst.render(spec_rst.namespace_lines(namespace("hw"), specs))
    directives = [line for line in text.splitlines() if line.startswith(".. onespec:extra-spec::")]
    assert directives == [f".. onespec:extra-spec:: {s.name}" for s in specs]
    # The table of keys opens the page and is the only table.
    assert text.count(".. list-table::") == 1
    assert text.index(".. list-table::") < text.index(".. onespec:extra-spec::")


def test_a_namespace_summary_is_a_table_instead_of_entries():
    specs = load().by_namespace("hw")
    lines = list(spec_rst.namespace_lines(namespace("hw"), specs, summary=True))
    assert ".. list-table::" in lines
    assert not [line for line in lines if line.startswith(".. onespec:extra-spec::")]
    assert len(rows(lines)) == len(specs) + 1


def test_a_namespace_with_deprecated_only():
    lines = list(
        spec_rst.namespace_lines(namespace(""), load().by_namespace(""), deprecated="only")
    )
    directives = [line for line in lines if line.startswith(".. onespec:extra-spec::")]
    assert directives == [".. onespec:extra-spec:: hide_hypervisor_id"]
    summary = rows(
        list(
            spec_rst.namespace_lines(
                namespace(""), load().by_namespace(""), summary=True, deprecated="exclude"
            )
        )
    )
    assert [row[0] for row in summary[1:]] == [":onespec:extra-spec:`group_policy`"]


def test_a_namespace_with_nothing_selected_is_only_its_introduction():
    ns = namespace("hw")
    for summary in (False, True):
        lines = list(
            spec_rst.namespace_lines(
                ns, load().by_namespace("hw"), summary=summary, deprecated="only"
            )
        )
        assert lines == [*ns.description.strip().splitlines(), ""]


def test_a_namespace_without_a_description_starts_with_its_specs():
    ns = Namespace("test", "Test", "")
    lines = list(spec_rst.namespace_lines(ns, [small()]))
    assert lines[0] == ".. list-table::"
    assert ".. onespec:extra-spec:: test:thing" in lines
    assert list(spec_rst.namespace_lines(ns, [])) == []


# --- Literals, sentences, rendering --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain", "``plain``"),
        ("dedicated", "``dedicated``"),
        (r"\d+", r"``\d+``"),
        ("\\", "``\\``"),
        ("a `b` c", "``a `b` c``"),
        ("`a", "```a``"),
    ],
)
def test_literal_uses_an_inline_literal_when_it_can(text, expected):
    assert rst.literal(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a``b", r":code:`a\`\`b`"),
        ("a`", r":code:`a\``"),
        ("`", r":code:`\``"),
        ("``", r":code:`\`\``"),
        ("a\\``b", r":code:`a\\\`\`b`"),
        ("x\\`", r":code:`x\\\``"),
    ],
)
def test_literal_escapes_backquotes_and_backslashes_in_a_code_role(text, expected):
    assert rst.literal(text) == expected


def test_literal_of_nothing_says_so():
    assert rst.literal("") == "(empty)"


def test_link_specs_turns_literals_naming_known_specs_into_references():
    known = {"hw:cpu_policy", "hw:numa_cpus.{id}"}
    text = "Set ``hw:cpu_policy`` to ``dedicated``; see ``hw:numa_cpus.{id}`` and ``hw:nope``."
    assert spec_rst.link_specs(text, known) == (
        "Set :onespec:extra-spec:`hw:cpu_policy` to ``dedicated``; "
        "see :onespec:extra-spec:`hw:numa_cpus.{id}` and ``hw:nope``."
    )


def test_link_specs_without_known_specs_changes_nothing():
    text = "Set ``hw:cpu_policy``."
    assert spec_rst.link_specs(text, ()) == text
    assert spec_rst.link_specs(text, frozenset()) == text
    assert spec_rst.link_specs("No literals here.", {"hw:cpu_policy"}) == "No literals here."


def test_descriptions_link_known_specs_and_nothing_else_changes():
    spec = SPECS["hw:numa_nodes"]
    known = frozenset(SPECS)
    plain = lines_of(spec)
    linked = list(spec_rst.extra_spec_lines(spec, known))
    assert "``hw:numa_cpus.{id}``" in spec.description
    (description,) = [line for line in linked if "hw:numa_cpus.{id}" in line]
    assert ":onespec:extra-spec:`hw:numa_cpus.{id}`" in description
    assert "``1``" in description, "a literal that names no spec stays a literal"
    assert [line for line in linked if line != description] == [
        line for line in plain if line != f"   {spec.description}"
    ]


def test_a_namespace_links_its_introduction_and_its_descriptions():
    registry = load()
    known = frozenset(registry.sources)
    ns = namespace("")
    text = rst.render(spec_rst.namespace_lines(ns, registry.by_namespace(""), known=known))
    plain = rst.render(spec_rst.namespace_lines(ns, registry.by_namespace("")))
    assert text.count(":onespec:extra-spec:") > plain.count(":onespec:extra-spec:")
    assert "``hw:hide_hypervisor_id``" in SPECS["hide_hypervisor_id"].description
    assert "``hw:hide_hypervisor_id``" in plain
    assert "``hw:hide_hypervisor_id``" not in text


def test_spec_ref():
    assert spec_rst.spec_ref("hw:numa_cpus.{id}") == ":onespec:extra-spec:`hw:numa_cpus.{id}`"


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("One. Two. Three.", "One."),
        ("Only one sentence.", "Only one sentence."),
        ("No full stop at all", "No full stop at all"),
        ("  Wrapped\n   over\tlines. Then more.", "Wrapped over lines."),
        ("Is it? Yes.", "Is it?"),
        ("Stop! Really.", "Stop!"),
        ("Version 2.1 is the first. Then.", "Version 2.1 is the first."),
        ("Compare versions, e.g. ``>= 8000000``. Then.", "Compare versions, e.g. ``>= 8000000``."),
        ("Any, i.e. All of them. Then.", "Any, i.e. All of them."),
        ("It may not exceed it. ``1`` hides SMT.", "It may not exceed it."),
        ("Counted from zero. 0 is the first.", "Counted from zero."),
        ("", ""),
    ],
)
def test_first_sentence(text, sentence):
    assert spec_rst.first_sentence(text) == sentence


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("Is it on? Yes. Always.", "Is it on?"),
        ("Really! It is. Yes.", "Really!"),
        ("Why? Because! Then. End.", "Why?"),
    ],
)
def test_first_sentence_ends_at_the_earliest_end_of_sentence(text, sentence):
    assert spec_rst.first_sentence(text) == sentence


def test_render_joins_lines_and_ends_with_exactly_one_newline():
    assert rst.render(["a", "b", "", ""]) == "a\nb\n"
    assert rst.render(iter(["x"])) == "x\n"
    assert rst.render(spec_rst.extra_spec_lines(SPECS["hw:cpu_policy"])).endswith("supported\n")


# --- Families described by table rows -------------------------------------------------------


def test_standard_traits_and_resource_classes_are_rows_the_patterns_stay_entries():
    registry = load()
    traits = registry.by_namespace("trait")
    in_rows = spec_rst.repeated(traits)
    assert in_rows == {s.name for s in traits if s.name != "trait{group}:CUSTOM_{trait}"}
    resources = spec_rst.repeated(registry.by_namespace("resources"))
    assert "resources{group}:VCPU" in resources
    assert "resources{group}:CUSTOM_{resource}" not in resources
    for namespace in ("hw", "capabilities", "quota", ""):
        assert spec_rst.repeated(registry.by_namespace(namespace)) == frozenset(), namespace


def test_a_family_shorter_than_the_threshold_keeps_its_entries():
    family = [
        small(name=f"test:k{i}", description=f"About ``k{i}``.")
        for i in range(spec_rst.REPEATED_AT_LEAST - 1)
    ]
    assert spec_rst.repeated(family) == frozenset()
    family.append(small(name="test:k9", description="About ``k9``."))
    assert len(spec_rst.repeated(family)) == spec_rst.REPEATED_AT_LEAST


def test_the_trait_page_is_one_table_and_one_full_entry():
    specs = load().by_namespace("trait")
    lines = list(spec_rst.namespace_lines(namespace("trait"), specs))
    directives = [line for line in lines if line.startswith(".. onespec:extra-spec::")]
    assert directives == [".. onespec:extra-spec:: trait{group}:CUSTOM_{trait}"]
    table = rows(lines)
    assert len(table) == len(specs) + 1
    described = [row[0] for row in table if row[0].startswith(":onespec:extra-spec-entry:")]
    assert len(described) == len(specs) - 1
    assert ":onespec:extra-spec-entry:`trait{group}:HW_CPU_X86_AVX2 <trait>`" in described
