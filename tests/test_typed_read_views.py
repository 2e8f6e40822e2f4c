"""Read views are typed objects, not ``dict[str, Any]`` (docs/architecture.md, "Typed read
views"): the bracket, the timed start's plan, a TRF's stored header, the FIDE warnings, a
team tournament's and a Bughouse event's views, the portal's account rules, the
notifications page, the demo, and the JSON API's answers around them.

* Counted on the source of the modules below, ``dict[str, Any]`` may not grow past the
  justified few named in ``JUSTIFIED``; ``JsonObject`` (the one name for JSON on the wire:
  an API route's answer, a view's ``as_json``, a stored JSON document) may not spread past
  the places it is in now (``JSON_OBJECTS``).
* A view's ``as_json()`` is the JSON the API answered before the view: checked on real
  tournaments in SQLite against the JSON the code built before (``*_before`` below, the
  earlier code kept as the oracle), key order included.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from crosstable.core.model import System
from crosstable.core.scoring import points_json
from crosstable.core.teams import TeamScoring
from crosstable.core.teams.settings import TeamSettings
from crosstable.service import FixedClock, PlayerInfo, Regulations, Service
from crosstable.service.start_plan import StartPlan, set_start_settings, start_plan
from crosstable.service.teams.bughouse import KnockoutOptions
from crosstable.service.timed_start import derived_seed
from crosstable.service.trf_header import StoredHeader, stored_header
from crosstable.store import open_store
from crosstable.store.models import TournamentRow
from crosstable.web.demo import DemoBuilt, build_demo, find_demo
from crosstable.web.routes.bughouse_api import BughouseShown, bughouse_data
from crosstable.web.routes.teams import TeamsShown, team_data
from tests.typed_counts_support import count_untyped_dicts as count_untyped
from tests.typed_counts_support import package_sources

#: the modules whose read views this step typed
MODULES = (
    "service/read_views.py",
    "service/knockout/view.py",
    "service/exchange.py",
    "service/fair_play.py",
    "service/warning_levels.py",
    "service/fide_mode.py",
    "service/start_plan.py",
    "service/stage_view.py",
    "service/trf_header.py",
    "service/teams/bughouse_knockout.py",
    "service/telegram_bot.py",
    "web/routes/portal_rules.py",
    "web/routes/game_servers.py",
    "web/routes/notifications.py",
    "web/routes/levels.py",
    "web/routes/rating_list.py",
    "web/routes/bughouse_api.py",
    "web/routes/teams.py",
    "web/explain_views.py",
    "web/demo.py",
)

#: where a ``dict[str, Any]`` stays, and why (module: count)
JUSTIFIED = {
    # the one definition of JSON on the wire (JsonObject)
    "service/read_views.py": 1,
    # the Telegram Bot API's request bodies: a third party's JSON (BotJson)
    "service/telegram_bot.py": 1,
    # body_context: a template's context, handed to Jinja as ``**context``
    "web/routes/teams.py": 1,
}

#: ``JsonObject`` per module (definition, imports and uses): the JSON API's answers, the
#: views' ``as_json``, stored JSON (the export document, a kept warning, an account's
#: record line); it may not spread
JSON_OBJECTS = {
    "service/read_views.py": 5,  # its definition, as_json and as_object
    "service/knockout/view.py": 13,
    "service/exchange.py": 7,
    "service/fair_play.py": 4,
    "service/warning_levels.py": 4,
    "service/fide_mode.py": 2,
    "service/start_plan.py": 2,
    "service/stage_view.py": 4,
    "service/teams/bughouse_knockout.py": 2,
    "web/routes/portal_rules.py": 10,
    "web/routes/game_servers.py": 11,
    "web/routes/notifications.py": 7,
    "web/routes/levels.py": 5,
    "web/routes/rating_list.py": 2,
    "web/routes/bughouse_api.py": 7,
    "web/routes/teams.py": 4,
    "web/explain_views.py": 4,
}

JSON_OBJECT = re.compile(r"\bJsonObject\b")


def sources() -> dict[str, str]:
    return package_sources(*MODULES)


def test_the_counters_find_what_they_count() -> None:
    sample = "def f(x: dict[str, Any]) -> dict[str,Any] | None: ...\ny: dict[str, int]\n"
    assert count_untyped(sample) == 2
    assert len(JSON_OBJECT.findall("def f() -> JsonObject: ...\nJsonObjects = 1\n")) == 1


def test_no_untyped_dicts_past_the_justified_ones() -> None:
    counts = {name: count_untyped(text) for name, text in sources().items()}
    grown = {
        name: (count, JUSTIFIED.get(name, 0))
        for name, count in counts.items()
        if count > JUSTIFIED.get(name, 0)
    }
    assert not grown, f"dict[str, Any] beyond the justified ones (found, allowed): {grown}"
    assert sum(counts.values()) <= sum(JUSTIFIED.values()) == 3


def test_json_objects_do_not_spread() -> None:
    counts = {name: len(JSON_OBJECT.findall(text)) for name, text in sources().items()}
    grown = {name: n for name, n in counts.items() if n > JSON_OBJECTS.get(name, 0)}
    assert not grown, f"JsonObject beyond where the JSON is: {grown}"


# -- real tournaments in SQLite: the views' JSON is the JSON answered before ----------------


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    store = open_store(f"sqlite:///{tmp_path / 'views.db'}")
    try:
        yield Service(
            store,
            clock=FixedClock(dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)),
            random=random.Random(1),
        )
    finally:
        store.close()


def same_json(shown: dict[str, Any], before: dict[str, Any]) -> None:
    """Equal as JSON text: the values and the keys' order."""
    assert json.dumps(shown, ensure_ascii=False) == json.dumps(before, ensure_ascii=False)


