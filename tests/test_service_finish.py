"""The tournament finishes by itself with its last result (issue 15 item 7; seeds 000/002),
and reopening a finished tournament needs a reason and a confirmation (issue 13 item 2).

Round robin and Scheveningen: when every scheduled game has a result; Swiss: when
the last planned round is complete; knockout: when the final (and the match for
third place) is decided. ``finish = confirm`` in the regulations keeps the
organiser's Finish. Every test runs on SQLite and PostgreSQL.
"""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import pytest
from sqlalchemy import select
from test_service_support import (  # noqa: F401
    db_url,
    make_service,
    registered,
    service,
    started,
    store,
)

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, System
from crosstable.service import ConflictError, PlayerInfo, Regulations, Service
from crosstable.store.models import EventRow


def play_all_but_last(service: Service, tid: int) -> tuple[int, int]:
    games = [(g.round, g.board) for g in service.overview(tid).games]
    for spot in games[:-1]:
        service.record_result(tid, *spot, "1-0")
    return games[-1]


def event(service: Service, tid: int, seq: int) -> EventRow:
    with service.store.reading() as session:
        found = session.scalars(
            select(EventRow).where(EventRow.tournament_id == tid, EventRow.seq == seq)
        ).one()
        session.expunge(found)
        return found


def test_the_last_result_finishes_a_round_robin(service: Service) -> None:
    tid = started(service, 4)
    last = play_all_but_last(service, tid)
    assert service.overview(tid).status == "running"
    change = service.record_result(tid, *last, "0-1")
    view = service.overview(tid)
    assert view.status == "finished"
    assert all(p.place is not None for p in view.players)
    assert change.kind == "result" and change.data["finished"] == "auto"
    assert "the tournament is finished, places are final; first:" in change.summary
    recorded = event(service, tid, change.seq)
    assert {c["table"] for c in recorded.changes} == {"games", "entries", "tournaments"}
    assert service.verify(tid) == []
    # the organiser's Finish afterwards changes nothing and says so
    again = service.finish(tid)
    assert again.replayed and "finished already" in again.summary
    assert service.history(tid)[-1].seq == change.seq
    # undoing the last result is an ordinary undo: it reopens the tournament
    service.undo(tid)
    view = service.overview(tid)
    assert view.status == "running" and all(p.place is None for p in view.players)
    assert [g.result for g in view.games][-1] is None
    assert service.verify(tid) == []


def test_the_last_result_through_the_fast_path_of_another_process(service: Service) -> None:
    """Results from a service that holds the live table (the fast path), the last one
    from another service on the same database: it finishes the tournament too."""
    tid = started(service, 6)
    last = play_all_but_last(service, tid)
    other = make_service(service.store, seed=2)
    change = other.record_result(tid, *last, "½-½")
    assert change.data.get("finished") == "auto"
    assert service.overview(tid).status == "finished"
    assert service.live_standings(tid) is not None
    assert service.verify(tid) == []
    # another writer's result for that game: a conflict naming the result there
    with pytest.raises(ConflictError, match="already has ½-½; the tournament is finished"):
        service.record_result(tid, *last, "1-0")
    assert other.record_result(tid, *last, "½-½").replayed  # the same again: nothing to do


def test_regulations_can_ask_the_organiser_to_confirm(service: Service) -> None:
    tid = started(service, 4, details={"finish": "confirm"})
    last = play_all_but_last(service, tid)
    change = service.record_result(tid, *last, "1-0")
    assert "finished" not in change.data
    assert service.overview(tid).status == "running"
    done = service.finish(tid, actor="arbiter")
    assert done.kind == "finish" and not done.replayed
    assert service.overview(tid).status == "finished"


def test_a_bad_finish_setting_is_refused(service: Service) -> None:
    with pytest.raises(RuleError, match="finish is auto or confirm, not 'sometimes'"):
        service.create_tournament(Regulations(name="Club", details={"finish": "sometimes"}))
    tid = registered(service, 4)
    with pytest.raises(RuleError, match="finish is auto or confirm"):
        service.edit_regulations(tid, details={"finish": "later"})
    service.edit_regulations(tid, details={"finish": "confirm"})


def test_a_withdrawal_that_forfeits_the_last_games_finishes(service: Service) -> None:
    tid = started(service, 4)
    view = service.overview(tid)
    for g in view.games:
        if 4 not in (g.white, g.black):
            service.record_result(tid, g.round, g.board, "½-½")
    last_round = max(g.round for g in view.games if 4 in (g.white, g.black))
    for g in view.games:
        if 4 in (g.white, g.black) and g.round < last_round:
            service.record_result(tid, g.round, g.board, "1-0")
    change = service.withdraw(tid, 4)
    assert change.data.get("finished") == "auto"
    assert service.overview(tid).status == "finished"
    assert service.verify(tid) == []


