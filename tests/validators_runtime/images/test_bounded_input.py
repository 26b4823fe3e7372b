"""``image check`` and the spec loader look at a file before reading it, and keep messages small.

Each case was found on the earlier code: a FIFO hung the check, a link to ``/dev/zero`` read
until memory ran out, the 1 MiB cap applied only after the whole file was read, a 5,000-digit
integer ended in a traceback, and a few hundred bytes of aliases made a 42 KB message.
The commands run in-process (click's runner); a worker thread bounds the cases that used to
hang, so a regression fails instead of stalling the suite.
"""

from __future__ import annotations

import os
import threading

import pytest
from click.testing import CliRunner

from onespec.validators_runtime.images import ImageValidationSpecificationError
from onespec.validators_runtime.images.checks import MAX_SCRIPT_SIZE
from onespec.validators_runtime.images.cli import image
from onespec.validators_runtime.images.reading import MAX_SPEC_SIZE
from onespec.validators_runtime.images.root import load


def check(path) -> tuple[int, str]:
    """``onespec image check PATH`` in-process, in a worker that must finish."""
    result: list = []
    worker = threading.Thread(
        target=lambda: result.append(CliRunner().invoke(image, ["check", str(path)])),
        daemon=True,
    )
    worker.start()
    worker.join(60)  # a hang, not a slow machine: the bounded cases do no work at all
    assert result, f"image check {path} did not finish"
    outcome = result[0]
    assert outcome.exc_info is None or isinstance(outcome.exc_info[1], SystemExit), outcome
    return outcome.exit_code, outcome.output


def test_a_fifo_is_refused_before_it_is_read(tmp_path):
    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)
    code, output = check(fifo)
    assert code == 2 and "not a regular file" in output and "Traceback" not in output


def test_a_link_to_an_endless_device_is_refused(tmp_path):
    link = tmp_path / "spec.yaml"
    link.symlink_to("/dev/zero")
    code, output = check(link)
    assert code == 2 and "not a regular file" in output


def test_an_oversize_file_is_refused_from_its_size_without_reading_it(tmp_path):
    big = tmp_path / "spec.yaml"
    with big.open("wb") as stream:  # sparse: 64 GiB that cost nothing unless read
        stream.truncate(64 << 30)
    code, output = check(big)
    assert code == 2 and f"over the limit of {MAX_SPEC_SIZE:,} bytes" in output


def test_the_loader_refuses_a_directory_and_a_fifo_with_the_file_named(tmp_path):
    with pytest.raises(ImageValidationSpecificationError, match="is a directory"):
        load(tmp_path)
    os.mkfifo(tmp_path / "fifo.yaml")
    with pytest.raises(ImageValidationSpecificationError, match=r"fifo\.yaml: .*regular file"):
        load(tmp_path / "fifo.yaml")


# --- The files a spec names: scripts it runs and scripts it copies ------------------------------


def _fifo(path):
    os.mkfifo(path)


def _sparse(path):  # 64 GiB that cost nothing unless read
    with path.open("wb") as stream:
        stream.truncate(64 << 30)


#: What a resource may be instead of a script, and the words that must say so. Each was
#: "is not a file in any resource root" (the FIFO, the directory), or a traceback (the name
#: too long), before.
HOSTILE_RESOURCES = {
    "fifo": (_fifo, "is a named pipe (FIFO), not a regular file"),
    "directory": (lambda path: path.mkdir(), "is a directory, not a regular file"),
    "oversize": (_sparse, f"is 68,719,476,736 bytes, over the limit of {MAX_SCRIPT_SIZE:,}"),
    "dev-zero": (lambda path: path.symlink_to("/dev/zero"), "leads out of the resource root"),
    "outside": (lambda path: path.symlink_to("/etc/passwd"), "leads out of the resource root"),
}


@pytest.mark.parametrize("key", ["script", "copy_script"])
@pytest.mark.parametrize("kind", sorted(HOSTILE_RESOURCES))
def test_a_hostile_resource_is_a_located_error_read_through_the_bounded_reader(tmp_path, key, kind):
    make, words = HOSTILE_RESOURCES[kind]
    make(tmp_path / "setup.sh")
    spec = tmp_path / "image.yaml"
    spec.write_text(f"validators:\n  - {key}: setup.sh\n")
    code, output = check(spec)
    assert code == 1, output
    assert f"{spec}:2: validators[0].{key}: {key} 'setup.sh' " in output, output
    assert words in output, output


def test_a_name_too_long_for_the_system_is_a_located_error(tmp_path):
    spec = tmp_path / "image.yaml"
    spec.write_text("validators:\n  - script: " + "a" * 300 + "\n")
    code, output = check(spec)
    assert code == 1 and "cannot be read: file name too long" in output, output
    assert len(output) < 1000  # the name is shown cut


def test_a_resource_that_cannot_be_read_is_not_looked_for_in_the_next_root(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    os.mkfifo(first / "setup.sh")
    (second / "setup.sh").write_text("true\n")
    spec = tmp_path / "image.yaml"
    spec.write_text("validators:\n  - script: setup.sh\n")
    with pytest.raises(ImageValidationSpecificationError, match="named pipe"):
        load(spec, resource_roots=[first, second])
    (first / "setup.sh").unlink()  # missing from the first root: found in the second
    assert load(spec, resource_roots=[first, second]).validators[0].source == str(
        second / "setup.sh"
    )


def test_a_script_at_the_limit_is_read_and_one_byte_more_is_not(tmp_path):
    script = tmp_path / "setup.sh"
    script.write_bytes(b"#" * MAX_SCRIPT_SIZE)
    spec = tmp_path / "image.yaml"
    spec.write_text("validators:\n  - script: setup.sh\n")
    assert len(load(spec).validators[0].script_contents) == MAX_SCRIPT_SIZE
    with script.open("ab") as stream:
        stream.write(b"#")
    with pytest.raises(ImageValidationSpecificationError, match="over the limit"):
        load(spec)


def test_an_integer_too_long_for_python_is_a_located_error(tmp_path):
    spec = tmp_path / "image.yaml"
    spec.write_text("validators:\n  - package: {java: {version: " + "1" * 5000 + "}}\n")
    code, output = check(spec)
    assert code == 1 and f"{spec}:2: a number is too long to read" in output


def test_values_in_messages_are_bounded(tmp_path):
    """Four lines of aliases make a 65,536-string list; the message shows a bounded part."""
    spec = tmp_path / "image.yaml"
    spec.write_text(
        "a0: &a0 [" + ", ".join(["x" * 16] * 4) + "]\n"
        + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 8) + "]\n" for i in (1, 2, 3))
        + "validators:\n  - package:\n      java:\n        version: *a3\n"
    )  # fmt: skip
    code, output = check(spec)
    assert code == 1 and "version" in output
    assert len(output) < 4000, len(output)
