"""Bughouse in the offline app (issue 28 item 5): pairs of two players on two boards,
a round robin on the Berger tables or a Swiss by the Dutch engine, each board's result
entered, the match decided by the event's rule (``sum`` or the game that finished
``first``), the pairs' table; undo; the JSON exchange with the server both ways (the
app's export stored as a Bughouse event on SQLite and PostgreSQL, the server's export
opened in the app), and bad files refused with their place."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_service_support import db_url, migrated, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import CrosstableError
from crosstable.offline.app import act, new_state, undo, view
from crosstable.offline.bridge import handle
from crosstable.offline.exchange import export_document, import_document, import_text
from crosstable.service import PlayerInfo, Service
from crosstable.service.accounts import Accounts
from crosstable.service.offline_import import import_tournament_document
from crosstable.service.teams.bughouse import KnockoutOptions
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

RESULTS = ("1-0", "0-1", "½-½")


def evening(pairs: int, system: str = "round-robin", rule: str = "sum", **start: Any) -> dict:
    state = new_state("bughouse", "Evening")
    for n in range(1, pairs + 1):
        players = [{"name": f"A{n}", "rating": 1800 + 13 * n}, {"name": f"B{n}", "rating": 1700}]
        state = act(state, {"do": "add", "name": f"Pair {n}", "players": players})
    return act(state, {"do": "start", "system": system, "rule": rule} | start)


def play(state: dict, pick: Any) -> dict:
    """Every round to the end: a Swiss paired round by round, each board given
    ``pick(round, board)``'s result, under ``first`` one game of each match marked."""
    while True:
        shown = view(state)
        if shown["system"] == "swiss":
            last = shown["rounds"][-1:]
            if not (last and any(not g["result"] for g in last[0]["games"])):
                if not shown["can_pair"]:
                    return state
                state = act(state, {"do": "pair"})
            rounds = view(state)["rounds"][-1:]
        else:
            rounds = shown["rounds"]
        for rnd in rounds:
            for game in rnd["games"]:
                result = pick(rnd["round"], game["board"])
                action = {"do": "result", "round": rnd["round"], "board": game["board"]}
                state = act(state, action | {"result": result})
            for match in rnd["matches"] if shown["rule"] == "first" else ():
                board = match["boards"][pick(rnd["round"], -match["boards"][0]) == "1-0"]
                state = act(state, {"do": "first", "round": rnd["round"], "board": board})
        if shown["system"] != "swiss":
            return state


def server_part(document: dict) -> dict:
    return {key: value for key, value in document.items() if key != "offline"}


def test_r_x_7_a_bughouse_round_robin_runs_to_the_end_in_the_app() -> None:
    state = evening(4, rule="sum")
    shown = view(state)
    assert shown["kind"] == "bughouse" and len(shown["rounds"]) == 3
    first = shown["rounds"][0]
    assert [len(first["games"]), len(first["matches"])] == [4, 2]
    assert first["matches"][0]["boards"] == [1, 2]
    # partners sit with opposite colours: A1 White on board 1, B1 Black on board 2
    assert (first["games"][0]["white"], first["games"][1]["black"]) == ("A1", "B1")
    state = play(state, lambda r, b: "1-0")
    shown = view(state)
    assert shown["finished"] and not shown["can_pair"]
    assert {m["score"] for rnd in shown["rounds"] for m in rnd["matches"]} == {"1-1"}
    assert [(r["rank"], r["points"], r["game_points"]) for r in shown["standings"]] == [
        (1, 3.0, 3.0)
    ] * 4
    assert len(undo(state)["log"]) == len(state["log"]) - 1


def test_r_x_7_the_first_finished_game_decides_a_match_in_the_app() -> None:
    state = evening(3, rule="first")  # round 1: pairs 2 and 3, pair 1 free
    for board in (1, 2):
        state = act(state, {"do": "result", "round": 1, "board": board, "result": "1-0"})
    assert view(state)["rounds"][0]["matches"][0]["score"] == ""  # not marked yet
    state = act(state, {"do": "first", "round": 1, "board": 2})
    shown = view(state)
    match = shown["rounds"][0]["matches"][0]
    assert (match["first"], match["score"]) == (2, "0-2")
    assert [g["first"] for g in shown["rounds"][0]["games"]] == [False, True]
    assert shown["standings"][0]["name"] == match["black"]
    state = act(state, {"do": "first", "round": 1, "board": 1})  # the mark moves
    assert view(state)["rounds"][0]["matches"][0]["score"] == "2-0"
    assert view(undo(state))["rounds"][0]["matches"][0]["first"] == 2