def team_data_before(service: Service, tid: int) -> dict[str, Any]:
    """``GET …/teams``'s JSON as web/routes/teams.py built it before its views."""
    teams = service.team_list(tid)
    listed = [
        {
            "team": t.start,
            "number": t.number,
            "name": t.name,
            "captain": next((m.start for m in t.members if m.entry == t.captain), None),
            "members": [
                {"start": m.start, "entry": m.entry, "name": m.name, "rating": m.rating}
                for m in t.members
            ],
        }
        for t in teams
    ]
    empty: dict[str, Any] = {"rows": [], "matches": [], "board_prizes": []}
    if any(t.start is None for t in teams) or not teams:
        return {"started": False, "primary": "", "tiebreaks": [], "teams": listed} | empty
    table = service.team_standings(tid)
    scoring = TeamScoring()
    grid: dict[int, dict[int, list[Fraction]]] = {t.start or 0: {} for t in teams}
    matches = []
    for number, round_matches in enumerate(service.team_matches(tid), 1):
        for m in round_matches:
            white, black = m.game_points(scoring)
            if m.finished:
                grid[m.white].setdefault(m.black, []).append(white)
                grid[m.black].setdefault(m.white, []).append(black)
            matches.append(m.card(number, scoring))
    return {
        "started": True,
        "primary": table.primary,
        "tiebreaks": list(table.tiebreaks),
        "rows": [
            {
                "team": r.team,
                "name": r.name,
                "place": r.place,
                "MP": points_json(r.mp),
                "GP": points_json(r.gp),
                "tiebreaks": [None if v is None else points_json(v) for v in r.values],
                "against": {
                    str(o): [points_json(p) for p in scores]
                    for o, scores in sorted(grid[r.team].items())
                },
            }
            for r in table.rows
        ],
        "teams": listed,
        "matches": matches,
        "board_prizes": [
            {
                "board": p.board,
                "place": p.place,
                "start": p.record.player,
                "team": p.record.team,
                "points": points_json(p.record.points),
                "games": p.record.games,
            }
            for p in service.board_prizes(tid)
        ],
    }


def bughouse_data_before(service: Service, tid: int) -> dict[str, Any]:
    """``GET …/bughouse``'s JSON as web/routes/bughouse_api.py built it before its views."""
    table = service.bughouse_standings(tid)
    view = service.crosstable(tid)[0]
    started = view.status != "registration"
    knockout = view.settings.system == "knockout"
    matches = []
    for m in service.bughouse_matches(tid):
        card = m.match.card(m.number, TeamScoring())
        card["first"] = m.first
        card["match_points"] = (
            None if m.match_points is None else [points_json(p) for p in m.match_points]
        )
        matches.append(card)
    return {
        "rule": service.bughouse_rule(tid),
        "system": view.settings.system,
        "status": view.status,
        "primary": table.primary,
        "tiebreaks": list(table.tiebreaks),
        "rows": [
            {
                "pair": r.team,
                "name": r.name,
                "place": r.place,
                "MP": points_json(r.mp),
                "GP": points_json(r.gp),
                "tiebreaks": [None if v is None else points_json(v) for v in r.values],
            }
            for r in table.rows
        ],
        "matches": matches,
        "bracket": service.bracket_view(tid) if knockout and started else None,
    }


def test_a_team_tournament_view_is_typed_and_its_json_as_before(service: Service) -> None:
    tid = service.create_team_tournament(
        "League", TeamSettings.from_details({"team_boards": "2"})
    ).tournament_id
    for number, name in enumerate(("Ararat", "Sevan", "Masis", "Aragats"), 1):
        service.add_team(tid, name)
        for k in range(2):
            service.add_team_member(
                tid, number, PlayerInfo(f"{name} {k + 1}", 2000 - k), captain=k == 0
            )
    before_start = team_data(service, tid)
    assert isinstance(before_start, TeamsShown) and not before_start.started
    assert [t.name for t in before_start.teams] == ["Ararat", "Sevan", "Masis", "Aragats"]
    same_json(before_start.as_json(), team_data_before(service, tid))
    assert list(before_start)[3] == "teams"  # the teams first while nothing is played

    service.start(tid)
    for rnd, round_matches in enumerate(service.team_matches(tid)[:2], 1):
        for match in round_matches:
            for game in match.games:
                service.record_result(tid, rnd, game.board, "1-0" if game.board % 3 else "½-½")
    running = team_data(service, tid)
    assert running.started and len(running.rows) == 4 and running.board_prizes
    same_json(running.as_json(), team_data_before(service, tid))
    first = running.rows[0]
    assert running["rows"][0]["MP"] == first.MP and first.against  # by key: its JSON
    assert dict(running) == running.as_json()


