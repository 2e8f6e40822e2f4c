"""The live table as data: typed cells, what changed between two revisions, and a cell's
HTML as the templates write it.

The live pages and the push channel receive the cells that changed as data —
``{"revision", "base", "cells": [{"row", "col", "value"}], "order"}`` — and the browser
renders each cell (``static/app.js``) the way the live templates (``_crosstable.html``,
``_swiss_table.html``) do. A row is a starting number; a column is ``o5`` (the crossing
with player 5 in a round robin's grid), ``r3`` (round 3 of a Swiss table), ``pts``,
``tb:BH`` (a tie-break, by code) or ``place``. A value is typed:

* a grid crossing: the games of the two players, ``[[round, colour, symbol], …]``;
* a Swiss round: ``{"o": opponent, "c": colour, "s": symbol}``, ``{"b": bye letter}``,
  or ``{}`` (not paired);
* points and tie-break values: the number as the English table writes it (``"2½"``,
  ``"1,234.5"``, ``"—"``), which a page writes in its own notation with the group and
  decimal symbols it carries (``data-num``);
* a place: its text (``"2–4"``).

Anything besides these cells (a player added or withdrawn, a new round, the final
note, another order of tie-breaks) changes the table's *shape*: then the whole table
is sent, as before. The few words a cell shows ("round", "White", the byes' names)
come with the page (``data-words``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from babel.numbers import get_decimal_symbol, get_group_symbol
from markupsafe import escape

from crosstable.core.battle import SETUP_MARK
from crosstable.core.row_changes import JsonValue
from crosstable.web import i18n
from crosstable.web.pairing_views import SWISS_TABLES, is_knockout, is_swiss

#: a result symbol's class (as the crosstable's and the Swiss table's cells have it)
CSS = {"1": "r1", "½": "rh", "0": "r0", "+": "rp", "−": "rm"}
BYE_CSS = {"U": "r1 bye", "F": "r1 bye", "H": "rh bye", "Z": "r0 bye"}

#: one row of the table as data: column → the cell's value (JSON)
Cells = dict[str, JsonValue]
#: a JSON object as it is pushed to the browsers (or kept in a table channel)
PushBody = dict[str, JsonValue]


@dataclass(frozen=True, slots=True)
class TableData:
    """One revision's live table as data (language-free)."""

    revision: int
    #: everything that is not a cell, as JSON text (equal shapes: cells suffice)
    shape: str
    #: starting number → column → value
    rows: dict[int, Cells]
    #: the rows' order (starting numbers; a Swiss table is in ranking order)
    order: tuple[int, ...]

    def to_json(self) -> PushBody:
        rows: PushBody = {str(k): v for k, v in self.rows.items()}
        order: list[JsonValue] = list(self.order)
        return {"revision": self.revision, "shape": self.shape, "rows": rows, "order": order}

    @staticmethod
    def from_json(body: Any) -> TableData | None:
        """The data a table channel kept (None: not there, or not data)."""
        try:
            rows = {int(k): dict(v) for k, v in body["rows"].items()}
            order = tuple(int(s) for s in body["order"])
            return TableData(int(body["revision"]), str(body["shape"]), rows, order)
        except (KeyError, TypeError, ValueError, AttributeError):
            return None


def number_symbols(locale: str | None = None) -> str:
    """The group and the decimal symbol of ``locale`` (what a page writes numbers with).

    >>> number_symbols("en"), number_symbols("ru")
    (',.', '\\xa0,')
    """
    chosen = locale or i18n.current.get()
    return get_group_symbol(chosen) + get_decimal_symbol(chosen)


def localized(text: str, symbols: str) -> str:
    """A number the English table writes, in the notation of ``symbols`` (group, decimal).

    >>> localized("1,234.5", "\\xa0,"), localized("2½", "\\xa0,")
    ('1\\xa0234,5', '2½')
    """
    group, decimal = symbols[0], symbols[1]
    return "".join(group if c == "," else decimal if c == "." else c for c in text)


def _values(codes: tuple[str, ...], values: tuple[Any, ...]) -> Cells:
    return {
        f"tb:{code}": None if value is None else i18n.tiebreak_value(code, value, "en")
        for code, value in zip(codes, values, strict=True)
    }


