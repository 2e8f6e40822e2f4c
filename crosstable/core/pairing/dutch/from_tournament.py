"""Build a :class:`PairingRequest` from a core :class:`Tournament`.

The round to pair is the one after the last round in which anybody was paired
(a game, a forfeit or a PAB). Byes already entered for that round (half-,
full- or zero-point, or a known absence) keep those players out of it. A game
whose result is not known yet (an adjourned game, ``*`` or TRF-2026's ``?``)
counts as a draw played with its colours for the pairing; a game with no result
at all is refused (the service marks such games adjourned first, with a warning).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from crosstable.core.errors import RuleError
from crosstable.core.model import ByeKind, Colour, Entry, Outcome, Tournament
from crosstable.core.pairing.dutch.model import Competitor, PairingRequest, RoundRecord
from crosstable.core.scoring import PointSystem


def next_round(tournament: Tournament) -> int:
    """The number of the round to pair next.

    >>> next_round(Tournament())
    1
    """
    last = 0
    for rnd in tournament.rounds:
        if rnd.games or any(b.kind is ByeKind.PAIRING for b in rnd.byes):
            last = max(last, rnd.number)
    return last + 1


def default_rounds(players: int) -> int:
    """As many rounds as a knockout of the same field, ⌈log₂ N⌉.

    >>> default_rounds(9), default_rounds(16), default_rounds(1)
    (4, 4, 1)
    """
    return max(1, math.ceil(math.log2(max(players, 1))))


def request_for(
    tournament: Tournament,
    round_number: int | None = None,
    *,
    initial_colour: Colour = Colour.WHITE,
    accelerations: Mapping[int, Sequence[Fraction]] | None = None,
    forbidden: Iterable[Iterable[int]] = (),
    absent: Iterable[int] = (),
    total_rounds: int | None = None,
) -> PairingRequest:
    """The pairing request for ``round_number`` (default: the next round).

    ``forbidden`` lists groups of players who may not meet one another in this
    round; ``absent`` players are left out besides those with a bye entered.
    """
    number = next_round(tournament) if round_number is None else round_number
    system = tournament.settings.point_system
    size = len(tournament.players)
    missing = set(absent)
    for rnd in tournament.rounds:
        if rnd.number == number:
            if rnd.games or any(b.kind is ByeKind.PAIRING for b in rnd.byes):
                raise RuleError("round {round} is already paired", round=number)
            missing.update(b.player for b in rnd.byes)
    competitors = []
    accel = accelerations or {}
    by_round = _entries(tournament, number)
    for player in tournament.players:
        history = []
        for past in range(1, number):
            entry = by_round.get(past, {}).get(player.start)
            history.append(_record(entry.outcome if entry else Outcome.ZERO_BYE, entry, system))
        competitors.append(
            Competitor(player.start, tuple(history), tuple(accel.get(player.start, ())))
        )
    pairs: set[frozenset[int]] = set()
    for group in forbidden:
        members = sorted(set(group))
        for a_index, a in enumerate(members):
            for b in members[a_index + 1 :]:
                pairs.add(frozenset((a, b)))
    planned = total_rounds or tournament.settings.rounds
    if planned is not None and number > planned:
        raise RuleError(
            "round {round} cannot be paired: the event has {rounds} rounds",
            round=number,
            rounds=planned,
        )
    rounds = planned or max(default_rounds(size), number)
    return PairingRequest(
        round=number,
        total_rounds=rounds,
        competitors=tuple(competitors),
        initial_colour=initial_colour,
        absent=frozenset(s for s in missing if 1 <= s <= size),
        forbidden=frozenset(pairs),
        win=system.win,
        draw=system.draw,
        loss=system.loss,
    )


def _entries(tournament: Tournament, number: int) -> dict[int, dict[int, Entry]]:
    """Every player's entry in each round before ``number``, as
    :meth:`Tournament.entries` gives them (one pass over the games, not one
    per player)."""
    result: dict[int, dict[int, Entry]] = {}
    for rnd in tournament.rounds:
        if rnd.number >= number:
            continue
        found = result.setdefault(rnd.number, {})
        for bye in reversed(rnd.byes):
            found[bye.player] = Entry(rnd.number, None, Colour.NONE, bye.kind.outcome)
        for game in reversed(rnd.games):
            for start, colour in ((game.white, Colour.WHITE), (game.black, Colour.BLACK)):
                found[start] = Entry(
                    rnd.number, game.opponent_of(start), colour, game.outcome_of(start)
                )
    for past in range(1, number):
        found = result.setdefault(past, {})
        for player in tournament.players:
            if player.start not in found:
                found[player.start] = Entry(past, None, Colour.NONE, Outcome.ZERO_BYE)
    return result


def _record(outcome: Outcome, entry: Entry | None, system: PointSystem) -> RoundRecord:
    if entry is not None and entry.opponent is not None:
        if outcome is Outcome.PENDING:
            raise RuleError("round {round} has a game without a result", round=entry.round)
        if outcome is Outcome.UNKNOWN:  # adjourned (or not known yet): a draw for pairing
            return RoundRecord.game(entry.opponent, entry.colour, system.draw)
    points = outcome.points(system)
    if entry is not None and entry.opponent is not None:
        if outcome.is_over_the_board:
            return RoundRecord.game(entry.opponent, entry.colour, points)
        return RoundRecord.forfeit(entry.opponent, points)
    if outcome is Outcome.PAIRING_BYE:
        return RoundRecord.pairing_bye(points)
    if outcome is Outcome.FORFEIT_WIN:
        return RoundRecord.forfeit(None, points)
    return RoundRecord.absence(points)


def before_round(tournament: Tournament, round_number: int) -> Tournament:
    """The tournament as it stood when ``round_number`` was about to be paired:
    the earlier rounds, and only the byes already entered for that round."""
    rounds = [r for r in tournament.rounds if r.number < round_number]
    for rnd in tournament.rounds:
        if rnd.number == round_number:
            byes = tuple(b for b in rnd.byes if b.kind in _ENTERED)
            if byes:
                rounds.append(replace(rnd, games=(), byes=byes))
    return replace(tournament, rounds=tuple(rounds))


_ENTERED = frozenset({ByeKind.HALF, ByeKind.FULL, ByeKind.ZERO})
