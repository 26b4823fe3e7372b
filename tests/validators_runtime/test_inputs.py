"""The one bounded reader (:mod:`onespec.validators_runtime.inputs`), on real special files."""

from __future__ import annotations

import os
import socket
import threading

import pytest

from onespec.validators_runtime import inputs
from onespec.validators_runtime.inputs import InputError, read_bytes, read_text, regular_file


def refusal(path, **kw) -> InputError:
    with pytest.raises(InputError) as raised:
        read_bytes(path, limit=kw.pop("limit", 1000), **kw)
    return raised.value


def test_a_named_pipe_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "specs.yaml"
    os.mkfifo(fifo)
    # Opening a FIFO for reading blocks until a writer comes; the reader must never do it.
    done = threading.Event()
    result: list[InputError] = []
    worker = threading.Thread(target=lambda: (result.append(refusal(fifo)), done.set()))
    worker.daemon = True
    worker.start()
    assert done.wait(5), "the reader blocked on a named pipe"
    (error,) = result
    assert error.code == "not-a-file"
    assert str(error).startswith(f"{fifo}: is a named pipe (FIFO), not a regular file")


def test_a_link_to_dev_zero_says_where_it_leads(tmp_path):
    link = tmp_path / "spec.yaml"
    link.symlink_to("/dev/zero")
    error = refusal(link)
    assert error.code == "not-a-file"
    assert "is a character device (a symbolic link to /dev/zero)" in str(error)


def test_a_directory_and_a_socket_are_named_for_what_they_are(tmp_path):
    (tmp_path / "d.py").mkdir()
    assert "is a directory" in str(refusal(tmp_path / "d.py"))
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "s.yaml"))
        assert "is a socket" in str(refusal(tmp_path / "s.yaml"))


def test_a_file_over_the_limit_is_refused_from_its_size(tmp_path):
    huge = tmp_path / "huge.yaml"
    with huge.open("wb") as stream:
        stream.truncate(3 << 30)  # sparse: reading it would take 3 GiB
    error = refusal(huge, limit=1 << 20)
    assert error.code == "too-large"
    assert "is 3,221,225,472 bytes, over the limit of 1,048,576 bytes" in str(error)


def test_a_file_at_the_limit_is_read(tmp_path):
    path = tmp_path / "at.yaml"
    path.write_bytes(b"x" * 1000)
    assert read_bytes(path, limit=1000) == b"x" * 1000
    path.write_bytes(b"x" * 1001)
    assert refusal(path).code == "too-large"


def test_endless_standard_input_is_refused_at_the_limit():
    with open("/dev/zero", "rb") as endless:
        error = refusal("-", limit=1 << 20, stdin=endless)
        assert endless.tell() <= (1 << 20) + 1  # read no further than the limit and one byte
    assert error.code == "too-large"
    assert str(error).startswith("<stdin>: is larger than the limit of 1,048,576 bytes")


def test_missing_and_not_utf8_are_located(tmp_path):
    assert refusal(tmp_path / "nope.yaml").code == "missing"
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(InputError) as raised:
        read_text(latin, limit=100)
    assert (raised.value.code, raised.value.line) == ("encoding", 2)
    assert str(raised.value).startswith(f"{latin}:2: is not UTF-8 text (byte 0xe9")


def test_regular_file_checks_without_opening(tmp_path):
    fifo = tmp_path / "key"
    os.mkfifo(fifo)
    with pytest.raises(InputError):
        regular_file(fifo)
    (tmp_path / "ok").write_text("x")
    assert regular_file(tmp_path / "ok").st_size == 1
    assert inputs.kind_of(os.stat(tmp_path).st_mode) == "a directory"


def test_a_utf8_byte_order_mark_is_read_past(tmp_path):
    """Windows editors write one; JSON readers refused it with Python's own words."""
    path = tmp_path / "flavor.json"
    path.write_bytes(b'\xef\xbb\xbf{"ram": 1}\n')
    assert read_text(str(path), limit=100) == '{"ram": 1}\n'


@pytest.mark.parametrize(
    ("encoding", "named"), [("utf-16", "UTF-16"), ("utf-32", "UTF-32"), ("utf-16-be", "UTF-16")]
)
def test_utf16_and_utf32_are_named_with_how_to_convert(tmp_path, encoding, named):
    """PowerShell writes UTF-16: it was "not UTF-8 text (byte 0xff ...)", with no hint."""
    path = tmp_path / "flavor.json"
    text = '{"ram": 1}\n'
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    path.write_bytes(data)
    with pytest.raises(InputError) as refused:
        read_text(str(path), limit=100)
    assert refused.value.code == "encoding" and refused.value.line == 1
    assert f"is {named} text" in str(refused.value) and "save it as UTF-8" in str(refused.value)
