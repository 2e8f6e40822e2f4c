"""Round-robin schedules: FIDE Berger tables, the circle method, Crenshaw-Berger tables,
multiple cycles, verification.

>>> from crosstable.core.schedule import berger_schedule, verify_schedule
>>> verify_schedule(berger_schedule(8, cycles=2)).ok
True
"""

from crosstable.core.schedule.berger import (
    berger_opponent,
    berger_round,
    berger_table,
    rounds_per_cycle,
    table_size,
)
from crosstable.core.schedule.circle import circle_opponent, circle_round, circle_table
from crosstable.core.schedule.crenshaw import crenshaw_schedule, crenshaw_table
from crosstable.core.schedule.cycles import berger_schedule, circle_schedule, repeat_cycles
from crosstable.core.schedule.types import Schedule, ScheduledRound
from crosstable.core.schedule.verify import (
    ColourCount,
    ColourRun,
    Problem,
    ScheduleReport,
    verify_schedule,
)

__all__ = [
    "ColourCount",
    "ColourRun",
    "Problem",
    "Schedule",
    "ScheduleReport",
    "ScheduledRound",
    "berger_opponent",
    "berger_round",
    "berger_schedule",
    "berger_table",
    "circle_opponent",
    "circle_round",
    "circle_schedule",
    "circle_table",
    "crenshaw_schedule",
    "crenshaw_table",
    "repeat_cycles",
    "rounds_per_cycle",
    "table_size",
    "verify_schedule",
]
