"""Keys given twice in a YAML or JSON file: read the file as before, and say where.

A mapping that names a key twice loads as if it named it once, with the later value: PyYAML and
the standard library's JSON reader both keep it without a word. So a flavor file that sets
``hw:cpu_policy`` twice validates one of the two values, and the file's author may have meant
the other. The readers here load exactly what the plain readers load and also return each key
given again, with the line of its first occurrence and of the repeat, so that a command can warn
(its verdict and exit status stay what the loaded data decide).

YAML: the document is composed once, through the bounded loader the caller gives
(:mod:`onespec.validators_runtime.yaml_limits`), the repeats read off the node tree
(``onespec.validators_runtime.yaml_lines.repeated_keys``) and the data constructed from the
same tree. JSON: the standard library's fast reader, with an ``object_pairs_hook`` that notices a
repeat; only then is the text read again, by the standard library's pure-Python scanner, to find
the lines (its objects are read by a function it lets a caller replace).
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from onespec.errors import OnespecError
from onespec.validators_runtime.problems import shown
from onespec.validators_runtime.yaml_lines import repeated_keys


@dataclass(frozen=True)
class RepeatedKey:
    """A key given again in one mapping: the line where it first appears, the line of the
    repeat, and the value the loaded data keep (the last one given)."""

    key: str
    first_line: int
    line: int
    value: Any = None

    def message(self, file: str) -> str:
        """One warning line: where, what, and which value is used."""
        used = f" ({shown(self.value)})" if isinstance(self.value, str | int | float) else ""
        return (
            f"{file}:{self.line}: the key {shown(self.key)} is given twice, on lines "
            f"{self.first_line} and {self.line}; the value of line {self.line}{used} is used."
        )


def load_yaml(text: str, loader: type) -> tuple[Any, list[RepeatedKey]]:
    """The data of the one YAML document in ``text`` (as ``yaml.load(text, Loader=loader)``
    gives it, raising what it raises) and the keys given twice in it."""
    reader = loader(text)
    try:
        node = reader.get_single_node()
        if node is None:
            return None, []
        repeats = list(repeated_keys(node))
        data = reader.construct_document(node)
    finally:
        reader.dispose()
    found = []
    for path, key, first, line in repeats:
        found.append(RepeatedKey(key, first, line, _value_at(data, (*path, key))))
    return data, found


def _value_at(data: Any, path: tuple[Any, ...]) -> Any:
    """The loaded value at ``path``, when every step is there (None otherwise)."""
    for step in path:
        if (isinstance(data, dict) and step in data) or (
            isinstance(data, list) and isinstance(step, int) and step < len(data)
        ):
            data = data[step]
        else:
            return None
    return data


class _Repeated(OnespecError):
    """Raised by the fast reader's hook at the first key given twice: the lines are found by a
    second, slower reading."""


def _refuse_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        raise _Repeated
    return mapping


def load_json(text: str, **options: Any) -> tuple[Any, list[RepeatedKey]]:
    """The data of the JSON ``text`` (as ``json.loads(text, **options)`` gives it, raising what
    it raises) and the keys given twice in it."""
    try:
        return json.loads(text, object_pairs_hook=_refuse_repeats, **options), []
    except _Repeated:
        pass
    found: list[RepeatedKey] = []
    decoder = json.JSONDecoder(**options)
    # The pure-Python scanner reads objects with the decoder's parse_object, when it is made.
    vars(decoder)["parse_object"] = _locating_objects(text, found)
    vars(decoder)["scan_once"] = _PY_MAKE_SCANNER(decoder)
    return decoder.decode(text), found


#: The standard library's pure-Python scanner and object reader (not in its type stubs).
_PY_MAKE_SCANNER: Callable[[json.JSONDecoder], Any] = vars(json.scanner)["py_make_scanner"]
_READ_OBJECT: Callable[..., tuple[Any, int]] = vars(json.decoder)["JSONObject"]


def _locating_objects(text: str, found: list[RepeatedKey]) -> Callable[..., Any]:
    """A replacement for the pure-Python scanner's object reader that notes, in ``found``,
    each key given twice with the lines of both (a value's line stands for its key's)."""

    def parse_object(
        s_and_end: tuple[str, int],
        strict: bool,
        scan_once: Callable[[str, int], tuple[Any, int]],
        object_hook: Any,
        object_pairs_hook: Any,
        memo: dict[str, str] | None = None,
    ) -> tuple[Any, int]:
        starts: list[int] = []

        def noting(string: str, index: int) -> tuple[Any, int]:
            starts.append(index)
            return scan_once(string, index)

        def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
            first: dict[str, int] = {}
            for (key, _), start in zip(pairs, starts, strict=True):
                line = text.count("\n", 0, start) + 1
                if key in first:
                    found.append(RepeatedKey(key, first[key], line, dict(pairs)[key]))
                first[key] = line
            return dict(pairs)

        return _READ_OBJECT(s_and_end, strict, noting, object_hook, pairs_hook, memo)

    return parse_object


__all__ = ["RepeatedKey", "load_json", "load_yaml"]
