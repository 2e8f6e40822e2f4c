"""The offline app's knockout exchanged with the server (issue 28 item 5): its bracket,
seeds, every game and tie-break game, byes and winner travel as a tournament JSON with a
``"knockout"`` member; the server stores it as its own knockout (SQLite and PostgreSQL),
and the server's export opens in the app again; a bad file is refused with what is wrong."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, migrated, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.cli.offline_import import import_tournament_json
from crosstable.core.errors import CrosstableError
from crosstable.offline.app import act, new_state, view
from crosstable.offline.bridge import handle
from crosstable.offline.exchange import export_document, import_document
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

FORMATS = ("1", "2", "2-at-once", "3")
TIES = ("lower-rated", "lots", "armageddon", "playoff", "rapid:2,sudden-death")
RESULTS = ("1-0", "0-1", "½-½", "+/-")
#: the most steps a knockout is played for (then exported as it stands, unfinished)
ENOUGH = 120


def cup(
    players: int,
    choose: Any = None,
    *,
    details: dict[str, str] | None = None,
    stop: int | None = None,
) -> dict[str, Any]:
    """A knockout of ``players`` played through (``choose`` picks each result; by
    default a cycle of draws and wins that sends matches into their tie-breaks)."""
    state = new_state("knockout", "Cup")
    for index in range(players):
        state = act(state, {"do": "add", "name": f"P{index + 1}", "rating": 2000 - index})
    state = act(state, {"do": "start", "knockout": details or {}})
    shown, count = view(state), 0
    # (a bound: draws alone never end a sudden-death or play-off tie-break)
    limit = ENOUGH if stop is None else min(stop, ENOUGH)
    while not shown["finished"] and count < limit:
        if shown["can_pair"]:
            state = act(state, {"do": "pair"})
        else:
            match = next(m for m in shown["matches"] if any(not g["result"] for g in m["games"]))
            game = next(g for g in match["games"] if not g["result"])
            result = choose(count) if choose else ("½-½" if count % 3 else "1-0")
            slot = {"slot": match["slot"], "game": game["game"]}
            state = act(state, {"do": "result", **slot, "result": result})
        count += 1
        shown = view(state)
    return state


def server_part(document: dict[str, Any]) -> dict[str, Any]:
    """The export without the app's own state: what the server reads."""
    return json.loads(json.dumps({k: v for k, v in document.items() if k != "offline"}))


PLAYOFF = {"match_format": "2", "tie_rule": "rapid:2,blitz:2,armageddon", "third_place": "yes"}


@settings(max_examples=25, deadline=None)
@example(  # draws alone: a sudden death that never ends, cut at ENOUGH steps
    players=2,
    fmt="1",
    tie="rapid:2,sudden-death",
    third=False,
    order="seeded",
    seed=1,
    results=["½-½"],
    stop=None,
)
@given(
    players=st.integers(2, 11),
    fmt=st.sampled_from(FORMATS),
    tie=st.sampled_from(TIES),
    third=st.booleans(),
    order=st.sampled_from(["seeded", "random"]),
    seed=st.integers(1, 10**6),
    results=st.lists(st.sampled_from(RESULTS), min_size=1, max_size=40),
    stop=st.one_of(st.none(), st.integers(0, 30)),
)
def test_r_x_7_a_knockout_export_import_export_is_identical(
    players: int,
    fmt: str,
    tie: str,
    third: bool,
    order: str,
    seed: int,
    results: list[str],
    stop: int | None,
) -> None:
    details = {
        "match_format": fmt,
        "tie_rule": tie,
        "bracket": order,
        "lots_seed": str(seed),
        "third_place": "yes" if third and players >= 4 else "no",
    }
    state = cup(players, lambda n: results[n % len(results)], details=details, stop=stop)
    exported = server_part(export_document(state))
    opened = import_document(exported, "cup.json")
    assert view(opened) == view(state)  # the bracket, every game, the byes, the winner
    again = export_document(opened)
    assert server_part(again) == exported
    assert export_document(import_document(json.loads(json.dumps(again)))) == again


