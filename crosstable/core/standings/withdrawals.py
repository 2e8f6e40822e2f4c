"""Withdrawals (FIDE C.06 5.4–5.5 as carried in C.05).

In a round robin a player who withdraws (or is expelled) after completing
fewer than half of their scheduled games is taken out of the final standings:
their line stays in the crosstable (marked, still rated) but neither their
points nor the points scored against them count. With at least half, every
result stays and the games they will not play become forfeits, (+) for the
opponent and (−) for them. The rule is a tournament setting
(:class:`~crosstable.core.model.WithdrawalRule`).

A withdrawal is given explicitly (``Tournament.withdrawn``, ``--withdrawn``) or
inferred from a run of forfeit losses to the end of the player's record. In a
Swiss event nothing is taken out: a withdrawn player's points and the points
scored against them stay (their later rounds are zero-point byes).

>>> from crosstable.core.model import Game, GameResult, Player, Round, Tournament
>>> forfeit = GameResult.parse("+-")
>>> t = Tournament(players=tuple(Player(i, str(i)) for i in (1, 2, 3)), rounds=(
...     Round(1, (Game(1, 1, 2, 3, forfeit),)),
...     Round(2, (Game(2, 1, 3, 1, GameResult.parse("-+")),)),))
>>> from crosstable.core.tiebreaks.field import compile_field
>>> sorted(infer_withdrawals(compile_field(t)))
[3]
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

from crosstable.core.model import System, Tournament, WithdrawalRule
from crosstable.core.text import Message
from crosstable.core.tiebreaks.field import FLOSS, FREE, GAME, PENDING, ZPB, Field


@dataclass(frozen=True, slots=True)
class WithdrawalEffect:
    """Who withdrew, who is taken out and whose remaining games are forfeited."""

    withdrawn: dict[int, str]  # starting number → "explicit" or "inferred"
    excluded: frozenset[int] = frozenset()
    forfeited: frozenset[int] = frozenset()
    notes: tuple[str, ...] = ()


def infer_withdrawals(f: Field) -> frozenset[int]:
    """Players whose record ends in a run of forfeit losses (games not played yet may follow).

    In a round robin a zero-point bye (a round written without the opponent) counts
    like a forfeit loss: there every round has an opponent.
    """
    found: set[int] = set()
    missing = (FLOSS, ZPB) if f.round_robin else (FLOSS,)
    if set(missing).isdisjoint(chain.from_iterable(f.kind)):
        return frozenset()  # no forfeit loss anywhere (checked at C speed)
    for p in range(f.n):
        trailing = 0
        for k in reversed(f.kind[p]):
            if k == FREE:
                continue
            if k == PENDING:
                if trailing:
                    break
                continue
            if k in missing:
                trailing += 1
                continue
            break
        if trailing:
            found.add(p + 1)
    return frozenset(found)


def scheduled_games(tournament: Tournament) -> int:
    """Games each player of a round robin plays over the whole schedule."""
    size = len(tournament.players)
    per_cycle = size - 1 if size % 2 == 0 else size
    cycles = tournament.settings.cycles
    if per_cycle:
        cycles = max(cycles, -(-len(tournament.rounds) // per_cycle))
    return cycles * (size - 1)


def withdrawal_effect(
    tournament: Tournament,
    f: Field,
    *,
    system: System | None = None,
    explicit: frozenset[int] = frozenset(),
    final: bool = False,
) -> WithdrawalEffect:
    """Apply the withdrawal rule.

    Final standings use explicit and inferred withdrawals; live standings show the
    provisional effect of explicit ones only (an inferred run of forfeits may yet
    be a player who comes back).
    """
    system = system or tournament.settings.system
    given = frozenset(explicit) | tournament.withdrawn
    inferred = infer_withdrawals(f) - given
    withdrawn = {s: "explicit" for s in sorted(given)}
    withdrawn.update({s: "inferred" for s in sorted(inferred)})
    if not system.has_predetermined_pairings:
        return WithdrawalEffect(withdrawn)
    acting = given | inferred if final else given
    rule = tournament.settings.withdrawal_rule
    total = scheduled_games(tournament)
    excluded: set[int] = set()
    forfeited: set[int] = set()
    notes: list[str] = []
    for start in sorted(acting):
        played = f.kind[start - 1].count(GAME)
        annul = rule is WithdrawalRule.ANNUL or (
            rule is WithdrawalRule.FIDE_HALF and 2 * played < total
        )
        how = Message(
            "withdrew" if withdrawn[start] == "explicit" else "withdrew (a run of forfeits)"
        )
        if annul:
            excluded.add(start)
            notes.append(
                Message(
                    "player {start} {how} after {played} of {total} games: fewer than half, "
                    "so their results are annulled and they leave the standings",
                    start=start,
                    how=how,
                    played=played,
                    total=total,
                )
            )
        else:
            forfeited.add(start)
            notes.append(
                Message(
                    "player {start} {how} after {played} of {total} games: the results stand "
                    "and the remaining opponents get (+)",
                    start=start,
                    how=how,
                    played=played,
                    total=total,
                )
            )
    if not final:
        notes = [Message("provisional: {note}", note=note) for note in notes]
    return WithdrawalEffect(withdrawn, frozenset(excluded), frozenset(forfeited), tuple(notes))
