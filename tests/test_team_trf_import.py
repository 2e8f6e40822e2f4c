"""A TRF with team records imported as a team tournament (docs/teams.md, "Importing a team
TRF"; docs/trf.md, "Team records"): the teams and their board order, each round's matches
from the players' games, the match points of 362, the team PAB of 320, the forfeited
matches of 330 (with or without the players' forfeits), a line-up out of the roster order
(300); the standings equal the file's; the export writes 300/320/330/801/802 and an
imported export exports the same file. Contradictory records are refused naming the
record and nothing is stored."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    Round,
    System,
    Tournament,
)
from crosstable.core.teams.settings import TeamSettings
from crosstable.formats.trf import TrfDocument, parse_trf, write_trf
from crosstable.formats.trf_model import Team
from crosstable.service import PlayerInfo, Service
from crosstable.service.trf_import import import_trf
from tests.test_team_web import played_league

W, L, D = GameResult.WHITE_WINS(), GameResult.BLACK_WINS(), GameResult.DRAW()


def club_file() -> str:
    """Three teams of two boards and a reserve in a team Swiss of three rounds: round 1
    a match and team 3's PAB; round 2 team 2 out of its roster order (300), team 1's
    PAB; round 3 team 3–team 1 forfeited (330, no games in the players' lines), team
    2's PAB."""
    names = ["Ararat", "Sevan", "Masis"]
    players = tuple(Player(n, f"{names[(n - 1) // 3]} {(n - 1) % 3 + 1}") for n in range(1, 10))
    rounds = (
        Round(
            1,
            (Game(1, 1, 1, 4, W), Game(1, 2, 5, 2, D)),
            tuple(Bye(1, p, ByeKind.PAIRING) for p in (7, 8))
            + tuple(Bye(1, p, ByeKind.ZERO) for p in (3, 6, 9)),
        ),
        Round(
            2,
            (Game(2, 1, 7, 6, L), Game(2, 2, 4, 8, W)),
            tuple(Bye(2, p, ByeKind.PAIRING) for p in (1, 2))
            + tuple(Bye(2, p, ByeKind.ZERO) for p in (3, 5, 9)),
        ),
        Round(
            3,
            (),
            tuple(Bye(3, p, ByeKind.PAIRING) for p in (4, 5))
            + tuple(Bye(3, p, ByeKind.ZERO) for p in (1, 2, 3, 6, 7, 8, 9)),
        ),
    )
    tournament = Tournament(name="Club teams", players=players, rounds=rounds)
    settings = replace(tournament.settings, system=System.SWISS_DUTCH, rounds=3)
    tournament = replace(tournament, settings=settings)
    declared = {1: (6, Fraction(9, 2), 1), 2: (4, Fraction(7, 2), 2), 3: (2, Fraction(1), 3)}
    teams = tuple(
        Team(
            names[n - 1],
            (3 * n - 2, 3 * n - 1, 3 * n),
            "310",
            n,
            match_points=Fraction(declared[n][0]),
            game_points=declared[n][1],
            rank=declared[n][2],
        )
        for n in (1, 2, 3)
    )
    doc = replace(
        TrfDocument.from_tournament(tournament),
        teams=teams,
        headers={"192": "FIDE_TEAM_MP_GP", "352": "WB"},
        other_records=(
            ("300", "002   2   3    6    4"),
            ("320", " 2.0  1.0   3   1   2"),
            ("330", "-+ 003   3   1"),
        ),
    )
    return write_trf(doc, "trf2026")


def count(service: Service) -> int:
    return len(service.tournaments())


def test_r_b_3_a_team_file_is_imported_as_a_team_swiss_with_its_records(
    service: Service,
) -> None:
    text = club_file()
    tid = import_trf(service, parse_trf(text, "club.trf"), source="club.trf").tournament_id
    table = {r.team: (r.mp, r.gp, r.place) for r in service.team_standings(tid).rows}
    assert table == {1: (6, Fraction(9, 2), 1), 2: (4, Fraction(7, 2), 2), 3: (2, 1, 3)}
    assert [t.name for t in service.team_list(tid)] == ["Ararat", "Sevan", "Masis"]
    assert [tuple(m.start for m in t.members) for t in service.team_list(tid)] == [
        (1, 2, 3),
        (4, 5, 6),
        (7, 8, 9),
    ]
    matches = [(m.round, m.white, m.black) for ms in service.team_matches(tid) for m in ms]
    assert matches == [(1, 1, 2), (2, 3, 2), (3, 3, 1)]
    round2 = service.team_matches(tid)[1][0]
    assert [(g.white, g.black) for g in round2.games] == [(7, 6), (4, 8)]  # 300's order
    forfeited = service.team_matches(tid)[2][0]
    assert forfeited.forfeited and [(g.white, g.black) for g in forfeited.games] == [(7, 1), (2, 8)]
    exported = service.export_trf(tid, "trf2026")
    lines = exported.splitlines()
    assert "300 002   2   3    6    4" in lines
    assert "320  2.0  1.0   3   1   2" in lines
    assert "330 -+ 003   3   1" in lines
    assert "192 FIDE_TEAM_MP_GP" in lines and "352 WB" in lines
    assert "802   1          6.0    4.5   2 w  1.5   PAB    1.0     3 b  2.0f" in lines
    assert "801   2          4.0    3.5   1 b 0= 12    3 b 11 31  PAB   UU" in lines
    # imported again and exported: the same file
    again = import_trf(service, parse_trf(exported, "again.trf"), source="again.trf")
    assert service.export_trf(again.tournament_id, "trf2026") == exported


def test_r_b_3_an_exported_team_league_imports_and_exports_the_same_file(
    service: Service,
) -> None:
    tid = played_league(service)  # a round robin of four teams, two rounds of three played
    exported = service.export_trf(tid, "trf2026")
    assert "192 FIDE_TEAM_ROUNDROBIN" in exported.splitlines()
    change = import_trf(service, parse_trf(exported, "league.trf"), source="league.trf")
    new = change.tournament_id
    assert service.export_trf(new, "trf2026") == exported
    assert [(r.team, r.mp, r.gp, r.place) for r in service.team_standings(new).rows] == [
        (r.team, r.mp, r.gp, r.place) for r in service.team_standings(tid).rows
    ]
    # the round still to come, seated from the teams' Berger table as the start seats it
    assert len(service.team_matches(new)) == 3
    assert [(m.white, m.black) for m in service.team_matches(new)[2]] == [
        (m.white, m.black) for m in service.team_matches(tid)[2]
    ]
    service.record_result(new, 3, 1, "1-0")  # and it goes on as any team league
    assert service.team_matches(new)[2][0].games[0].result == W


def _mutated(text: str, tag: str, new: str) -> str:
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(tag))
    lines[at] = new
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("tag", "line", "said"),
    [
        (
            "310   1",
            "310   1 Ararat                                   "
            "        5.0    4.5   1     1    2    3",
            "club.trf (record 310): team 1: the file says match points 5, the games give 6",
        ),
        (
            "330",
            "330 +- 001   1   2",
            "club.trf (record 330): round 1: the mat"
            "ch of teams 1 and 2 is not forfeited as +- says",
        ),
        (
            "320",
            "320  2.0  1.0   1   1   2",
            "club.trf (record 320): round 1: teams 1,3 both have the PAB",
        ),
        (
            "300",
            "300 002   2   3    5    4",
            "club.trf (record 300): round 2: team 2's players 5,4 are not those who played: 4,6",
        ),
        (
            "352",
            "352 WW",
            "club.trf (record 352): round 1: board 2"
            " of teams 1 and 2: the colours do not follow WW",
        ),
        (
            "310   2",
            "310   2 Sevan                                    "
            "        4.0    3.5   2     4    5    9",
            "club.trf (record 310): player 9 is in two teams: 2 and 3",
        ),
    ],
)
def test_r_b_3_contradictory_team_records_are_refused_and_nothing_is_stored(
    service: Service, tag: str, line: str, said: str
) -> None:
    text = _mutated(club_file(), tag, line)
    before = count(service)
    with pytest.raises(InputError) as refused:
        import_trf(service, parse_trf(text, "club.trf"), source="club.trf")
    assert str(refused.value).startswith(said), str(refused.value)
    assert count(service) == before


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("330 x+ 003   3   1", "club.trf:{n}:5: record 330: forfeit kind 'x+'"),
        ("330 -+ 0a3   3   1", "club.trf:{n}:8: record 330: round or team '0a3'"),
        ("320  2.x  1.0   3   1   2", "club.trf:{n}:6: record 320: match points"),
        ("300 002   2", "club.trf:{n}:5: record 300 needs a round, a team"),
    ],
)
def test_r_b_3_bad_team_record_lines_are_refused_by_line_and_column(line: str, said: str) -> None:
    text = club_file()
    tag = line[:3]
    number = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith(tag))
    with pytest.raises(InputError) as refused:
        parse_trf(_mutated(text, tag, line), "club.trf")
    assert str(refused.value).startswith(said.format(n=number)), str(refused.value)


