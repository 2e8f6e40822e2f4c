"""The rules of any system paired before round 1, read from the core's registry.

:class:`FixedScheduleRules` is what a new system of that shape registers with
:func:`crosstable.service.systems.register_rules`: at the start it asks the system's
:class:`~crosstable.core.pairing_systems.FixedPairing` for the schedule of the drawn
field (the players as competitors of the player kind) and writes it: the round
robin's start, which asks the registry for ``self.system``; withdrawals and the
finish are the round robin's too.
"""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service.round_robin import RoundRobinRules


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


__all__ = ["FixedScheduleRules"]
