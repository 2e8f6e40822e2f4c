"""An adjourned game (its result not known yet) counts as a draw with its colours when
the next Swiss round is paired (FIDE checklist Q157/Q158); a game with no result at all
is refused. Checked on random generated histories: the round paired with one of the
last round's games adjourned is the round paired with that game drawn."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, Outcome, Tournament
from crosstable.core.pairing.dutch import pair_round, request_for
from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate
from crosstable.core.pairing.dutch.matching import NoValidPairingError

ADJOURNED = GameResult(Outcome.UNKNOWN, Outcome.UNKNOWN)


def with_last_round_game(
    tournament: Tournament, board: int, result: GameResult | None
) -> Tournament:
    last = tournament.rounds[-1]
    games = tuple(
        replace(game, result=result) if game.board == board else game for game in last.games
    )
    return replace(tournament, rounds=(*tournament.rounds[:-1], replace(last, games=games)))


def outcome(tournament: Tournament) -> object:
    try:
        pairing = pair_round(request_for(tournament))
    except NoValidPairingError as refused:
        return str(refused)
    return (pairing.boards, pairing.bye)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(min_value=6, max_value=40),
    rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
    pick=st.integers(min_value=0, max_value=1_000),
)
def test_an_adjourned_game_pairs_as_a_draw(players: int, rounds: int, seed: int, pick: int) -> None:
    rounds = min(rounds, players - 2)
    assume(rounds >= 1)
    try:
        history = generate(GeneratorSettings(players=players, rounds=rounds, seed=seed))
    except NoValidPairingError:
        assume(False)
    history = replace(history, settings=replace(history.settings, rounds=rounds + 2))
    games = [
        g
        for g in history.rounds[-1].games
        if g.result is not None and g.result.white.is_over_the_board
    ]
    assume(games)
    board = games[pick % len(games)].board
    adjourned = with_last_round_game(history, board, ADJOURNED)
    drawn = with_last_round_game(history, board, GameResult.DRAW())
    assert outcome(adjourned) == outcome(drawn)


def test_a_game_without_any_result_is_refused() -> None:
    history = generate(GeneratorSettings(players=10, rounds=2, seed=3))
    history = replace(history, settings=replace(history.settings, rounds=5))
    board = history.rounds[-1].games[0].board
    with pytest.raises(RuleError, match="round 2 has a game without a result"):
        request_for(with_last_round_game(history, board, None))
