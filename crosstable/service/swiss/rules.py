"""The Swiss's rules for the common use cases (:mod:`crosstable.service.systems`)."""

from __future__ import annotations

import random as _random

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.teams.settings import is_team_tournament
from crosstable.service.frame import Done
from crosstable.service.loading import Loaded
from crosstable.service.swiss.games import check_swiss_finished, start_swiss, withdraw_swiss
from crosstable.service.teams.swiss_start import start_team_swiss
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow


class SwissRules:
    """A Swiss: rounds paired one by one; finished when every planned round is played."""

    system = System.SWISS_DUTCH
    #: 1 000 players pair a round in ~2 s (docs/benchmarks.md); 2 000 take ~21 s of CPU
    max_players = 1000

    def check_field(self, players: int, cycles: int = 1) -> None:
        if players > self.max_players:
            raise RuleError(
                "a Swiss has at most {cap} players, not {players}",
                cap=self.max_players,
                players=players,
            )

    def start(self, tx: Tx, loaded: Loaded, random: _random.Random | None = None) -> Done:
        if is_team_tournament(tx.tournament.regulations or {}):  # the competitors are teams
            return start_team_swiss(tx, loaded, random)
        return start_swiss(tx, loaded, random=random)

    def withdraw(self, tx: Tx, loaded: Loaded, entry: EntryRow, from_round: int | None) -> Done:
        return withdraw_swiss(tx, loaded, entry, from_round)

    def check_correction(self, tx: Tx) -> None:
        return None

    def bracket_places(self, tx: Tx, loaded: Loaded) -> dict[int, int] | None:
        return None

    def check_finished(self, loaded: Loaded) -> None:
        check_swiss_finished(loaded)
