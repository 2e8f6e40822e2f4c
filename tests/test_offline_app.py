"""The offline app's state and actions (crosstable.offline): a round robin and a knockout
run to the end by the core, undo, refusals that change nothing, the JSON exchange, the
page's bridge, the build's pieces (issue 28 item 5)."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import CrosstableError
from crosstable.core.pairing.dutch import pair_round, request_for
from crosstable.core.standings.table import compute_standings
from crosstable.offline.app import act, new_state, replay, undo, view
from crosstable.offline.bridge import handle
from crosstable.offline.build import PYODIDE_INTEGRITY, core_zip, integrity_ok
from crosstable.offline.exchange import (
    export_document,
    from_server,
    import_document,
    import_text,
)

NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dina")


def field(kind: str, count: int) -> dict[str, Any]:
    state = new_state(kind, "Club")
    for index in range(count):
        state = act(state, {"do": "add", "name": NAMES[index], "rating": 1500 + 10 * index})
    return act(state, {"do": "start"})


def finished_round_robin(count: int = 5) -> dict[str, Any]:
    state = field("round-robin", count)
    for rnd in view(state)["rounds"]:
        for game in rnd["games"]:
            result = "½-½" if game["board"] == 2 else ("1-0" if rnd["round"] % 2 else "0-1")
            action = {"do": "result", "round": rnd["round"], "board": game["board"]}
            state = act(state, action | {"result": result})
    return state


def test_r_x_7_a_round_robin_runs_to_the_end_with_the_core_s_standings() -> None:
    state = finished_round_robin()
    shown = view(state)
    assert shown["finished"] and len(shown["rounds"]) == 5
    assert all(len(rnd["bye"]) == 1 for rnd in shown["rounds"])  # five players: a free round
    built = replay(state)
    assert built.tournament is not None
    expected = compute_standings(built.tournament)
    assert [(r["name"], r["rank"]) for r in shown["standings"]] == [
        (r.name, r.rank) for r in expected.rows
    ]
    assert sum(r["points"] for r in shown["standings"]) == 10  # ten games, a point each


def test_r_x_7_starting_numbers_follow_the_ratings() -> None:
    shown = view(field("round-robin", 4))
    assert [p["name"] for p in shown["players"]] == ["Gleb", "Vera", "Boris", "Anna"]


def test_r_x_7_a_knockout_runs_to_its_champion() -> None:
    state = field("knockout", 5)
    shown = view(state)
    while not shown["finished"]:
        if shown["can_pair"]:
            state = act(state, {"do": "pair"})
        else:
            match = next(m for m in shown["matches"] if not m["winner"])
            game = next(g for g in match["games"] if not g["result"])
            action = {"do": "result", "slot": match["slot"], "game": game["game"]}
            state = act(state, action | {"result": "1-0"})
        shown = view(state)
    places = {p["name"]: p["place"] for p in shown["placings"]}
    assert places[shown["champion"]] == "1" and list(places.values()).count("2") == 1


def finished_swiss(count: int = 7, rounds: int = 4) -> dict[str, Any]:
    state = new_state("swiss", "Open")
    for index in range(count):
        state = act(state, {"do": "add", "name": f"P{index}", "rating": 2000 - 10 * index})
    state = act(state, {"do": "start", "rounds": rounds})
    shown = view(state)
    while not shown["finished"]:
        if shown["can_pair"]:
            state = act(state, {"do": "pair"})
        else:
            rnd = shown["rounds"][-1]
            for game in rnd["games"]:
                result = "½-½" if game["board"] == 2 else "1-0"
                action = {"do": "result", "round": rnd["round"], "board": game["board"]}
                state = act(state, action | {"result": result})
        shown = view(state)
    return state


def test_r_x_7_a_swiss_is_paired_round_by_round_by_the_dutch_engine() -> None:
    state = finished_swiss()
    built = replay(state)
    assert built.tournament is not None and len(built.tournament.rounds) == 4
    for rnd in built.tournament.rounds:  # each round as the engine pairs the rounds before it
        before = replace(built.tournament, rounds=built.tournament.rounds[: rnd.number - 1])
        pairing = pair_round(request_for(before, rnd.number, total_rounds=4))
        assert tuple((g.white, g.black) for g in rnd.games) == pairing.boards
        assert [b.player for b in rnd.byes] == [pairing.bye]
    with pytest.raises(CrosstableError, match="all 4 rounds are paired"):
        act(state, {"do": "pair"})
    unfinished = undo(state)
    with pytest.raises(CrosstableError, match="round 4 is not over"):
        act(unfinished, {"do": "pair"})
    with pytest.raises(CrosstableError, match="cannot play 7 rounds"):
        act(undo(field("swiss", 5)), {"do": "start", "rounds": 7})


def test_r_x_7_undo_goes_back_one_action_at_a_time() -> None:
    state = finished_round_robin(3)
    earlier = undo(state)
    assert len(earlier["log"]) == len(state["log"]) - 1
    assert not view(earlier)["finished"]
    with pytest.raises(CrosstableError, match="nothing to undo"):
        undo(new_state("round-robin", "Empty"))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"do": "add", "name": "Late", "rating": 1}, "players are fixed"),
        ({"do": "start"}, "already started"),
        ({"do": "result", "round": 9, "board": 1, "result": "1-0"}, "no board 1 in round 9"),
        ({"do": "result", "round": 1, "board": 1, "result": "2-0"}, "2-0"),
        ({"do": "pair"}, "all paired at the start"),
        ({"do": "fly"}, "unknown action"),
        ({"do": "add", "name": "   "}, "name is required"),
    ],
)
def test_r_x_7_a_refused_action_changes_nothing(action: dict[str, Any], message: str) -> None:
    state = field("round-robin", 3)
    before = json.dumps(state)
    with pytest.raises(CrosstableError, match=message):
        act(state, action)
    assert json.dumps(state) == before


ACTIONS = st.one_of(
    st.fixed_dictionaries(
        {"do": st.just("add"), "name": st.text(max_size=8), "rating": st.integers(-5, 5000)}
    ),
    st.fixed_dictionaries({"do": st.sampled_from(["start", "pair", "remove", "undo"])}),
    st.fixed_dictionaries(
        {
            "do": st.just("result"),
            "round": st.integers(0, 6),
            "board": st.integers(0, 4),
            "result": st.sampled_from(["1-0", "0-1", "½-½", "+/-", "", "x", "1-1"]),
        }
    ),
    st.fixed_dictionaries(
        {
            "do": st.just("result"),
            "slot": st.integers(0, 8),
            "game": st.integers(0, 3),
            "result": st.sampled_from(["1-0", "0-1", "½-½", ""]),
        }
    ),
    st.dictionaries(st.text(max_size=4), st.integers() | st.text(max_size=4), max_size=3),
)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["round-robin", "knockout"]), st.lists(ACTIONS, max_size=25))
def test_r_x_7_any_actions_give_a_state_that_replays_and_undo_reverses_each(
    kind: str, actions: list[dict[str, Any]]
) -> None:
    state = new_state(kind, "Fuzz")
    for action in actions:
        if action.get("do") == "undo":
            if state["log"]:
                state = undo(state)
            continue
        try:
            after = act(state, action)
        except CrosstableError:
            continue
        assert undo(after) == state
        state = after
    view(state)  # what the page draws is always there
    assert import_text(json.dumps(state)) == state  # a backup opens as it was


@settings(max_examples=80, deadline=None)
@given(
    st.text(max_size=200)
    | st.recursive(
        st.none() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=12,
    ).map(json.dumps)
)
def test_r_x_7_any_file_opened_is_read_or_refused_with_a_message(text: str) -> None:
    for variant in (
        text,
        json.dumps(
            {
                "format": "crosstable.offline",
                "version": 1,
                "kind": "knockout",
                "name": "x",
                "log": [text],
            }
        ),
    ):
        try:
            import_text(variant)
        except CrosstableError as error:
            assert str(error)


SCALARS = st.none() | st.integers(-2, 9) | st.text(max_size=3) | st.booleans()
ROWS = st.lists(
    st.dictionaries(
        st.sampled_from(
            ["number", "start", "name", "rating", "round", "board", "white", "black", "result"]
        ),
        SCALARS | st.sampled_from(["10", "01", "==", "+-", "1"]),
        max_size=9,
    )
    | SCALARS,
    max_size=6,
)


@settings(max_examples=80, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "format": st.just("crosstable.tournament"),
            "tournament": st.fixed_dictionaries(
                {"system": st.sampled_from(["round-robin", "dutch", "knockout", None, 3])}
            )
            | SCALARS,
            "players": ROWS,
            "games": ROWS,
        }
    )
)
def test_r_x_7_any_server_export_is_read_or_refused_with_a_message(document: Any) -> None:
    try:
        state = import_document(document, "export.json")
    except CrosstableError as error:
        assert str(error)
    else:
        view(state)


def test_r_x_7_the_export_opens_again_in_the_app_with_or_without_the_app_s_state() -> None:
    state = finished_round_robin()
    document = export_document(state)
    assert document["format"] == "crosstable-tournament"
    assert import_text(json.dumps(document)) == state
    bare = {k: v for k, v in document.items() if k != "offline"}
    again = import_document(bare)
    assert view(again)["standings"] == view(state)["standings"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"games": [{"round": 1, "board": 1, "white": 2, "black": 3, "result": "9x"}]}, "9x"),
        ({"games": [{"round": 1, "board": 1, "white": 1, "black": 7}]}, r"games\[0\]"),
        ({"players": [{"number": 1, "start": 1}]}, r"players\[0\]"),
        ({"tournament": {"name": "Club", "system": "scheveningen"}}, "round robins and Dutch"),
        ({"games": None}, "no tournament, players or games"),
    ],
)
def test_r_x_7_a_damaged_server_export_is_refused_with_what_is_wrong(
    change: dict[str, Any], message: str
) -> None:
    server: dict[str, Any] = {
        "format": "crosstable.tournament",
        "tournament": {"name": "Club", "system": "round-robin"},
        "players": [
            {"number": 1, "start": 1, "name": "Anna", "rating": 1500},
            {"number": 2, "start": 2, "name": "Boris", "rating": None},
            {"number": 3, "start": 3, "name": "Vera", "rating": None},
        ],
        "games": [],
    }
    assert view(from_server(server, "export.json"))["standings"][0]["name"] == "Anna"
    with pytest.raises(CrosstableError, match=message):
        from_server(server | change, "export.json")


def test_r_x_7_a_tournament_not_started_is_not_exported() -> None:
    with pytest.raises(CrosstableError, match="only a started tournament"):
        export_document(new_state("knockout", "Cup"))


def test_r_x_7_the_bridge_answers_in_russian_and_armenian() -> None:
    request = {"do": "new", "kind": "round-robin", "name": "Клуб", "lang": "ru"}
    created = json.loads(handle(json.dumps(request)))
    assert created["labels"]["undo"] == "Отменить"
    answer = json.loads(handle(json.dumps({"do": "undo", "state": created["state"], "lang": "ru"})))
    assert answer["error"] == "отменять нечего" and "state" not in answer
    start = {"do": "act", "state": created["state"], "action": {"do": "start"}, "lang": "hy"}
    assert json.loads(handle(json.dumps(start)))["error"].startswith("մրցաշարին պետք է")
    assert json.loads(handle("{"))["error"]


def test_r_x_7_the_pinned_pyodide_hash_is_checked() -> None:
    assert not integrity_ok(b"not pyodide")
    assert not integrity_ok(b"", "sha1-AAAA")
    assert PYODIDE_INTEGRITY.startswith("sha512-")


def test_r_x_7_the_app_s_zip_runs_without_numpy_rustworkx_scipy_or_a_database(
    tmp_path: Path,
) -> None:
    target = tmp_path / "crosstable.zip"
    core_zip(target)
    with zipfile.ZipFile(target) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path / "site")
    assert "crosstable/offline/bridge.py" in names
    assert not any(n.startswith(("crosstable/service/", "crosstable/web/routes")) for n in names)
    blocked = ["numpy", "rustworkx", "scipy", "sqlalchemy", "typer", "fastapi"]
    script = (
        "import sys, json\n"
        f"sys.path.insert(0, {str(tmp_path / 'site')!r})\n"
        f"for name in {blocked!r}: sys.modules[name] = None\n"
        "from crosstable.offline.bridge import handle\n"
        "answer = json.loads(handle(json.dumps({'do': 'new', 'kind': 'swiss', 'name': 'x'})))\n"
        "state = answer['state']\n"
        "adds = [{'do': 'add', 'name': n} for n in 'ABCDE']\n"
        "for action in [*adds, {'do': 'start'}, {'do': 'pair'}]:\n"
        "    request = {'do': 'act', 'state': state, 'action': action}\n"
        "    answer = json.loads(handle(json.dumps(request)))\n"
        "    state = answer['state']\n"
        "print(len(answer['view']['rounds'][0]['games']), answer['view']['rounds'][0]['bye'])\n"
        "import crosstable\n"
        "print(crosstable.__file__.startswith(sys.path[0]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", script],
        cwd=tmp_path / "site",
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tmp_path / "site")},
    )
    assert done.stdout.splitlines() == ["2 ['E']", "True"], done.stderr
