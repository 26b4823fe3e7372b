"""How a report's one JSON-able document is printed in each ``-f`` format.

A command builds one document (what ``-f json`` prints) and says which list of records in it
is its *rows* and which columns are shown by default (:class:`Rows`). Everything else is here:

``json``
    the document, indented.
``yaml``
    the same document, safe-dumped in block style, keys in document order, unicode kept.
``table``, ``csv``, ``value``
    the rows, as the ``openstack`` client (cliff) prints a list; a document without a list of
    records is one row of its top-level fields, and ``table`` prints it as cliff prints one
    object, a Field/Value table. Nested values are compact JSON in a cell.

``-c/--column NAME`` picks columns, in the order given: in every format but ``text``; with
``json`` and ``yaml`` the output is then the chosen columns of the rows, as in cliff.

The standard library only, and PyYAML when YAML is asked for: the runtime commands import this
at start-up, so what only one format needs (csv, textwrap, yaml) is imported when it is asked.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from onespec.errors import OnespecError
from onespec.validators_runtime.problems import did_you_mean, shown

#: Every format a reporting command takes, ``text`` (sentences for people) first.
REPORT_FORMATS = ("text", "json", "yaml", "value", "table", "csv")
#: The formats that print the document whole.
DOCUMENT_FORMATS = ("json", "yaml")
#: The formats that print the rows.
ROW_FORMATS = ("value", "table", "csv")
#: The formats ``-c`` applies to: every one but ``text``.
COLUMN_FORMATS = (*DOCUMENT_FORMATS, *ROW_FORMATS)

#: YAML lines are never folded: a message stays on one line, for grep and diff.
_UNWRAPPED = 2**31 - 1

#: A column is never narrowed below this many characters when a table is fitted.
_NARROWEST = 8


class ColumnError(OnespecError, ValueError):
    """A ``-c`` names a column the report does not have."""


@dataclass(frozen=True)
class Rows:
    """Which list of records in a report's document is its rows, and the columns shown.

    ``path`` names the list: a top-level key (``findings``), keys into nested objects
    (``report.results``), or ``NAME[]`` to go through each member of a list, whose own scalar
    fields are carried into the rows under it (``flavors[].findings``: each finding with its
    flavor). With several paths, the rows are those of each path the document has, in turn
    (a fleet's findings about flavors alone, then about pairs). A mapping
    where a list is expected gives one record per entry: its key under ``key``, its value under
    the second of ``columns`` (``value`` without one); a scalar member of a list becomes a
    record of one field, the first of ``columns``.

    ``columns`` are shown when ``-c`` is not given; every field of the records can be asked for.
    No path: the document itself is the one row.
    """

    paths: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    key: str = "name"


#: A report that is one object: its top-level fields are its row.
ONE_ROW = Rows()


def listing(*paths: str, columns: Sequence[str] = (), key: str = "name") -> Rows:
    """The rows at ``paths`` (those of each the document has), ``columns`` shown."""
    return Rows(tuple(paths), tuple(columns), key)


def compact(value: Any) -> str:
    """A value as one cell: strings as they are, nothing as nothing, the rest as compact JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _scalar_fields(record: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if not isinstance(v, dict | list | tuple)}


def _as_record(item: Any, field: str) -> dict[str, Any]:
    return dict(item) if isinstance(item, Mapping) else {field: item}


def _entries(node: Any, rows: Rows) -> list[Any]:
    """The members of ``node`` as records or scalars: a list as it is, a mapping as its entries."""
    if isinstance(node, Mapping):
        value_field = rows.columns[1] if len(rows.columns) > 1 else "value"
        return [{rows.key: name, value_field: value} for name, value in node.items()]
    if isinstance(node, list | tuple):
        return list(node)
    return []


def _walk(node: Any, steps: Sequence[str], carried: dict[str, Any], rows: Rows) -> list[dict]:
    if not isinstance(node, Mapping):
        return []
    step, rest = steps[0], steps[1:]
    through = step.endswith("[]")
    child = node.get(step[:-2] if through else step)
    if through:
        found = []
        for member in _entries(child, rows):
            if isinstance(member, Mapping):
                found.extend(_walk(member, rest, {**carried, **_scalar_fields(member)}, rows))
        return found
    if rest:
        return _walk(child, rest, carried, rows)
    first = rows.columns[0] if rows.columns else step
    records = [_as_record(member, first) for member in _entries(child, rows)]
    return [{**{k: v for k, v in carried.items() if k not in r}, **r} for r in records]


def _has(document: Mapping[str, Any], path: str) -> bool:
    node: Any = document
    for step in path.split("."):
        if not isinstance(node, Mapping) or step.removesuffix("[]") not in node:
            return False
        node = node[step.removesuffix("[]")]
        if step.endswith("[]"):
            return True
    return True


def records(document: Any, rows: Rows) -> list[dict[str, Any]] | None:
    """The rows of ``document`` as records, or None when it is one object (no path, or none
    of the paths is in it)."""
    if not isinstance(document, Mapping):
        return (
            [_as_record(item, "value") for item in document] if isinstance(document, list) else None
        )
    present = [path for path in rows.paths if _has(document, path)]
    if not present:
        return None
    return [record for path in present for record in _walk(document, path.split("."), {}, rows)]


def available(found: Iterable[Mapping[str, Any]], declared: Iterable[str]) -> list[str]:
    """Every column there is: the fields of the records, in the order first seen, then the
    declared ones no record has (so an empty list still knows its columns)."""
    names: dict[str, None] = {}
    for record in found:
        names.update(dict.fromkeys(record))
    names.update(dict.fromkeys(declared))
    return list(names)


def chosen(columns: Sequence[str], asked: Sequence[str], default: Sequence[str]) -> list[str]:
    """The columns to print: those ``asked`` (``-c``), in their order, or ``default`` (those of
    them there are), or all. An unknown one is a :class:`ColumnError` naming those there are."""
    for name in asked:
        if name not in columns:
            raise ColumnError(
                f"no column {shown(name)} in this report; its columns are: {', '.join(columns)}."
                f"{did_you_mean(name, columns)}"
            )
    if asked:
        return list(dict.fromkeys(asked))
    present = [name for name in default if name in columns]
    return present or list(columns)


# --- the renderers ------------------------------------------------------------------------------


def render_json(document: Any, *, ascii_only: bool = True) -> str:
    """The document as indented JSON; ``ascii_only`` escapes what is not ASCII."""
    return json.dumps(document, indent=2, ensure_ascii=ascii_only) + "\n"


def render_yaml(document: Any) -> str:
    """The document as YAML: block style, keys in document order, unicode as it is."""
    import yaml  # only when YAML is asked for: start-up stays small

    return str(
        yaml.safe_dump(
            document,
            default_flow_style=False,
            sort_keys=False,
            allow_unicode=True,
            width=_UNWRAPPED,
        )
    )


def render_value(columns: Sequence[str], table: Sequence[Mapping[str, Any]]) -> str:
    """Each row's cells separated by a space, no header: for ``read`` and ``cut`` in a shell."""
    return "".join(" ".join(compact(row.get(c)) for c in columns) + "\n" for row in table)


def render_csv(columns: Sequence[str], table: Sequence[Mapping[str, Any]]) -> str:
    """A header row, then the rows; every cell that is not a number is quoted (cliff's
    ``QUOTE_NONNUMERIC``), nested values as compact JSON."""
    import csv  # only when CSV is asked for: start-up stays small

    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
    writer.writerow(columns)
    for row in table:
        writer.writerow([_csv_cell(row.get(column)) for column in columns])
    return buffer.getvalue()


def _csv_cell(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    return compact(value)


def _fitted(widths: list[int], width: int | None) -> list[int]:
    """Column widths that fit ``width`` characters of terminal: the widest column is narrowed
    first, one character at a time, never below :data:`_NARROWEST` (nor its own heading)."""
    if width is None:
        return widths
    fitted = list(widths)
    overhead = 3 * len(fitted) + 1  # "| " before each cell, " |" closing, " " between

    while sum(fitted) + overhead > width:
        widest = max(range(len(fitted)), key=fitted.__getitem__)
        if fitted[widest] <= _NARROWEST:
            break
        fitted[widest] -= 1
    return fitted


def _lines(text: str, width: int) -> list[str]:
    import textwrap  # only when a table is drawn

    lines: list[str] = []
    for line in text.splitlines() or [""]:
        lines.extend(textwrap.wrap(line, width, break_on_hyphens=False) or [""])
    return lines


def render_table(
    columns: Sequence[str], table: Sequence[Mapping[str, Any]], width: int | None = None
) -> str:
    """A plain-ASCII table as cliff draws one (``+---+`` borders, a header row), its widest
    columns wrapped so the table fits ``width`` characters when it is given."""
    heading = list(columns)
    cells = [[compact(row.get(column)) for column in columns] for row in table]
    natural = [
        max([len(name), *(len(line) for row in cells for line in row[i].splitlines())])
        for i, name in enumerate(heading)
    ]
    widths = _fitted(natural, width)
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+\n"

    def drawn(row: Sequence[str]) -> str:
        wrapped = [_lines(cell, w) for cell, w in zip(row, widths, strict=True)]
        height = max(len(lines) for lines in wrapped)
        text = ""
        for number in range(height):
            parts = [
                (lines[number] if number < len(lines) else "").ljust(w)
                for lines, w in zip(wrapped, widths, strict=True)
            ]
            text += "| " + " | ".join(parts) + " |\n"
        return text

    return border + drawn(heading) + border + "".join(drawn(row) for row in cells) + border


def render(
    document: Any,
    output_format: str,
    rows: Rows = ONE_ROW,
    asked: Sequence[str] = (),
    width: int | None = None,
    *,
    ascii_only: bool = True,
) -> str:
    """The document in ``output_format`` (one of :data:`COLUMN_FORMATS`), with the columns
    ``asked`` (``-c``); ``width`` fits a table to a terminal. :class:`ColumnError` for a column
    the report does not have."""
    found = records(document, rows)
    one_object = found is None
    table = [dict(document)] if found is None else found
    if found is None and not isinstance(document, Mapping):
        table = [{"value": document}]
    # The default columns a row has (a flavor's name only where the report has several).
    default = [c for c in rows.columns if any(c in row for row in table)] or rows.columns
    columns = chosen(available(table, rows.columns), asked, () if one_object else default)
    if output_format in DOCUMENT_FORMATS:
        if asked:
            picked: Any = [{c: row.get(c) for c in columns} for row in table]
            document = picked[0] if one_object else picked
        return (
            render_json(document, ascii_only=ascii_only)
            if output_format == "json"
            else render_yaml(document)
        )
    if output_format == "csv":
        return render_csv(columns, table)
    if output_format == "value":
        if one_object:  # cliff prints an object's values one a line
            return "".join(compact(table[0].get(c)) + "\n" for c in columns)
        return render_value(columns, table)
    if one_object:
        pairs = [{"Field": c, "Value": table[0].get(c)} for c in columns]
        return render_table(("Field", "Value"), pairs, width)
    return render_table(columns, table, width)


__all__ = [
    "COLUMN_FORMATS",
    "DOCUMENT_FORMATS",
    "ONE_ROW",
    "REPORT_FORMATS",
    "ROW_FORMATS",
    "ColumnError",
    "Rows",
    "available",
    "chosen",
    "compact",
    "listing",
    "records",
    "render",
    "render_csv",
    "render_json",
    "render_table",
    "render_value",
    "render_yaml",
]
