"""No ``dict[str, Any]`` carried through the services and the store (docs/architecture.md,
"Typed read views"): settings, details and records are typed; JSON is named as JSON.

* Counted on the source of every module of ``crosstable/service`` and
  ``crosstable/store``, ``dict[str, Any]`` and ``Mapping[str, Any]`` may not grow past
  the justified few named in ``JUSTIFIED`` (148 occurrences on 134 lines before this
  step — 119 lines in the services, 15 in the store — 7 after). The regulations'
  details are ``service/details.py``'s ``Details`` (read) and ``DetailsEdit`` (an edit's
  new object), an edit given by keyword a ``RegulationsEdit``; an event's data is
  ``frame.EventData``; a stored JSON column is ``store/models.JsonColumn``.
* ``JsonObject`` (JSON on the wire or stored: a view's ``as_json``, an API answer, a
  stored payload) may not spread past the modules where it is now (``JSON_OBJECTS``).
* What became a record writes the JSON it wrote before: a knockout's inserted games
  (its start's and its next round's event data), checked on a real tournament in SQLite
  against the stored rows, key order included.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, System
from crosstable.core.pairing.knockout_match import GameKind
from crosstable.service import FixedClock, PlayerInfo, Regulations, Service
from crosstable.service.details import edited_details, given_details
from crosstable.service.knockout.games import InsertedGame, games_json
from crosstable.store import open_store
from crosstable.store.models import EntryRow, EventRow, GameRow
from tests.typed_counts_support import count_untyped_mappings as count_untyped
from tests.typed_counts_support import package_sources

#: where a ``dict[str, Any]`` or ``Mapping[str, Any]`` stays, and why (module: count)
JUSTIFIED = {
    # the one definition of JSON on the wire (JsonObject), and a view read by key: its
    # JSON, whose values each view's fields state (Shown)
    "service/read_views.py": 2,
    # the Telegram Bot API's bodies: a third party's JSON (BotJson)
    "service/telegram_bot.py": 1,
    # an event's data: stored JSON whose fields depend on the event's kind (EventData)
    "service/frame.py": 1,
    # a whole-tournament document as parsed, before the import check has checked it
    "service/import_check.py": 1,
    # the tournament's settings read by key: the API's settings JSON (TournamentSettings)
    "service/views.py": 1,
    # a JSON column's object as the driver reads it back (JsonColumn)
    "store/models.py": 1,
}

#: ``JsonObject`` per module (imports and uses): the views' ``as_json`` (knockout, stage,
#: series, rating lists and checks, timed start, plans, corrections, settings), JSON
#: answers and documents (the export, the live standings, an offline document), stored
#: JSON (kept TRF records, a series' history data and payloads, a kept warning)
JSON_OBJECTS = {
    "service/battle.py": 2,
    "service/custom_lists.py": 3,
    "service/exchange.py": 7,
    "service/fair_play.py": 4,
    "service/fide_mode.py": 2,
    "service/knockout/play.py": 2,
    "service/knockout/view.py": 13,
    "service/offline_import.py": 2,
    "service/queries.py": 2,
    "service/rating_figures.py": 2,
    "service/rating_list_month.py": 3,
    "service/rating_lists.py": 2,
    "service/read_views.py": 5,  # its definition, as_json and as_object
    "service/report_corrections.py": 2,
    "service/series/inbox.py": 4,
    "service/series/lines.py": 2,
    "service/series/outbox.py": 4,
    "service/series/shown.py": 4,
    "service/stage_view.py": 4,
    "service/start_plan.py": 2,
    "service/swiss/plan.py": 2,
    "service/teams/bughouse_knockout.py": 2,
    "service/teams/trf_rows.py": 2,
    "service/timed_start.py": 2,
    "service/views.py": 2,
    "service/warning_levels.py": 4,
}

JSON_OBJECT = re.compile(r"\bJsonObject\b")


def sources() -> dict[str, str]:
    return package_sources("service/**/*.py", "store/**/*.py")


def test_the_counters_find_what_they_count() -> None:
    sample = (
        "def f(x: dict[str, Any]) -> dict[str,Any] | None: ...\n"
        "def g(y: Mapping[str, Any], z: MutableMapping[str, typing.Any]) -> None: ...\n"
        "w: dict[str, int]\nv: Mapping[str, object]\n"
    )
    assert count_untyped(sample) == 4
    assert len(JSON_OBJECT.findall("def f() -> JsonObject: ...\nJsonObjects = 1\n")) == 1


def test_no_untyped_dicts_in_the_services_and_the_store_past_the_justified_ones() -> None:
    modules = sources()
    assert "service/registration.py" in modules and "store/models.py" in modules
    counts = {name: count_untyped(text) for name, text in modules.items()}
    grown = {
        name: (count, JUSTIFIED.get(name, 0))
        for name, count in counts.items()
        if count > JUSTIFIED.get(name, 0)
    }
    assert not grown, f"dict[str, Any] beyond the justified ones (found, allowed): {grown}"
    assert sum(counts.values()) <= sum(JUSTIFIED.values()) == 7


def test_json_objects_do_not_spread() -> None:
    counts = {name: len(JSON_OBJECT.findall(text)) for name, text in sources().items()}
    grown = {name: n for name, n in counts.items() if n > JSON_OBJECTS.get(name, 0)}
    assert not grown, f"JsonObject beyond where the JSON is: {grown}"


# -- an edit of the regulations, typed ---------------------------------------------------


def test_an_edit_gives_its_details_or_none_and_refuses_what_is_not_details() -> None:
    assert given_details({"rounds": 9}) is None
    assert given_details({"details": None}) is None
    assert given_details({"detail_changes": {"venue": "Hall"}}, "detail_changes") == {
        "venue": "Hall"
    }
    with pytest.raises(TypeError, match="mapping of details"):
        given_details({"details": "venue=Hall"})
    # replacing every detail with none leaves none (not the current ones)
    assert edited_details({"venue": "Hall"}, {"details": {}}) == {}
    assert edited_details({"venue": "Hall"}, {"rounds": 9}) == {"venue": "Hall"}
    assert edited_details({"venue": "Hall"}, {"details": {}, "detail_changes": {"x": 1}}) == {
        "x": "1"
    }


# -- a knockout's inserted games: records, stored as before ------------------------------


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    store = open_store(f"sqlite:///{tmp_path / 'typed.db'}")
    try:
        yield Service(
            store,
            clock=FixedClock(dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)),
            random=random.Random(2),
        )
    finally:
        store.close()


def test_a_knockouts_inserted_games_are_stored_as_before(service: Service) -> None:
    tid = service.create_tournament(
        Regulations(
            name="Cup",
            system=System.KNOCKOUT,
            details={"bracket": "seeded", "tie_rule": "rapid:2,armageddon"},
        )
    ).tournament_id
    for index in range(6):  # two byes in a bracket of 8
        service.add_player(tid, PlayerInfo(f"Player {index + 1}", rating=2100 - 10 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    drawn = False  # one draw: its match's tie-break games are added, then the rounds
    for _ in range(12):
        for game in service.overview(tid).games:
            if game.result is None:
                service.record_result(tid, game.round, game.board, "1-0" if drawn else "=-=")
                drawn = True
        try:
            service.pair_next_round(tid)
        except RuleError:
            break
    with service.store.reading() as session:
        starts = {e.number: e.start for e in session.query(EntryRow).filter_by(tournament_id=tid)}
        games = {(g.round, g.board): g for g in session.query(GameRow).filter_by(tournament_id=tid)}
        events = session.query(EventRow).filter_by(tournament_id=tid).order_by(EventRow.seq)
        written = [e.data["games"] for e in events if "games" in (e.data or {})]
    # the start, the rapid games of the drawn match, its armageddon, the next two rounds
    assert [len(games) for games in written] == [2, 2, 1, 2, 1]
    for stored in written:
        for item in stored:
            row = games[(item["round"], item["board"])]
            # the dict the code wrote before the record, key for key and in that order
            before = {
                "round": row.round,
                "board": row.board,
                "slot": row.match,
                "game": row.match_game,
                "kind": item["kind"],
                "white": starts[row.white],
                "black": starts[row.black],
                "result": None,
            }
            assert json.dumps(item) == json.dumps(before)
            assert item["kind"] in {kind.value for kind in GameKind}
            assert games_json([InsertedGame(**item)]) == [item]
