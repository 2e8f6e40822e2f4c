"""Schedules fixed at the start: the one place that calls the schedule core for a round
robin, and that writes a fixed schedule's rounds, games and free rounds to the store."""

from __future__ import annotations

from collections.abc import Mapping

from crosstable.core.model import Reason
from crosstable.core.schedule import Schedule, berger_schedule
from crosstable.service.unit import Tx
from crosstable.store.models import ByeRow, GameRow, RoundRow


def round_robin_schedule(players: int, *, cycles: int, swap_last_rounds: bool) -> Schedule:
    """FIDE Berger tables for ``players`` (odd: a free round), ``cycles`` times."""
    return berger_schedule(players, cycles, swap_last_rounds=swap_last_rounds)


def insert_schedule(tx: Tx, schedule: Schedule, number_of: Mapping[int, int]) -> None:
    """Every round of ``schedule`` with its games in board order and its free round;
    ``number_of`` maps the schedule's starting numbers to entry numbers."""
    for scheduled in schedule.rounds:
        tx.insert(RoundRow(number=scheduled.number, cycle=scheduled.cycle))
    tx.flush()
    for scheduled in schedule.rounds:
        for board, (white, black) in enumerate(scheduled.boards, 1):
            tx.insert(
                GameRow(
                    round=scheduled.number,
                    board=board,
                    white=number_of[white],
                    black=number_of[black],
                    result=None,
                    reason=Reason.NORMAL.value,
                    version=1,
                )
            )
        if scheduled.bye is not None:
            tx.insert(ByeRow(round=scheduled.number, player=number_of[scheduled.bye], kind="free"))
    tx.flush()
