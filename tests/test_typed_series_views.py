"""The series' read views are typed (docs/architecture.md, "Typed read views").

* No ``dict[str, Any]`` carried between the series' services and its pages: counted on
  the source of ``crosstable/service/series`` and the web's series modules, the count
  may not grow past the justified few named in ``JUSTIFIED`` (stored JSON payloads whose
  shape depends on their kind, the Telegram Bot API's bodies, and the one definition
  of the API's JSON answer, ``shown.JsonObject``).
* ``JsonObject`` (a JSON answer on the wire) is only what an API route or a view's
  ``as_json`` returns.
* A view is a typed dataclass that, read by key, is the JSON the API writes: checked on
  random views (hypothesis) and on a real series in SQLite and PostgreSQL, against the
  JSON the services answered before the views (every stored column of the series).
"""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import json
import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_service_support import db_url, store  # noqa: F401

from crosstable.service import FixedClock, Service
from crosstable.service.series import SeriesSettings
from crosstable.service.series.shown import EditionView, HistoryLine, SeriesView
from crosstable.service.series.views import (
    EditionStages,
    GroupView,
    StageView,
    edition_by_number,
    series_list,
)
from crosstable.store import Store
from crosstable.store.series_models import SeriesRow
from tests.typed_counts_support import count_untyped_dicts as count_untyped
from tests.typed_counts_support import package_sources

#: the series' modules whose values go between the services and the pages
SERIES_MODULES = (
    "service/series/*.py",
    "web/series*.py",
    "web/routes/series*.py",
    "web/demo_series.py",
)

#: where a ``dict[str, Any]`` stays, and why (module: count)
JUSTIFIED = {
    # a notification's payload: stored JSON whose fields depend on its kind
    "service/series/inbox.py": 1,
    "service/series/outbox.py": 3,  # the history line's data, the notifications' payloads
    "service/series/lines.py": 1,  # the history line's data (stored JSON)
    # the Telegram Bot API's request and answer bodies (JSON over HTTP)
    "service/series/telegram_sender.py": 3,
    # the one definition of an API route's JSON answer (JsonObject)
    "service/series/shown.py": 1,
}

#: the API routes answering JSON (``-> JsonObject``), and the views' ``as_json``
JSON_ANSWERS = {
    "web/routes/series.py": 7,
    "web/routes/series_news.py": 5,
    "web/routes/series_petitions.py": 4,
    "web/routes/series_stages.py": 3,
    "service/series/shown.py": 2,
    "service/series/inbox.py": 1,
}

JSON_ANSWER = re.compile(r"->\s*JsonObject\b")


def series_modules() -> dict[str, str]:
    return package_sources(*SERIES_MODULES)


def test_the_counter_finds_what_it_counts() -> None:
    sample = "def f(x: dict[str, Any]) -> dict[str,Any] | None: ...\ny: dict[str, int]\n"
    assert count_untyped(sample) == 2
    assert JSON_ANSWER.findall("def route() -> JsonObject:\n") == ["-> JsonObject"]


def test_no_untyped_dicts_between_the_series_services_and_pages() -> None:
    modules = series_modules()
    assert "web/series_pages.py" in modules and "service/series/views.py" in modules
    counts = {name: count_untyped(text) for name, text in modules.items()}
    grown = {
        name: (count, JUSTIFIED.get(name, 0))
        for name, count in counts.items()
        if count > JUSTIFIED.get(name, 0)
    }
    assert not grown, f"dict[str, Any] beyond the justified ones (found, allowed): {grown}"
    assert sum(counts.values()) <= sum(JUSTIFIED.values()) == 9


def test_json_answers_only_where_the_api_answers() -> None:
    counts = {name: len(JSON_ANSWER.findall(text)) for name, text in series_modules().items()}
    grown = {name: count for name, count in counts.items() if count > JSON_ANSWERS.get(name, 0)}
    assert not grown, f"JsonObject returned outside the API's routes: {grown}"


