"""The generated JSON Schema: valid, in step with the runtime, portable, and committed.

The runtime (:mod:`onespec.validators_runtime.extra_specs`, strict mode) is the reference. Every
place where the schema's verdict differs from it is one of
:data:`onespec.generator.extra_specs.schema.DIFFERENCES`, and each is shown by example here, stated
in the schema's description, and explained in ``doc/source/guides/json-schema.rst``.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import string
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from onespec.definitions.model import (
    FALSE_STRINGS,
    TRUE_STRINGS,
    ExtraSpec,
    LiteralText,
    Parameter,
    Value,
)
from onespec.definitions.registry import in_tree
from onespec.generator import manifest
from onespec.generator import schema as schema_documents
from onespec.generator.catalog import CATALOG_FILE
from onespec.generator.extra_specs import schema as generator
from onespec.generator.extra_specs.schema import DIFFERENCES, FLAVOR_EXTRA_SPECS
from onespec.generator.schema import SchemaError, decimal_digits
from onespec.generator.schema.patterns import (
    INT_WHITESPACE,
    WHITESPACE,
    boolean_pattern,
    digits_range,
    integer_pattern,
    literal,
    portable,
)
from onespec.validators_runtime.extra_specs import (
    ExtraSpecValidationError,
    Registry,
    compile_registry,
)
from tests.conftest import ROOT
from tests.validators_runtime.test_cases import CASE_LIST

GUIDE = ROOT / "doc" / "source" / "guides" / "json-schema.rst"
SCHEMA = generator.flavor_extra_specs_schema()
VALIDATOR = Draft202012Validator(SCHEMA)
RUNTIME = compile_registry(in_tree())
DIFFERENCE_NAMES = {difference.name for difference in DIFFERENCES}
KEY_CODES = {"unknown-key", "invalid-key"}


def runtime_verdict(specs: dict[str, Any], registry: Registry = RUNTIME) -> str:
    """The strict-mode verdict of each key on its own (what a JSON Schema of extra specs can
    state), as the case file writes it."""
    try:
        warnings = registry.validate(specs, mode="strict", between_keys=False)
    except ExtraSpecValidationError as exc:
        return exc.errors[0].code
    return warnings[0].code if warnings else "valid"


def accepted(verdict: str) -> bool:
    return verdict in {"valid", "deprecated"}


def key_only(schema: dict[str, Any]) -> Draft202012Validator:
    """A validator of the key rules alone: every value schema replaced by "anything"."""
    stripped = {**schema, "properties": {}, "patternProperties": {}}
    return Draft202012Validator(stripped)


KEY_VALIDATOR = key_only(SCHEMA)


# --- The schema is a schema ---------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(manifest.SCHEMAS))
def test_every_schema_passes_the_metaschema(name):
    Draft202012Validator.check_schema(manifest.SCHEMAS[name]())


def test_the_id_is_stable_and_the_schema_says_what_it_validates():
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"] == "https://onespec.dev/schemas/flavor-extra-specs.schema.json"
    assert SCHEMA["$id"] == schema_documents.ID_BASE + FLAVOR_EXTRA_SPECS
    assert SCHEMA["title"] == "Flavor extra specs"
    description = SCHEMA["description"]
    assert "string" in description
    assert "strict mode" in description
    assert f"{len(in_tree())} definitions" in description


def test_the_description_states_every_difference():
    for difference in DIFFERENCES:
        assert difference.text in SCHEMA["description"], difference.name


def test_deprecated_keys_carry_the_annotation_and_say_what_replaces_them():
    old = SCHEMA["properties"]["hide_hypervisor_id"]
    assert old["deprecated"] is True
    assert (
        "is deprecated since 21.0.0 (Ussuri). Use hw:hide_hypervisor_id instead."
        in old["description"]
    )
    assert "deprecated" not in SCHEMA["properties"]["hw:hide_hypervisor_id"]
    deprecated = {d.name for d in in_tree() if d.deprecated}
    annotated = {
        schema["title"]
        for schema in [*SCHEMA["properties"].values(), *SCHEMA["patternProperties"].values()]
        if schema.get("deprecated")
    }
    assert annotated == deprecated


def test_every_definition_is_one_property_with_a_plain_description():
    schemas = [*SCHEMA["properties"].values(), *SCHEMA["patternProperties"].values()]
    assert sorted(s["title"] for s in schemas) == sorted(d.name for d in in_tree())
    for schema in schemas:
        assert schema["type"] == "string"
        assert schema["maxLength"] <= 255
        assert schema["description"]
        assert "``" not in schema["description"], schema["title"]


def test_every_key_pattern_is_anchored():
    patterns = [*SCHEMA["patternProperties"], *all_patterns(SCHEMA["$defs"])]
    for pattern in patterns:
        assert pattern.startswith("^"), pattern


# --- The shared case file -----------------------------------------------------------------------

#: Cases where the schema's verdict differs from the runtime's, with the documented reason.
CASE_EXCEPTIONS: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("case", CASE_LIST, ids=[f"{c['key']}={c['value']}" for c in CASE_LIST])
def test_the_schema_agrees_with_the_case_file(case):
    schema_accepts = VALIDATOR.is_valid({case["key"]: case["value"]})
    runtime_accepts = accepted(case["expect"])
    exception = CASE_EXCEPTIONS.get((case["key"], case["value"]))
    if exception is None:
        assert schema_accepts == runtime_accepts
    else:
        assert exception in DIFFERENCE_NAMES
        # Every difference makes the schema stricter, never looser.
        assert runtime_accepts and not schema_accepts


def test_every_case_exception_is_a_real_case_and_in_the_guide():
    cases = {(case["key"], case["value"]) for case in CASE_LIST}
    guide = GUIDE.read_text(encoding="utf-8")
    for (key, value), difference in CASE_EXCEPTIONS.items():
        assert (key, value) in cases
        assert key in guide and value in guide
        assert f"_json-schema-{difference}:" in guide


# --- Where the runtime and the schema differ, and where they only seem to -----------------------

#: One or more examples of every documented difference: the runtime accepts, the schema does not.
DIFFERENCE_EXAMPLES: list[tuple[str, dict[str, Any]]] = [
    ("unicode-digits", {"hw:numa_nodes": "\U0001d7d1"}),
    ("unicode-digits", {"hw:cpu_realtime_mask": "^\U0001e951"}),
    ("json-numbers", {"hw:numa_nodes": 2}),
    ("json-numbers", {"hw:tpm_version": 2.0}),
    ("json-numbers", {"resources:VCPU": 4}),
    ("json-numbers", {"foo:bar": 5}),  # a foreign key's number is read as text too
    ("unicode-word-characters", {"capabilities:cpu_info:modèle": "x"}),
    ("unicode-word-characters", {"capabilities:stats:счёт": "<= 1"}),
]


@pytest.mark.parametrize(("difference", "specs"), DIFFERENCE_EXAMPLES)
def test_each_documented_difference_by_example(difference, specs):
    assert difference in DIFFERENCE_NAMES
    assert accepted(runtime_verdict(specs))
    assert not VALIDATOR.is_valid(specs)


def test_every_difference_has_an_example_and_a_section_in_the_guide():
    guide = GUIDE.read_text(encoding="utf-8")
    assert {name for name, _ in DIFFERENCE_EXAMPLES} == DIFFERENCE_NAMES
    for difference in DIFFERENCES:
        assert f".. _json-schema-{difference.name}:" in guide


#: Places where Python and JSON Schema tools usually disagree, and this schema does not.
AGREEMENTS: list[dict[str, Any]] = [
    {"trait:HW_CPU_X86_AVX2\n": "required"},  # Python's $ matches before a final newline
    {"hw:cpu_realtime_mask": "0-3\n"},
    {"hw:numa_cpus.0\n": "0"},
    {"hw:numa_nodes": "\x1c1"},  # int() does not skip U+001C ...
    {"hw:cpu_realtime": "\x1ctrue\x1f"},  # ... but str.strip() does
    {"hw:numa_nodes": "\u30001\u2028"},
    {"hw:numa_nodes": "1__0"},
    {"hw:numa_nodes": "0_1"},
    {"hw:numa_nodes": "_1"},
    {"hw:serial_port_count": "-0_0"},
    {"hw:serial_port_count": "-1"},
    {"hw:redirected_usb_ports": "+0_15"},
    {"hw:redirected_usb_ports": "1_6"},
    {"aggregate_instance_extra_specs:a\nb": "x"},  # Python's . stops at a newline only
    {"aggregate_instance_extra_specs:a\u2028b": "x"},
    {"pci_passthrough:alias": "gpu:1 ,\u3000nic:2"},  # Python's \s is Unicode whitespace
    {"pci_passthrough:alias": "gpu:1\x1c,nic:2"},
    {"resources" + "A" * 64 + ":VCPU": "1"},  # the 64-character group suffix
    {"resources" + "A" * 65 + ":VCPU": "1"},
    {"trait" + "_" * 65 + ":CUSTOM_X": "required"},
    {"hw:numa_cpus.007": "0"},
    {"foo": None},  # no key, foreign or not, takes a value that is not a string
    {"foo:bar": True},
    {"foo:bar": ["x"]},
    {"foo": {"a": "b"}},
    {"hw:cpu_pollicy": None},
    {"hw:cpu_realtime": True},
    {"hw:numa_nodes": None},
    {"x" * 256: "y"},
    {"": "y"},
    {":hw": "y"},
    {"hw:": "y"},
]


@pytest.mark.parametrize("specs", AGREEMENTS, ids=[repr(s)[:60] for s in AGREEMENTS])
def test_the_schema_agrees_where_engines_usually_differ(specs):
    assert VALIDATOR.is_valid(specs) == accepted(runtime_verdict(specs))


# --- Integers, booleans and whitespace ----------------------------------------------------------

RANGES = [
    (None, None),
    (0, None),
    (1, None),
    (5, None),
    (100, None),
    (123, None),
    (None, 0),
    (None, -1),
    (None, 42),
    (0, 0),
    (0, 15),
    (1, 9),
    (7, 7),
    (-5, 5),
    (-100, -3),
    (10, 99),
    (99, 1000),
    (123, 4567),
    (-4096, 65535),
]

INT_ALPHABET = "0123456789+-_ \t\n\x0b\x0c\r\x1c\x1f\x85\xa0\u2000\u3000a.٣１৭²①"


def int_reads(text: str, minimum: int | None, maximum: int | None) -> bool:
    """What the runtime decides: Python's int(), then the bounds."""
    try:
        number = int(text)
    except ValueError:
        return False
    return (minimum is None or number >= minimum) and (maximum is None or number <= maximum)


