"""Which rounds have begun: a bye counts in the live table only from then.

A round robin is scheduled whole before round 1, and a Swiss round's byes (the
pairing-allocated bye, half-, full- and zero-point byes asked for ahead) exist as
soon as the round is paired. Their points are not scored until the round is
played: the table after round 3 of an odd round robin must not already credit the
player who sits out round 7 (under 3-1-0 with a three-point free round that is a
whole win ahead of time).

A round has **begun** once a result of one of its games, or of a game of a later
round, is in (rounds are played in order: a result of round 5 means rounds 1–4
have been played). A round holding byes alone begins only with a later round.
From the moment a round has begun its byes count with their full value under the
tournament's point system; before it they are games not played yet. A table the
organiser declares final counts every bye.

>>> from crosstable.core.model import Bye, ByeKind, Game, GameResult, Player, Round, Tournament
>>> players = tuple(Player(i, str(i)) for i in (1, 2, 3))
>>> rounds = (Round(1, (Game(1, 1, 1, 2, GameResult.DRAW()),), (Bye(1, 3, ByeKind.FREE),)),
...           Round(2, (Game(2, 1, 3, 1),), (Bye(2, 2, ByeKind.FREE),)))
>>> rounds_begun(Tournament(players=players, rounds=rounds))
1
"""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.core.model import GameResult, Round, Tournament


def result_in(result: GameResult | None) -> bool:
    """Whether a game's result is in (a forfeit counts; ``*`` does not)."""
    return result is not None and result.white.is_decided


def rounds_begun(tournament: Tournament) -> int:
    """How many rounds, from the first, have begun: one more than the index of the last
    round with a result in (0: none)."""
    return begun_from_counts(results_per_round(tournament.rounds))


def results_per_round(rounds: Sequence[Round]) -> list[int]:
    """The number of games with a result in each round (by index)."""
    return [sum(1 for game in rnd.games if result_in(game.result)) for rnd in rounds]


def begun_from_counts(counts: Sequence[int]) -> int:
    """:func:`rounds_begun` from :func:`results_per_round`'s counts."""
    for index in range(len(counts) - 1, -1, -1):
        if counts[index]:
            return index + 1
    return 0