def test_r_x_7_a_bughouse_swiss_pairs_each_round_with_the_dutch_engine() -> None:
    state = evening(5, "swiss", "sum", rounds=3, colour="white")
    shown = view(state)
    # numbered by average rating as the server's Swiss of pairs: the highest first
    assert [p["name"] for p in shown["players"]] == [f"Pair {n}" for n in (5, 4, 3, 2, 1)]
    assert shown["can_pair"] and not shown["rounds"]
    state = act(state, {"do": "pair"})
    rnd = view(state)["rounds"][0]
    assert len(rnd["matches"]) == 2 and rnd["bye"] == ["Pair 1"]
    with pytest.raises(CrosstableError, match="not decided"):
        act(state, {"do": "pair"})
    state = play(state, lambda r, b: RESULTS[(r + b) % 3])
    shown = view(state)
    assert shown["finished"] and len(shown["rounds"]) == 3
    met = [frozenset((m["white"], m["black"])) for r in shown["rounds"] for m in r["matches"]]
    assert len(met) == len(set(met))  # no two pairs meet twice
    # the bye is worth a won match and one game point
    assert sum(r["points"] for r in shown["standings"]) == 2 * 6 + 2 * 3


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"do": "add", "name": "Solo", "players": [{"name": "X"}]}, "two players"),
        ({"do": "add", "name": "Pair 1", "players": [{"name": "X"}, {"name": "Y"}]}, "already"),
        ({"do": "add", "name": "P", "players": [{"name": ""}, {"name": "Y"}]}, "name is required"),
        ({"do": "start", "rule": "most"}, "Bughouse rule 'most'"),
        ({"do": "start", "system": "swiss", "rounds": 9}, "too many"),
        ({"do": "first", "round": 1, "board": 1}, "has not started"),
        ({"do": "result", "round": 1, "board": 1, "result": "2-0"}, "2-0"),
        ({"do": "fly"}, "unknown action"),
    ],
)
def test_r_x_7_a_refused_bughouse_action_changes_nothing(action: dict, words: str) -> None:
    state = new_state("bughouse", "Evening")
    state = act(state, {"do": "add", "name": "Pair 1", "players": [{"name": "A"}, {"name": "B"}]})
    state = act(state, {"do": "add", "name": "Pair 2", "players": [{"name": "C"}, {"name": "D"}]})
    before = copy.deepcopy(state)
    with pytest.raises(CrosstableError, match=words):
        act(state, action)
    assert state == before


def test_r_x_7_marks_and_results_are_refused_where_they_do_not_fit() -> None:
    state = evening(4, rule="sum")
    with pytest.raises(CrosstableError, match="no game decides a match alone"):
        act(state, {"do": "first", "round": 1, "board": 1})
    with pytest.raises(CrosstableError, match="no board 9 in round 1"):
        act(state, {"do": "result", "round": 1, "board": 9, "result": "1-0"})
    with pytest.raises(CrosstableError, match="all paired at the start"):
        act(state, {"do": "pair"})
    with pytest.raises(CrosstableError, match="players are fixed"):
        act(state, {"do": "add", "name": "Late", "players": [{"name": "L"}, {"name": "M"}]})
    ruled = evening(4, rule="first")
    with pytest.raises(CrosstableError, match="no board 5 in round 2"):
        act(ruled, {"do": "first", "round": 2, "board": 5})


@settings(max_examples=25, deadline=None)
@given(
    pairs=st.integers(3, 6),
    swiss=st.booleans(),
    rule=st.sampled_from(("sum", "first")),
    results=st.lists(st.sampled_from(RESULTS), min_size=1, max_size=40),
)
def test_r_x_7_any_bughouse_event_goes_through_its_json_unchanged(
    pairs: int, swiss: bool, rule: str, results: list[str]
) -> None:
    start = {"rounds": 2, "colour": "black"} if swiss else {}
    state = evening(pairs, "swiss" if swiss else "round-robin", rule, **start)
    state = play(state, lambda r, b: results[(7 * r + b) % len(results)])
    document = json.loads(json.dumps(export_document(state)))
    opened = import_document(server_part(document), "evening.json")
    assert view(opened) == view(state)
    assert server_part(export_document(opened)) == server_part(document)
    assert import_document(document) == state  # with its history: the same state