@st.composite
def integer_spellings(draw: st.DrawFn) -> str:
    """An integer as a person might type it: padding, sign, zeros, underscores."""
    number = draw(st.integers(-(10**6), 10**6))
    digits = "0" * draw(st.integers(0, 2)) + str(abs(number))
    if draw(st.booleans()) and len(digits) > 1:
        cut = draw(st.integers(1, len(digits) - 1))
        digits = digits[:cut] + "_" + digits[cut:]
    sign = "-" if number < 0 else draw(st.sampled_from(["", "+", "-"]))
    space = st.text(" \t\n\xa0\u3000\x1c", max_size=2)
    return draw(space) + sign + digits + draw(space)


@pytest.mark.parametrize(("minimum", "maximum"), RANGES)
@given(text=st.one_of(st.text(INT_ALPHABET, max_size=10), integer_spellings()))
def test_the_integer_pattern_reads_strings_as_int_does(minimum, maximum, text):
    matches = re.search(integer_pattern(minimum, maximum), text) is not None
    assert matches == int_reads(text, minimum, maximum)


@pytest.mark.parametrize(("minimum", "maximum"), RANGES)
def test_the_integer_pattern_around_its_bounds(minimum, maximum):
    pattern = re.compile(integer_pattern(minimum, maximum))
    edges = [b for b in (minimum, maximum) if b is not None] or [0]
    for edge in edges:
        for number in range(edge - 120, edge + 121):
            for text in (str(number), f"+{number}" if number >= 0 else str(number), f"0{number}"):
                if number < 0 and text.startswith("0"):
                    continue
                assert (pattern.search(text) is not None) == int_reads(text, minimum, maximum)


