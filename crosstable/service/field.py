"""How large a tournament may be, per pairing system.

Every way in — the wizard, ``POST /api/v1/tournaments``, ``crosstable new`` with
``player add``, self-registration — is checked against these caps before any work
proportional to the field is done, so a 20 000-player request is refused at once
instead of running for minutes. The caps come from what the start, the pairing
engine and the pages carry on a small server (measured in docs/api.md, "Limits"):

* a round robin of 100 players has 99 rounds and 4 950 games (start ~2 s, the
  crosstable page ~1.4 s and 0.3 MB); 200 players take ~18 s to start and make a
  1 MB page. At most 12 cycles and 9 900 games (a double round robin of 100);
* a Scheveningen of two teams of 50 has 50 rounds of 50 games (2 500 games);
* a Swiss of 1 000 players pairs a round in ~2 s (docs/benchmarks.md); 2 000
  players take ~21 s of CPU a round;
* a knockout of 512 players (a bracket of 512, 9 rounds).

Each cap is its system's (``max_players`` and ``check_field`` of the system's
:class:`~crosstable.service.systems.SystemRules`); this module asks the system.

>>> check_field(System.ROUND_ROBIN, 100, cycles=2)
>>> check_field(System.SWISS_DUTCH, 20_000)
Traceback (most recent call last):
...
crosstable.core.errors.RuleError: a Swiss has at most 1000 players, not 20000
"""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service.round_robin import MAX_CYCLES, MAX_ROUND_ROBIN_GAMES
from crosstable.service.systems import rules_of

#: the largest field of each system (each system's rules say: ``max_players``)
MAX_PLAYERS: dict[System, int] = {system: rules_of(system).max_players for system in System}
#: the players of one event that the wizard splits into several tournaments (quads, groups)
MAX_EVENT_PLAYERS = 1000


def check_field(system: System, players: int, *, cycles: int = 1) -> None:
    """RuleError if ``players`` are more than a ``system`` tournament may have (
    any field, within what the server carries). Each system's rules hold
    its caps (:meth:`crosstable.service.systems.SystemRules.check_field`)."""
    rules_of(system).check_field(players, cycles)


def check_event_field(players: int) -> None:
    """RuleError if an event of several tournaments (quads, groups) is too large."""
    if players > MAX_EVENT_PLAYERS:
        raise RuleError(
            "an event of quads or groups has at most {cap} players, not {players}",
            cap=MAX_EVENT_PLAYERS,
            players=players,
        )


__all__ = ["MAX_CYCLES", "MAX_PLAYERS", "MAX_ROUND_ROBIN_GAMES", "check_event_field", "check_field"]
