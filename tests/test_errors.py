"""One ``except onespec.OnespecError`` catches every refusal onespec raises, in any area.

Every module of the package is imported and every exception class it defines is checked, so a
class added later without the base fails here rather than slipping past a caller's ``except``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import io
import json
import pkgutil
import subprocess
import sys

import click
import pytest

import onespec
from onespec.errors import OnespecError
from tests.conftest import PACKAGE, ROOT

#: Modules that cannot be imported on their own: alembic runs its ``env.py`` as a script inside
#: a migration, where ``alembic.context`` is configured (it defines no class: checked below).
NOT_IMPORTABLE = {"onespec.validators_runtime.service.db.migrations.env"}

#: Exception classes that are control flow, not errors: each is raised and caught inside its
#: own module and named nowhere else (checked below); its docstring says why.
CONTROL_FLOW = {"onespec.validators_runtime.yaml_limits._General"}


def every_module() -> list[str]:
    """Every module of ``onespec``, imported. A module is passed over only when a third-party
    library it needs (an optional extra) is not installed; any other failure fails the test."""
    names = []
    for info in pkgutil.walk_packages(onespec.__path__, "onespec."):
        if info.name in NOT_IMPORTABLE:
            continue
        try:
            importlib.import_module(info.name)
        except ImportError as error:
            if (error.name or "onespec").split(".")[0] == "onespec":
                raise
            continue
        names.append(info.name)
    return names


def qualified(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


@pytest.fixture(scope="module")
def exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class a module of onespec defines (not the ones it imports)."""
    found = {}
    for name in every_module():
        for value in vars(sys.modules[name]).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__.startswith("onespec")
            ):
                found[qualified(value)] = value
    return found


def test_every_exception_of_onespec_derives_from_the_one_base(exception_classes):
    # The walk reaches every area: a walk that found nothing would pass for the wrong reason.
    assert {
        "onespec.definitions.model.DefinitionError",
        "onespec.generator.literals.NotALiteral",
        "onespec.validators_runtime.extra_specs.ExtraSpecValidationError",
        "onespec.validators_runtime.service.errors.NotFound",
        "onespec.validators_runtime.images.errors.RemoteCommandError",
        "onespec.validators_runtime.cli_grammar.InvalidInput",
    } <= set(exception_classes)
    assert len(exception_classes) >= 55
    outside = {
        name
        for name, cls in exception_classes.items()
        if not issubclass(cls, OnespecError) and name not in CONTROL_FLOW
    }
    assert outside == set()


def test_the_control_flow_exceptions_never_leave_their_module(exception_classes):
    for name in CONTROL_FLOW:
        cls = exception_classes[name]
        assert not issubclass(cls, OnespecError)
        own = PACKAGE.parent.joinpath(*cls.__module__.split(".")).with_suffix(".py")
        elsewhere = [
            path
            for path in PACKAGE.rglob("*.py")
            if path != own and cls.__name__ in path.read_text(encoding="utf-8")
        ]
        assert elsewhere == [], name
        assert "never leaves this module" in " ".join((cls.__doc__ or "").split())


def test_the_modules_not_imported_define_no_class():
    for name in NOT_IMPORTABLE:
        path = PACKAGE.parent.joinpath(*name.split(".")).with_suffix(".py")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)], name


def test_the_built_in_bases_callers_catch_are_kept():
    from onespec.generator.literals import NotALiteral
    from onespec.validators_runtime.extra_specs import ExtraSpecValidationError
    from onespec.validators_runtime.plugin_labels.labels import PluginNotFound
    from onespec.validators_runtime.service.client import ApiClientError

    assert issubclass(ExtraSpecValidationError, ValueError)
    assert issubclass(PluginNotFound, LookupError)
    assert issubclass(NotALiteral, TypeError)
    assert issubclass(ApiClientError, click.ClickException)
    missing = PluginNotFound("vanila", ["vanilla"])
    assert str(missing) == "There is no plugin named 'vanila'. Did you mean 'vanilla'?"


def test_the_command_line_errors_keep_their_exit_codes_and_their_line():
    from onespec.validators_runtime.cli_grammar import Invalid, InvalidInput, UnusableInput

    assert InvalidInput("x").exit_code == Invalid().exit_code == 1
    assert UnusableInput("x").exit_code == 2
    shown = io.StringIO()
    UnusableInput("specs.yaml: no such file").show(file=shown)
    assert shown.getvalue() == "Error: specs.yaml: no such file\n"
    assert isinstance(Invalid(), click.exceptions.Exit)


def test_the_reader_and_the_flavor_checks_raise_one_input_error(tmp_path):
    from onespec.validators_runtime import flavors, inputs
    from onespec.validators_runtime.flavor_parts import inputs as flavor_inputs

    assert flavors.InputError is flavor_inputs.InputError is inputs.InputError
    assert issubclass(inputs.InputError, OnespecError) and issubclass(inputs.InputError, ValueError)

    with pytest.raises(inputs.InputError) as unread:
        inputs.read_text(str(tmp_path / "flavor.json"), limit=100)
    assert str(unread.value) == f"{tmp_path / 'flavor.json'}: no such file"
    assert unread.value.code == "missing"

    with pytest.raises(inputs.InputError) as unreadable:
        flavors.read_flavor({"vcpus": 2})
    assert str(unreadable.value) == "flavor.ram is missing"
    assert (unreadable.value.code, unreadable.value.file) == ("shape", None)
    assert unreadable.value.reason == "flavor.ram is missing"


def test_one_except_catches_a_refusal_of_the_public_api():
    try:
        onespec.validate({"hw:cpu_pollicy": "x"})
    except onespec.OnespecError as error:
        caught = error
    else:  # pragma: no cover - the key is unknown
        pytest.fail("an unknown extra spec was accepted")
    assert isinstance(caught, onespec.ExtraSpecValidationError)
    assert [f.code for f in caught.findings] == ["unknown-key"]


def test_the_base_is_public_and_importing_onespec_still_loads_nothing():
    assert onespec.OnespecError is OnespecError
    assert "OnespecError" in onespec.__all__ and "OnespecError" in dir(onespec)
    script = "import json, sys, onespec\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = {m for m in json.loads(done.stdout) if m.startswith("onespec")}
    assert loaded == {"onespec"}
