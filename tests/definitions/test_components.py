"""The software-component vocabulary is defined once and holds together."""

from __future__ import annotations

import dataclasses

import pytest

from onespec.definitions import components as vocabulary
from onespec.definitions.component_vocabulary import Field, LifecycleAction, Shape, Tool
from onespec.definitions.model import DefinitionError


def test_every_action_says_when_it_fires_and_what_the_hook_receives():
    for action in vocabulary.ACTIONS:
        assert action.name in action.hook_receives
        assert action.fires.startswith("When")
        assert action.standard


def test_the_vocabulary_checks_itself():
    vocabulary.check()
    with pytest.raises(DefinitionError, match="names no shape"):
        vocabulary.check((Shape("x", "X", "An x.", (Field("f", "list", "F.", items="nothing"),)),))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: LifecycleAction("create", "s", "f", "h"), "must match"),
        (lambda: LifecycleAction("CREATE", "", "f", "h"), "summary"),
        (lambda: Tool("../x", "d"), "must match"),
        (lambda: Field("Bad", "string", "d"), "lower-case identifier"),
        (lambda: Field("f", "number", "d"), "kind must be one of"),
        (lambda: Field("f", "string", "d", required=True, default="x"), "no default"),
        (lambda: Field("f", "string", "d", items="x"), "apply to lists"),
        (lambda: Field("f", "list", "d"), "says what its items are"),
        (lambda: Field("f", "boolean", "d", choices=("a",)), "choices apply to strings"),
        (lambda: Field("f", "boolean", "d", default="yes"), "is not a boolean"),
        (lambda: Field("f", "string", "d", default="c", choices=("a", "b")), "not a choice"),
        (lambda: Shape("s", "S", "d", (Field("f", "any", "d"),) * 2), "declared twice"),
    ],
)
def test_malformed_vocabulary_is_refused(make, message):
    with pytest.raises(DefinitionError, match=message):
        make()


def test_vocabulary_entries_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        vocabulary.ACTIONS[0].name = "X"  # type: ignore[misc]


def test_the_shape_lookup():
    assert vocabulary.shape("config") is vocabulary.CONFIG_ENTRY
    assert vocabulary.action("SUSPEND").name == "SUSPEND"
    with pytest.raises(KeyError):
        vocabulary.action("QUIESCE")
    with pytest.raises(KeyError):
        vocabulary.shape("nope")
