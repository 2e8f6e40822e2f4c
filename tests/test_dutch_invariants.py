"""Absolute rules hold in random tournaments paired by the Dutch engine.

Thousands of random events (the generator draws results from ratings, with
half-point byes, absences and forfeits) must never show a rematch, a second
PAB, a colour difference above 2 or three games of one colour in a row —
except for topscorers (and their opponents) in the last round (C.04.3 C3).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.core.model import ByeKind, Colour, Outcome, Tournament
from crosstable.core.pairing.dutch import NoValidPairingError
from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate


def check_absolute_rules(tournament: Tournament) -> None:
    total = len(tournament.rounds)
    starts = [p.start for p in tournament.players]
    met: set[frozenset[int]] = set()
    had_free_win: set[int] = set()
    colours: dict[int, list[Colour]] = {s: [] for s in starts}
    score = dict.fromkeys(starts, Fraction(0))
    system = tournament.settings.point_system
    for rnd in tournament.rounds:
        last = rnd.number == total
        top = {s for s in starts if last and score[s] > Fraction(rnd.number - 1, 2)}
        entered = {b.player for b in rnd.byes if b.kind is not ByeKind.PAIRING}
        pab = [b.player for b in rnd.byes if b.kind is ByeKind.PAIRING]
        paired = [s for g in rnd.games for s in (g.white, g.black)]
        assert len(pab) <= 1
        assert sorted(paired + pab) == sorted(set(starts) - entered), "everyone present is paired"
        for player in pab:
            assert player not in had_free_win, f"round {rnd.number}: second PAB for {player}"
            had_free_win.add(player)
        exempt: set[int] = set()
        for game in rnd.games:
            pair = frozenset((game.white, game.black))
            assert pair not in met, f"round {rnd.number}: rematch {sorted(pair)}"
            assert game.result is not None
            if game.result.white.is_over_the_board:
                met.add(pair)
                colours[game.white].append(Colour.WHITE)
                colours[game.black].append(Colour.BLACK)
            if pair & top:
                exempt |= pair
        for game in rnd.games:
            assert game.result is not None
            for start, outcome in (
                (game.white, game.result.white),
                (game.black, game.result.black),
            ):
                score[start] += outcome.points(system)
                if outcome is Outcome.FORFEIT_WIN:
                    had_free_win.add(start)
        for bye in rnd.byes:
            score[bye.player] += bye.kind.outcome.points(system)
        for start in starts:
            history = colours[start]
            if start in exempt or not history:
                continue
            whites = history.count(Colour.WHITE)
            assert abs(2 * whites - len(history)) <= 2, f"round {rnd.number}: |CD| > 2 for {start}"
            assert history[-3:] not in ([Colour.WHITE] * 3, [Colour.BLACK] * 3), (
                f"round {rnd.number}: three of one colour in a row for {start}"
            )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=4, max_value=40),
    extra=st.integers(min_value=-2, max_value=2),
    seed=st.integers(min_value=0, max_value=2**31),
    half_byes=st.sampled_from([0.0, 0.05, 0.15]),
    absences=st.sampled_from([0.0, 0.03]),
    forfeits=st.sampled_from([0.0, 0.05]),
)
def test_random_tournaments_keep_absolute_rules(
    players: int, extra: int, seed: int, half_byes: float, absences: float, forfeits: float
) -> None:
    rounds = max(1, min(players - 1, (players - 1).bit_length() + extra))
    try:
        tournament = generate(
            GeneratorSettings(
                players=players,
                rounds=rounds,
                seed=seed,
                half_bye_rate=half_byes,
                absence_rate=absences,
                forfeit_rate=forfeits,
            )
        )
    except NoValidPairingError:
        return  # a small field can run out of legal pairings: the engine says so
    check_absolute_rules(tournament)


def test_many_seeded_tournaments() -> None:
    for seed in range(30):
        players = 6 + seed % 25
        rounds = min(players - 1, 5 + seed % 4)
        try:
            tournament = generate(
                GeneratorSettings(players=players, rounds=rounds, seed=seed, half_bye_rate=0.05)
            )
        except NoValidPairingError:
            continue
        check_absolute_rules(tournament)


def test_round_one_alternates_colours_down_the_ranking() -> None:
    tournament = generate(GeneratorSettings(players=8, rounds=1, seed=1))
    boards = [(g.white, g.black) for g in tournament.rounds[0].games]
    assert boards == [(1, 5), (6, 2), (3, 7), (8, 4)]
