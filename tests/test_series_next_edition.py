"""The next edition opens by itself (issue 11 item 1, R-SE-1, R-SE-2), on SQLite and
PostgreSQL: a calendar series' as soon as its latest edition's stage 1 has started, at
the first slot after that edition's start whose registration deadline is still ahead;
a regular series' as soon as the latest edition ends (registration at once, the start a
day later); once, recorded in the series' history as the clock's step; nothing while
the series is paused (edit form, PATCH), and the organiser's own ``open_edition``
still works. (Two services ticking at once: tests/test_series_service.py.)"""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import random

import pytest
from test_series_service import current_groups, opened, play_all
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.series.calendar import slots_after
from crosstable.service import FixedClock, Service
from crosstable.service.series import SeriesSettings
from crosstable.service.series.edit import SeriesChanges, edit_series
from crosstable.service.series.editions import calendar_of
from crosstable.store import Store
from crosstable.store.series_models import SeriesRow

#: Tuesday 1 December 2026, 09:00 UTC (12:00 in Moscow)
MORNING = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def make(store: Store, **values: object) -> tuple[Service, FixedClock, int]:
    clock = FixedClock(MORNING)
    service = Service(store, clock=clock, random=random.Random(3))
    # pre-registration: never extended (15 players leave the last table short of 60 %)
    settings = {
        "name": "Blitz",
        "kind": "workdays",
        "start_time": "19:00",
        "pre_registration": True,
    } | values
    sid = service.create_series(
        SeriesSettings(zone="Europe/Moscow", time_control="G/5", **settings)  # type: ignore[arg-type]
    )
    return service, clock, sid


def fill(service: Service, edition: int, count: int = 15) -> None:
    for index in range(count):
        service.register_for_edition(edition, f"Player {index + 1:02d}", rating=1500 + index)


def at(clock: FixedClock, moment: str | dt.datetime, minutes: int = 1) -> None:
    when = dt.datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    clock.advance(when + dt.timedelta(minutes=minutes) - clock.now())


def editions(service: Service, sid: int) -> list[dict[str, object]]:
    return list(service.series_info(sid)["editions"])


def test_a_workdays_series_opens_the_next_edition_once_stage_one_started(store: Store) -> None:
    service, clock, sid = make(store)
    first = service.open_edition(sid)  # the organiser opens the first: the series starts
    fill(service, first)
    info = service.edition_info(first)
    at(clock, info["deadline"])
    assert service.tick() == ["edition 1: registration closed with 15 players"]
    assert len(editions(service, sid)) == 1  # closed is not started: nothing opens yet
    at(clock, info["planned_start"])
    done = service.tick()
    assert done[-2].endswith("every game created")
    assert done[-1] == opened(2, "2026-12-02T16:00:00+00:00", "2026-12-02T15:00:00+00:00")
    assert service.tick() == []  # once
    second = editions(service, sid)[1]
    assert (second["number"], second["state"]) == (2, "registration")
    last = service.series_history(sid)[-1]
    assert (last["kind"], last["actor"], last["edition"]) == ("edition", "tick", second["id"])
    assert last["summary"].startswith("edition 2 opened: starts 2026-12-02T19:00:00+03:00")
    service.register_for_edition(int(str(second["id"])), "Anna")  # open while 1 plays
    with pytest.raises(RuleError, match="open for registration already"):
        service.open_edition(sid)


@pytest.mark.parametrize(
    ("kind", "values"),
    [
        ("weekend", {"deadline_minutes": 3 * 24 * 60}),  # Sunday's deadline has passed
        ("weekly", {"weekday": 2, "deadline_minutes": 60}),
        ("monthly", {"day": 31, "deadline_minutes": 24 * 60}),
        ("workdays", {"deadline_minutes": 0}),
    ],
)
def test_the_first_slot_after_the_start_whose_deadline_is_ahead(
    store: Store, kind: str, values: dict[str, object]
) -> None:
    service, clock, sid = make(store, kind=kind, **values)
    first = service.open_edition(sid)
    fill(service, first)
    start = service.edition_info(first)["planned_start"]
    at(clock, start, minutes=30)
    assert service.tick()[-1].startswith("series 1: edition 2 opened by itself")
    second = editions(service, sid)[1]
    lead = dt.timedelta(minutes=int(str(values["deadline_minutes"])))
    with store.reading() as session:
        row = session.get(SeriesRow, sid)
        assert row is not None
        calendar = calendar_of(row)
    now = clock.now()
    slots = slots_after(calendar, dt.datetime.fromisoformat(start), 10)
    expected = next(slot for slot in slots if slot - lead > now)
    assert dt.datetime.fromisoformat(str(second["planned_start"])) == expected
    assert dt.datetime.fromisoformat(str(second["deadline"])) == expected - lead


