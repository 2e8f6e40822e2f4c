"""A team tournament in the whole-tournament JSON, on SQLite and PostgreSQL: its teams,
members and line-ups are exported beside the players, and importing the document gives
the same tournament (the same team table, undo as before), whose export is the same
document; bad team sections are refused naming the section, row and field, and
nothing is stored."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import copy

import pytest
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.errors import InputError
from crosstable.service import PlayerInfo, Regulations, Service
from tests.test_team_web import played_league


def test_r_b_3_a_team_tournament_exports_and_imports_identical(service: Service) -> None:
    tid = played_league(service)
    team = service.team_list(tid)[0]
    service.set_lineup(tid, 3, team.start or 0, [m.start or 0 for m in team.members])
    document = service.export_json(tid)
    assert [t["name"] for t in document["teams"]] == ["Ararat", "Sevan", "Masis", "Aragats"]
    assert len(document["team_members"]) == 8
    assert len(document["lineups"]) == 3 * 2 * 2 * 2  # rounds × matches × teams × boards
    copied = service.import_json(copy.deepcopy(document))
    assert service.export_json(copied) == document
    assert service.team_standings(copied) == service.team_standings(tid)
    assert service.team_matches(copied) == service.team_matches(tid)
    service.undo(copied)  # the history came along: the last line-up is taken back
    service.undo(tid)
    again, first = service.export_json(copied), service.export_json(tid)
    assert again["lineups"] == first["lineups"] and len(again["history"]) == len(first["history"])
    assert again["history"][-1]["kind"] == "undo"


def test_r_b_3_a_tournament_of_players_exports_no_team_sections(service: Service) -> None:
    tid = service.create_tournament(Regulations(name="Open")).tournament_id
    service.add_player(tid, PlayerInfo("Anna"))
    document = service.export_json(tid)
    assert not {"teams", "team_members", "lineups"} & set(document)
    assert service.export_json(service.import_json(copy.deepcopy(document))) == document


@pytest.mark.parametrize(
    ("section", "change", "said"),
    [
        ("teams", lambda rows: "Ararat", "teams must be a list"),
        ("team_members", lambda rows: [{**rows[0], "board": 1}, *rows[1:]], "team_members[0]"),
        ("lineups", lambda rows: [{**rows[0], "entry": "one"}, *rows[1:]], "lineups[0]"),
        ("teams", lambda rows: rows[:-1], "teams"),
    ],
)
def test_r_b_3_bad_team_sections_are_refused_by_name(
    service: Service, section: str, change: object, said: str
) -> None:
    tid = played_league(service)
    document = service.export_json(tid)
    before = [t.id for t in service.tournaments()]
    bad = copy.deepcopy(document)
    bad[section] = change(bad[section])  # type: ignore[operator]
    with pytest.raises(InputError) as refused:
        service.import_json(bad)
    assert said in str(refused.value)
    assert [t.id for t in service.tournaments()] == before