# -- a view is typed, and by key the API's JSON -------------------------------------------

moments = st.none() | st.just("2026-12-01T16:00:00+00:00")
small = st.integers(min_value=0, max_value=10_000)
groups = st.builds(
    GroupView,
    letter=st.sampled_from("ABCDEFGH"),
    players=small,
    tournament=st.none() | small,
)
stages = st.builds(
    StageView,
    number=small,
    kind=st.sampled_from(["groups", "final", "super-final"]),
    cycles=small,
    qualifiers_per_group=small,
    started_at=moments,
    finished_at=moments,
    groups=st.lists(groups, max_size=4).map(tuple),
)
editions = st.builds(
    EditionStages,
    id=small,
    series=small,
    number=small,
    planned_start=st.text(max_size=30),
    deadline=st.text(max_size=30),
    state=st.sampled_from(["registration", "running", "finished"]),
    stage=small,
    postponed=small,
    extended=st.booleans(),
    closed_at=moments,
    finished_at=moments,
    registered=small,
    stages=st.lists(stages, max_size=3).map(tuple),
)


@given(editions)
def test_a_view_read_by_key_is_its_json(edition: EditionStages) -> None:
    shown = edition.as_json()
    assert json.loads(json.dumps(shown)) == shown  # JSON values only
    assert dict(edition) == shown and edition == shown
    assert edition["stages"] == [stage.as_json() for stage in edition.stages]
    for stage, written in zip(edition.stages, shown["stages"], strict=True):
        assert written["groups"] == [
            {"letter": g.letter, "players": g.players, "tournament": g.tournament}
            for g in stage.groups
        ]
    assert {"registration": 3} | edition == {"registration": 3, **shown}
    assert edition | {"changed": []} == {**shown, "changed": []}
    with pytest.raises(KeyError):
        edition["nothing"]


# -- a real series, through the service ------------------------------------------------------


def test_a_series_read_is_typed_and_writes_the_json_it_wrote(store: Store) -> None:
    service = Service(
        store,
        clock=FixedClock(dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)),
        random=random.Random(1),
    )
    settings = SeriesSettings(
        "Weekly rapid",
        "weekly",
        "19:00",
        "Europe/Moscow",
        weekday=3,
        tiebreaks=("SB", "ARO"),
        time_control="10+5",
    )
    sid = service.create_series(settings)
    edition_id = service.open_edition(sid)
    service.register_for_edition(edition_id, "Anna Petrova", rating=1800)
    service.register_for_edition(edition_id, "Boris Ivanov")

    info = service.series_info(sid)
    assert isinstance(info, SeriesView)
    assert info.rules == settings  # the series' rules: one typed object
    (edition,) = info.editions
    assert isinstance(edition, EditionView)
    assert (edition.id, edition.number, edition.registered) == (edition_id, 1, 2)
    with store.reading() as session:
        row = session.get(SeriesRow, sid)
        assert row is not None
        columns = {column.key: getattr(row, column.key) for column in SeriesRow.__table__.columns}
    # the JSON the service answered before its views: every stored column, then editions
    assert info.as_json() == columns | {"editions": [edition.as_json()]}
    assert list(info.as_json()) == [*columns, "editions"]
    assert info["tiebreaks"] == "SB,ARO" and info["editions"][0]["registered"] == 2

    stages = edition_by_number(service, sid, 1)
    assert isinstance(stages, EditionStages) and stages.stages == ()
    assert stages.as_json() == edition.as_json() | {"stages": []}
    (listed,) = series_list(service)
    assert listed.next is not None and listed.next.id == edition_id
    history = service.series_history(sid)
    assert all(isinstance(line, HistoryLine) for line in history)
    assert [line.kind for line in history] == ["create", "edition", "register", "register"]
    assert json.loads(json.dumps([line.as_json() for line in history]))[0]["kind"] == "create"
