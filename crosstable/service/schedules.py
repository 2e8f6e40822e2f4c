"""The schedule a round robin gets at its start: the one place that calls the schedule core."""

from __future__ import annotations

from crosstable.core.schedule import Schedule, berger_schedule


def round_robin_schedule(players: int, *, cycles: int, swap_last_rounds: bool) -> Schedule:
    """FIDE Berger tables for ``players`` (odd: a free round), ``cycles`` times (R-RR-5, R-RR-7)."""
    return berger_schedule(players, cycles, swap_last_rounds=swap_last_rounds)
