"""A Swiss (FIDE Dutch system) in the offline app: each round paired by the core's engine
from the tournament so far, as the server pairs it (numpy and rustworkx where they are
installed, their plain-Python fallbacks in the browser)."""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.model import Bye, ByeKind, Game, Player, Round, Settings, System, Tournament
from crosstable.core.pairing.dutch import default_rounds, next_round, pair_round, request_for

MAX_ROUNDS = 20


def planned_rounds(rounds: object, players: int) -> int:
    """The rounds the state asks for, or as many as a knockout of the field would have."""
    if rounds in (None, ""):
        return default_rounds(players)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise RuleError("a Swiss has 1 to {most} rounds", most=MAX_ROUNDS)
    if rounds >= players:
        raise RuleError(
            "{players} players cannot play {rounds} rounds of a Swiss",
            players=players,
            rounds=rounds,
        )
    return rounds


def start_swiss(players: tuple[Player, ...], name: str, rounds: int) -> Tournament:
    """The Swiss before its first round."""
    settings = Settings(system=System.SWISS_DUTCH, rounds=rounds)
    return Tournament(settings, players, (), name=name)


def pair_next(tournament: Tournament) -> Tournament:
    """The tournament with its next round paired."""
    planned = tournament.settings.rounds or 0
    if tournament.rounds:
        last = tournament.rounds[-1]
        waiting = sum(1 for g in last.games if g.result is None)
        if waiting:
            raise RuleError(
                "round {round} is not over: {count} games have no result",
                round=last.number,
                count=waiting,
            )
    number = next_round(tournament)
    if number > planned:
        raise RuleError("all {rounds} rounds are paired", rounds=planned)
    pairing = pair_round(request_for(tournament, number, total_rounds=planned))
    games = tuple(
        Game(number, board, white, black)
        for board, (white, black) in enumerate(pairing.boards, start=1)
    )
    byes = () if pairing.bye is None else (Bye(number, pairing.bye, ByeKind.PAIRING),)
    return Tournament(
        tournament.settings,
        tournament.players,
        (*tournament.rounds, Round(number, games, byes)),
        name=tournament.name,
    )
