"""Property: any tournament written as TRF reads back as the same values."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import InputError
from crosstable.core.model import (
    Bye,
    ByeKind,
    Colour,
    Game,
    GameResult,
    Outcome,
    Player,
    Round,
    Settings,
    System,
    Tournament,
)
from crosstable.core.schedule import berger_schedule
from crosstable.core.scoring import PointSystem
from crosstable.formats.trf import (
    Acceleration,
    ByeRecord,
    ProhibitedPairing,
    TrfDocument,
    parse_trf,
    write_trf,
)

OC = Outcome
RESULTS = [
    None,
    GameResult(OC.WIN, OC.LOSS),
    GameResult(OC.LOSS, OC.WIN),
    GameResult(OC.DRAW, OC.DRAW),
    GameResult(OC.FORFEIT_WIN, OC.FORFEIT_LOSS),
    GameResult(OC.FORFEIT_LOSS, OC.FORFEIT_WIN),
    GameResult(OC.FORFEIT_LOSS, OC.FORFEIT_LOSS),
    GameResult(OC.SHORT_WIN, OC.SHORT_LOSS),
    GameResult(OC.SHORT_DRAW, OC.SHORT_DRAW),
    GameResult(OC.UNKNOWN, OC.UNKNOWN),
]
# less than a game is worth: the two sides of the game contradict each other, so the
# reader refuses them unless --lenient (issue 15 item 4)
SHORT_RESULTS = [GameResult(OC.DRAW, OC.LOSS), GameResult(OC.LOSS, OC.LOSS)]
# normalized: an optional value equal to its default is None, as the reader gives it
POINT_SYSTEMS = [
    PointSystem(),
    PointSystem.three_one_zero(),
    PointSystem(win=Fraction(2), draw=Fraction(1), loss=Fraction(0)),
    PointSystem(pairing_bye=Fraction(1, 2)),
    PointSystem(forfeit_win=Fraction(1, 2), zero_bye=Fraction(0)),
    PointSystem(win=Fraction(3), draw=Fraction(1), pairing_bye=Fraction(1)),
    PointSystem(forfeit_loss=Fraction(-1)),
]
NAME = st.text(
    alphabet=st.sampled_from("abcxyzÄÖÜäöüßéèçñøåŁłŠšЖжАБ ,.-'"), min_size=0, max_size=33
).map(str.strip)


@st.composite
def players(draw: st.DrawFn, count: int) -> tuple[Player, ...]:
    result = []
    for start in range(1, count + 1):
        result.append(
            Player(
                start=start,
                name=draw(NAME),
                rating=draw(st.none() | st.integers(0, 2900)),
                title=draw(st.sampled_from(["", "GM", "IM", "WGM", "FM", "WIM", "CM", "WFM"])),
                federation=draw(st.sampled_from(["", "FRA", "IRL", "GER", "RUS", "ARM"])),
                fide_id=draw(st.sampled_from(["", "4100018", "13300474", "12345678901"])),
                birth_date=draw(st.sampled_from(["", "1990/01/31", "2011", "1969.12.06"])),
                sex=draw(st.sampled_from(["", "m", "w"])),
            )
        )
    return tuple(result)


@st.composite
def swiss_rounds(draw: st.DrawFn, count: int, lenient: bool = False) -> tuple[Round, ...]:
    results = RESULTS + SHORT_RESULTS if lenient else RESULTS
    rounds = []
    for number in range(1, draw(st.integers(1, 8)) + 1):
        order = draw(st.permutations(list(range(1, count + 1))))
        present = order[: draw(st.integers(1, count))]
        pairs = []
        for index in range(0, len(present) - 1, 2):
            white, black = present[index], present[index + 1]
            pairs.append((white, black, draw(st.sampled_from(results))))
        byes = []
        if len(present) % 2:
            kind = draw(
                st.sampled_from([ByeKind.PAIRING, ByeKind.HALF, ByeKind.FULL, ByeKind.ZERO])
            )
            byes.append(Bye(number, present[-1], kind))
        rounds.append(_round(number, pairs, byes, draw))
    return tuple(rounds)


def round_robin_rounds(count: int, cycles: int, played: int) -> tuple[Round, ...]:
    """FIDE Berger rounds in the table's board order (as the reader numbers them)."""
    if count < 3:  # two players: one game a cycle, colours alternating
        rounds = [
            Round(n, (Game(n, 1, *((1, 2) if n % 2 else (2, 1)), RESULTS[n % len(RESULTS)]),))
            for n in range(1, cycles + 1)
        ]
        return tuple(rounds[:played])
    rounds = []
    for scheduled in berger_schedule(count, cycles).rounds[:played]:
        number = scheduled.number
        games = tuple(
            Game(number, board, white, black, RESULTS[(white * 7 + black + number) % len(RESULTS)])
            for board, (white, black) in enumerate(scheduled.boards, start=1)
        )
        byes = (Bye(number, scheduled.bye, ByeKind.FREE),) if scheduled.bye else ()
        rounds.append(Round(number, games, byes))
    return tuple(rounds)


