"""The rules of any system paired before round 1, read from the core's registry.

:class:`FixedScheduleRules` is what a new system of that shape registers with
:func:`crosstable.service.systems.register_rules`: at the start it asks the system's
:class:`~crosstable.core.pairing_systems.FixedPairing` for the schedule of the drawn
field (the players as competitors of the player kind) and writes it, as the round
robin does; withdrawals and the finish are the round robin's.
"""

from __future__ import annotations

import random as _random

from crosstable.core.competitor import players_as_competitors
from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.pairing_systems import fixed_pairing
from crosstable.core.text import Message
from crosstable.service.frame import Done
from crosstable.service.loading import Loaded
from crosstable.service.round_robin import RoundRobinRules
from crosstable.service.schedules import insert_schedule
from crosstable.service.unit import Tx


class FixedScheduleRules(RoundRobinRules):
    """A system paired before round 1 by its registered core schedule."""

    def __init__(self, system: System, max_players: int = 100) -> None:
        self.system = system
        self.max_players = max_players

    def check_field(self, players: int, cycles: int = 1) -> None:
        if players > self.max_players:
            raise RuleError(
                "{system} has at most {cap} players, not {players}",
                system=self.system.value,
                cap=self.max_players,
                players=players,
            )

    def start(self, tx: Tx, loaded: Loaded, random: _random.Random | None = None) -> Done:
        row = tx.tournament
        competitors = players_as_competitors(loaded.tournament().players)
        schedule = fixed_pairing(self.system).schedule(
            competitors,
            cycles=row.cycles,
            swap_last_rounds=row.swap_last_rounds,
            details=row.regulations,
        )
        number_of = {loaded.start_of(entry.number): entry.number for entry in loaded.entries}
        insert_schedule(tx, schedule, number_of)
        tx.update(row, status="running")
        rounds = len(schedule.rounds)
        return Done(
            Message(
                "tournament started: {rounds} rounds, {players} players",
                rounds=rounds,
                players=len(loaded.entries),
            ),
            {"rounds": rounds},
        )


__all__ = ["FixedScheduleRules"]