def table_data(view: Any, table: Any, swiss: Any = None) -> TableData:
    """The live table of a round robin (``table``: service/crosstable's ``Crosstable``)
    or, with ``swiss`` (web/pairing_views' ``SwissTable``), of a Swiss, as data."""
    rows: dict[int, Cells] = {}
    if swiss is not None:
        lines = swiss.lines
        columns = [f"r{r}" for r in swiss.rounds]
        shape: list[Any] = ["swiss", swiss.tournament_id, list(swiss.rounds), swiss.planned]
        codes = tuple(swiss.tiebreaks)
        for line in lines:
            cells: Cells = {}
            for cell in line.cells:
                if cell.opponent is not None:
                    cells[f"r{cell.round}"] = {"o": cell.opponent, "c": cell.colour, "s": cell.text}
                else:
                    cells[f"r{cell.round}"] = {"b": cell.bye} if cell.bye else {}
            rows[line.start] = cells
        final, provisional, notes = swiss.final, swiss.provisional, swiss.notes
    else:
        lines = table.lines
        columns = [f"o{line.start}" for line in lines]
        shape = ["grid", table.tournament_id]
        codes = tuple(table.tiebreaks)
        for line in lines:
            rows[line.start] = {
                f"o{other.start}": [
                    [c.round, c.colour, c.text] for c in line.cells.get(other.start, ())
                ]
                for other in lines
                if other.start != line.start
            }
        final, provisional, notes = table.final, table.provisional, table.notes
    for line in lines:
        rows[line.start]["pts"] = i18n.points_text(line.points, "en")
        rows[line.start].update(_values(codes, tuple(line.values)))
        rows[line.start]["place"] = line.place
    statics = [
        [line.start, line.name, line.title, line.rating, line.withdrawn, line.excluded]
        for line in sorted(lines, key=lambda line: line.start)
    ]
    shape += [columns, list(codes), final, provisional, [str(n) for n in notes], statics]
    text = json.dumps(shape, ensure_ascii=False, default=str)
    revision = swiss.revision if swiss is not None else table.revision
    return TableData(revision, text, rows, tuple(line.start for line in lines))


def live_data(site: Any, tournament_id: int) -> TableData | None:
    """The live table of a tournament as data, at the read model's current revision
    (None: a knockout's bracket, sent whole)."""
    view, table = site.service.crosstable(tournament_id)
    if is_knockout(view):
        return None
    swiss = SWISS_TABLES.get(site.service, view, table) if is_swiss(view) else None
    return table_data(view, table, swiss)


def changed_cells(old: TableData, new: TableData) -> PushBody | None:
    """What turns the table ``old`` into ``new``: ``{"revision", "base", "cells"}`` (and
    ``"order"`` when the rows' order changed); None when more than cells changed."""
    if old.shape != new.shape or old.rows.keys() != new.rows.keys() or not new.rows:
        return None  # (no rows: the fragment has no table to change)
    cells: list[JsonValue] = [
        {"row": start, "col": col, "value": value}
        for start, row in new.rows.items()
        for col, value in row.items()
        if old.rows[start].get(col) != value
    ]
    body: PushBody = {"revision": new.revision, "base": old.revision, "cells": cells}
    if new.order != old.order:
        order: list[JsonValue] = list(new.order)
        body["order"] = order
    return body


# -- a cell's HTML, as the templates write it (the push rig and the tests) --------------


def _esc(text: str) -> str:
    return str(escape(text))


def _td(css: str, title: str | None, inner: str) -> str:
    shown = "" if title is None else f' title="{_esc(title)}"'
    return f'<td class="{css}"{shown}>{inner}</td>'


def cell_html(
    start: int, col: str, value: Any, words: dict[str, str], symbols: str, swiss: bool
) -> str:
    """The ``<td>`` of one cell (``words``: the page's ``data-words``)."""
    if col.startswith("o"):
        texts = [symbol for _r, _c, symbol in value]
        css = " ".join(CSS.get(t.removesuffix(SETUP_MARK), "") for t in texts)
        rounds = ", ".join(f"{r} {'○' if c == 'w' else '●'}" for r, c, _t in value)
        text = " ".join(texts)
        title = f"{words['round']} {rounds}" if text else None
        return _td(f"res {css}", title, _esc(text))
    if col.startswith("r"):
        where = f"{words['round']} {col[1:]}: "
        if "o" in value:
            side = words["white"] if value["c"] == "w" else words["black"]
            symbol = value["s"]
            inner = f'<span class="op">{value["o"]}</span><i class="pc {value["c"]}"></i>' + _esc(
                symbol if symbol != "·" else ""
            )
            return _td(f"res {CSS.get(symbol, '')}", f"{where}{side} — {value['o']}", inner)
        if "b" in value:
            bye = value["b"]
            shown = words["bye"] if bye == "U" else bye
            return _td(f"res {BYE_CSS.get(bye, '')}", where + words.get(bye, bye), shown)
        return _td("res absent", where + words["np"], "–")
    if col == "pts":
        return f'<td class="pts"><b>{_esc(localized(value, symbols))}</b></td>'
    if col.startswith("tb:"):
        if value is None:
            return '<td class="tb">—</td>'
        code = col[3:]
        return (
            f'<td class="tb"><button type="button" class="tbv" data-p="{start}" '
            f'data-c="{_esc(code)}">{_esc(localized(value, symbols))}</button></td>'
        )
    inner = f"<b>{_esc(value)}</b>" if value else ""
    return f'<td class="place{" sticky1" if swiss else ""}">{inner}</td>'
