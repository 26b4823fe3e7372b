"""Reading what a command was given -- a file, or ``-`` for standard input -- with bounds.

Every command that reads a file reads it here, so that every one answers the same way when the
path is not what it should be. What the path names is checked *before* anything is read:

- only a regular file is opened. A named pipe (FIFO) would block the reader until a writer
  comes, forever; a device such as ``/dev/zero`` (often behind a harmless-looking symbolic link)
  never ends; a directory or a socket cannot be read as text. Each is refused with a sentence
  saying what it is;
- a file larger than the caller's ``limit`` is refused from its size, before one byte is read;
- at most ``limit + 1`` bytes are read even so, so a file that grows while it is read, and
  standard input, which has no size, are refused when they pass the limit rather than read to
  their end (an endless ``yes |`` is refused at the limit, in the time it takes to read it).

A refusal is an :class:`InputError`: the file as the user named it, what is wrong, and a
``code`` (``missing``, ``not-a-file``, ``unreadable``, ``too-large``, ``encoding``; ``shape``
when the flavor checks refuse a document that is not a flavor or an image) for callers that
report in a shape of their own. The command line turns it into one located ``Error:`` line
and exit 2 (``encoding`` -- the file was read and is not text -- exit 1), the grammar that
:mod:`onespec.validators_runtime.cli_grammar` states.

Standard library only: the runtime and the generator both read through it.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
import sys
from typing import BinaryIO, Literal

from onespec.errors import OnespecError
from onespec.validators_runtime.problems import Location

#: Why an input cannot be read (:attr:`InputError.code`).
InputCode = Literal["missing", "not-a-file", "unreadable", "too-large", "encoding", "shape"]

#: The name standard input goes by in messages.
STDIN_NAME = "<stdin>"

#: How many (flavor, image group) checks a fleet may take unless told otherwise: about ten
#: seconds of one core. Images that Nova's checks cannot tell apart are one group, so a real
#: cloud's fleet needs a small part of this; a fleet past it is refused before any work, with
#: the number it would need (``--max-checks``; the fleet's check imports it from here, the
#: command line's help shows it without importing the rules).
MAX_FLEET_CHECKS = 400_000

#: What a file of a kind other than regular is called in a message.
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)

#: Read in pieces of this size, so that a large limit never means one large allocation up front.
_CHUNK = 1 << 20


class InputError(OnespecError, ValueError):
    """An input that cannot be read as asked: ``file`` (as the user named it), ``reason`` (a
    sentence without the file), ``code``, and for ``encoding`` the 1-based ``line``.

    Also raised by ``onespec.validators_runtime.flavors`` for a flavor or an image, handed over
    already parsed, that cannot be read as one: ``code`` is ``shape``, ``file`` is None and the
    message is the reason alone, naming the field (``flavor.ram is missing``)."""

    def __init__(
        self, code: InputCode, file: str | None, reason: str, line: int | None = None
    ) -> None:
        self.code = code
        self.file = file
        self.reason = reason
        self.line = line
        where = str(self.location)
        super().__init__(f"{where}: {reason}" if where else reason)

    @property
    def location(self) -> Location:
        return Location(file=self.file, line=self.line)


def _name(path: str | os.PathLike[str]) -> str:
    return STDIN_NAME if os.fspath(path) == "-" else os.fspath(path)


def kind_of(mode: int) -> str | None:
    """What a file of ``mode`` is, in words, when it is not a regular file; None when it is."""
    if stat.S_ISREG(mode):
        return None
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def _through_link(name: str) -> str:
    """`` (a symbolic link to TARGET)`` when ``name`` is one, so a refusal says where it led."""
    if not os.path.islink(name):
        return ""
    return f" (a symbolic link to {os.path.realpath(name)})"


def _os_error(name: str, error: OSError) -> InputError:
    if error.errno in (errno.ENOENT, errno.ENOTDIR):
        return InputError("missing", name, "no such file")
    if error.errno == errno.ELOOP:
        return InputError("unreadable", name, "cannot be read: a loop of symbolic links")
    reason = (error.strerror or type(error).__name__).lower()
    return InputError("unreadable", name, f"cannot be read: {reason}")


def not_a_file(name: str, mode: int) -> InputError:
    """The refusal of a path that names something other than a regular file."""
    what = kind_of(mode) or "not a regular file"
    return InputError(
        "not-a-file",
        name,
        f"is {what}{_through_link(name)}, not a regular file; only regular files are read "
        "(and '-' for standard input)",
    )


def too_large(name: str, limit: int, size: int | None = None) -> InputError:
    """The refusal of an input over ``limit`` bytes (``size`` when known)."""
    known = f"is {size:,} bytes, over" if size is not None else "is larger than"
    return InputError("too-large", name, f"{known} the limit of {limit:,} bytes; it is not read")


def regular_file(path: str | os.PathLike[str]) -> os.stat_result:
    """The status of the regular file at ``path`` (symbolic links followed), without opening
    it; raises :class:`InputError` when it is missing or anything else.

    For walkers deciding what to read, and for files handed to another program (an SSH key),
    which would block on a named pipe just the same.
    """
    name = _name(path)
    try:
        status = os.stat(path)
    except OSError as error:
        raise _os_error(name, error) from None
    if not stat.S_ISREG(status.st_mode):
        raise not_a_file(name, status.st_mode)
    return status


def _read_at_most(stream: BinaryIO | int, limit: int, name: str) -> bytes:
    """Up to ``limit + 1`` bytes of ``stream``, refusing at ``limit + 1``."""
    pieces = []
    left = limit + 1
    while left > 0:
        try:
            if isinstance(stream, int):
                piece = os.read(stream, min(left, _CHUNK))
            else:
                piece = stream.read(min(left, _CHUNK))
        except OSError as error:
            raise _os_error(name, error) from None
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
    if left <= 0:
        raise too_large(name, limit)
    return b"".join(pieces)


def read_bytes(path: str | os.PathLike[str], *, limit: int, stdin: BinaryIO | None = None) -> bytes:
    """The bytes of the regular file at ``path`` (``-``: standard input), at most ``limit``.

    Raises :class:`InputError` -- without having read anything, unless standard input or a file
    that grows passes the limit while it is read.
    """
    name = _name(path)
    if os.fspath(path) == "-":
        return _read_at_most(stdin if stdin is not None else sys.stdin.buffer, limit, name)
    status = regular_file(path)  # a FIFO is never opened: opening it alone would block
    if status.st_size > limit:
        raise too_large(name, limit, status.st_size)
    try:
        # O_NONBLOCK: should the path be swapped for a named pipe since the check, opening it
        # returns at once; the check below then refuses it.
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise _os_error(name, error) from None
    try:
        opened = os.fstat(handle)
        if not stat.S_ISREG(opened.st_mode):
            raise not_a_file(name, opened.st_mode)
        if opened.st_size > limit:
            raise too_large(name, limit, opened.st_size)
        return _read_at_most(handle, limit, name)
    finally:
        os.close(handle)


def blank(data: bytes) -> bool:
    """Whether ``data`` holds nothing: no bytes, or only white space and ``#`` comment lines
    (what YAML reads as no document at all)."""
    return all(not line.strip() or line.lstrip().startswith(b"#") for line in data.splitlines())


#: Byte order marks of the encodings a file that is not UTF-8 is most often in: what Windows'
#: PowerShell writes (``>`` and ``Out-File``), read as UTF-8 it is noise from the first byte.
_OTHER_ENCODINGS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),  # before UTF-16: its mark begins with UTF-16's
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def decoded(data: bytes, name: str) -> str:
    """``data`` as UTF-8 text, or an :class:`InputError` naming the line of the first bad
    byte. A UTF-8 byte order mark, which Windows editors write, is read past; a UTF-16 or
    UTF-32 one names that encoding and how to convert."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    for mark, encoding in _OTHER_ENCODINGS:
        if data.startswith(mark):
            raise InputError(
                "encoding",
                name,
                f"is {encoding} text (it starts with the byte order mark "
                f"{' '.join(f'{byte:#04x}' for byte in mark)}), not UTF-8: save it as UTF-8 "
                "(in PowerShell, Out-File -Encoding utf8)",
                line=1,
            )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(
            "encoding",
            name,
            f"is not UTF-8 text (byte {data[error.start]:#04x} at offset {error.start:,})",
            line=line,
        ) from None


def read_text(path: str | os.PathLike[str], *, limit: int, stdin: BinaryIO | None = None) -> str:
    """The UTF-8 text of the regular file at ``path`` (``-``: standard input); see
    :func:`read_bytes`. Not UTF-8 is an :class:`InputError` (``encoding``) with its line."""
    return decoded(read_bytes(path, limit=limit, stdin=stdin), _name(path))


__all__ = [
    "STDIN_NAME",
    "InputError",
    "blank",
    "decoded",
    "kind_of",
    "not_a_file",
    "read_bytes",
    "read_text",
    "regular_file",
    "too_large",
]
