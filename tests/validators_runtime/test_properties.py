"""Properties for arbitrary input: validate returns or raises its own error, nothing else."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from onespec.definitions.registry import in_tree
from onespec.validators_runtime.extra_specs import ExtraSpecValidationError, Finding, validate

KNOWN_NAMES = [d.name for d in in_tree()]

# Keys that look like real ones (known prefixes, patterned names filled in, typos) as well as
# anything at all, so that every branch of the lookup is exercised.
near_keys = st.builds(
    lambda name, noise, filler: name.replace("{", filler).replace("}", noise),
    st.sampled_from(KNOWN_NAMES),
    st.text(string.ascii_letters + string.digits + "_:.-", max_size=3),
    st.text(string.ascii_letters + string.digits + "_", max_size=70),
)
keys = st.one_of(
    near_keys,
    st.text(max_size=300),
    st.text(string.ascii_letters + ":._-{}", max_size=40),
    st.integers(),
    st.none(),
    st.binary(max_size=5),
    st.tuples(st.text(max_size=3)),
)
values = st.one_of(
    st.text(max_size=300),
    st.sampled_from(["required", "forbidden", "dedicated", "true", "1", "0-3,^2", "2048"]),
    st.integers(),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=2),
)
specs = st.dictionaries(keys, values, max_size=8)


@given(specs, st.sampled_from(["strict", "permissive", "off"]))
def test_validate_returns_warnings_or_raises_its_own_error(extra_specs, mode):
    try:
        warnings = validate(extra_specs, mode=mode)
    except ExtraSpecValidationError as exc:
        assert exc.errors, "an error is raised only when some finding is an error"
        for finding in exc.findings:
            assert isinstance(finding, Finding)
            assert finding.message.endswith((".", "?"))
            assert finding.code in {"unknown-key", "invalid-key", "invalid-value", "deprecated"}
        return
    assert isinstance(warnings, list)
    assert all(w.severity == "warning" for w in warnings)
    if mode == "off":
        assert warnings == []


@given(specs)
def test_strict_rejects_whatever_permissive_rejects(extra_specs):
    try:
        validate(extra_specs, mode="permissive")
    except ExtraSpecValidationError:
        try:
            validate(extra_specs, mode="strict")
        except ExtraSpecValidationError:
            return
        raise AssertionError("permissive rejected what strict accepted") from None


@given(st.dictionaries(st.text(max_size=30), st.text(max_size=30), max_size=6))
def test_findings_are_per_key_and_independent(extra_specs):
    """Validating keys together finds exactly what validating each alone finds."""

    def findings(specs):
        try:
            return validate(specs, mode="strict")
        except ExtraSpecValidationError as exc:
            return list(exc.findings)

    together = findings(extra_specs)
    alone = [f for key, value in extra_specs.items() for f in findings({key: value})]
    assert together == alone