def test_r_x_7_the_export_holds_the_bracket_the_byes_and_the_winner() -> None:
    state = cup(5, details=PLAYOFF | {"lots_seed": "11"})
    document = export_document(state)
    knockout = document["knockout"]
    assert knockout["settings"]["tie_rule"] == "rapid:2,blitz:2,armageddon"
    assert knockout["settings"]["lots_seed"] == "11"
    assert knockout["winner"] == next(
        p["start"] for p in view(state)["players"] if p["name"] == view(state)["champion"]
    )
    tournament = document["tournament"]
    assert tournament["settings"]["system"] == "knockout"
    byes = [(b["round"], b["player"]) for r in tournament["rounds"] for b in r["byes"]]
    assert byes == [(1, 1), (1, 2), (1, 3)]  # 5 players in a bracket of 8
    games = [g for r in tournament["rounds"] for g in r["games"]]
    assert len(games) == len(knockout["games"]) > 4  # tie-break games included
    assert json.loads(handle(json.dumps({"do": "export", "state": state})))["export"] == (
        json.loads(json.dumps(document))
    )


def _broken(document: dict[str, Any], change: str) -> dict[str, Any]:
    broken = copy.deepcopy(document)
    member, rounds = broken["knockout"], broken["tournament"]["rounds"]
    if change == "no member":
        del broken["knockout"]
    elif change == "slot twice":
        member["games"][1]["slot"] = member["games"][0]["slot"]
        member["games"][1]["game"] = member["games"][0]["game"]
    elif change == "no such board":
        member["games"][0]["board"] = 99
    elif change == "colours swapped":
        game = rounds[0]["games"][0]
        game["white"], game["black"] = game["black"], game["white"]
    elif change == "winner":
        member["winner"] = 4
    elif change == "setting":
        member["settings"]["tie_rule"] = "coin"
    elif change == "unknown setting":
        member["settings"]["colour"] = "white"
    elif change == "bye":
        rounds[0]["byes"] = rounds[0]["byes"][:1]
    elif change == "game left out":
        member["games"].pop()
        rounds[-1]["games"].pop()
    return broken


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("no member", "$.knockout is missing"),
        ("slot twice", "$.knockout.games[1]: slot"),
        ("no such board", "$.knockout.games[0]: the tournament has no game at round 1 board 99"),
        ("colours swapped", "gives White to"),
        ("winner", "the file names 4 the winner"),
        ("setting", "tie_rule"),
        ("unknown setting", "colour"),
        ("bye", "the byes are not the bracket's"),
        ("game left out", "the file does not have it"),
    ],
)
def test_r_x_7_a_bad_knockout_file_is_refused_with_what_is_wrong(change: str, words: str) -> None:
    document = server_part(export_document(cup(6, details=PLAYOFF | {"lots_seed": "5"})))
    with pytest.raises(CrosstableError) as refused:
        import_document(_broken(document, change), "cup.json")
    assert words in str(refused.value)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
FUZZED = server_part(export_document(cup(3, details={"lots_seed": "1"})))


@settings(max_examples=200, deadline=None)
@given(
    where=st.sampled_from(["member", "settings", "games", "game", "winner"]),
    value=JSON
    | st.fixed_dictionaries({k: st.integers(-2, 9) for k in ("round", "board", "slot", "game")}),
)
def test_r_x_7_any_knockout_member_is_read_or_refused_with_its_path(where: str, value: Any) -> None:
    document = copy.deepcopy(FUZZED)
    member = document["knockout"]
    if where == "member":
        document["knockout"] = value
    elif where == "game":
        member["games"][0] = value
    else:
        member[where] = value
    try:
        opened = import_document(document, "fuzz.json")
    except CrosstableError as error:
        assert "fuzz.json" in str(error)
    else:
        assert view(opened)["kind"] == "knockout"


