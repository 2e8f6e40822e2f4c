"""TRF-2026 and TRF(x) records: each one read, kept and written back in place."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from crosstable.core.errors import InputError
from crosstable.core.model import ByeKind, Colour, GameResult, System
from crosstable.core.scoring import PointSystem
from crosstable.formats.trf import (
    AbnormalPoints,
    Acceleration,
    ByeRecord,
    Comment,
    NationalRecord,
    ProhibitedPairing,
    Team,
    parse_trf,
    write_trf,
)

# Written by write_trf; every record at its TRF-2026 / JaVaFo columns.
SAMPLE_LINES = [
    "### TRF-2026 sample",
    "012 Spring Open 2026",
    "022 Yerevan",
    "092 Individual: Swiss-System",
    "102 IA Anna Arbiter",
    "112 Deputy One",
    "112 Deputy Two",
    "132                                                                             "
    "           26/03/01  26/03/02  26/03/03",
    "142 5",
    "152 B",
    "162  W 3.0    D 1.0    X 0.0",
    "172 ARM NRO",
    "182 crosstable 0.1",
    "192 FIDE_DUTCH_2025",
    "202 DE, WIN, BH/C1",
    "212 PTS, DE, WIN, BH/C1",
    "222 5400+30",
    "013 Team Ararat                        1    2",
    "310   1 Armenia                          ARM     2500    4.0    5.0   1     1    2    3",
    "001    1 m GM Aronian, Levon                    2750 ARM    13300474 1982/10/06 "
    " 4.0    1     2 b 1     3 b =",
    "001    2 wWIM Ovsepyan, Ёлка                    2300 ARM    13301234 1999/01/01 "
    " 3.0    3     1 w 0  0000 - U",
    "001    3      Petrosyan, Tigran                                                 "
    " 4.0    2  0000 - F     1 w =",
    "### after the players",
    "ARM    1 m    Aronian, Levon                    2700 ERE          12",
    "240 H 003    3",
    "250       1.0 001 002 0001 0002",
    "260 001 005    1    2",
    "299 +         2.0  002    3",
    "XXR 5",
    "XXC rank black1",
    "XXZ 2",
    "XXA    1  1.0       0.5",
    "XXP 1 3",
    "801 anything kept as text",
    "### the end",
]
SAMPLE = "\n".join(SAMPLE_LINES) + "\n"


def test_sample_values() -> None:
    doc = parse_trf(SAMPLE, source="sample.trf")
    t = doc.tournament
    assert t.name == "Spring Open 2026"
    assert t.players[1].name == "Ovsepyan, Ёлка" and t.players[1].rating == 2300
    assert t.players[1].title == "WIM" and t.players[1].sex == "w"
    assert t.settings.system is System.SWISS_DUTCH  # 192 FIDE_DUTCH_2025
    assert t.settings.rounds == 5  # 142 and XXR agree
    assert t.settings.point_system == PointSystem.three_one_zero()  # 162
    assert t.settings.tiebreaks == ("DE", "WIN", "BH/C1")  # 202; 212 is PTS + 202
    assert doc.standings_tiebreaks is None
    assert doc.unknown_result_points == 0  # 162 X
    assert doc.initial_colour is Colour.BLACK  # 152 and XXC black1 agree
    assert doc.xxc_flags == ("rank",)
    assert doc.round_dates == {
        1: dt.date(2026, 3, 1),
        2: dt.date(2026, 3, 2),
        3: dt.date(2026, 3, 3),
    }
    assert t.rounds[0].date == dt.date(2026, 3, 1)
    assert t.rounds[0].games[0].result == GameResult.BLACK_WINS()
    assert doc.headers["112"] == "Deputy One\nDeputy Two"
    assert doc.headers["222"] == "5400+30" and doc.headers["192"] == "FIDE_DUTCH_2025"
    assert doc.byes == (ByeRecord(ByeKind.HALF, 3, (3,)),)
    assert doc.accelerations == (Acceleration(Fraction(1), 1, 2, 1, 2),)
    assert doc.prohibited == (ProhibitedPairing(1, 5, (1, 2)),)
    assert doc.abnormal_points == (AbnormalPoints("+", Fraction(2), 2, (3,)),)
    assert doc.teams == (
        Team("Team Ararat", (1, 2)),
        Team("Armenia", (1, 2, 3), "310", 1, "ARM", "2500", Fraction(4), Fraction(5), 1),
    )
    assert doc.national_records == (
        NationalRecord("ARM", 1, "m", "", "Aronian, Levon", 2700, "ERE", "12", ""),
    )
    assert doc.fictitious_points == {1: (Fraction(1), None, Fraction(1, 2))}
    assert doc.absent == (2,) and doc.forbidden_pairs == ((1, 3),)
    assert doc.other_records == (("801", "anything kept as text"),)
    assert doc.comments == (
        Comment(" TRF-2026 sample", None),
        Comment(" after the players", "001/3"),
        Comment(" the end", "801"),
    )
    assert doc.file_points == {1: 4, 2: 3, 3: 4}
    assert [t.score(s) for s in (1, 2, 3)] == [4, 3, 4]  # 3-1-0, PAB and FPB worth a win


def test_sample_is_written_back_byte_for_byte() -> None:
    assert write_trf(parse_trf(SAMPLE)) == SAMPLE


def test_xxs_scoring_and_its_shortcuts() -> None:
    base = "\n".join(line for line in SAMPLE_LINES if line[:3] in ("001", "012"))
    # the points column was written for 1-½-0: --lenient takes the games' score
    doc = parse_trf(base + "\nXXS W=3 D=1\nXXS PAB=1\n", lenient=True)
    assert doc.tournament.settings.point_system == PointSystem(
        win=Fraction(3), draw=Fraction(1), pairing_bye=Fraction(1)
    )
    written = write_trf(doc, "trf16")
    assert "XXS WW=3 BW=3 WD=1 BD=1 HPB=1 FPB=3 FW=3\n" in written
    assert (
        parse_trf(written).tournament.settings.point_system == doc.tournament.settings.point_system
    )
    # record 162 has no symbol for a forfeit win worth other than a win: XXS is written too
    doc = parse_trf(base + "\nXXS FW=2\n", lenient=True)
    assert doc.tournament.settings.point_system.forfeit_win == 2
    assert "XXS FW=2\n" in write_trf(doc)


def error_of(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        parse_trf(text, source="r.trf")
    return caught.value


@pytest.mark.parametrize(
    ("extra", "column", "words"),
    [
        ("XXS WW=1 BW=2", 5, "depends on the colour"),
        ("XXS QQ=1", 5, "CODE=VALUE"),
        ("XXS W=x", 5, "not a number"),
        ("XXR 6", 5, "XXR says 6 rounds but 142 says 5"),
        ("XXC white1", 5, "different initial colours"),
        ("XXZ 9", 5, "no player 9"),
        ("240 Q 001    1", 5, "use F, H or Z"),
        ("250 1.0 001", 5, "record 250 needs"),
        ("260 001 002    1", 5, "two players"),
        ("XXA    1  x.0", 11, "fictitious points"),
    ],
)
def test_record_errors(extra: str, column: int, words: str) -> None:
    lines = [line for line in SAMPLE_LINES if not line.startswith(("XX", "240", "250", "260"))]
    error = error_of("\n".join([*lines, extra]))
    assert error.line == len(lines) + 1
    assert error.column == column
    assert words in error.message


def test_162_and_xxs_must_agree() -> None:
    lines = [line for line in SAMPLE_LINES if not line.startswith("XX")]
    error = error_of("\n".join([*lines, "XXS W=2"]))
    assert "record 162 and XXS give different points for W" in error.message
    assert error.line == SAMPLE_LINES.index("162  W 3.0    D 1.0    X 0.0") + 1


def test_bad_round_date() -> None:
    lines = [line.replace("26/03/02", "26/13/02") for line in SAMPLE_LINES]
    error = error_of("\n".join(lines))
    assert error.column == 102 and "round 2 date" in error.message


def test_tag_given_twice() -> None:
    error = error_of("012 A\n012 B\n")
    assert (error.line, error.column) == (2, 1)
