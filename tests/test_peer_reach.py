"""The ``peers`` marker is found from calls, through helpers of the test suite."""

from __future__ import annotations

import textwrap

from tests.peer_reach import reaching_peers, source_digest

FILES = {
    "__init__.py": "",
    "peers/__init__.py": "def require(name): ...\ndef peer(name): ...\n",
    "helpers.py": """
        from tests import peers

        def glance_output():
            peers.require("glance")

        def deeper():
            return glance_output()

        def describes_only():
            return peers.peer("glance")

        class Server:
            def start(self):
                deeper()
    """,
    "area/__init__.py": "",
    "area/test_things.py": """
        from tests.helpers import Server, deeper, describes_only
        from tests import helpers
        from tests.peers import require as need

        def local_helper():
            return deeper()

        def test_through_a_helper_module():
            deeper()

        def test_through_a_local_helper():
            local_helper()

        def test_through_a_module_attribute():
            helpers.glance_output()

        def test_through_a_class():
            Server().start()

        def test_through_a_renamed_import():
            need("nova")

        def test_only_describing_a_peer():
            describes_only()

        def test_a_parameter_is_not_the_function(local_helper):
            assert local_helper

        class TestGrouped:
            def test_in_a_class(self):
                local_helper()
    """,
}


def test_a_peer_is_found_through_helpers_however_deep(tmp_path):
    root = tmp_path / "tests"
    for relative, text in FILES.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    found = {name for module, name in reaching_peers(root) if module == "tests.area.test_things"}
    assert found == {
        "local_helper",
        "test_through_a_helper_module",
        "test_through_a_local_helper",
        "test_through_a_module_attribute",
        "test_through_a_class",
        "test_through_a_renamed_import",
        "TestGrouped",
        "TestGrouped.test_in_a_class",
    }


def test_the_glance_round_trip_is_marked_from_its_calls():
    """Its module marks it slow only; ``peers`` comes from ``round_trip``'s call."""
    reached = reaching_peers()
    module = "tests.generator.extra_specs.test_glance_roundtrip"
    assert (module, "round_trip") in reached
    assert (module, "test_the_check_catches_what_glance_refuses") in reached
    assert ("tests.test_peer_reach", "test_the_glance_round_trip_is_marked_from_its_calls") not in (
        reached
    )


def test_the_digest_changes_with_any_module_and_only_then(tmp_path):
    """The answer is kept (conftest) under this digest: an edit, a new module or a renamed one
    must each change it, and nothing else may."""
    root = tmp_path / "tests"
    for relative, text in FILES.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    first = source_digest(root)
    (root / "notes.txt").write_text("not a module")
    assert source_digest(root) == first
    helpers = root / "helpers.py"
    helpers.write_text(helpers.read_text() + "\n")
    edited = source_digest(root)
    assert edited != first
    helpers.rename(root / "helpers2.py")
    renamed = source_digest(root)
    assert renamed != edited
    (root / "area" / "test_more.py").write_text("")
    assert source_digest(root) not in {first, edited, renamed}
