"""A team tournament's TRF (docs/teams.md, "TRF"): the TRF-2026 export writes a 310
team record per team (drawn number, name, match and game points, rank, the members in
board order), the team board colours (352) and the match points (362); TRF-16 writes
013 team lines. The file reads back with the same teams, an imported export exports
the same team records, and team records of any shape go through TRF and the document JSON
unchanged (a property); bad team lines are refused naming the line and the field."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.errors import InputError
from crosstable.core.model import Player, Tournament
from crosstable.formats.json_io import dump_json, load_json
from crosstable.formats.trf import TrfDocument, parse_trf, write_trf
from crosstable.formats.trf_model import Team
from crosstable.service import Service
from crosstable.service.trf_import import import_trf
from crosstable.service.warning_levels import ConfirmationNeeded
from tests.test_team_web import played_league


def test_r_b_3_the_trf_export_has_the_team_records(service: Service) -> None:
    tid = played_league(service)
    text = service.export_trf(tid, "trf2026")
    doc = parse_trf(text)
    table = {r.team: r for r in service.team_standings(tid).rows}
    teams = service.team_list(tid)
    assert [t.number for t in doc.teams] == [t.start for t in teams]
    for record, team in zip(doc.teams, teams, strict=True):
        row = table[team.start or 0]
        assert record.record == "310" and record.name == team.name
        assert record.members == tuple(m.start for m in team.members)
        assert (record.match_points, record.game_points, record.rank) == (row.mp, row.gp, row.place)
    assert doc.headers["352"] == "WB" and doc.headers["362"] == "TW 2.0    TD 1.0    TL 0.0"
    assert doc.headers["082"] == "4"
    old = parse_trf(service.export_trf(tid, "trf16"))
    assert [(t.record, t.name, t.members) for t in old.teams] == [
        ("013", t.name, t.members) for t in doc.teams
    ]
    assert "352" not in old.headers and "362" not in old.headers
    # the export imported, then exported: the same file
    try:
        change = import_trf(service, doc, source="league.trf")
    except ConfirmationNeeded as asked:  # a team schedule is no individual round robin
        change = import_trf(service, doc, source="league.trf", confirm=asked.token)
    again = parse_trf(service.export_trf(change.tournament_id, "trf2026"))
    assert again.teams == doc.teams
    assert (again.headers["352"], again.headers["362"]) == (doc.headers["352"], doc.headers["362"])
    assert [p.start for p in again.tournament.players] == [p.start for p in doc.tournament.players]


def document(teams: list[Team], players: int) -> TrfDocument:
    tournament = Tournament(players=tuple(Player(n, f"Player {n}") for n in range(1, players + 1)))
    return replace(TrfDocument.from_tournament(tournament), teams=tuple(teams))


points = st.fractions(min_value=0, max_value=99, max_denominator=2)
names = (
    st.text(
        alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=32
    )
    .map(str.strip)
    .filter(bool)
)


@st.composite
def team_documents(draw: st.DrawFn) -> TrfDocument:
    players = draw(st.integers(1, 40))
    starts = draw(st.permutations(range(1, players + 1)))
    count = draw(st.integers(1, min(8, players)))
    cut = (
        sorted(draw(st.sets(st.integers(1, players - 1), max_size=count - 1)))
        if players > 1
        else []
    )
    groups = [list(g) for g in _split(list(starts), cut)][:count]
    full = draw(st.booleans())
    teams = []
    for number, members in enumerate(groups, 1):
        name = " ".join(draw(names).split())
        if full:
            teams.append(
                Team(
                    name,
                    tuple(members),
                    "310",
                    number,
                    match_points=draw(st.none() | points),
                    game_points=draw(st.none() | points),
                    rank=draw(st.none() | st.integers(1, 99)),
                )
            )
        else:
            teams.append(Team(name, tuple(members)))
    return document(teams, players)


def _split(values: list[int], cuts: list[int]) -> list[list[int]]:
    out, last = [], 0
    for cut in [*cuts, len(values)]:
        if cut > last:
            out.append(values[last:cut])
        last = cut
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(team_documents())
def test_r_b_3_team_records_go_through_trf_and_json_unchanged(doc: TrfDocument) -> None:
    text = write_trf(doc, "trf2026")
    back = parse_trf(text)
    assert back.teams == doc.teams
    assert write_trf(back, "trf2026") == text
    assert load_json(dump_json(back)).teams == doc.teams
    assert write_trf(load_json(dump_json(back)), "trf2026") == text


BASE = write_trf(
    document(
        [
            Team(
                "Ararat",
                (1, 2),
                "310",
                1,
                match_points=Fraction(2),
                game_points=Fraction(3, 2),
                rank=1,
            )
        ],
        2,
    )
)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda line: line[:4] + " x " + line[7:], "team number"),
        (lambda line: line[:73] + "   9", "310: there is no player 9"),
        (lambda line: line[:73] + "  ab", "team member"),
        (lambda line: line[:69] + "zz" + line[71:], "team rank"),
    ],
)
def test_r_b_3_bad_team_lines_are_refused_by_line_and_field(change: object, said: str) -> None:
    lines = BASE.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("310"))
    lines[at] = change(lines[at])  # type: ignore[operator]
    with pytest.raises(InputError) as refused:
        parse_trf("\n".join(lines) + "\n", "league.trf")
    message = str(refused.value)
    assert message.startswith(f"league.trf:{at + 1}:") and said in message
