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


def test_a_script_that_is_a_fifo_is_refused_when_the_spec_loads(tmp_path):
    os.mkfifo(tmp_path / "setup.sh")
    spec = tmp_path / "image.yaml"
    spec.write_text("validators:\n  - script: setup.sh\n")
    with pytest.raises(ImageValidationSpecificationError, match=r"'setup\.sh' is not a file"):
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
