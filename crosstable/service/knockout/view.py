"""The bracket as screens, the command line and the API show it: a typed view.

:func:`bracket_of` reads the replayed state into a :class:`BracketView` (frozen
dataclasses all the way down); :meth:`BracketView.as_json` is the JSON the API returns
(``GET /api/v1/tournaments/{id}/bracket``, ``crosstable bracket --format json``, a
:data:`~crosstable.service.read_views.JsonObject`) and
:meth:`~crosstable.service.knockout.KnockoutPlay.bracket_view` answers, key for key
as docs/knockout.md lists it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.pairing.knockout import round_formats_label, round_name
from crosstable.core.scoring import points_json
from crosstable.service.knockout.replay import KnockoutState
from crosstable.service.read_views import JsonObject
from crosstable.store.models import TournamentRow


@dataclass(frozen=True, slots=True)
class BracketPlayer:
    """A player of the bracket by starting number (no name: not registered any more)."""

    start: int
    name: str = ""
    rating: int | None = None

    def as_json(self) -> JsonObject:
        return {"start": self.start, "name": self.name, "rating": self.rating}


def _player_json(player: BracketPlayer | None) -> JsonObject | None:
    return None if player is None else player.as_json()


@dataclass(frozen=True, slots=True)
class BracketGame:
    """A game of a match: where it is stored (None: not yet), the colours, the result."""

    game: int
    kind: str
    round: int | None
    board: int | None
    white: int
    black: int
    result: str | None

    def as_json(self) -> JsonObject:
        return {
            "game": self.game,
            "kind": self.kind,
            "round": self.round,
            "board": self.board,
            "white": self.white,
            "black": self.black,
            "result": self.result,
        }


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """A slot of the bracket: who plays (known so far), and — once paired — its format,
    games, score (and each stage's), the winner and what decided it."""

    slot: int
    next: int | None
    feeders: tuple[int, int] | None
    players: tuple[BracketPlayer | None, BracketPlayer | None]
    third_place: bool = False
    paired: bool = False
    format: str | None = None
    games: tuple[BracketGame, ...] = ()
    score: tuple[Fraction, Fraction] | None = None
    stage_scores: tuple[tuple[Fraction, Fraction], ...] = ()
    winner: int | None = None
    decided_by: str | None = None

    def as_json(self) -> JsonObject:
        out: JsonObject = {"slot": self.slot, "next": self.next}
        if self.feeders is not None:
            out["from"] = list(self.feeders)
        if self.third_place:
            out["third_place"] = True
        out["players"] = [_player_json(p) for p in self.players]
        out["format"] = self.format
        out["games"] = [g.as_json() for g in self.games]
        out["score"] = None if self.score is None else [points_json(x) for x in self.score]
        if self.paired:
            out["stage_scores"] = [[points_json(a), points_json(b)] for a, b in self.stage_scores]
        out["winner"] = self.winner
        out["decided_by"] = self.decided_by
        return out


@dataclass(frozen=True, slots=True)
class BracketBye:
    player: BracketPlayer
    slot: int

    def as_json(self) -> JsonObject:
        return {**self.player.as_json(), "slot": self.slot}


@dataclass(frozen=True, slots=True)
class BracketRound:
    round: int
    name: str
    #: the store round its first games are in (None: not paired yet)
    first_store_round: int | None
    matches: tuple[BracketMatch, ...]
    byes: tuple[BracketBye, ...] = ()

    def as_json(self) -> JsonObject:
        return {
            "round": self.round,
            "name": self.name,
            "first_store_round": self.first_store_round,
            "matches": [m.as_json() for m in self.matches],
            "byes": [b.as_json() for b in self.byes],
        }


@dataclass(frozen=True, slots=True)
class BracketPlace:
    player: BracketPlayer
    place: str  # "1", "3-4", "5-8"… ("" while not decided)

    def as_json(self) -> JsonObject:
        return {**self.player.as_json(), "place": self.place}


@dataclass(frozen=True, slots=True)
class DueGame:
    """A game the bracket set up that is not stored yet (continue the knockout)."""

    slot: int
    game: int
    kind: str
    round: int

    def as_json(self) -> JsonObject:
        return {"slot": self.slot, "game": self.game, "kind": self.kind, "round": self.round}


@dataclass(frozen=True, slots=True)
class BracketView:
    """The whole bracket of a knockout tournament."""

    tournament: int
    name: str
    status: str
    players: int
    size: int
    order: str
    lots_seed: int
    format: str
    tie_rule: str
    round: int
    rounds: tuple[BracketRound, ...]
    champion: BracketPlayer | None
    third_place: BracketPlayer | None
    third_place_match: bool
    round_formats: str
    placings: tuple[BracketPlace, ...]
    due: tuple[DueGame, ...]
    #: (round, board) of stored games no longer needed
    surplus: tuple[tuple[int, int], ...]
    problem: str | None

    def as_json(self) -> JsonObject:
        return {
            "tournament": self.tournament,
            "name": self.name,
            "status": self.status,
            "players": self.players,
            "size": self.size,
            "order": self.order,
            "lots_seed": self.lots_seed,
            "format": self.format,
            "tie_rule": self.tie_rule,
            "round": self.round,
            "rounds": [r.as_json() for r in self.rounds],
            "champion": _player_json(self.champion),
            "third_place": _player_json(self.third_place),
            "third_place_match": self.third_place_match,
            "round_formats": self.round_formats,
            "placings": [p.as_json() for p in self.placings],
            "due": [d.as_json() for d in self.due],
            "surplus": [{"round": r, "board": b} for r, b in self.surplus],
            "problem": self.problem,
        }


def bracket_of(row: TournamentRow, state: KnockoutState) -> BracketView:
    """The view of a knockout replayed from the store."""
    ko = state.knockout
    bracket = ko.bracket
    rules = ko.rules

    def person(start: int | None) -> BracketPlayer | None:
        if start is None:
            return None
        entry = state.entries.get(start)
        if entry is None:
            return BracketPlayer(start)
        return BracketPlayer(start, entry.name, entry.rating)

    rounds = []
    for rnd in range(1, bracket.rounds + 1):
        matches = []
        for s in bracket.round_slots(rnd):
            if s.is_bye:
                continue
            if s.feeders is not None:
                known = (ko.winner_of(s.feeders[0]), ko.winner_of(s.feeders[1]))
            else:
                known = s.players or (None, None)
            matches.append(_match(state, s.number, s.next, s.feeders, known, person))
        if rnd == bracket.rounds and rules.third_place and rnd >= 2:
            semis = bracket.slot(bracket.size - 1).feeders
            assert semis is not None
            if not any(bracket.slot(n).is_bye for n in semis):
                losers = (ko.loser_of(semis[0]), ko.loser_of(semis[1]))
                matches.append(
                    _match(state, ko.third_place_slot, None, semis, losers, person, third=True)
                )
        byes = tuple(
            BracketBye(_known(person(s.bye_player)), s.number)
            for s in bracket.round_slots(1)
            if rnd == 1 and s.bye_player is not None
        )
        rounds.append(
            BracketRound(
                rnd,
                round_name(bracket.size >> (rnd - 1)),
                state.base.get(rnd),
                tuple(matches),
                byes,
            )
        )
    placings = ko.placings()
    return BracketView(
        tournament=row.id,
        name=row.name,
        status=row.status,
        players=len(bracket.players),
        size=bracket.size,
        order=bracket.order.value,
        lots_seed=rules.seed,
        format=rules.format.label(),
        tie_rule=rules.tie_rule.label(),
        round=ko.round,
        rounds=tuple(rounds),
        champion=person(ko.champion),
        third_place=person(ko.third_place),
        third_place_match=rules.third_place,
        round_formats=round_formats_label(rules.round_formats),
        placings=tuple(
            BracketPlace(_known(person(start)), placings[start])
            for start in sorted(placings, key=lambda s: (_place_key(placings[s]), s))
        ),
        due=tuple(DueGame(d.slot, d.game.number, d.game.kind.value, d.round) for d in state.due),
        surplus=tuple((g.round, g.board) for g in state.surplus),
        problem=state.problem,
    )


def _known(player: BracketPlayer | None) -> BracketPlayer:
    assert player is not None  # a starting number always gives a player
    return player


def _match(
    state: KnockoutState,
    slot: int,
    next_slot: int | None,
    feeders: tuple[int, int] | None,
    known: tuple[int | None, int | None],
    person: Callable[[int | None], BracketPlayer | None],
    *,
    third: bool = False,
) -> BracketMatch:
    """One match of the view: players, games (where stored), scores, who goes on."""
    ko = state.knockout
    paired = next((m for m in ko.matches if m.slot == slot), None)
    if paired is None:
        return BracketMatch(
            slot, next_slot, feeders, (person(known[0]), person(known[1])), third_place=third
        )
    status = paired.status(ko.rules)
    games = []
    for g in status.games:
        stored = state.stored.get((slot, g.number))
        games.append(
            BracketGame(
                g.number,
                g.kind.value,
                stored.round if stored is not None else None,
                stored.board if stored is not None else None,
                g.white,
                g.black,
                g.result.label() if g.result is not None else None,
            )
        )
    return BracketMatch(
        slot,
        next_slot,
        feeders,
        (person(paired.top), person(paired.bottom)),
        third_place=third,
        paired=True,
        format=(paired.format or ko.rules.format).label(),
        games=tuple(games),
        score=status.score,
        stage_scores=tuple(status.stage_scores),
        winner=status.winner,
        decided_by=status.decided_by or None,
    )


def _place_key(place: str) -> int:
    return int(place.split("-")[0]) if place else 10**9


def bracket_view_of(row: TournamentRow, state: KnockoutState) -> JsonObject:
    """The view as JSON (what the API returns)."""
    return bracket_of(row, state).as_json()


__all__ = [
    "BracketBye",
    "BracketGame",
    "BracketMatch",
    "BracketPlace",
    "BracketPlayer",
    "BracketRound",
    "BracketView",
    "DueGame",
    "bracket_of",
    "bracket_view_of",
]
