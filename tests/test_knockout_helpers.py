"""Playing a whole knockout with random results (plain values; no tests here)."""

from __future__ import annotations

import random

from crosstable.core.model import GameResult
from crosstable.core.pairing.knockout import Knockout

RESULTS = ("1-0", "1-0", "0-1", "0-1", "1/2-1/2", "1/2-1/2", "+-", "-+")


def play_round(ko: Knockout, rng: random.Random, results: tuple[str, ...] = RESULTS) -> Knockout:
    """Enter random results until every match of the current round is decided."""
    while True:
        pending = ko.pending_games()
        if not pending:
            assert not ko.undecided(), "an undecided match must have a game to play"
            return ko
        for slot, game in pending:
            ko = ko.record(slot, game.number, GameResult.parse(rng.choice(results)))


def play_out(ko: Knockout, rng: random.Random, results: tuple[str, ...] = RESULTS) -> Knockout:
    """Play every round to the final."""
    while True:
        ko = play_round(ko, rng, results)
        if ko.round == ko.bracket.rounds:
            return ko
        ko = ko.pair_next_round()