@pytest.mark.parametrize(
    "details",
    [PLAYOFF | {"lots_seed": "3"}, {"match_format": "1", "tie_rule": "armageddon"}],
    ids=["two-game-playoff-third-place", "one-game-armageddon"],
)
def test_r_x_7_the_server_stores_the_app_s_knockout_and_its_export_opens_in_the_app(
    service: Service,  # noqa: F811 - the fixture
    details: dict[str, str],
) -> None:
    state = cup(7, details=details)
    document = json.loads(json.dumps(export_document(state)))
    change = import_tournament_json(service, document, "cup.json", "arbiter")
    bracket = service.bracket(change.tournament_id)
    shown = view(state)
    champion = next(p["start"] for p in shown["players"] if p["name"] == shown["champion"])
    assert bracket.champion is not None and bracket.champion.start == champion
    assert [b.player.start for b in bracket.rounds[0].byes] == [1]
    stored = sorted(
        (m.slot, g.game, g.white, g.black)
        for r in bracket.rounds
        for m in r.matches
        for g in m.games
    )
    filed = [g for r in document["tournament"]["rounds"] for g in r["games"]]
    slots = {
        (g["round"], g["board"]): (g["slot"], g["game"]) for g in document["knockout"]["games"]
    }
    assert stored == sorted(
        (*slots[(g["round"], g["board"])], g["white"], g["black"]) for g in filed
    )
    server = json.loads(json.dumps(service.export_json(change.tournament_id)))
    opened = import_document(server, "server.json")
    assert view(opened) == shown
    assert server_part(export_document(opened)) == server_part(document)


def test_r_x_7_crosstable_import_takes_the_knockout_and_refuses_a_damaged_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    db = str(tmp_path / "club.db")
    document = export_document(cup(4, details={"match_format": "2", "lots_seed": "9"}))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_broken(server_part(document), "colours swapped")), "utf-8")
    assert main(["import", str(bad), "--db", db]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "knockout slot" in err and "Traceback" not in err
    good = tmp_path / "cup.json"
    good.write_text(json.dumps(document), encoding="utf-8")
    assert main(["import", str(good), "--db", db]) == 0
    assert "a knockout, 4 players" in capsys.readouterr().out
    out = tmp_path / "server.json"
    assert main(["export", "--db", db, "--output", str(out)]) == 0
    opened = import_document(json.loads(out.read_text("utf-8")), "server.json")
    assert server_part(export_document(opened)) == server_part(document)
    assert main(["tournaments", "--db", db]) == 0
    assert capsys.readouterr().out.count("Cup") == 1  # the refused file stored nothing


def test_r_x_7_the_json_api_stores_the_app_s_knockout_and_refuses_a_bad_one(
    tmp_path: Path,
) -> None:
    site = Service(open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")))
    accounts = Accounts(site.store)
    admin = accounts.create_user("admin", "password-admin", is_admin=True)
    visitor = accounts.create_user("visitor", "password-visitor")
    auth = {"Authorization": f"Bearer {accounts.create_token(admin.id, 'script')}"}
    other = {"Authorization": f"Bearer {accounts.create_token(visitor.id, 'script')}"}
    state = cup(5, details=PLAYOFF | {"lots_seed": "2"})
    document = json.loads(json.dumps(export_document(state)))
    url = "/api/v1/offline/import"
    with TestClient(create_app(service=site)) as client:
        refused = client.post(url, json=_broken(server_part(document), "winner"), headers=auth)
        assert refused.status_code == 422 and "the file names 4 the winner" in refused.text
        assert client.post(url, json=document, headers=other).status_code == 403
        assert client.post(url, json={"format": "other"}, headers=auth).status_code == 422
        assert site.tournaments() == []  # nothing stored by the refusals
        made = client.post(url, json=document, headers=auth)
        assert made.status_code == 201, made.text
        assert "a knockout, 5 players" in made.json()["summary"]
        tid = made.json()["id"]
        exported = client.get(f"/api/v1/tournaments/{tid}/export/json", headers=auth)
    opened = import_document(exported.json(), "server.json")
    assert view(opened) == view(state)
    assert server_part(export_document(opened)) == server_part(document)
