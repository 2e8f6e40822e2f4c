"""`crosstable standings FILE` and `crosstable check FILE` of a team tournament's TRF
(docs/teams.md, "Checking a team TRF"): the standings are the team table by the file's
team tie-breaks (202), equal to the import's; the check re-pairs a team Swiss by the
Olympiad Pairing Rules and compares a team round robin with the teams' Berger table,
then the teams' ranks (310) with the team table, and says what it does not check. A
file the import refuses is refused as the import refuses it (exit 2)."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.scoring import points_json
from crosstable.formats.trf import parse_trf
from crosstable.service import PlayerInfo, Service
from crosstable.service.teams.trf_check import NOT_CHECKED, NOT_CHECKED_SWISS
from crosstable.service.trf_import import import_trf
from tests.test_team_swiss_service import play_round, swiss
from tests.test_team_trf_import import _mutated, club_file
from tests.test_team_trf_surfaces import WRONG_MP
from tests.test_team_web import SETTINGS, played_league

TEAM_ONE = "310   1 Ararat                                           6.0    4.5   1     1    2    3"
TEAM_TWO = "310   2 Sevan                                            4.0    3.5   2     4    5    6"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def with_202(text: str, codes: str) -> str:
    """``text`` with the team tie-breaks ``codes`` in a 202 record."""
    return text.replace("\nXXR 3\n", f"\nXXR 3\n202 {codes}\n")


def written(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_r_b_3_standings_of_a_team_file_are_the_imports_team_table(
    service: Service, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = with_202(club_file(), "GP, EDE, EMGSB")
    file = written(tmp_path, "club.trf", text)
    code, out, err = run(capsys, "standings", file, "--format", "json")
    assert code == 0, err
    body = json.loads(out)
    tid = import_trf(service, parse_trf(text, "club.trf"), source="club.trf").tournament_id
    table = service.team_standings(tid)
    assert body["tiebreaks"] == list(table.tiebreaks) == ["GP", "EDE", "EMGSB"]
    assert [(r["team"], r["place"], r["MP"], r["GP"], r["EMGSB"]) for r in body["rows"]] == [
        (r.team, r.place, points_json(r.mp), points_json(r.gp), points_json(r.values[2]))
        for r in table.rows
    ]
    assert [(r["team"], r["MP"], r["GP"]) for r in body["rows"]] == [
        (1, 6, 4.5),
        (2, 4, 3.5),
        (3, 2, 1),
    ]
    assert body["notes"] == ["a team played out of its roster order (300): the board order is free"]
    code, out, err = run(capsys, "standings", file, "--explain", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["Place", "No", "Team", "MP", "GP", "GP", "EDE", "EMGSB"]
    assert lines[1].split() == ["1", "1", "Ararat", "6", "4.5", "4.5", "10"]
    assert "team Swiss: match points first, then GP, EDE, EMGSB" in lines
    assert "EMGSB of team 1 = 10" in lines
    code, out, err = run(capsys, "standings", file, "--tiebreaks", "BH:MP, BC", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["tiebreaks"] == ["BH:MP", "BC"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--tiebreaks", "BH:MP,SB"), "--tiebreaks: unknown team tie-break 'SB'"),
        (("--final",), "--final: "),
        (("--withdrawn", "2"), "--withdrawn: "),
        (("--format", "crosstable"), "--format crosstable: "),
        (("--explain", "4"), "there is no team 4 (the file has 1…3)"),
    ],
)
def test_r_b_3_standings_of_a_team_file_refuse_what_is_for_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], said: str
) -> None:
    file = written(tmp_path, "club.trf", club_file())
    code, out, err = run(capsys, "standings", file, *args)
    assert code == 2 and out == ""
    assert said in err


def test_r_b_3_check_re_pairs_a_team_swiss_by_the_olympiad_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = written(tmp_path, "club.trf", with_202(club_file(), "GP, EDE, EMGSB"))
    code, out, err = run(capsys, "check", file)
    assert code == 1, err  # round 2: team 1 had the PAB, the rules give it to team 2
    lines = out.splitlines()
    assert lines[0] == "Team Swiss of 3 teams, re-paired by the Olympiad Pairing Rules"
    assert f"  ({NOT_CHECKED})" in lines and f"  ({NOT_CHECKED_SWISS})" in lines
    assert "Round 1: agrees" in lines and "Round 3: agrees" in lines
    assert "  played: 3-2 PAB 1" in lines and "  rules:  3-1 PAB 2" in lines
    assert "  bye: 1 has the PAB; the rules give it to 2" in lines
    assert "Standings after round 3: follow match points, then GP, EDE, EMGSB" in lines
    code, out, _ = run(capsys, "check", file, "--format", "json")
    body = json.loads(out)
    assert code == 1 and body["competitors"] == "teams" and body["method"] == "olympiad"
    assert body["differing"] == [2] and body["standings"]["checked"] is True
    # ranks the team table does not give: each a finding
    swapped = _mutated(
        _mutated(club_file(), "310   1", TEAM_ONE.replace("4.5   1", "4.5   2")),
        "310   2",
        TEAM_TWO.replace("3.5   2", "3.5   1"),
    )
    code, out, _ = run(capsys, "check", written(tmp_path, "ranks.trf", swapped))
    assert code == 1
    assert "  team 1 is placed 2 in the file; the team table places it 1" in out.splitlines()
    # a file the import refuses is refused the same way
    bad = written(tmp_path, "bad.trf", _mutated(club_file(), "310   1", WRONG_MP))
    for command in ("check", "standings"):
        code, out, err = run(capsys, command, bad)
        assert code == 2 and out == ""
        assert err.strip().endswith(
            f"{bad} (record 310): team 1: the file says match points 5, the games give 6"
        )


def test_r_b_3_a_team_swiss_paired_here_checks_clean(
    service: Service, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tid = swiss(service)  # five teams, three rounds, the Olympiad rules
    service.start(tid)
    for number in (1, 2, 3):
        service.pair_team_round(tid)
        play_round(service, tid, number)
    file = written(tmp_path, "olympiad.trf", service.export_trf(tid, "trf2026"))
    code, out, err = run(capsys, "check", file)
    assert code == 0, out + err
    assert "3 of 3 rounds agree; the places follow the tie-breaks" in out.splitlines()
    code, out, err = run(capsys, "standings", file, "--format", "json")
    assert code == 0, err
    assert [(r["team"], r["place"], r["MP"], r["GP"]) for r in json.loads(out)["rows"]] == [
        (r.team, r.place, points_json(r.mp), points_json(r.gp))
        for r in service.team_standings(tid).rows
    ]


def test_r_b_3_check_compares_a_team_round_robin_with_the_berger_table(
    service: Service, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exported = service.export_trf(played_league(service), "trf2026")  # 4 teams, 2 of 3 rounds
    file = written(tmp_path, "league.trf", exported)
    code, out, err = run(capsys, "check", file)
    assert code == 0, out + err
    lines = out.splitlines()
    assert lines[0] == "Team round robin of 4 teams, against the teams' FIDE Berger table"
    assert "  (FIDE Berger table for 4 teams, 1 cycle(s))" in lines
    assert "Round 1: agrees" in lines and "Round 2: agrees" in lines
    # teams 1 and 2 numbered the other way round: their matches are not the table's
    swap = {"310   1": "310   2", "310   2": "310   1"}
    renumbered = "".join(
        swap.get(line[:7], line[:7]) + line[7:] + "\n"
        for line in exported.splitlines()
        if line[:3] not in ("801", "802")  # (their points are the teams' as numbered)
    )
    code, out, err = run(capsys, "check", written(tmp_path, "renumbered.trf", renumbered))
    assert code == 1, err
    assert "Round 1: differs" in out.splitlines()


def test_r_b_3_a_double_team_round_robin_with_a_free_round_checks_clean(
    service: Service, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tid = service.create_team_tournament("Double", SETTINGS, cycles=2).tournament_id
    for number, name in enumerate(("Ararat", "Sevan", "Masis"), 1):
        service.add_team(tid, name)
        for k in range(2):
            service.add_team_member(tid, number, PlayerInfo(f"{name} {k + 1}"))
    service.start(tid)
    for number, matches in enumerate(service.team_matches(tid), 1):
        for match in matches:
            for g in match.games:
                service.record_result(tid, number, g.board, "1-0" if g.board % 2 else "½-½")
    file = written(tmp_path, "double.trf", service.export_trf(tid, "trf2026"))
    code, out, err = run(capsys, "check", file)
    assert code == 0, out + err
    lines = out.splitlines()
    assert "  (FIDE Berger table for 3 teams, 2 cycle(s))" in lines
    assert "6 of 6 rounds agree; the places follow the tie-breaks" in lines
