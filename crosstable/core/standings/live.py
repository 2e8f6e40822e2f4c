"""The live table (R-RR-12): one new result updates the table without a full recount.

As soon as a game ends its result enters the table. :class:`LiveStandings`
keeps the compiled field and every tie-break column; :meth:`LiveStandings.record`
changes the two players' rounds and then lets each tie-break bring its own
column up to date:

* points, WIN, WON, BPG, BWG, PS, REP, STD and the rating-based values change
  for the two players only;
* Buchholz and Sonneborn-Berger move by the change of the two scores for each
  of their opponents (a delta, no recount); Koya changes for the opponents only
  when a player crosses the qualifying score; with cut modifiers the opponents
  are recomputed, one by one;
* DE is decided when the table is ranked, group by group; the table remembers
  each tied group's places until a game between two of its members changes, so
  a group that did not change is not decided again; AOB, FB, APRO and APPO
  (opponents of opponents) are recomputed whole.

While games are missing every value is provisional (``Standings.provisional``).
A withdrawal changes who counts at all, so it rebuilds the table.

>>> from crosstable.core.model import Game, GameResult, Player, Round, Tournament
>>> t = Tournament(players=(Player(1, "A"), Player(2, "B"), Player(3, "C"), Player(4, "D")),
...     rounds=(Round(1, (Game(1, 1, 1, 4), Game(1, 2, 2, 3))),))
>>> live = LiveStandings(t, "SB")
>>> sorted(live.record(1, 1, 4, GameResult.WHITE_WINS()))
[0, 3]
>>> [row.start for row in live.standings().rows][:1]
[1]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from itertools import chain
from typing import Any, cast

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, RulesEdition, System, Tournament
from crosstable.core.scoring import points_json
from crosstable.core.standings.ranking import Lot, Ranking, rank
from crosstable.core.standings.table import (
    Standings,
    assemble,
    document_json,
    is_provisional,
    lots_notes,
    table_notes,
)
from crosstable.core.standings.withdrawals import WithdrawalEffect, withdrawal_effect
from crosstable.core.tiebreaks.base import Change, Column, tiebreak
from crosstable.core.tiebreaks.direct import DirectEncounter
from crosstable.core.tiebreaks.field import FLOSS, ZPB, Field, compile_field
from crosstable.core.tiebreaks.presets import default_tiebreaks
from crosstable.core.tiebreaks.spec import TieBreakSpec, parse_codes

#: tied groups whose DE places a live table remembers at most (then it starts afresh)
_REMEMBERED_GROUPS = 4096


class LiveStandings:
    """A standings table kept up to date one result at a time."""

    def __init__(
        self,
        tournament: Tournament,
        tiebreaks: str | Sequence[str] | None = None,
        *,
        rules: RulesEdition | None = None,
        system: System | None = None,
        withdrawn: Sequence[int] = (),
    ) -> None:
        self._system = system or tournament.settings.system
        self._rules = rules or tournament.settings.rules
        if tiebreaks is None or (not isinstance(tiebreaks, str) and not tiebreaks):
            tiebreaks = tournament.settings.tiebreaks or default_tiebreaks(self._system)
        self._specs = parse_codes(tiebreaks)
        self._ranked: list[TieBreakSpec] = [s for s in self._specs if s.name != "PTS"]
        self._withdrawn = frozenset(withdrawn)
        self._base = tournament
        self._codes = tuple(spec.code for spec in self._specs)
        self._names = {player.start: player.name for player in tournament.players}
        # pieces of the JSON rows that never change (see json_text)
        self._code_keys = [f",{_compact(code)}:" for code in self._codes]
        #: per listed code: value → its `,"CODE":value` text, for columns of one shape
        #: (denominator, integral); shared by every live table (see _shared_texts)
        self._fragments: list[dict[object, str]] = [{} for _ in self._codes]
        self._shapes: list[tuple[int, bool] | None] = [None for _ in self._codes]
        self._points_texts: dict[object, str] = {}
        self._points_scale = 0
        #: (provisional, notes) → the text before and after the rows
        self._around: tuple[tuple[bool, tuple[str, ...], tuple[Lot, ...]], str, str] | None = None
        self._results: dict[tuple[int, int], GameResult | None] = {}
        #: (DE code, tied group) → DE places, valid while no game inside the group changes
        self._places: dict[tuple[str, tuple[int, ...]], dict[int, int]] = {}
        self._index: dict[tuple[int, int, int], tuple[int, int]] = {
            (rnd.number, game.white, game.black): (r, g)
            for r, rnd in enumerate(tournament.rounds)
            for g, game in enumerate(rnd.games)
        }
        self._rebuild(tournament)

    # -- state ---------------------------------------------------------------------------

    @property
    def field(self) -> Field:
        return self._field

    @property
    def tournament(self) -> Tournament:
        """The tournament with every recorded result (built on demand)."""
        if not self._results:
            return self._base
        rounds = list(self._base.rounds)
        touched: dict[int, list[int]] = {}
        for r, g in self._results:
            touched.setdefault(r, []).append(g)
        for r, games in touched.items():
            listed = list(rounds[r].games)
            for g in games:
                listed[g] = replace(listed[g], result=self._results[(r, g)])
            rounds[r] = replace(rounds[r], games=tuple(listed))
        self._base = replace(self._base, rounds=tuple(rounds))
        self._results.clear()
        return self._base

    def columns(self) -> dict[str, Column]:
        """The current tie-break columns by code (DE is decided at ranking time)."""
        return {spec.code: column for spec, column in zip(self._ranked, self._columns, strict=True)}

    # -- updates -------------------------------------------------------------------------

    def record(
        self, round_number: int, white: int, black: int, result: GameResult | None
    ) -> frozenset[int]:
        """Enter (or clear, with None) the result of ``white``–``black`` in a round.

        Returns the indices of the two players; their values and those that depend on
        them are up to date afterwards.
        """
        key = (round_number, white, black)
        if key not in self._index:
            raise RuleError(f"round {round_number} has no game {white}–{black}")
        r, g = self._index[key]
        self._results[(r, g)] = result
        if {white, black} & (self._effect.excluded | self._effect.forfeited):
            self._rebuild(self.tournament)  # who counts may change: start over
            return frozenset({white - 1, black - 1})
        f = self._field
        w, b = white - 1, black - 1
        adjusted = f.adjusted
        change = Change(
            (w, b),
            {w: f.score[w], b: f.score[b]},
            {w: adjusted[w], b: adjusted[b]},
        )
        f.set_game(r, w, b, result)
        if self._raw is not f:
            self._raw.set_game(r, w, b, result)
        for spec, column in zip(self._ranked, self._columns, strict=True):
            tiebreak(spec).update(f, spec, column, change)
        if self._places:  # forget the DE places of groups holding this game
            for held in self._places_of[w] & self._places_of[b]:
                del self._places[held]
                for q in held[1]:
                    self._places_of[q].discard(held)
        return frozenset({w, b})

    def withdraw(self, start: int) -> None:
        """Mark a player as withdrawn: the table shows the provisional effect at once."""
        self._withdrawn = self._withdrawn | {start}
        self._rebuild(self.tournament)

    def standings(self, *, lots_seed: int | None = None) -> Standings:
        """The ranked table from the current values (``lots_seed``: default the
        tournament's settings' seed, R-RR-10)."""
        ranking = self._rank(self._base.settings.lots_seed if lots_seed is None else lots_seed)
        effect = replace(self._effect, withdrawn=self._withdrawn_flags())
        return assemble(
            self._base,
            self._field,
            self._specs,
            ranking,
            effect,
            final=False,
            system=self._system,
        )

    def json_text(self) -> str:
        """``standings().to_json()`` as compact JSON text: the same document, made for a
        table that changes a little at a time (the service stores and sends it after
        every result).

        The ranking is done as by :meth:`standings` (with the remembered DE places);
        the rows are written straight from the field and the columns, each number's
        text made once (no row objects, no exact fractions on the way).
        """
        f = self._field
        ranking = self._rank(self._base.settings.lots_seed)
        withdrawn = self._withdrawn_flags()
        columns = ranking.columns
        score = f.score
        active = f.active
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
        for index, spec in enumerate(self._specs):
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
                self._flagged(part, p, withdrawn, active[p])
                for part, p in zip(parts, ranking.order, strict=True)
            ]
            for p in range(f.n):
                if not active[p]:  # unranked, no values, at the end
                    nulls = "".join(f"{key}{text}" for key, text in self._inactive_values(p, pts))
                    row = f"{heads[p]}null{self._row_names[p]}{pts[p]}{nulls}}}"
                    parts.append(self._flagged(row, p, withdrawn, False))
        notes = table_notes(self._effect, columns, lots_notes(ranking.lots))
        around = (is_provisional(self._base, f), tuple(notes), ranking.lots)
        if self._around is None or self._around[0] != around:
            head = document_json(
                self._codes,
                f.edition,
                self._system,
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

    # -- internals -----------------------------------------------------------------------

    def _points_text(self, scaled: int) -> str:
        text = _compact(points_json(self._field.points(scaled), "float"))
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
            for key, spec in zip(self._code_keys, self._specs, strict=True)
        ]

    @staticmethod
    def _flagged(row: str, p: int, withdrawn: dict[int, str], active: bool) -> str:
        flag = withdrawn.get(p + 1, "")
        extra = (f',"withdrawn":{_compact(flag)}' if flag else "") + (
            "" if active else ',"excluded":true'
        )
        return f"{row[:-1]}{extra}}}" if extra else row

    def _rank(self, lots_seed: int | None) -> Ranking:
        return rank(
            self._field,
            self._ranked,
            columns=self._columns,
            lots_seed=lots_seed,
            group_places=self._group_places,
        )

    def _withdrawn_flags(self) -> dict[int, str]:
        """Explicit and inferred withdrawals now (a run of forfeits may end or begin with
        any result)."""
        raw = self._raw
        if (
            not self._withdrawn
            and not self._base.withdrawn
            and _MISSING.isdisjoint(chain.from_iterable(raw.kind))
        ):
            return {}  # nobody withdrew, and no run of forfeits anywhere
        flags = withdrawal_effect(
            self._base, raw, system=self._system, explicit=self._withdrawn, final=False
        )
        return flags.withdrawn

    def _group_places(self, spec: TieBreakSpec, group: list[int]) -> dict[int, int]:
        """DE places of a tied group: remembered, or decided now (C.07 art. 6)."""
        key = (spec.code, tuple(group))
        places = self._places.get(key)
        if places is None:
            de = tiebreak(spec)
            assert isinstance(de, DirectEncounter)
            _, places = de.places(self._field, spec, group)
            if len(self._places) >= _REMEMBERED_GROUPS:
                self._places.clear()
                for held in self._places_of:
                    held.clear()
            self._places[key] = places
            for p in group:
                self._places_of[p].add(key)
        return places

    def _rebuild(self, tournament: Tournament) -> None:
        self._places = {}
        raw = compile_field(tournament, system=self._system, edition=self._rules)
        #: the field as played, before the withdrawal rule takes anyone out (a full
        #: recount infers withdrawals from it); the same object when nobody is taken out
        self._raw = raw
        self._effect: WithdrawalEffect = withdrawal_effect(
            tournament, raw, system=self._system, explicit=self._withdrawn, final=False
        )
        if self._effect.excluded or self._effect.forfeited:
            raw = compile_field(
                tournament,
                system=self._system,
                edition=self._rules,
                excluded=self._effect.excluded,
                forfeit_pending=self._effect.forfeited,
            )
        self._field = raw
        #: player index → the remembered groups holding them (see record)
        self._places_of: list[set[tuple[str, tuple[int, ...]]]] = [set() for _ in range(raw.n)]
        # the fixed parts of each player's JSON row (see json_text)
        self._row_heads = [f'{{"start":{p + 1},"rank":' for p in range(raw.n)]
        self._row_names = [
            f',"name":{_compact(self._names.get(p + 1, ""))},"points":' for p in range(raw.n)
        ]
        self._row_closers = ["}"] * raw.n
        self._columns: list[Column] = [tiebreak(s).compute(raw, s) for s in self._ranked]


#: the kinds of round a run of which at the end may mean a withdrawal
_MISSING = frozenset({FLOSS, ZPB})


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))

#: the texts of numbers as the JSON rows show them, shared by every live table (a
#: value reads the same in every tournament): per (code's key, denominator, integral),
#: and the points per scale; each holds at most _SHARED_LIMIT texts
_SHARED: dict[tuple[object, ...], dict[object, str]] = {}
_SHARED_LIMIT = 65536


def _shared_texts(kind: tuple[object, ...]) -> dict[object, str]:
    """The shared texts of one kind of value (made on first use)."""
    return _SHARED.setdefault(kind, {})


def _keep(texts: dict[Any, str], value: object, text: str) -> None:
    if len(texts) >= _SHARED_LIMIT:
        texts.clear()  # (values seen long ago; the next tables make them again)
    texts[value] = text


def _compact(value: object) -> str:
    return _ENCODER.encode(value)