def _broken(document: dict, change: str) -> dict:
    bad = copy.deepcopy(document)
    member = bad["bughouse"]
    if change == "rule":
        member["rule"] = "most"
    elif change == "players":
        member["pairs"][0]["players"] = [2, 1]
    elif change == "names":
        member["pairs"][1]["name"] = member["pairs"][0]["name"]
    elif change == "mark":
        member["first"] = [{"round": "1", "board": 2}]
    elif change == "key":
        member["colour"] = "white"
    elif change == "boards":
        games = bad["tournament"]["rounds"][0]["games"]
        games[0]["white"], games[0]["black"] = games[0]["black"], games[0]["white"]
    elif change == "pairs":
        del member["pairs"][-1]
    return bad


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("rule", "$.bughouse.rule: Bughouse rule 'most'"),
        ("players", "$.bughouse.pairs[0].players: pair 1 plays with the players 1 and 2"),
        ("names", "$.bughouse.pairs[1].name: there is already a pair named"),
        ("mark", "$.bughouse.first[0]: a mark has a round and a board"),
        ("key", "$.bughouse: unknown key 'colour'"),
        ("boards", "round 1 board 1 is not the pairing the core makes"),
        ("pairs", "$.bughouse.pairs: 3 pairs need 6 players, the tournament has 8"),
    ],
)
def test_r_x_7_a_bad_bughouse_file_is_refused_with_its_place(change: str, words: str) -> None:
    document = server_part(export_document(play(evening(4, rule="first"), lambda r, b: "1-0")))
    with pytest.raises(CrosstableError) as refused:
        import_text(json.dumps(_broken(document, change)), "evening.json")
    assert str(refused.value).startswith("evening.json: ") and words in str(refused.value)


def test_r_x_7_the_server_stores_the_app_s_bughouse_events_and_its_export_opens_in_the_app(
    service: Service,  # noqa: F811 - the fixture
) -> None:
    for system, rule in (("round-robin", "first"), ("swiss", "sum"), ("swiss", "first")):
        start = {"rounds": 3} if system == "swiss" else {}
        state = play(evening(5, system, rule, **start), lambda r, b: RESULTS[(r * b) % 3])
        document = json.loads(json.dumps(export_document(state)))
        made = import_tournament_document(service, document, "evening.json", "test")
        assert "a Bughouse event, 5 pairs" in str(made.summary)
        tid = made.tournament_id
        table = service.bughouse_standings(tid)
        assert [(r.place, r.name, float(r.mp), float(r.gp)) for r in table.rows] == [
            (r["rank"], r["name"], r["points"], r["game_points"]) for r in view(state)["standings"]
        ]
        assert service.verify(tid) == []
        opened = import_document(service.export_json(tid), "server.json")
        assert view(opened) == view(state)
        assert server_part(export_document(opened)) == server_part(document)


def test_r_x_7_a_bughouse_event_made_on_the_server_opens_in_the_app(
    service: Service,  # noqa: F811 - the fixture
) -> None:
    tid = service.create_bughouse_tournament("Friday", "first").tournament_id
    for number in range(1, 5):
        service.add_team(tid, f"Pair {number}")
        for k in (1, 2):
            service.add_team_member(tid, number, PlayerInfo(f"P{number}{k}", 1900 + number))
    service.start(tid)
    for m in service.bughouse_matches(tid)[:4]:
        for g in m.match.games:
            service.record_result(tid, m.number, g.board, "0-1" if g.board % 2 else "½-½")
        service.mark_first_finished(tid, m.number, m.match.games[0].board)
    opened = import_document(service.export_json(tid), "server.json")
    shown = view(opened)
    table = service.bughouse_standings(tid)
    assert [(r["name"], r["points"]) for r in shown["standings"]] == [
        (r.name, float(r.mp)) for r in table.rows
    ]
    assert sum(1 for rnd in shown["rounds"] for m in rnd["matches"] if m["first"]) == 4
    again = import_tournament_document(service, export_document(opened), "again.json", "t")
    assert service.bughouse_standings(again.tournament_id) == table


