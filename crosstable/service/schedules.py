"""The schedule a round robin gets at its start: the one place that calls the schedule core."""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.schedule.types import Schedule


def round_robin_schedule(players: int, *, cycles: int, swap_last_rounds: bool) -> Schedule:
    """FIDE Berger tables for ``players`` (odd: the free round is the bye), ``cycles`` times."""
    from crosstable.core.schedule import berger

    if cycles == 1:
        return berger.berger_table(players)
    raise RuleError(f"{cycles} cycles: multi-cycle round robins are not available yet")