@given(
    minimum=st.one_of(st.none(), st.integers(-(10**5), 10**5)),
    span=st.one_of(st.none(), st.integers(0, 10**5)),
    text=integer_spellings(),
)
def test_the_integer_pattern_for_any_range(minimum, span, text):
    maximum = None if span is None else (minimum or 0) + span
    matches = re.search(integer_pattern(minimum, maximum), text) is not None
    assert matches == int_reads(text, minimum, maximum)


@given(
    low=st.integers(0, 10**5),
    span=st.one_of(st.none(), st.integers(0, 10**5)),
    number=st.integers(0, 3 * 10**5),
    zeros=st.integers(0, 2),
)
def test_the_digits_range_of_key_parameters(low, span, number, zeros):
    high = None if span is None else low + span
    text = "0" * zeros + str(number)
    matches = re.fullmatch(digits_range(low, high, separators=False), text) is not None
    assert matches == (low <= number and (high is None or number <= high))


BOOL_ALPHABET = "tTrRuUeEfFaAlLsSoOnNyY01 \t\n\x1c\x1f\x85\xa0\u3000\u2028x2"


@st.composite
def boolean_spellings(draw: st.DrawFn) -> str:
    word = draw(st.sampled_from(sorted(TRUE_STRINGS | FALSE_STRINGS)))
    cased = "".join(c.upper() if draw(st.booleans()) else c for c in word)
    space = st.text(" \t\n\x0b\x1c\x1f\x85\xa0\u2028\u3000", max_size=2)
    return draw(space) + cased + draw(space)


