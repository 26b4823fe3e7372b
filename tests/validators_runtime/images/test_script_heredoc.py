"""``image script`` embeds each plugin script readably, as a quoted here-document, and safely.

A reviewer reads what will run as root on an image in the rendered script itself. The bodies
below try every way out of a here-document -- its usual delimiters, a line that looks like
onespec's, command substitution, backquotes, parameter expansion, a trailing backslash, no
final newline -- and the rendered script is run by bash for real: it must copy each body byte
for byte and run none of it outside the embedded script.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from onespec.validators_runtime.images.root import load
from onespec.validators_runtime.images.script import (
    DELIMITER_PREFIX,
    delimiter,
    heredoc,
    render_script,
)
from tests.validators_runtime.images.helpers import write_spec

HOSTILE = (
    "#!/bin/bash\n"
    '# $(touch "$MARKER") `touch "$MARKER"` ${UNSET_VARIABLE:?boom} \\\n'
    "EOF\n"
    "ONESPEC_EOF_\n"
    f"{DELIMITER_PREFIX}0123456789abcdef\n"
    ": <<'X'\n"
    "X\n"
    "# a carriage\r return and a tab\t\n"
    'cat -- "$0" > "$COPY_TO"\n'
    "exit 0"  # no final newline
)


def rendered(tmp_path: Path, body: bytes) -> str:
    (tmp_path / "hostile.sh").write_bytes(body)
    spec = write_spec(tmp_path, "validators:\n  - script: hostile.sh\n")
    return render_script(load(spec), "ubuntu")


def run(tmp_path: Path, script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={
            "PATH": "/usr/bin:/bin",
            "MARKER": str(tmp_path / "marker"),
            "COPY_TO": str(tmp_path / "copy"),
        },
        timeout=60,
        check=False,
    )


def test_the_script_is_embedded_as_written_in_a_quoted_heredoc(tmp_path):
    body = HOSTILE.encode()
    script = rendered(tmp_path, body)
    end = DELIMITER_PREFIX + hashlib.sha256(body).hexdigest()[:16]
    assert f"<<'{end}'\n{HOSTILE}\n{end}\n" in script
    assert "base64" not in script


def test_bash_copies_the_body_byte_for_byte_and_runs_nothing_of_it(tmp_path):
    body = HOSTILE.encode()
    done = run(tmp_path, rendered(tmp_path, body))
    assert done.returncode == 0, done.stderr
    assert "image spec satisfied" in done.stderr
    assert (tmp_path / "copy").read_bytes() == body
    assert not (tmp_path / "marker").exists()


def test_a_body_ending_with_a_newline_keeps_exactly_one(tmp_path):
    body = b'#!/bin/bash\ncat -- "$0" > "$COPY_TO"\n\n'
    done = run(tmp_path, rendered(tmp_path, body))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "copy").read_bytes() == body


def test_the_delimiter_is_never_a_line_of_the_body():
    assert delimiter("a\nX\nX_1\nX_3\n", base="X") == "X_2"
    assert delimiter("X \n X\nXX\n", base="X") == "X"  # only a whole line ends the body
    body = "echo\n"
    assert delimiter(body) == DELIMITER_PREFIX + hashlib.sha256(body.encode()).hexdigest()[:16]


def test_bytes_bash_cannot_carry_fall_back_to_base64(tmp_path):
    assert heredoc(b"a\0b", "t") is None
    assert heredoc(b"\xff\xfe", "t") is None
    body = b'#!/bin/bash\n# \xff\ncat -- "$0" > "$COPY_TO"\n'
    script = rendered(tmp_path, body)
    assert "base64 -d" in script
    done = run(tmp_path, script)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "copy").read_bytes() == body
