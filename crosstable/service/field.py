"""How large a tournament may be, per pairing system (issue 13.10).

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

>>> check_field(System.ROUND_ROBIN, 100, cycles=2)
>>> check_field(System.SWISS_DUTCH, 20_000)
Traceback (most recent call last):
...
crosstable.core.errors.RuleError: a Swiss has at most 1000 players, not 20000
"""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.model import System

#: the largest field of each system
MAX_PLAYERS: dict[System, int] = {
    System.ROUND_ROBIN: 100,
    System.SCHEVENINGEN: 100,
    System.SWISS_DUTCH: 1000,
    System.KNOCKOUT: 512,
}
#: a round robin's cycles and games (a double round robin of 100 players)
MAX_CYCLES = 12
MAX_ROUND_ROBIN_GAMES = 9_900
#: the players of one event that the wizard splits into several tournaments (quads, groups)
MAX_EVENT_PLAYERS = 1000


def check_field(system: System, players: int, *, cycles: int = 1) -> None:
    """RuleError if ``players`` are more than a ``system`` tournament may have (R-RR-1:
    any field, within what the server carries; issue 13.10)."""
    cap = MAX_PLAYERS[system]
    if players > cap:
        if system is System.ROUND_ROBIN:
            raise RuleError(
                "a round robin has at most {cap} players, not {players}", cap=cap, players=players
            )
        if system is System.SCHEVENINGEN:
            raise RuleError(
                "a Scheveningen has at most {cap} players, not {players}", cap=cap, players=players
            )
        if system is System.SWISS_DUTCH:
            raise RuleError(
                "a Swiss has at most {cap} players, not {players}", cap=cap, players=players
            )
        raise RuleError(
            "a knockout has at most {cap} players, not {players}", cap=cap, players=players
        )
    if system is System.ROUND_ROBIN:
        if cycles > MAX_CYCLES:
            raise RuleError(
                "a round robin has at most {cap} cycles, not {cycles}",
                cap=MAX_CYCLES,
                cycles=cycles,
            )
        games = cycles * (players * (players - 1) // 2)
        if games > MAX_ROUND_ROBIN_GAMES:
            raise RuleError(
                (
                    "a round robin has at most {cap} games: {players} players in {cycles} cycles "
                    "make {games}"
                ),
                cap=MAX_ROUND_ROBIN_GAMES,
                players=players,
                cycles=cycles,
                games=games,
            )


def check_event_field(players: int) -> None:
    """RuleError if an event of several tournaments (quads, groups) is too large."""
    if players > MAX_EVENT_PLAYERS:
        raise RuleError(
            "an event of quads or groups has at most {cap} players, not {players}",
            cap=MAX_EVENT_PLAYERS,
            players=players,
        )


__all__ = ["MAX_CYCLES", "MAX_PLAYERS", "MAX_ROUND_ROBIN_GAMES", "check_event_field", "check_field"]