@given(text=st.one_of(st.text(BOOL_ALPHABET, max_size=8), boolean_spellings(), st.text()))
def test_the_boolean_pattern_accepts_novas_spellings_only(text):
    matches = re.search(boolean_pattern(), text) is not None
    assert matches == (text.strip().lower() in TRUE_STRINGS | FALSE_STRINGS)


def test_the_whitespace_classes_are_what_python_strips():
    everything = [chr(c) for c in range(sys.maxunicode + 1)]
    stripped = {c for c in everything if c.isspace()}
    assert {c for c in everything if re.fullmatch(WHITESPACE, c)} == stripped
    skipped_by_int = {c for c in stripped if int_reads(f"{c}1{c}", None, None)}
    assert {c for c in everything if re.fullmatch(INT_WHITESPACE, c)} == skipped_by_int


def test_no_other_character_lower_cases_into_a_boolean_letter():
    letters = set("".join(TRUE_STRINGS | FALSE_STRINGS))
    for code in range(128, sys.maxunicode + 1):
        assert not set(chr(code).lower()) & letters, hex(code)


# --- Keys ---------------------------------------------------------------------------------------

KEY_ALPHABET = ":_-.AXaz09 \n\u2028é٣"

#: Sample values for every parameter pattern in the catalogue; a new pattern must add some.
PARAMETER_SAMPLES = {
    "[0-9]+": ["0", "12", "007"],
    "[a-zA-Z0-9_-]*": ["", "1", "_NET", "a-b"],
    "[A-Z0-9_]+": ["X", "GOLD_1"],
    "(:\\w+)*": ["", ":arch", ":topology:cores"],
    ".+": ["ssd", "a:b", "my key"],
}


def sample_keys(definition: ExtraSpec) -> list[str]:
    keys = [""]
    for segment in definition.segments:
        if isinstance(segment, LiteralText):
            keys = [key + segment.text for key in keys]
        else:
            keys = [key + sample for key in keys for sample in PARAMETER_SAMPLES[segment.regex]]
    return keys


def matching_property_titles(key: str) -> list[str]:
    titles = [SCHEMA["properties"][key]["title"]] if key in SCHEMA["properties"] else []
    return titles + [
        schema["title"]
        for pattern, schema in SCHEMA["patternProperties"].items()
        if re.search(pattern, key)
    ]