def _round(
    number: int,
    pairs: list[tuple[int, int, GameResult | None]],
    byes: list[Bye],
    draw: st.DrawFn | None,
) -> Round:
    pairs.sort()
    games = tuple(Game(number, board, w, b, r) for board, (w, b, r) in enumerate(pairs, 1))
    date = None
    if draw is not None:
        date = draw(st.none() | st.dates(dt.date(1970, 1, 1), dt.date(2069, 12, 31)))
    return Round(number, games, tuple(sorted(byes, key=lambda bye: bye.player)), date)


@st.composite
def documents(draw: st.DrawFn, lenient: bool = False) -> TrfDocument:
    count = draw(st.integers(2, 14))
    field = draw(players(count))
    point_system = draw(st.sampled_from(POINT_SYSTEMS))
    tiebreaks = draw(
        st.lists(st.sampled_from(["DE", "WIN", "SB", "KS", "BH/C1", "ARO"]), max_size=4)
    )
    if draw(st.booleans()):
        cycles = draw(st.integers(1, 2))
        per_cycle = count - 1 if count % 2 == 0 else count
        total = per_cycle * cycles
        rounds = round_robin_rounds(count, cycles, draw(st.integers(1, total)))
        setup = Settings(System.ROUND_ROBIN, cycles, point_system, tiebreaks=tuple(tiebreaks))
        setup = replace(setup, rounds=total)
    else:
        rounds = draw(swiss_rounds(count, lenient))
        declared = draw(st.none() | st.integers(len(rounds), 11))
        if declared is None and rounds:  # read back as the rounds the file holds
            declared = len(rounds)
        setup = Settings(System.SWISS_DUTCH, 1, point_system, tiebreaks=tuple(tiebreaks))
        setup = replace(setup, rounds=declared)
    name = draw(NAME)
    doc = TrfDocument.from_tournament(Tournament(setup, field, rounds, name=name))
    ids = st.integers(1, count)
    return replace(
        doc,
        initial_colour=draw(st.sampled_from([None, Colour.WHITE, Colour.BLACK])),
        xxc_flags=tuple(draw(st.lists(st.sampled_from(["rank", "x1"]), unique=True))),
        absent=tuple(draw(st.lists(ids, max_size=3))),
        forbidden_pairs=tuple(draw(st.lists(st.tuples(ids, ids), max_size=2))),
        prohibited=tuple(
            ProhibitedPairing(1, draw(st.integers(1, 9)), (a, b))
            for a, b in draw(st.lists(st.tuples(ids, ids), max_size=2))
        ),
        byes=tuple(
            ByeRecord(kind, draw(st.integers(1, 9)), (player,))
            for kind, player in draw(
                st.lists(st.tuples(st.sampled_from([ByeKind.HALF, ByeKind.ZERO]), ids), max_size=2)
            )
        ),
        accelerations=tuple(
            Acceleration(Fraction(draw(st.integers(1, 4)), 2), 1, 2, 1, draw(ids))
            for _ in range(draw(st.integers(0, 1)))
        ),
        fictitious_points={
            player: (Fraction(1), None, Fraction(1, 2))
            for player in draw(st.lists(ids, max_size=2, unique=True))
        },
        comments=(),
    )


@settings(max_examples=100, deadline=None)
@given(documents())
def test_written_then_parsed_is_equal(doc: TrfDocument) -> None:
    text = write_trf(doc)
    again = parse_trf(text, source="generated")
    assert again == doc
    assert write_trf(again) == text


@settings(max_examples=40, deadline=None)
@given(documents(lenient=True))
def test_lenient_documents_round_trip(doc: TrfDocument) -> None:
    """A game both players lost reads back as written with --lenient, and is an error without."""
    text = write_trf(doc)
    again = parse_trf(text, source="generated", lenient=True)
    assert again == doc
    assert write_trf(again) == text
    short = any(g.result in SHORT_RESULTS for r in doc.tournament.rounds for g in r.games)
    if short:
        with pytest.raises(InputError, match="results contradict each other"):
            parse_trf(text, source="generated")


@settings(max_examples=60, deadline=None)
@given(documents())
def test_trf16_keeps_the_tournament(doc: TrfDocument) -> None:
    text = write_trf(doc, "trf16")
    again = parse_trf(text, source="generated")
    # TRF-16 has no tie-break tag (202/212): the only setting it cannot carry
    expected = doc.tournament
    expected = replace(expected, settings=replace(expected.settings, tiebreaks=()))
    assert again.tournament == expected
    assert write_trf(again, "trf16") == text
