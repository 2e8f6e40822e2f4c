"""A tournament crosstable generates or exports checks clean, under every setting."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from crosstable.cli.check import declared
from crosstable.cli.generate import generated_trf
from crosstable.core.checker import Declared, check_event
from crosstable.core.errors import RuleError
from crosstable.core.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    Round,
    Settings,
    System,
    Tournament,
)
from crosstable.core.pairing.dutch import NoValidPairingError
from crosstable.core.pairing.dutch.generator import Amount, GeneratorSettings, generate
from crosstable.core.schedule.cycles import berger_schedule
from crosstable.formats.trf import parse_trf

TIEBREAKS = ((), ("BH/C1", "BH", "SB"), ("ARO", "WIN", "DE"), ("SB", "BH"))


@st.composite
def amounts(draw: st.DrawFn, rounds: int) -> tuple[Amount, ...]:
    """None, a count, or a share; maybe only in some rounds."""
    kind = draw(st.sampled_from(("none", "count", "share")))
    if kind == "none":
        return ()
    chosen: tuple[int, ...] = ()
    if draw(st.booleans()):
        chosen = tuple(sorted(draw(st.sets(st.integers(1, rounds), min_size=1))))
    if kind == "count":
        return (Amount(count=draw(st.integers(0, 3)), rounds=chosen),)
    return (Amount(share=Fraction(draw(st.integers(0, 4)), 10), rounds=chosen),)


@st.composite
def generator_settings(draw: st.DrawFn) -> GeneratorSettings:
    players = draw(st.integers(4, 13))
    rounds = draw(st.integers(1, min(5, players - 1)))
    rate = st.sampled_from((0.0, 0.05, 0.1))
    return GeneratorSettings(
        players=players,
        rounds=rounds,
        seed=draw(st.integers(0, 10_000)),
        half_bye_rate=draw(rate),
        absence_rate=draw(rate),
        forfeit_rate=draw(rate),
        full_byes=draw(amounts(rounds)),
        half_byes=draw(amounts(rounds)),
        zero_byes=draw(amounts(rounds)),
        forfeits=draw(amounts(rounds)),
        half_zero=draw(amounts(rounds)),
        zero_half=draw(amounts(rounds)),
        zero_zero=draw(amounts(rounds)),
        baku=draw(st.booleans()),
        tiebreaks=draw(st.sampled_from(TIEBREAKS)),
    )


@settings(max_examples=40)
@given(generator_settings(), st.sampled_from(("trf2026", "trf16")))
def test_a_generated_swiss_checks_clean(chosen: GeneratorSettings, edition: str) -> None:
    try:
        text = generated_trf(chosen, edition)
    except NoValidPairingError:
        reject()  # a small field can run out of legal pairings: nothing to check
    doc = parse_trf(text, source="generated")  # strict: ½-0, 0-½, 0-0 said in ### lines
    report = check_event(doc.tournament, declared(doc))
    assert report.method == "dutch"
    assert [f.message for f in report.findings] == []
    assert [r.round for r in report.rounds] == list(range(1, chosen.rounds + 1))
    assert report.ranks is not None and report.ranks.checked == (edition == "trf2026")


def test_the_generator_is_reproducible_and_gives_what_is_asked() -> None:
    chosen = GeneratorSettings(
        players=12,
        rounds=4,
        seed=5,
        full_byes=(Amount(count=1, rounds=(2,)),),
        half_byes=(Amount(share=Fraction(1, 6), rounds=(3,)),),
        zero_byes=(Amount(count=2),),
        forfeits=(Amount(count=1, rounds=(1,)),),
        half_zero=(Amount(count=1, rounds=(4,)),),
        zero_half=(Amount(count=1, rounds=(4,)),),
        zero_zero=(Amount(count=1, rounds=(2,)),),
        baku=True,
        tiebreaks=("SB", "BH"),
    )
    assert generated_trf(chosen) == generated_trf(chosen)
    tournament = generate(chosen)
    assert tournament.settings.tiebreaks == ("SB", "BH")

    def byes(kind: ByeKind, number: int | None = None) -> int:
        return sum(
            1
            for r in tournament.rounds
            for b in r.byes
            if b.kind is kind and number in (None, r.number)
        )

    def results(label: str, number: int) -> int:
        rnd = tournament.rounds[number - 1]
        return sum(1 for g in rnd.games if g.result is not None and g.result.label() == label)

    assert byes(ByeKind.FULL) == byes(ByeKind.FULL, 2) == 1
    assert byes(ByeKind.HALF) == byes(ByeKind.HALF, 3) == 2  # a sixth of 12
    assert byes(ByeKind.ZERO) == 2
    assert results("+-", 1) + results("-+", 1) == 1
    assert results("½-0", 4) == results("0-½", 4) == 1
    assert results("0-0", 2) == 1
    text = generated_trf(chosen)
    assert "\n250 " in text and "\n202 SB, BH" in text


def test_amounts_are_read_and_refused() -> None:
    assert Amount.parse("10%@1-2,4") == Amount(share=Fraction(1, 10), rounds=(1, 2, 4))
    for bad, said in (("x", "amount"), ("1@", "amount"), ("-1", "amount"), ("150%", "share")):
        with pytest.raises(RuleError, match=said):
            Amount.parse(bad)


# -- round robins ----------------------------------------------------------------------------


def played_round_robin(players: int, cycles: int, swap: bool, seed: int) -> Tournament:
    """A round robin played by the Berger table, results at random."""
    source = random.Random(seed)
    outcomes = (GameResult.WHITE_WINS(), GameResult.DRAW(), GameResult.BLACK_WINS())
    rounds = []
    for scheduled in berger_schedule(players, cycles, swap_last_rounds=swap).rounds:
        games = tuple(
            Game(scheduled.number, board, white, black, source.choice(outcomes))
            for board, (white, black) in enumerate(scheduled.boards, 1)
        )
        byes = (
            () if scheduled.bye is None else (Bye(scheduled.number, scheduled.bye, ByeKind.FREE),)
        )
        rounds.append(Round(scheduled.number, games, byes))
    return Tournament(
        settings=Settings(System.ROUND_ROBIN, cycles=cycles, swap_last_rounds=True),
        players=tuple(Player(s, f"P{s}") for s in range(1, players + 1)),
        rounds=tuple(rounds),
    )


@settings(max_examples=30)
@given(st.integers(3, 12), st.integers(1, 2), st.booleans(), st.integers(0, 99))
def test_a_berger_round_robin_checks_clean(
    players: int, cycles: int, swap: bool, seed: int
) -> None:
    tournament = played_round_robin(players, cycles, swap, seed)
    report = check_event(tournament, Declared())
    assert report.method == "berger" and report.ok, [f.message for f in report.findings]
    if cycles == 2:
        said = "the last two rounds of cycle 1 exchanged" if swap else "own round order"
        assert any(said in note for note in report.notes)