@pytest.mark.parametrize("definition", in_tree(), ids=lambda d: d.name)
def test_each_key_is_governed_by_the_one_definition_the_runtime_finds(definition):
    for key in sample_keys(definition):
        assert RUNTIME.lookup(key) == definition.name
        assert matching_property_titles(key) == [definition.name]
        assert KEY_VALIDATOR.is_valid({key: "x"})


def key_is_rejected(key: str, registry: Registry = RUNTIME) -> bool:
    try:
        registry.validate({key: "x"}, mode="strict")
    except ExtraSpecValidationError as exc:
        return any(finding.code in KEY_CODES for finding in exc.findings)
    return False


@st.composite
def catalogue_keys(draw: st.DrawFn) -> str:
    """A key made from a catalogue name, its parameters filled in, then perhaps damaged."""
    definition = draw(st.sampled_from(in_tree()))
    key = ""
    for segment in definition.segments:
        if isinstance(segment, LiteralText):
            key += segment.text
        else:
            key += draw(
                st.one_of(
                    st.sampled_from(PARAMETER_SAMPLES[segment.regex]),
                    st.from_regex(segment.regex, fullmatch=True),
                    st.text(KEY_ALPHABET, max_size=6),
                    st.integers(60, 70).map(lambda n: "A" * n),
                )
            )
    for _ in range(draw(st.integers(0, 2))):
        position = draw(st.integers(0, len(key)))
        action = draw(st.sampled_from(["insert", "delete", "swapcase", "cut"]))
        if action == "insert":
            key = key[:position] + draw(st.sampled_from(KEY_ALPHABET)) + key[position:]
        elif action == "delete":
            key = key[:position] + key[position + 1 :]
        elif action == "swapcase":
            key = key[:position] + key[position:].swapcase()
        else:
            key = key[:position]
    return key


def has_non_ascii_word_character(key: str) -> bool:
    return any(not c.isascii() and re.fullmatch(r"\w", c) for c in key)


@given(key=st.one_of(catalogue_keys(), st.text(KEY_ALPHABET, max_size=12)))
def test_the_schema_and_the_runtime_agree_on_keys(key):
    schema_accepts = KEY_VALIDATOR.is_valid({key: "x"})
    runtime_accepts = not key_is_rejected(key)
    if schema_accepts != runtime_accepts:  # documented: unicode-word-characters
        assert runtime_accepts and has_non_ascii_word_character(key), key


def test_every_parameter_pattern_has_samples():
    regexes = {s.regex for d in in_tree() for s in d.segments if isinstance(s, Parameter)}
    assert regexes <= set(PARAMETER_SAMPLES)


# --- Catalogues of other shapes -----------------------------------------------------------------


def spec(name: str, *parameters: Parameter, value: Value | None = None) -> ExtraSpec:
    """A definition whose value must be "ok", so that a misrouted key shows in its verdict."""
    value = value or Value(str, enum=("ok",))
    return ExtraSpec(name, "A test definition.", value, tuple(parameters))


