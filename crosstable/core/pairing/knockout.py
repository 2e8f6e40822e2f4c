"""Knockout / play-off: the bracket played round by round.

A :class:`Knockout` is an immutable value: the :class:`Bracket`, the
:class:`MatchRules` (format, tie rule, seed of every lot) and the matches paired
so far, each with its results. Enter results with :meth:`Knockout.record`; a
match knows when it is decided and who goes on (:mod:`.knockout_match`). Byes
go on without a match. The next round is paired with
:meth:`Knockout.pair_next_round` only when every match of the current round is
decided; only winners go on, so the winner of the event never lost a
match.

>>> ko = Knockout.start(seeded_bracket(3), MatchRules(seed=1))
>>> [(m.slot, m.players) for m in ko.matches], ko.bracket.byes
([(2, (2, 3))], (1,))
>>> ko.pair_next_round()
Traceback (most recent call last):
...
crosstable.core.errors.RuleError: round 1 is not over: slot 2 (2 v 3) has no winner yet
>>> game = ko.pending_games()[0][1]
>>> ko = ko.record(2, 1, GameResult.parse("1-0" if game.white == 3 else "0-1"))
>>> ko = ko.pair_next_round()
>>> [(m.slot, m.players) for m in ko.matches if m.round == 2]
[(3, (1, 3))]
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult
from crosstable.core.pairing.knockout_bracket import (
    Bracket,
    BracketOrder,
    Slot,
    random_bracket,
    round_name,
    seeded_bracket,
)
from crosstable.core.pairing.knockout_match import (
    Decider,
    GameKind,
    Match,
    MatchFormat,
    MatchGame,
    MatchRules,
    MatchStatus,
    TieRule,
    TieStage,
    parse_round_formats,
    round_formats_label,
)
from crosstable.core.scoring import points_json
from crosstable.core.text import Message

__all__ = [
    "Bracket",
    "BracketOrder",
    "Decider",
    "GameKind",
    "Knockout",
    "Match",
    "MatchFormat",
    "MatchGame",
    "MatchRules",
    "MatchStatus",
    "Slot",
    "TieRule",
    "TieStage",
    "parse_round_formats",
    "random_bracket",
    "round_formats_label",
    "round_name",
    "seeded_bracket",
]


@dataclass(frozen=True, slots=True)
class Knockout:
    """A knockout in progress: the bracket, the rules and the matches paired so far."""

    bracket: Bracket
    rules: MatchRules = field(default_factory=MatchRules)
    matches: tuple[Match, ...] = ()  # slot order

    @classmethod
    def start(cls, bracket: Bracket, rules: MatchRules | None = None) -> Knockout:
        """Pair round 1: every slot with two players is a match, the others are byes."""
        ko = cls(bracket, rules or MatchRules())
        return replace(ko, matches=ko._pair(1))

    # -- reading ---------------------------------------------------------------------

    @property
    def round(self) -> int:
        """The round being played (the last one paired)."""
        return self.matches[-1].round if self.matches else 1

    @property
    def third_place_slot(self) -> int:
        """The slot number of the match for third place: one after the final's."""
        return self.bracket.size

    def match(self, slot: int) -> Match:
        for m in self.matches:
            if m.slot == slot:
                return m
        if slot == self.third_place_slot and self.rules.third_place:
            raise RuleError(
                "slot {slot} (third place) is not paired yet: it comes with the final", slot=slot
            )
        round_of = self.bracket.round_of(slot)
        if round_of == 1 and self.bracket.slot(slot).is_bye:
            raise RuleError("slot {slot} is a bye: there is no match", slot=slot)
        raise RuleError(
            "slot {slot} ({name}) is not paired yet", slot=slot, name=_name(self.bracket, round_of)
        )

    def status(self, slot: int) -> MatchStatus:
        return self.match(slot).status(self.rules)

    def winner_of(self, slot: int) -> int | None:
        """Who goes on from ``slot`` (the bye's player, the match winner), None if not known."""
        if slot != self.third_place_slot:
            s = self.bracket.slot(slot)
            if s.is_bye:
                return s.bye_player
        for m in self.matches:
            if m.slot == slot:
                return m.status(self.rules).winner
        return None

    def undecided(self, rnd: int | None = None) -> tuple[Match, ...]:
        """Matches of round ``rnd`` (default: the current round) without a winner yet."""
        rnd = self.round if rnd is None else rnd
        return tuple(
            m for m in self.matches if m.round == rnd and m.status(self.rules).winner is None
        )

    def pending_games(self) -> tuple[tuple[int, MatchGame], ...]:
        """``(slot, game)`` for every game set up and waiting for its result."""
        current = self.round
        return tuple(
            (m.slot, g)
            for m in self.matches
            if m.round == current
            for g in m.status(self.rules).pending
        )

    def loser_of(self, slot: int) -> int | None:
        """The loser of the match in ``slot``; None: no match there, or not decided."""
        for m in self.matches:
            if m.slot == slot:
                winner = m.status(self.rules).winner
                if winner is None:
                    return None
                return m.bottom if winner == m.top else m.top
        return None

    @property
    def finished(self) -> bool:
        """The final is decided, and so is the match for third place if there is one."""
        return self.champion is not None and not self.undecided()

    @property
    def third_place(self) -> int | None:
        """The winner of the match for third place (None: none, or not decided)."""
        return self.winner_of(self.third_place_slot) if self.rules.third_place else None

    @property
    def champion(self) -> int | None:
        """The winner of the final, None while it is not decided."""
        return self.winner_of(self.bracket.size - 1)

    def eliminated_in(self, player: int) -> int | None:
        """The round a player lost in (None: still in, or the champion)."""
        for m in self.matches:
            if player in m.players and m.slot != self.third_place_slot:
                winner = m.status(self.rules).winner
                if winner is not None and winner != player:
                    return m.round
        return None

    def placings(self) -> dict[int, str]:
        """Shared places by the round of elimination: ``"1"``, ``"2"``, ``"3-4"``, ``"5-8"``…

        The match for third place, once decided, splits 3–4 into ``"3"`` and ``"4"``.
        """
        places: dict[int, str] = {}
        champion = self.champion
        third = self.third_place
        fourth = self.loser_of(self.third_place_slot) if third is not None else None
        for player in (p.start for p in self.bracket.players):
            if player == champion:
                places[player] = "1"
                continue
            if player in (third, fourth):
                places[player] = "3" if player == third else "4"
                continue
            lost = self.eliminated_in(player)
            if lost is None:
                places[player] = ""
                continue
            best = (self.bracket.size >> lost) + 1
            worst = min(self.bracket.size >> (lost - 1), len(self.bracket.players))
            places[player] = str(best) if best == worst else f"{best}-{worst}"
        return places

    # -- changing ----------------------------------------------------------------------

    def record(self, slot: int, game: int, result: GameResult | None) -> Knockout:
        """A copy with one game's result entered (None clears it) — current round only."""
        match = self.match(slot)
        if match.round != self.round:
            raise RuleError(
                (
                    "slot {slot} is in round {round}, which is closed: round {next} is already "
                    "paired"
                ),
                slot=slot,
                round=match.round,
                next=self.round,
            )
        changed = match.with_result(game, result, self.rules)
        matches = tuple(changed if m.slot == slot else m for m in self.matches)
        return replace(self, matches=matches)

    def pair_next_round(self) -> Knockout:
        """Pair the next round; refused while a match of this round has no winner."""
        rnd = self.round
        if rnd >= self.bracket.rounds:
            raise RuleError(
                "round {round} is the final: there is no round to pair after it", round=rnd
            )
        open_matches = self.undecided(rnd)
        if open_matches:
            listed = Message.joined(
                ", ",
                (
                    Message(
                        "slot {slot} ({top} v {bottom})", slot=m.slot, top=m.top, bottom=m.bottom
                    )
                    for m in open_matches
                ),
            )
            verb = "has" if len(open_matches) == 1 else "have"
            raise RuleError(
                "round {round} is not over: {listed} {verb} no winner yet",
                round=rnd,
                listed=listed,
                verb=verb,
            )
        return replace(self, matches=self.matches + self._pair(rnd + 1))

    def _pair(self, rnd: int) -> tuple[Match, ...]:
        ratings = {p.start: p.rating for p in self.bracket.players}
        name = _name(self.bracket, rnd)
        fmt = self.rules.format_of(name)
        own = None if fmt == self.rules.format else fmt
        matches = []
        for s in self.bracket.round_slots(rnd):
            if s.players is not None:
                if s.is_bye:
                    continue
                top, bottom = s.players
            else:
                assert s.feeders is not None
                top, bottom = (self.winner_of(n) for n in s.feeders)
            if top is None or bottom is None:  # pragma: no cover - refused before
                raise RuleError("slot {slot}: a feeding match is not decided", slot=s.number)
            matches.append(
                Match(s.number, rnd, top, bottom, (ratings[top], ratings[bottom]), format=own)
            )
        if self.rules.third_place and rnd == self.bracket.rounds and rnd >= 2:
            semis = self.bracket.slot(self.bracket.size - 1).feeders
            assert semis is not None
            losers = [self.loser_of(n) for n in semis]
            if losers[0] is not None and losers[1] is not None:  # no bye in either semi-final
                third = self.rules.format_of("third-place")
                matches.append(
                    Match(
                        self.third_place_slot,
                        rnd,
                        losers[0],
                        losers[1],
                        (ratings[losers[0]], ratings[losers[1]]),
                        format=None if third == self.rules.format else third,
                    )
                )
        return tuple(matches)

    # -- output ------------------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        """The state as documented in docs/knockout.md."""
        matches = []
        for m in self.matches:
            st = m.status(self.rules)
            matches.append(
                {
                    "slot": m.slot,
                    "round": m.round,
                    "format": (m.format or self.rules.format).label(),
                    "third_place": m.slot == self.third_place_slot,
                    "players": list(m.players),
                    "games": [_game_json(g) for g in st.games],
                    "score": [points_json(x) for x in st.score],
                    "winner": st.winner,
                    "decided_by": st.decided_by or None,
                }
            )
        return {
            "bracket": self.bracket.to_json(),
            "format": self.rules.format.label(),
            "round_formats": round_formats_label(self.rules.round_formats),
            "third_place_match": self.rules.third_place,
            "tie_rule": self.rules.tie_rule.label(),
            "lots_seed": self.rules.seed,
            "round": self.round,
            "matches": matches,
            "champion": self.champion,
            "third_place": self.third_place,
        }


def _name(bracket: Bracket, rnd: int) -> str:
    return round_name(bracket.size >> (rnd - 1))


def _game_json(game: MatchGame) -> dict[str, object]:
    return {
        "game": game.number,
        "kind": game.kind.value,
        "white": game.white,
        "black": game.black,
        "result": game.result.label() if game.result is not None else None,
    }
