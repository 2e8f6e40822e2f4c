"""The knockout's rules for the common use cases (:mod:`crosstable.service.systems`)."""

from __future__ import annotations

import random as _random

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service.frame import Done
from crosstable.service.knockout.games import (
    check_knockout_correction,
    knockout_places,
    start_knockout,
    withdraw_waiting,
)
from crosstable.service.loading import Loaded
from crosstable.service.round_robin import withdraw_from_games
from crosstable.service.stage_view import check_stage_start
from crosstable.service.teams.bughouse_knockout import (
    check_pairs_correction,
    is_pairs_knockout,
    pairs_places,
    start_bughouse_knockout,
)
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow


class KnockoutRules:
    """A knockout: the bracket at the start, its places at the finish; a correction that
    would change who went on is refused."""

    system = System.KNOCKOUT
    #: a bracket of 512, 9 rounds
    max_players = 512

    def check_field(self, players: int, cycles: int = 1) -> None:
        if players > self.max_players:
            raise RuleError(
                "a knockout has at most {cap} players, not {players}",
                cap=self.max_players,
                players=players,
            )

    def start(self, tx: Tx, loaded: Loaded, random: _random.Random | None = None) -> Done:
        if is_pairs_knockout(tx.tournament):  # the competitors are Bughouse pairs
            return start_bughouse_knockout(tx, loaded, random)
        check_stage_start(tx.session, tx.tournament, loaded)  # a group stage's knockout
        return start_knockout(tx, loaded, random=random)

    def withdraw(self, tx: Tx, loaded: Loaded, entry: EntryRow, from_round: int | None) -> Done:
        pending = [
            g for g in loaded.games if entry.number in (g.white, g.black) and g.result is None
        ]
        if pending:
            return withdraw_from_games(tx, loaded, entry, from_round)
        if is_pairs_knockout(tx.tournament):
            raise RuleError(
                "player {player} has no game waiting: in a knockout of pairs a player "
                "withdraws from a match seated",
                player=entry.name,
            )
        return withdraw_waiting(tx, loaded, entry)

    def check_correction(self, tx: Tx) -> None:
        if is_pairs_knockout(tx.tournament):
            return check_pairs_correction(tx)
        check_knockout_correction(tx)

    def bracket_places(self, tx: Tx, loaded: Loaded) -> dict[int, int] | None:
        if is_pairs_knockout(tx.tournament):
            return pairs_places(tx, loaded)
        return knockout_places(tx, loaded)

    def check_finished(self, loaded: Loaded) -> None:
        return None