SHAPES: dict[str, tuple[list[ExtraSpec], list[str]]] = {
    "a bare patterned key with bounds": (
        [spec("x{n}", Parameter("n", int, min=1, max=3)), spec("plain")],
        ["x2", "x5", "x0", "x", "x02", "y", "plain", "plain2", "x2:z", "x5:z"],
    ),
    "a bare key whose parameter may hold a colon": (
        [spec("tag{rest}", Parameter("rest", pattern=".+"))],
        ["tagx", "tag:x", "tagx:y", "tag", "tag\n"],
    ),
    "a prefix that may be empty": (
        [spec("{ns}:key", Parameter("ns", pattern="[a-z]*"))],
        [":key", "ab:key", "ab:other", "AB:key", "ab:key:x", "a:b:key"],
    ),
    "a group whose first definition decides the prefix": (
        [
            spec("p{g}:a", Parameter("g", pattern="[a-z]*")),
            spec("p{g}:b", Parameter("g", pattern="[0-9]*")),
        ],
        ["pxy:a", "pxy:b", "pxy:c", "p12:b", "p12:a", "p12:c", "p:b", "p:c"],
    ),
    "an integer parameter with a range": (
        [spec("hw:n.{id}", Parameter("id", int, min=2, max=12))],
        ["hw:n.2", "hw:n.12", "hw:n.012", "hw:n.013", "hw:n.1", "hw:n.-2", "hw:n.x", "hw:n."],
    ),
    "a length-limited parameter": (
        [spec("k:{word}", Parameter("word", pattern="[a-z]+", max_length=3))],
        ["k:abc", "k:abcd", "k:", "k:a", "k:A"],
    ),
    "literal and patterned prefixes of one namespace": (
        [spec("r:VCPU"), spec("r{g}:DISK", Parameter("g", pattern="[0-9]*", max_length=2))],
        ["r:VCPU", "r:DISK", "r1:DISK", "r123:DISK", "r1:VCPU", "rx:DISK", "r:MEM"],
    ),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_other_catalogue_shapes_agree_with_the_runtime(shape):
    definitions, keys = SHAPES[shape]
    schema = generator.flavor_extra_specs_schema(definitions)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    registry = compile_registry(definitions)
    for key in keys:
        for value in ("ok", "bad"):
            specs = {key: value}
            assert validator.is_valid(specs) == accepted(runtime_verdict(specs, registry)), specs


UNSUPPORTED = [
    spec("a:{x}", Parameter("x", pattern="(?=a)a+")),
    spec("a:{x}", Parameter("x", pattern="^a+")),
    spec("{x}:y", Parameter("x", pattern=".+")),  # a prefix parameter that can match a colon
    spec("a:{x}", Parameter("x", int, pattern="[0-7]+", max=5)),
    spec("a:{x}", Parameter("x", pattern="[a-z]+|[0-9]+", max_length=3)),
    spec("a:b", value=Value(str, pattern="(?i)yes")),
    spec("a:b", value=Value(str, pattern=r"\bword")),
    spec("a:b", value=Value(str, pattern="yes$")),
    spec("a:b", value=Value(str, pattern="a*+")),
    spec("a:b", value=Value(str, pattern="(?P<x>a)(?P=x)")),
]


@pytest.mark.parametrize("definition", UNSUPPORTED, ids=lambda d: repr(d.name))
def test_what_cannot_be_stated_is_refused_with_the_definitions_name(definition):
    with pytest.raises(SchemaError, match=re.escape(repr(definition.name))):
        generator.flavor_extra_specs_schema([definition])


# --- Portable regular expressions ---------------------------------------------------------------

PORTABLE = [
    (r"\w", "[A-Za-z0-9_]"),
    (r"\W", "[^A-Za-z0-9_]"),
    (r"\s", WHITESPACE),
    (r".+", r"[^\n]+"),
    (r"(?P<n>a)", "(a)"),
    (r"a{,3}", "a{0,3}"),
    (r"a{2,}?", "a{2,}?"),
    (r"a{", r"a\{"),
    (r"a}", r"a\}"),
    (r"\-\#\ \:", "-# :"),
    (r"[]a]", r"[\]a]"),
    (r"[^]a-]", r"[^\]a-]"),
    (r"[\-\]]", r"[\-\]]"),
    (r"\x41\u00e9", r"\x41\u00e9"),
    (r"[\b]", r"[\x08]"),
    (r"(?:a|b)(?=c)(?!d)", "(?:a|b)(?=c)(?!d)"),
]


@pytest.mark.parametrize(("python", "expected"), PORTABLE)
def test_portable_respells_python_patterns(python, expected):
    assert portable(python) == expected


@given(st.text(string.printable + "é€", max_size=20))
def test_literal_text_matches_itself_only(text):
    assert re.fullmatch(literal(text), text)
    assert all(c in "^$\\.*+?()[]{}|/" for c in re.findall(r"\\(.)", literal(text)))


def all_patterns(node: Any) -> list[str]:
    """Every ``pattern`` value and ``patternProperties`` key in a schema."""
    found: list[str] = []
    if isinstance(node, dict):
        for key, child in node.items():
            if key == "pattern" and isinstance(child, str):
                found.append(child)
            elif key == "patternProperties":
                found.extend(child)
            found.extend(all_patterns(child))
    elif isinstance(node, list):
        for child in node:
            found.extend(all_patterns(child))
    return found


NODE = shutil.which("node")
_NODE_SCRIPT = """
const probes = JSON.parse(require("fs").readFileSync(0, "utf8"));
const result = {};
for (const flags of ["u", ""]) {
  result[flags] = probes.map(([pattern, strings]) => {
    let regex;
    try { regex = new RegExp(pattern, flags); } catch (e) { return String(e); }
    return strings.map((s) => regex.test(s));
  });
}
process.stdout.write(JSON.stringify(result));
"""


def probe_strings() -> list[str]:
    strings = {s for case in CASE_LIST for s in (case["key"], case["value"]) if len(s) <= 80}
    for specs in AGREEMENTS + [specs for _, specs in DIFFERENCE_EXAMPLES]:
        strings.update(s for item in specs.items() for s in item if isinstance(s, str))
    strings.update(["", "\n", "a\n", "true\n", " 1 ", "1\u2028", "-0", "0_0", "é", "٣"])
    return sorted(strings)


def probes() -> list[tuple[str, list[str]]]:
    """Each pattern of the schema with the strings to try it on."""
    strings = probe_strings()
    # Every pattern meets every string, long ones included: the catalogue's patterns run in
    # linear time (hw:pmem, the CPU lists and pci_passthrough:alias were rewritten for it).
    return [(p, strings) for p in sorted(set(all_patterns(SCHEMA)) | {literal(string.punctuation)})]


def ecma_results(pairs: list[tuple[str, list[str]]]) -> dict[str, list[Any]]:
    """Node.js's verdict on each (pattern, strings), with the ``u`` flag and without."""
    assert NODE is not None, "Node.js is needed to check the patterns against ECMA-262"
    done = subprocess.run(
        [NODE, "-e", _NODE_SCRIPT],
        input=json.dumps(pairs),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def test_every_pattern_means_the_same_in_ecma_262():
    pairs = probes()
    results = ecma_results(pairs)
    for flags, outcomes in results.items():
        for (pattern, strings), ecma in zip(pairs, outcomes, strict=True):
            assert not isinstance(ecma, str), f"/{pattern}/{flags}: {ecma}"
            python = [re.search(pattern, s) is not None for s in strings]
            differing = [s for s, a, b in zip(strings, python, ecma, strict=True) if a != b]
            assert not differing, f"/{pattern}/{flags} differs on {differing[:5]!r}"


# --- The committed file -------------------------------------------------------------------------


def test_rendering_is_deterministic():
    assert manifest.render_schemas() == manifest.render_schemas()
    assert schema_documents.dumps(copy.deepcopy(SCHEMA)) == schema_documents.dumps(SCHEMA)


def test_the_text_is_two_space_json_with_a_final_newline():
    text = manifest.render_schemas()[schema_documents.DIRECTORY / FLAVOR_EXTRA_SPECS]
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text.startswith('{\n  "$schema": ')
    assert json.loads(text) == SCHEMA


def test_the_output_owns_its_directory():
    output = manifest.schemas_output()
    assert output.name == "schemas"
    assert output.owns == ROOT / "outputs" / "schemas"
    # Every schema, and the catalog that maps files to them for editors.
    expected = {output.owns / name for name in (*manifest.SCHEMAS, CATALOG_FILE)}
    assert set(output.render()) == expected


def test_the_committed_schemas_are_what_the_definitions_generate():
    output = manifest.schemas_output()
    rendered = output.render()
    for path, text in rendered.items():
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run `make schemas`"
    assert output.stale(rendered) == []


def test_the_drift_check_passes():
    onespec = Path(sys.executable).parent / "onespec"
    done = subprocess.run(
        [str(onespec), "generate", "schemas", "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# --- Digits of every script ---------------------------------------------------------------------

#: Zeros of scripts the schema spells out: ASCII, Arabic-Indic, Devanagari, Bengali, fullwidth.
SCRIPT_ZEROS = (0x30, 0x660, 0x966, 0x9E6, 0xFF10)


def in_script(text: str, zero: int) -> str:
    return "".join(chr(zero + int(c)) if c in string.digits else c for c in text)


def mixed_scripts(text: str) -> str:
    """Each ASCII digit of ``text`` in the next script of :data:`SCRIPT_ZEROS` in turn."""
    out, turn = [], 0
    for c in text:
        if c in string.digits:
            out.append(chr(SCRIPT_ZEROS[turn % len(SCRIPT_ZEROS)] + int(c)))
            turn += 1
        else:
            out.append(c)
    return "".join(out)


def integer_values(minimum: int | None, maximum: int | None) -> list[str]:
    """Values around a key's bounds and beyond, spelt in every way int() reads or refuses."""
    numbers = {0, 1, 7, 10, 255, 4096, -1, 10**12}
    for bound in (minimum, maximum):
        if bound is not None:
            numbers |= {bound - 1, bound, bound + 1}
    spellings = []
    for number in sorted(numbers):
        text = str(number)
        digits = text.lstrip("-")
        sign = "-" if number < 0 else ""
        spellings += [
            text,
            f" {text}\u3000",
            f"+{digits}" if not sign else text,
            f"{sign}0{digits}",
        ]
        if len(digits) > 1:
            spellings.append(f"{sign}{digits[0]}_{digits[1:]}")
            spellings.append(f"{sign}{digits[0]}__{digits[1:]}")  # int() refuses two
    values = []
    for text in spellings:
        values += [in_script(text, zero) for zero in SCRIPT_ZEROS]
        values.append(mixed_scripts(text))
    # Digits int() does not read as numbers, and what is not a number at all.
    return [*values, "\u00b2", "\u2460", "1\u00bd", "", " ", "1.0", "0x1", "\u0663\u066b5"]


def integer_keys() -> list[tuple[str, int | None, int | None]]:
    keys = []
    for definition in in_tree():
        if definition.value.type is int:
            key = sample_keys(definition)[-1]
            keys.append((key, definition.value.min, definition.value.max))
    return keys


@pytest.mark.parametrize(("key", "minimum", "maximum"), integer_keys(), ids=lambda k: str(k))
def test_every_integer_key_gets_the_runtimes_verdict_from_the_schema_in_any_script(
    key, minimum, maximum
):
    values = integer_values(minimum, maximum)
    disagree = [
        value
        for value in values
        if VALIDATOR.is_valid({key: value}) != accepted(runtime_verdict({key: value}))
    ]
    assert disagree == []
    # The check can tell: some of the values are taken and some refused.
    verdicts = {VALIDATOR.is_valid({key: value}) for value in values}
    assert verdicts == {True, False}


def test_the_digit_table_is_every_decimal_digit_of_its_unicode_version():
    for zero in decimal_digits.ZEROS:
        assert [unicodedata.decimal(chr(zero + n), None) for n in range(10)] == list(range(10))
    running = [
        code
        for code in range(sys.maxunicode + 1)
        if unicodedata.decimal(chr(code), None) == 0 and unicodedata.category(chr(code)) == "Nd"
    ]
    # A later Python knows scripts Unicode added since; the table is the oldest supported's.
    assert set(decimal_digits.ZEROS) <= set(running)
    if unicodedata.unidata_version == decimal_digits.UNICODE_VERSION:
        assert list(decimal_digits.ZEROS) == running


@pytest.mark.parametrize("python", [r"\d", r"[\d,]", r"\D", r"\^?\d+"])
def test_digit_shorthands_mean_what_they_mean_in_python(python):
    """``\\d`` is every script's decimal digit, as in Python (and Nova), but for those beyond
    the Basic Multilingual Plane: checked over every code point, where the running Python's
    Unicode is the table's."""
    if unicodedata.unidata_version != decimal_digits.UNICODE_VERSION:
        pytest.skip("the digit table is Unicode 14.0.0's: compared on a Python of that version")
    ours, theirs = re.compile(portable(python)), re.compile(python)
    differ = [
        code
        for code in range(sys.maxunicode + 1)
        if (ours.fullmatch(chr(code)) is None) != (theirs.fullmatch(chr(code)) is None)
    ]
    # Only the digits beyond the Basic Multilingual Plane, the documented difference.
    astral = {zero + n for zero in decimal_digits.ZEROS if zero > 0xFFFF for n in range(10)}
    assert set(differ) == astral