def test_r_b_3_a_team_file_without_352_362_or_192_is_read_from_its_games(
    service: Service,
) -> None:
    """TRF-16's 013 team lines only: the boards from the matches, 2/1/0, a round robin by
    the games' shape (every two teams met once)."""
    players = tuple(Player(n, f"Player {n}") for n in range(1, 7))
    rounds = (
        Round(
            1,
            (Game(1, 1, 1, 3, W), Game(1, 2, 4, 2, D)),
            (Bye(1, 5, ByeKind.ZERO), Bye(1, 6, ByeKind.ZERO)),
        ),
        Round(
            2,
            (Game(2, 1, 5, 1, L), Game(2, 2, 2, 6, W)),
            (Bye(2, 3, ByeKind.ZERO), Bye(2, 4, ByeKind.ZERO)),
        ),
        Round(
            3,
            (Game(3, 1, 3, 5, D), Game(3, 2, 6, 4, D)),
            (Bye(3, 1, ByeKind.ZERO), Bye(3, 2, ByeKind.ZERO)),
        ),
    )
    doc = replace(
        TrfDocument.from_tournament(Tournament(name="Old", players=players, rounds=rounds)),
        teams=(Team("A", (1, 2)), Team("B", (3, 4)), Team("C", (5, 6))),
    )
    text = write_trf(doc, "trf16")
    tid = import_trf(service, parse_trf(text, "old.trf"), source="old.trf").tournament_id
    table = {r.team: (r.mp, r.gp) for r in service.team_standings(tid).rows}
    assert table == {1: (4, Fraction(7, 2)), 2: (1, Fraction(3, 2)), 3: (1, 1)}
    exported = service.export_trf(tid, "trf2026").splitlines()
    assert "192 FIDE_TEAM_ROUNDROBIN" in exported and "352 WB" in exported
    assert "362 TW 2.0    TD 1.0    TL 0.0" in exported