def test_a_swiss_finishes_with_its_last_planned_round(service: Service) -> None:
    created = service.create_tournament(
        Regulations(name="Open", system=System.SWISS_DUTCH, rounds=2)
    )
    tid = created.tournament_id
    for index in range(6):
        service.add_player(tid, PlayerInfo(f"Player {index + 1}", rating=2500 - 10 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    for number in (1, 2):
        service.publish_round(tid)
        for game in service.overview(tid).games:
            if game.result is None:
                change = service.record_result(tid, game.round, game.board, "1-0")
        status = service.overview(tid).status
        assert status == ("running" if number == 1 else "finished")
    assert change.data.get("finished") == "auto"
    assert service.verify(tid) == []


def test_a_knockout_finishes_when_the_final_and_third_place_are_decided(
    service: Service,
) -> None:
    created = service.create_tournament(
        Regulations(name="Cup", system=System.KNOCKOUT, details={"third_place": "yes"})
    )
    tid = created.tournament_id
    for index in range(4):
        service.add_player(tid, PlayerInfo(f"Player {index + 1}", rating=2400 - 10 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    for game in service.overview(tid).games:
        service.record_result(tid, game.round, game.board, "1-0")
    assert service.overview(tid).status == "running"  # the final is not paired yet
    service.pair_next_round(tid)
    open_games = [g for g in service.overview(tid).games if g.result is None]
    assert len(open_games) == 2  # the final and the match for third place
    service.record_result(tid, open_games[0].round, open_games[0].board, "1-0")
    assert service.overview(tid).status == "running"
    change = service.record_result(tid, open_games[1].round, open_games[1].board, "0-1")
    assert change.data.get("finished") == "auto"
    places = sorted(p.place for p in service.overview(tid).players if p.place is not None)
    assert places == [1, 2, 3, 4]
    assert service.verify(tid) == []


# -- reopening a finished tournament (issue 13 item 2) --------------------------------------


def test_undoing_the_organisers_finish_needs_a_reason_and_a_confirmation(
    service: Service,
) -> None:
    tid = started(service, 4, details={"finish": "confirm"})
    last = play_all_but_last(service, tid)
    service.record_result(tid, *last, "1-0")
    finish = service.finish(tid)
    message = (
        f"undo #{finish.seq} reopens the finished tournament: it takes back the final "
        "places and no result; give a reason and confirm"
    )
    with pytest.raises(RuleError, match=message):
        service.undo(tid)
    with pytest.raises(RuleError, match="give a reason and confirm"):
        service.undo(tid, reason="a wrong result in round 1")  # not confirmed
    with pytest.raises(RuleError, match="give a reason and confirm"):
        service.undo(tid, reason="  ", confirm=True)
    assert service.overview(tid).status == "finished"
    change = service.undo(tid, reason="a wrong result in round 1", confirm=True)
    assert service.overview(tid).status == "running"
    assert change.data["reopened"] == {"reason": "a wrong result in round 1", "results": 0}
    assert "reopens the finished tournament (reason: a wrong result in round 1)" in (
        service.history(tid)[-1].summary
    )
    assert service.verify(tid) == []


def test_reverting_a_finished_tournament_says_what_it_takes_back(service: Service) -> None:
    tid = started(service, 4)
    games = [(g.round, g.board) for g in service.overview(tid).games]
    for spot in games[:3]:
        service.record_result(tid, *spot, "1-0")
    point = service.history(tid)[-1].seq
    for spot in games[3:]:
        service.record_result(tid, *spot, "0-1")  # the last one finishes it by itself
    assert service.overview(tid).status == "finished"
    with pytest.raises(
        RuleError,
        match=rf"reverting to #{point} reopens the finished tournament: it takes back the "
        "final places and 3 results; give a reason and confirm",
    ):
        service.revert_to(tid, point)
    assert service.overview(tid).status == "finished"
    change = service.revert_to(tid, point, reason="round 2 was entered twice", confirm=True)
    assert change.data["reopened"]["results"] == 3
    assert service.overview(tid).status == "running"
    assert service.verify(tid) == []
    # taking back only the result that finished it by itself is ordinary
    for spot in games[3:]:
        service.record_result(tid, *spot, "0-1")
    finishing = service.history(tid)[-1].seq
    service.revert_to(tid, finishing - 1)
    assert service.overview(tid).status == "running"


def test_reverting_past_the_organisers_finish_from_later_on(service: Service) -> None:
    """An explicit Finish, then an ordinary undo is refused, a revert to before the
    finish too; a revert to right after the finish changes nothing."""
    tid = started(service, 4, details={"finish": "confirm"})
    last = play_all_but_last(service, tid)
    result = service.record_result(tid, *last, "1-0")
    service.finish(tid)
    with pytest.raises(RuleError, match=r"and 1 result; give a reason and confirm"):
        service.revert_to(tid, result.seq - 1)
    assert service.overview(tid).status == "finished"


def test_the_regulations_page_says_how_the_tournament_finishes() -> None:
    from crosstable.web import i18n
    from crosstable.web.regulation_text import regulation_items

    token = i18n.current.set("ru")
    try:
        assert regulation_items({"finish": "confirm"}) == [
            (
                "Окончание турнира",
                "когда организатор завершает турнир: тогда места становятся итоговыми",
            )
        ]
    finally:
        i18n.current.reset(token)
    assert regulation_items({"finish": "auto"}) == [
        ("End of the tournament", "with its last result: the places are final then")
    ]
