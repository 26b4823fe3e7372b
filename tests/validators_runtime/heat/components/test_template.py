"""Reading HOT templates: Heat's loader rules, get_file confined to its root, get_param."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from onespec.validators_runtime.heat.components import ComponentValidationError, Unresolved
from onespec.validators_runtime.heat.components.template import Template, TemplateError, parse

DATA = Path(__file__).parent / "data"
APPSERVER = DATA / "appserver" / "appserver.yaml"

COMPONENT = """\
heat_template_version: 2015-04-30
parameters:
  mode: {type: string, default: fast}
  port: {type: number}
  settings: {type: json, default: {a: [1, 2]}}
resources:
  c:
    type: OS::Heat::SoftwareComponent
    properties:
      configs:
        - actions: [CREATE]
          config: {get_file: %s}
          tool: script
      inputs:
        - name: mode
          default: {get_param: mode}
        - name: port
          type: Number
          default: {get_param: port}
        - name: first
          type: Number
          default: {get_param: [settings, a, 0]}
        - name: host
          default: {get_attr: [server, first_address]}
"""


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_dates_stay_strings_as_in_heat():
    template = Template.load(APPSERVER)
    assert template.version == "2014-10-16"
    assert template.data["heat_template_version"] == "2014-10-16"
    assert parse("a: 2001-12-14t21:59:43.10-05:00\n") == {"a": "2001-12-14t21:59:43.10-05:00"}


def test_a_json_template_is_read_as_json():
    assert parse('{"heat_template_version": "2016-04-08", "n": 1}') == {
        "heat_template_version": "2016-04-08",
        "n": 1,
    }


def test_the_loader_is_safe():
    with pytest.raises(TemplateError) as caught:
        parse("!!python/object/apply:os.system ['true']\n", path="evil.yaml")
    assert "evil.yaml" in str(caught.value)


def test_syntax_errors_name_the_file_and_line(tmp_path):
    path = write(tmp_path, "t.yaml", "heat_template_version: 2015-04-30\nresources: [\n  a: b\n")
    with pytest.raises(TemplateError) as caught:
        Template.load(path)
    assert caught.value.path == str(path)
    assert caught.value.line is not None
    assert str(caught.value).startswith(f"{path}:{caught.value.line}: not valid YAML: ")
    path = write(tmp_path, "t.json", '{"heat_template_version": \n')
    with pytest.raises(TemplateError, match="not valid YAML: "):
        Template.load(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- a\n", "not a mapping"),
        ("resources: {}\n", "no heat_template_version"),
        ("heat_template_version: 2015-04-30\nresources: [a]\n", "resources section"),
    ],
)
def test_what_is_not_a_hot_template(tmp_path, text, message):
    with pytest.raises(TemplateError, match=message):
        Template.load(write(tmp_path, "t.yaml", text))


def test_unreadable_files(tmp_path):
    with pytest.raises(TemplateError, match="cannot be read"):
        Template.load(tmp_path / "missing.yaml")
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"heat_template_version: \xe9\n")
    with pytest.raises(TemplateError, match="not UTF-8"):
        Template.load(path)


def test_get_file_is_read_relative_to_the_template(tmp_path):
    write(tmp_path, "scripts/install.sh", "#!/bin/sh\necho hi\n")
    template = Template.load(write(tmp_path, "t.yaml", COMPONENT % "scripts/install.sh"))
    component = template.component("c")
    assert component.configs[0].config == "#!/bin/sh\necho hi\n"


def test_get_param_takes_the_default_a_given_value_or_stays_unresolved(tmp_path):
    write(tmp_path, "s.sh", "#!/bin/sh\n")
    path = write(tmp_path, "t.yaml", COMPONENT % "s.sh")
    inputs = {i.name: i.default for i in Template.load(path).component("c").inputs}
    assert inputs["mode"] == "fast"
    assert inputs["first"] == 1
    assert inputs["port"] == Unresolved("get_param", {"get_param": "port"})
    assert inputs["host"] == Unresolved("get_attr", {"get_attr": ["server", "first_address"]})
    given = Template.load(path, parameters={"port": "8080", "mode": "slow"}).component("c")
    assert {i.name: i.default for i in given.inputs}["port"] == 8080
    assert {i.name: i.default for i in given.inputs}["mode"] == "slow"


def test_a_parameter_value_of_the_wrong_type_is_reported(tmp_path):
    write(tmp_path, "s.sh", "#!/bin/sh\n")
    path = write(tmp_path, "t.yaml", COMPONENT % "s.sh")
    with pytest.raises(ComponentValidationError) as caught:
        Template.load(path, parameters={"port": "eighty"}).component("c")
    assert [p.location.path for p in caught.value.problems] == ["inputs[1].default"]


def test_undeclared_parameters_are_refused(tmp_path):
    write(tmp_path, "s.sh", "#!/bin/sh\n")
    with pytest.raises(TemplateError, match="declares no parameter 'prot'"):
        Template.load(write(tmp_path, "t.yaml", COMPONENT % "s.sh"), parameters={"prot": "1"})


def test_get_param_of_an_undeclared_parameter_is_a_problem(tmp_path):
    write(tmp_path, "s.sh", "#!/bin/sh\n")
    text = (COMPONENT % "s.sh").replace("{get_param: mode}", "{get_param: modus}")
    with pytest.raises(ComponentValidationError) as caught:
        Template.load(write(tmp_path, "t.yaml", text)).component("c")
    [problem] = caught.value.problems
    assert (problem.location.path, problem.code) == ("inputs[0].default", "unresolvable")
    assert "'modus'" in problem.message


@pytest.mark.parametrize("target", ["../outside.sh", "/etc/hostname", "file:///etc/hostname"])
def test_get_file_never_escapes_the_files_root(tmp_path, target):
    root = tmp_path / "templates"
    write(tmp_path, "outside.sh", "#!/bin/sh\n")
    path = write(root, "t.yaml", COMPONENT % target)
    with pytest.raises(ComponentValidationError) as caught:
        Template.load(path).component("c")
    [problem] = caught.value.problems
    assert (problem.location.path, problem.code) == ("configs[0].config", "unresolvable")
    assert "outside the files root" in problem.message


def test_a_symlink_out_of_the_root_does_not_escape(tmp_path):
    root = tmp_path / "templates"
    secret = write(tmp_path, "secret.sh", "#!/bin/sh\n")
    root.mkdir()
    os.symlink(secret, root / "link.sh")
    with pytest.raises(ComponentValidationError, match="outside the files root"):
        Template.load(write(root, "t.yaml", COMPONENT % "link.sh")).component("c")


def test_a_wider_files_root_is_allowed(tmp_path):
    root = tmp_path / "templates"
    write(tmp_path, "scripts/s.sh", "#!/bin/sh\n")
    path = write(root, "t.yaml", COMPONENT % "../scripts/s.sh")
    component = Template.load(path, files_root=tmp_path).component("c")
    assert component.configs[0].config == "#!/bin/sh\n"


def test_a_missing_file_is_a_problem(tmp_path):
    with pytest.raises(ComponentValidationError) as caught:
        Template.load(write(tmp_path, "t.yaml", COMPONENT % "nope.sh")).component("c")
    [problem] = caught.value.problems
    assert "get_file cannot read 'nope.sh'" in problem.message


def test_a_url_is_left_to_heat(tmp_path):
    text = COMPONENT % "https://example.com/install.sh"
    component = Template.load(write(tmp_path, "t.yaml", text)).component("c")
    assert isinstance(component.configs[0].config, Unresolved)


def test_recursive_aliases_are_refused(tmp_path):
    text = (
        "heat_template_version: 2015-04-30\nresources:\n  c:\n"
        "    type: OS::Heat::SoftwareComponent\n    properties:\n      options: &a [*a]\n"
    )
    with pytest.raises(TemplateError, match="recursive alias") as caught:
        Template.load(write(tmp_path, "t.yaml", text))
    assert caught.value.line == 6


def test_an_alias_bomb_is_refused_before_it_expands(tmp_path):
    lines = ["      a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 7):
        lines.append(
            f"      b{level}: &b{level} ["
            + ", ".join([f"*{'a' if level == 1 else f'b{level - 1}'}"] * 10)
            + "]"
        )
    text = (
        "heat_template_version: 2015-04-30\nresources:\n  c:\n"
        "    type: OS::Heat::SoftwareComponent\n    properties:\n      options:\n"
        + "\n".join("  " + line for line in lines)
        + "\n"
    )
    with pytest.raises(TemplateError, match="alias bomb"):
        Template.load(write(tmp_path, "t.yaml", text))


def test_resources_are_found_by_type():
    template = Template.load(APPSERVER)
    assert template.components() == ["appserver-config"]
    assert template.resources_of_type("OS::Heat::SoftwareDeployment") == ["appserver-deployment"]
    assert template.resource_type("appserver") == "OS::Nova::Server"
    assert template.resource_type("nothing") is None


def test_the_appserver_component_reads_its_scripts():
    component = Template.load(APPSERVER).component("appserver-config")
    scripts = DATA / "appserver" / "scripts"
    assert [e.config for e in component.configs] == [
        (scripts / name).read_text()
        for name in ("install_appserver.sh", "reconfigure_appserver.sh", "drain_sessions.sh")
    ]
    json.dumps(component.to_properties())


def _get_file_problem(tmp_path: Path) -> str:
    with pytest.raises(ComponentValidationError) as caught:
        Template.load(tmp_path / "t.yaml").component("c")
    [problem] = caught.value.problems
    assert (problem.location.path, problem.code) == ("configs[0].config", "unresolvable")
    return problem.message


def test_a_get_file_fifo_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "s.sh")  # opening it to read would wait for a writer forever
    write(tmp_path, "t.yaml", COMPONENT % "s.sh")
    assert "not a regular file" in _get_file_problem(tmp_path)


def test_a_get_file_larger_than_heat_accepts_is_refused_unread(tmp_path, monkeypatch):
    from onespec.validators_runtime import inputs

    # Bound the work, not the clock: the file is sparse and far larger than the cap, and it is
    # refused from its size, before anything of it is read.
    big = tmp_path / "s.sh"
    with big.open("wb") as stream:
        stream.truncate(3 * 1024**3)
    read: list[int] = []
    real_read = inputs._read_at_most

    def counting(stream, limit, name):
        data = real_read(stream, limit, name)
        read.append(len(data))
        return data

    monkeypatch.setattr(inputs, "_read_at_most", counting)
    write(tmp_path, "t.yaml", COMPONENT % "s.sh")
    assert "over the limit of 1,048,576 bytes" in _get_file_problem(tmp_path)
    assert read == []

    # Just over the limit but growing while read would still stop at limit + 1: the size check
    # is what refuses it here, and a file at the limit is read whole.
    big.write_bytes(b"#!/bin/sh\n".ljust(1024 * 1024, b"#"))
    Template.load(tmp_path / "t.yaml").component("c")  # no problem: read whole
    assert read == [1024 * 1024]


def test_a_directory_as_get_file_is_a_problem_not_a_traceback(tmp_path):
    (tmp_path / "s.sh").mkdir()
    write(tmp_path, "t.yaml", COMPONENT % "s.sh")
    assert "s.sh" in _get_file_problem(tmp_path)
