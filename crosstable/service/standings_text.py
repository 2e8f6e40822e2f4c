"""The live standings as JSON text, made for a table that changes a little at a time.

After every result the service stores and publishes the standings of the live table
(:mod:`crosstable.service.live`) as the standings core's JSON document
(``Standings.to_json()``, the command line's shape). :class:`StandingsText` writes
that document straight from the table's field and columns, without row objects or
exact fractions on the way: each number's text is made once and kept, shared by
every live table in the process (a value reads the same in every tournament), and
the parts of the document that do not change between results are kept per table.

The text is a reader's concern, not the rules': so it lives here, beside the live
table, and the core (:class:`crosstable.core.standings.live.LiveStandings`) only
keeps the values and ranks them.

>>> from crosstable.core.model import Game, GameResult, Player, Round, Tournament
>>> from crosstable.core.standings.live import LiveStandings
>>> players = (Player(1, "A"), Player(2, "B"))
>>> live = LiveStandings(Tournament(players=players, rounds=(Round(1, (Game(1, 1, 1, 2),)),)), "SB")
>>> _ = live.record(1, 1, 2, GameResult.WHITE_WINS())
>>> json.loads(json_text(live)) == live.standings().to_json()
True
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, cast

from crosstable.core.scoring import points_json
from crosstable.core.standings.live import LiveStandings
from crosstable.core.standings.ranking import Lot
from crosstable.core.standings.table import (
    document_json,
    is_provisional,
    lots_notes,
    table_notes,
)
from crosstable.core.tiebreaks.base import Column

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))

#: the texts of numbers as the JSON rows show them, shared by every live table (a
#: value reads the same in every tournament): per (code's key, denominator, integral),
#: and the points per scale; each holds at most _SHARED_LIMIT texts
_SHARED: dict[tuple[object, ...], dict[object, str]] = {}
_SHARED_LIMIT = 65536


def json_text(live: LiveStandings) -> str:
    """``live.standings().to_json()`` as compact JSON text (a writer made for one use;
    a live table keeps its :class:`StandingsText`)."""
    return StandingsText(live).text()


class StandingsText:
    """The JSON text of one live table's standings, written again after each change."""

    def __init__(self, live: LiveStandings) -> None:
        self.live = live
        codes = live.codes
        # pieces of the JSON rows that never change
        self._code_keys = [f",{_compact(code)}:" for code in codes]
        #: per listed code: value → its `,"CODE":value` text, for columns of one shape
        #: (denominator, integral); shared by every live table (see _shared_texts)
        self._fragments: list[dict[object, str]] = [{} for _ in codes]
        self._shapes: list[tuple[int, bool] | None] = [None for _ in codes]
        self._points_texts: dict[object, str] = {}
        self._points_scale = 0
        #: (provisional, notes, lots) → the text before and after the rows
        self._around: tuple[tuple[bool, tuple[str, ...], tuple[Lot, ...]], str, str] | None = None
        #: the fixed parts of each player's row, for a field of n players
        self._rows_for = -1
        self._row_heads: list[str] = []
        self._row_names: list[str] = []
        self._row_closers: list[str] = []

    def text(self) -> str:
        """``standings().to_json()`` as compact JSON text: the same document.

        The ranking is done as by ``standings()`` (with the remembered DE places);
        the rows are written straight from the field and the columns, each number's
        text made once (no row objects, no exact fractions on the way).
        """
        live = self.live
        f = live.field
        ranking = live.ranking()
        withdrawn = live.withdrawn_flags()
        specs = live.specs
        columns = ranking.columns
        score = f.score
        active = f.active
        if self._rows_for != f.n:
            self._rows(f.n)
        # (whole columns at a time, through C-level map/zip: the per-player Python work
        # is what a table of a few dozen players costs most)
        if self._points_scale != f.scale:
            self._points_texts = _shared_texts(("points", f.scale))
            self._points_scale = f.scale
        known_points = list(map(self._points_texts.get, score))
        pts = (
            [text or self._points_text(x) for text, x in zip(known_points, score, strict=True)]
            if None in known_points
            else cast(list[str], known_points)
        )
        # per listed code, each player's `,"CODE":value` (the DE columns are made anew
        # by every ranking; PTS shows the points)
        found = iter(columns)
        pieces: list[list[str]] = []
        for index, spec in enumerate(specs):
            code_key = self._code_keys[index]
            if spec.name == "PTS":
                pieces.append([code_key + text for text in pts])
                continue
            column = next(found)
            known = self._fragments[index]
            shape = (column.denominator, column.integral)
            if self._shapes[index] != shape:  # (values read alike only with one shape)
                known = self._fragments[index] = _shared_texts((code_key, *shape))
                self._shapes[index] = shape
            found_texts = list(map(known.get, column.values))
            pieces.append(
                [text or self._fragment(index, column, p) for p, text in enumerate(found_texts)]
                if None in found_texts
                else cast(list[str], found_texts)
            )
        heads, closers = self._row_heads, self._row_closers
        ranks = ranking.ranks
        shown = list(map(str, map(ranks.get, range(f.n))))
        fields = zip(heads, shown, self._row_names, pts, *pieces, closers, strict=True)
        rows = list(map("".join, fields))
        parts = list(map(rows.__getitem__, ranking.order))
        if withdrawn or not all(active):
            parts = [
                _flagged(part, p, withdrawn, active[p])
                for part, p in zip(parts, ranking.order, strict=True)
            ]
            for p in range(f.n):
                if not active[p]:  # unranked, no values, at the end
                    nulls = "".join(f"{key}{text}" for key, text in self._inactive_values(p, pts))
                    row = f"{heads[p]}null{self._row_names[p]}{pts[p]}{nulls}}}"
                    parts.append(_flagged(row, p, withdrawn, False))
        notes = table_notes(live.effect, columns, lots_notes(ranking.lots))
        around = (is_provisional(live.base, f), tuple(notes), ranking.lots)
        if self._around is None or self._around[0] != around:
            head = document_json(
                live.codes,
                f.edition,
                live.system,
                final=False,
                provisional=around[0],
                rows=None,
                notes=around[1],
                lots=around[2],
            )
            text = _compact(head)
            marker = '"rows":null'
            cut = text.index(marker)
            self._around = (around, text[:cut] + '"rows":[', "]" + text[cut + len(marker) :])
        return self._around[1] + ",".join(parts) + self._around[2]

    def _rows(self, n: int) -> None:
        names = self.live.names
        self._row_heads = [f'{{"start":{p + 1},"rank":' for p in range(n)]
        self._row_names = [f',"name":{_compact(names.get(p + 1, ""))},"points":' for p in range(n)]
        self._row_closers = ["}"] * n
        self._rows_for = n

    def _points_text(self, scaled: int) -> str:
        text = _compact(points_json(self.live.field.points(scaled), "float"))
        _keep(self._points_texts, scaled, text)
        return text

    def _fragment(self, index: int, column: Column, p: int) -> str:
        """``,"CODE":value`` for player index ``p``'s value in ``column`` (kept by value)."""
        text = self._code_keys[index] + _compact(points_json(column.natural(p), "typed"))
        value = column.values[p]
        # (an exact fraction equal to an integer is equal to it as a key too, and may
        # read otherwise: such a value is written each time, never kept)
        if not isinstance(value, Fraction) or value.denominator != 1:
            _keep(self._fragments[index], value, text)
        return text

    def _inactive_values(self, p: int, pts: list[str]) -> list[tuple[str, str]]:
        """A player the withdrawal rule took out: points, and no tie-break values."""
        return [
            (key, pts[p] if spec.name == "PTS" else "null")
            for key, spec in zip(self._code_keys, self.live.specs, strict=True)
        ]


def _flagged(row: str, p: int, withdrawn: dict[int, str], active: bool) -> str:
    flag = withdrawn.get(p + 1, "")
    extra = (f',"withdrawn":{_compact(flag)}' if flag else "") + (
        "" if active else ',"excluded":true'
    )
    return f"{row[:-1]}{extra}}}" if extra else row


def _shared_texts(kind: tuple[object, ...]) -> dict[object, str]:
    """The shared texts of one kind of value (made on first use)."""
    return _SHARED.setdefault(kind, {})


def _keep(texts: dict[Any, str], value: object, text: str) -> None:
    if len(texts) >= _SHARED_LIMIT:
        texts.clear()  # (values seen long ago; the next tables make them again)
    texts[value] = text


def _compact(value: object) -> str:
    return _ENCODER.encode(value)
