"""The live table: one new result updates the table without a full recount.

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

from collections.abc import Sequence
from dataclasses import replace
from itertools import chain

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, RulesEdition, System, Tournament
from crosstable.core.standings.begun import begun_from_counts, result_in, results_per_round
from crosstable.core.standings.ranking import Ranking, rank
from crosstable.core.standings.table import (
    Standings,
    assemble,
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
        self._results: dict[tuple[int, int], GameResult | None] = {}
        #: (DE code, tied group) → DE places, valid while no game inside the group changes
        self._places: dict[tuple[str, tuple[int, ...]], dict[int, int]] = {}
        self._index: dict[tuple[int, int, int], tuple[int, int]] = {
            (rnd.number, game.white, game.black): (r, g)
            for r, rnd in enumerate(tournament.rounds)
            for g, game in enumerate(rnd.games)
        }
        #: see _rebuild
        self._counts: list[int] = []
        self._begun = 0
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

    @property
    def base(self) -> Tournament:
        """The tournament the table was built from (results recorded since are in the
        field, not necessarily here: :attr:`tournament` has them all)."""
        return self._base

    @property
    def specs(self) -> tuple[TieBreakSpec, ...]:
        """The listed tie-breaks (PTS among them when listed), in order."""
        return tuple(self._specs)

    @property
    def codes(self) -> tuple[str, ...]:
        return self._codes

    @property
    def system(self) -> System:
        return self._system

    @property
    def names(self) -> dict[int, str]:
        """Starting number → name."""
        return self._names

    @property
    def effect(self) -> WithdrawalEffect:
        """Who the withdrawal rule takes out, as the table was last rebuilt."""
        return self._effect

    def ranking(self) -> Ranking:
        """The ranking from the current values (remembered DE places; lots by the
        tournament's seed), as :meth:`standings` ranks by default."""
        return self._rank(self._base.settings.lots_seed)

    def withdrawn_flags(self) -> dict[int, str]:
        """Starting number → how the player withdrew, now (explicit or inferred)."""
        return self._withdrawn_flags()

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
            raise RuleError(
                "round {round} has no game {white}–{black}",
                round=round_number,
                white=white,
                black=black,
            )
        r, g = self._index[key]
        before = self._results.get((r, g), self._base.rounds[r].games[g].result)
        self._results[(r, g)] = result
        f = self._field
        w, b = white - 1, black - 1
        # the rounds whose byes enter the table with this result (or leave it)
        flipped, scored = self._flipped(r, before, result)
        movers = [entry[0] for i in flipped for entry in f.round_byes.get(i, ())]
        involved = {w, b, *movers}
        if {p + 1 for p in involved} & (self._effect.excluded | self._effect.forfeited):
            self._rebuild(self.tournament)  # who counts may change: start over
            return frozenset({w, b})
        players = (w, b, *(p for p in dict.fromkeys(movers) if p not in (w, b)))
        adjusted = f.adjusted
        change = Change(
            players,
            {p: f.score[p] for p in players},
            {p: adjusted[p] for p in players},
        )
        f.set_game(r, w, b, result)
        if self._raw is not f:
            self._raw.set_game(r, w, b, result)
        for i in flipped:
            f.set_byes(i, scored)
            if self._raw is not f:
                self._raw.set_byes(i, scored)
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
        tournament's settings' seed)."""
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

    # -- internals -----------------------------------------------------------------------

    def _rank(self, lots_seed: int | None) -> Ranking:
        return rank(
            self._field,
            self._ranked,
            columns=self._columns,
            lots_seed=lots_seed,
            group_places=self._group_places,
        )

    def _flipped(
        self, r: int, before: GameResult | None, after: GameResult | None
    ) -> tuple[range, bool]:
        """Count a result in (or out of) round index ``r``: the rounds that begin with it
        (True) or are no longer begun (False), by index (see standings.begun)."""
        step = result_in(after) - result_in(before)
        if not step:
            return range(0), True
        counts = self._counts
        counts[r] += step
        begun = self._begun
        if (step > 0 and r < begun) or (step < 0 and (counts[r] or r + 1 < begun)):
            return range(0), True
        now = self._begun = begun_from_counts(counts)
        return range(min(begun, now), max(begun, now)), now > begun

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
        #: games with a result in each round (by index) and the rounds begun (a bye
        #: counts from its round's beginning: see standings.begun)
        self._counts = results_per_round(tournament.rounds)
        self._begun = begun_from_counts(self._counts)
        begun = self._begun
        raw = compile_field(tournament, system=self._system, edition=self._rules, byes_from=begun)
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
                byes_from=begun,
            )
        self._field = raw
        #: player index → the remembered groups holding them (see record)
        self._places_of: list[set[tuple[str, tuple[int, ...]]]] = [set() for _ in range(raw.n)]
        self._columns: list[Column] = [tiebreak(s).compute(raw, s) for s in self._ranked]


#: the kinds of round a run of which at the end may mean a withdrawal
_MISSING = frozenset({FLOSS, ZPB})