@pytest.mark.parametrize("rule", ["sum", "first"])
def test_a_bughouse_view_is_typed_and_its_json_as_before(service: Service, rule: str) -> None:
    tid = service.create_bughouse_tournament(
        "Bughouse cup", rule, knockout=KnockoutOptions()
    ).tournament_id
    for number in range(1, 6):
        service.add_team(tid, f"Pair {number}")
        for k in (1, 2):
            service.add_team_member(tid, number, PlayerInfo(f"P{number}{k}", 1900 + 10 * number))
    same_json(bughouse_data(service, tid).as_json(), bughouse_data_before(service, tid))
    service.start(tid)
    match = service.bughouse_matches(tid)[0]
    for game in match.match.games:  # the match's White pair wins both boards
        won = match.match.team_of[game.white] == match.match.white
        service.record_result(tid, game.round, game.board, "1-0" if won else "0-1")
    if rule == "first":  # the rule "first": the match is decided by the game marked
        first = match.match.games[0]
        service.mark_first_finished(tid, first.round, first.board)
    shown = bughouse_data(service, tid)
    assert isinstance(shown, BughouseShown) and shown.bracket is not None
    assert shown.matches[0].match_points is not None and shown.rows[0].MP >= 0
    same_json(shown.as_json(), bughouse_data_before(service, tid))
    swiss = service.create_bughouse_tournament("Swiss", rule, swiss=True, rounds=3).tournament_id
    for number in range(1, 5):
        service.add_team(swiss, f"Pair {number}")
        for k in (1, 2):
            service.add_team_member(swiss, number, PlayerInfo(f"S{number}{k}", 1800 + number))
    service.start(swiss)
    assert bughouse_data(service, swiss).bracket is None
    same_json(bughouse_data(service, swiss).as_json(), bughouse_data_before(service, swiss))


@pytest.mark.parametrize(
    ("system", "details", "draw"),
    [
        (System.KNOCKOUT, {}, "random"),
        (System.KNOCKOUT, {"venue_kind": "otb"}, "rating"),
        (System.KNOCKOUT, {"lots_seed": "17"}, "random"),
        (System.ROUND_ROBIN, {}, "lots"),
    ],
)
def test_the_start_plan_is_typed_and_its_json_as_before(
    service: Service, system: System, details: dict[str, str], draw: str
) -> None:
    tid = service.create_tournament(
        Regulations(name="Cup", system=system, details=details)
    ).tournament_id
    for k in range(3):
        service.add_player(tid, PlayerInfo(f"Player {k}", 1500 + k))
    if system is System.KNOCKOUT:
        set_start_settings(service, tid, capacity="4", starts_at="2026-12-07T18:00")
    plan = start_plan(service, tid)
    assert isinstance(plan, StartPlan) and plan.players == 3 and plan.draw == draw
    with service.store.reading() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None
        derived = derived_seed(row)
    seed = details.get("lots_seed")
    before = {"tournament": tid, "system": system.value, "status": "registration"}
    before |= plan.settings.as_json()
    capacity = plan.settings.capacity
    before |= {
        "players": 3,
        "seats_left": None if capacity is None else max(capacity - 3, 0),
        "full": capacity is not None and capacity <= 3,
        "draw": draw,
        "lots_seed": int(seed) if seed else derived if draw == "random" else None,
    }
    same_json(plan.as_json(), before)
    assert plan["seats_left"] == plan.seats_left and (capacity == 4) == (system is System.KNOCKOUT)


def test_a_trf_header_is_read_into_typed_fields() -> None:
    assert stored_header({}) == StoredHeader()
    header = stored_header(
        {
            "022": "Yerevan ",
            "032": "ARM",
            "042": "2026/12/01",
            "052": "2026/13/40",  # not a calendar date: left out
            "102": "A. Arbiter",
            "122": " 90+30 ",
        }
    )
    assert header == StoredHeader(
        {"venue": "Yerevan", "federation": "ARM", "arbiter": "A. Arbiter"},
        time_control="90+30",
        start_date="2026-12-01",
        end_date=None,
    )


def test_the_demo_answers_a_typed_value_read_by_key_as_before(service: Service) -> None:
    built = build_demo(service)
    assert isinstance(built, DemoBuilt) and built.tournaments == (1, 2)
    before = {
        "path": "/t/2",
        "finished_path": "/t/1",
        "tournaments": [1, 2],
        "username": "demo",
        "password": "demo-demo",
    }
    same_json(built.as_json(), before)
    assert built["path"] == built.path and find_demo(service) == before