def test_r_x_7_crosstable_import_and_the_json_api_take_a_bughouse_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    db = str(tmp_path / "club.db")
    document = export_document(play(evening(3, rule="sum"), lambda r, b: "1-0"))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_broken(server_part(document), "boards")), "utf-8")
    assert main(["import", str(bad), "--db", db]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "round 1 board 1" in err and "Traceback" not in err
    good = tmp_path / "evening.json"
    good.write_text(json.dumps(document), encoding="utf-8")
    assert main(["import", str(good), "--db", db]) == 0
    assert "a Bughouse event, 3 pairs, 6 games" in capsys.readouterr().out
    site = Service(open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")))
    accounts = Accounts(site.store)
    admin = accounts.create_user("admin", "password-admin", is_admin=True)
    auth = {"Authorization": f"Bearer {accounts.create_token(admin.id, 'script')}"}
    url = "/api/v1/offline/import"
    with TestClient(create_app(service=site)) as client:
        refused = client.post(url, json=_broken(document, "rule"), headers=auth)
        assert refused.status_code == 422 and "$.bughouse.rule" in refused.text
        assert site.tournaments() == []  # nothing stored by the refusal
        made = client.post(url, json=document, headers=auth)
        assert made.status_code == 201, made.text
        assert "a Bughouse event" in made.json()["summary"]


def test_r_x_7_the_page_s_bridge_runs_a_bughouse_event_in_armenian() -> None:
    answer = json.loads(handle(json.dumps({"do": "new", "kind": "bughouse", "name": "Evening"})))
    assert answer["view"]["kind"] == "bughouse" and answer["labels"]["pair_name"]
    request = {"do": "act", "state": answer["state"], "lang": "hy"}
    request["action"] = {"do": "add", "name": "Solo", "players": []}
    refused = json.loads(handle(json.dumps(request)))
    assert refused["error"] and refused["error"] != "a Bughouse pair has two players"


# -- a knockout of pairs ---------------------------------------------------------------

#: the most steps a knockout of pairs is played for (draws alone never end a play-off)
ENOUGH = 150


def cup(pairs: int, rule: str, details: dict[str, str], results: list[str]) -> dict:
    """A knockout of pairs played by ``results`` (in turn) for at most ``ENOUGH`` steps:
    each board's result, under ``first`` a mark on each match, *continue* when due."""
    state = new_state("bughouse", "Cup")
    for n in range(1, pairs + 1):
        players = [{"name": f"A{n}", "rating": 1800 + 7 * n}, {"name": f"B{n}", "rating": 1700}]
        state = act(state, {"do": "add", "name": f"Pair {n}", "players": players})
    start = {"do": "start", "system": "knockout", "rule": rule, "knockout": details}
    state = act(state, start)
    for step in range(ENOUGH):
        shown = view(state)
        if shown["finished"]:
            break
        open_boards = [
            (r["round"], g["board"]) for r in shown["rounds"] for g in r["games"] if not g["result"]
        ]
        unmarked = [
            (r["round"], m["boards"][step % 2])
            for r in shown["rounds"]
            for m in r["matches"]
            if rule == "first" and m["first"] is None
        ]
        if open_boards:
            rnd, board = open_boards[0]
            result = results[step % len(results)]
            state = act(state, {"do": "result", "round": rnd, "board": board, "result": result})
        elif unmarked:
            state = act(state, {"do": "first", "round": unmarked[0][0], "board": unmarked[0][1]})
        else:
            assert shown["can_pair"]
            state = act(state, {"do": "pair"})
    return state


def test_r_x_7_a_knockout_of_pairs_runs_to_its_winner_in_the_app() -> None:
    state = cup(5, "sum", {"match_format": "1", "tie_rule": "lower-rated"}, ["1-0"])
    shown = view(state)
    assert shown["finished"] and shown["champion"]
    # seeded by average rating (Pair 5 is pair 1): a bracket of 8, the top three have byes
    assert shown["players"][0]["name"] == "Pair 5"
    first = shown["rounds"][0]
    assert first["bye"] == ["Pair 5", "Pair 4", "Pair 3"]
    assert [(m["white"], m["black"], m["boards"]) for m in first["matches"]] in (
        [("Pair 2", "Pair 1", [1, 2])],
        [("Pair 1", "Pair 2", [1, 2])],
    )
    assert sorted(p["place"] for p in shown["placings"])[0] == "1"
    with pytest.raises(CrosstableError, match="the knockout is over"):
        act(state, {"do": "pair"})
    started = cup(4, "sum", {"match_format": "1"}, ["1-0"])
    assert len(view(undo(started))["rounds"]) == len(view(started)["rounds"])  # undo: one step


@settings(max_examples=10, deadline=None)
@given(
    pairs=st.integers(2, 7),
    rule=st.sampled_from(("sum", "first")),
    match_format=st.sampled_from(("1", "2", "2-at-once")),
    tie_rule=st.sampled_from(("lower-rated", "lots", "armageddon", "rapid:2,armageddon")),
    third=st.booleans(),
    results=st.lists(st.sampled_from(RESULTS), min_size=1, max_size=30),
)
def test_r_x_7_any_knockout_of_pairs_goes_through_its_json_unchanged(
    pairs: int, rule: str, match_format: str, tie_rule: str, third: bool, results: list[str]
) -> None:
    details = {"match_format": match_format, "tie_rule": tie_rule}
    details["third_place"] = "yes" if third else "no"
    state = cup(pairs, rule, details, results)
    document = json.loads(json.dumps(export_document(state)))
    assert document["tournament"]["settings"]["system"] == "knockout"
    opened = import_document(server_part(document), "cup.json")
    assert view(opened) == view(state)
    assert server_part(export_document(opened)) == server_part(document)


def test_r_x_7_the_server_stores_the_app_s_knockout_of_pairs_and_it_comes_back(
    service: Service,  # noqa: F811 - the fixture
) -> None:
    for pairs, rule, details in (
        (5, "sum", {"match_format": "2", "tie_rule": "lots"}),
        (6, "first", {"match_format": "1", "tie_rule": "armageddon", "third_place": "yes"}),
    ):
        state = cup(pairs, rule, details, ["1-0", "½-½", "0-1", "½-½"])
        document = json.loads(json.dumps(export_document(state)))
        made = import_tournament_document(service, document, "cup.json", "test")
        assert f"a Bughouse event, {pairs} pairs" in str(made.summary)
        assert service.verify(made.tournament_id) == []
        opened = import_document(service.export_json(made.tournament_id), "server.json")
        assert view(opened) == view(state)
        assert server_part(export_document(opened)) == server_part(document)


def test_r_x_7_a_knockout_of_pairs_made_on_the_server_opens_in_the_app(
    service: Service,  # noqa: F811 - the fixture
) -> None:
    options = KnockoutOptions(match_format="1", tie_rule="lower-rated")
    tid = service.create_bughouse_tournament("Cup", "sum", knockout=options).tournament_id
    for number in range(1, 4):
        service.add_team(tid, f"Pair {number}")
        for k in (1, 2):
            service.add_team_member(tid, number, PlayerInfo(f"P{number}{k}", 1900 + 10 * number))
    service.start(tid)
    for m in service.bughouse_matches(tid):
        for g in m.match.games:
            service.record_result(tid, m.number, g.board, "1-0")  # drawn 1-1: the lower-rated
    opened = import_document(service.export_json(tid), "server.json")
    shown = view(opened)
    assert shown["rounds"][0]["bye"] == ["Pair 3"] and shown["can_pair"]
    service.pair_bughouse_round(tid)
    again = view(import_document(service.export_json(tid), "server.json"))
    assert view(act(opened, {"do": "pair"}))["rounds"] == again["rounds"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("missing", "$.bughouse.knockout is missing"),
        ("moved", "$.bughouse.knockout.matches: the core seats the matches at"),
        ("bad", "$.bughouse.knockout.matches[0]: slot, game, round and board are whole numbers"),
        ("setting", "unknown knockout setting 'colour'"),
    ],
)
def test_r_x_7_a_bad_knockout_of_pairs_is_refused_with_its_place(change: str, words: str) -> None:
    state = cup(4, "sum", {"match_format": "1"}, ["1-0", "0-1"])
    document = server_part(json.loads(json.dumps(export_document(state))))
    member = document["bughouse"]
    if change == "missing":
        del member["knockout"]
    elif change == "moved":
        member["knockout"]["matches"][0]["board"] = 7
    elif change == "bad":
        member["knockout"]["matches"][0]["slot"] = 0
    else:
        member["knockout"]["settings"]["colour"] = "white"
    with pytest.raises(CrosstableError) as refused:
        import_text(json.dumps(document), "cup.json")
    assert str(refused.value).startswith("cup.json: ") and words in str(refused.value)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=10,
)
FUZZED = server_part(
    json.loads(json.dumps(export_document(cup(3, "first", {"match_format": "1"}, ["1-0"]))))
)


@settings(max_examples=100, deadline=None)
@given(
    where=st.sampled_from(
        [
            "member",
            "rule",
            "initial_colour",
            "pairs",
            "pair",
            "first",
            "knockout",
            "matches",
            "match",
        ]
    ),
    value=JSON
    | st.fixed_dictionaries({k: st.integers(-1, 9) for k in ("slot", "game", "round", "board")})
    | st.fixed_dictionaries({"round": st.integers(-1, 4), "board": st.integers(-1, 9)}),
)
def test_r_x_7_any_bughouse_member_is_read_or_refused_with_its_place(
    where: str, value: Any
) -> None:
    document = copy.deepcopy(FUZZED)
    member = document["bughouse"]
    if where == "member":
        document["bughouse"] = value
    elif where == "pair":
        member["pairs"][0] = value
    elif where == "matches":
        member["knockout"]["matches"] = value
    elif where == "match":
        member["knockout"]["matches"][0] = value
    else:
        member[where] = value
    try:
        opened = import_document(document, "fuzz.json")
    except CrosstableError as error:
        assert str(error).startswith("fuzz.json")
    else:
        assert view(opened)["kind"] == "bughouse"