def test_r_b_3_an_individual_file_listing_teams_for_a_team_prize_stays_individual(
    service: Service,
) -> None:
    """013 lines without a team code, 352 or 362, whose teammates met (or with players in
    no team): a tournament of players, its team lines kept as before."""
    players = tuple(Player(n, f"Player {n}") for n in range(1, 5))
    rounds = (Round(1, (Game(1, 1, 1, 4, W), Game(1, 2, 2, 3, D))),)
    doc = replace(
        TrfDocument.from_tournament(Tournament(name="Open", players=players, rounds=rounds)),
        teams=(Team("Club", (1, 4)), Team("Other", (2, 3))),
    )
    text = write_trf(doc, "trf2026")
    tid = import_trf(service, parse_trf(text, "open.trf"), source="open.trf").tournament_id
    with pytest.raises(RuleError, match="not played by teams"):
        service.team_standings(tid)
    assert "013 Club" in service.export_trf(tid, "trf2026")


def test_r_b_3_team_tiebreaks_other_than_the_default_go_through_202(service: Service) -> None:
    tid = service.create_team_tournament(
        "League", TeamSettings.from_details({"team_boards": "1", "team_tiebreaks": "EMGSB,GP"})
    ).tournament_id
    for number, name in enumerate(("Ararat", "Sevan", "Masis"), 1):
        service.add_team(tid, name)
        service.add_team_member(tid, number, PlayerInfo(f"{name} 1"))
    service.start(tid)
    service.record_result(tid, 1, 1, "1-0")
    exported = service.export_trf(tid, "trf2026")
    assert "202 EMGSB,GP" in exported.splitlines()
    new = import_trf(service, parse_trf(exported, "l.trf"), source="l.trf").tournament_id
    assert service.team_standings(new).tiebreaks == ("EMGSB", "GP")
    assert service.export_trf(new, "trf2026") == exported
    assert "202" not in service.export_trf(
        import_trf(service, parse_trf(club_file(), "c.trf"), source="c.trf").tournament_id
    )


def test_r_b_3_an_imported_team_swiss_in_progress_is_paired_on(service: Service) -> None:
    doc = parse_trf(club_file(), "club.trf")
    first = replace(doc.tournament, rounds=doc.tournament.rounds[:1])
    doc = replace(
        doc,
        tournament=first,
        teams=tuple(replace(t, match_points=None, game_points=None, rank=None) for t in doc.teams),
        other_records=(("320", " 2.0  1.0   3"),),
        file_points={},
        file_ranks={},
    )
    text = write_trf(doc, "trf2026")
    tid = import_trf(service, parse_trf(text, "club.trf"), source="club.trf").tournament_id
    service.pair_team_round(tid)
    matches = [(m.round, m.white, m.black) for ms in service.team_matches(tid) for m in ms]
    assert matches[0] == (1, 1, 2) and [m[0] for m in matches] == [1, 2]
    assert {matches[1][1], matches[1][2]} == {1, 3}  # 2 met 1 already: 1–3, and 2 the bye