def test_a_regular_series_opens_the_next_edition_when_the_last_one_ends(store: Store) -> None:
    # one group of 15: stage 1 is the final, no super-final; no time of day: a day later
    # (with a time of day: tests/test_series_calendar_year.py)
    service, clock, sid = make(
        store, kind="regular", start_time="", max_group_size=15, super_final_players=0
    )
    first = service.open_edition(sid)
    fill(service, first)
    at(clock, service.edition_info(first)["planned_start"])
    assert service.tick()[-1].endswith("every game created")
    assert len(editions(service, sid)) == 1  # running: not yet
    _kind, tids = current_groups(store, first)
    play_all(service, tids, random.Random(2))
    clock.advance(dt.timedelta(hours=2))
    ended = clock.now()
    done = service.tick()
    assert done[0].endswith("the edition is finished")
    start, deadline = ended + dt.timedelta(days=1), ended + dt.timedelta(days=1, hours=-1)
    assert done[1:] == [opened(2, start.isoformat(), deadline.isoformat())]
    second = editions(service, sid)[1]
    assert second["planned_start"] == start.isoformat()
    service.register_for_edition(int(str(second["id"])), "Anna")  # registration is open now
    assert service.tick() == []


def test_a_paused_series_opens_nothing_until_it_goes_on(store: Store) -> None:
    service, clock, sid = make(store)
    first = service.open_edition(sid)
    fill(service, first)
    assert edit_series(service, sid, SeriesChanges(paused=True)) == ["paused: False → True"]
    at(clock, service.edition_info(first)["planned_start"])
    done = service.tick()
    assert done[-1].endswith("every game created")  # the running edition goes on
    assert len(editions(service, sid)) == 1
    assert edit_series(service, sid, SeriesChanges(paused=False)) == ["paused: True → False"]
    assert service.tick() == [opened(2, "2026-12-02T16:00:00+00:00", "2026-12-02T15:00:00+00:00")]
    history = [h["summary"] for h in service.series_history(sid) if h["kind"] == "edit"]
    assert history == [
        "series 1 edited — paused: False → True",
        "series 1 edited — paused: True → False",
    ]


def test_the_organiser_opens_an_edition_by_hand_while_paused(store: Store) -> None:
    service, clock, sid = make(store, paused=True)
    first = service.open_edition(sid)
    fill(service, first)
    at(clock, service.edition_info(first)["planned_start"])
    service.tick()
    assert len(editions(service, sid)) == 1
    second = service.open_edition(sid, actor="ann")  # by hand: the same rule
    info = service.edition_info(second)
    assert info["planned_start"] == "2026-12-02T16:00:00+00:00"
    assert service.series_history(sid)[-1]["actor"] == "ann"
    assert service.tick() == []


def test_a_series_without_an_edition_opens_none(store: Store) -> None:
    service, clock, sid = make(store)
    clock.advance(dt.timedelta(days=3))
    assert service.tick() == []
    assert editions(service, sid) == []


def test_the_api_pauses_a_series(store: Store) -> None:
    pytest.importorskip("fastapi")
    from test_web_series import Web

    from tests.asgi_client import TestClient

    web = Web(store)
    sid = web.create()["id"]
    client = TestClient(web.app)
    url = f"/api/v1/series/{sid}"
    refused = client.patch(url, json={"paused": True}, headers=web.auth("pia"))
    assert refused.status_code == 403
    answer = client.patch(url, json={"paused": True}, headers=web.auth("ann"))
    assert answer.status_code == 200, answer.text
    assert answer.json()["paused"] is True and answer.json()["changed"] == ["paused: False → True"]
    wrong = client.patch(url, json={"paused": "sometimes"}, headers=web.auth("ann"))
    assert wrong.status_code == 422 and "paused" in wrong.text
    assert client.get(url).json()["paused"] is True


def test_the_edit_form_pauses_a_series(store: Store) -> None:
    pytest.importorskip("fastapi")
    from test_web_series import Web, _csrf

    web = Web(store)
    sid = web.create()["id"]
    ann = web.signed_in("ann")
    form = ann.get(f"/series/{sid}/edit")
    assert (
        'name="paused"' in form.text and " checked>" not in form.text.split('name="paused"')[1][:40]
    )
    fields = {"csrf_token": _csrf(form.text), "name": "Evening blitz", "paused": "1"}
    saved = ann.post(f"/series/{sid}/edit", data=fields)
    assert saved.status_code == 200 and "Saved." in saved.text
    assert web.service.series_info(sid)["paused"] is True
    again = ann.get(f"/series/{sid}/edit", headers={"Accept-Language": "ru"}).text
    assert "Приостановлена" in again and 'name="paused" value="1" checked' in again
    fields = {"csrf_token": _csrf(again), "name": "Evening blitz"}  # the box left empty
    assert ann.post(f"/series/{sid}/edit", data=fields).status_code == 200
    assert web.service.series_info(sid)["paused"] is False
