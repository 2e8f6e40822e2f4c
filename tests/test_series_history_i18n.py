"""The series' history lines are messages like every other history line (issue 30 item 5):
each keeps its template and values, so a Russian reader gets it in Russian, while the
English text (the command line's) is what it always was; a line stored before (English
text only) still shows, as stored."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from russian_text import english_words
from test_series_service import MORNING
from test_service_support import migrated

from crosstable.core.text import Message
from crosstable.service import FixedClock, Service
from crosstable.service.series import SeriesSettings
from crosstable.service.series.edit import SeriesChanges, edit_series
from crosstable.store import open_store
from crosstable.store.series_models import SeriesEventRow
from crosstable.web.messages import translate


def _service(tmp_path: Path) -> Service:
    clock = FixedClock(MORNING)
    return Service(
        open_store(migrated(f"sqlite:///{tmp_path / 'series.db'}")),
        clock=clock,
        random=random.Random(3),
    )


def test_series_lines_are_messages_in_both_languages(tmp_path: Path) -> None:
    service = _service(tmp_path)
    sid = service.create_series(SeriesSettings("Вечерний блиц", "workdays", "19:00", "UTC"))
    edition = service.open_edition(sid)
    service.register_for_edition(edition, "Анна Смирнова", rating=1800)
    service.withdraw_from_edition(edition, "Анна Смирнова")
    edit_series(service, sid, SeriesChanges(paused=True, max_group_size=12))
    lines = service.series_history(sid)
    assert [line["kind"] for line in lines] == ["create", "edition", "register", "withdraw", "edit"]
    english = [str(line["summary"]) for line in lines]
    assert english[0] == "series 1 “Вечерний блиц” created"
    assert english[2] == "Анна Смирнова registered for edition 1"
    assert english[4] == "series 1 edited — max_group_size: 10 → 12; paused: False → True"
    russian = [translate(line["summary"], "ru") for line in lines]
    assert russian[0] == "серия 1 «Вечерний блиц» создана"
    assert russian[2] == "Анна Смирнова: регистрация на выпуск 1"
    assert russian[4] == "серия 1 изменена — наибольшая группа: 10 → 12; приостановлена: нет → да"
    for line in russian:
        assert not english_words(line), line
    assert all(isinstance(line["summary"], Message) for line in lines)


def test_a_line_stored_before_shows_as_stored(tmp_path: Path) -> None:
    service = _service(tmp_path)
    sid = service.create_series(SeriesSettings("Вечерний блиц", "workdays", "19:00", "UTC"))
    with service.store.transaction() as session:
        session.add(
            SeriesEventRow(
                series_id=sid,
                edition_id=None,
                at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC).isoformat(),
                actor="",
                kind="edit",
                summary="series 1 edited — paused: False → True",
                data={},
                step=None,
            )
        )
        # a kept message that no longer reads as its text: the text wins
        session.add(
            SeriesEventRow(
                series_id=sid,
                edition_id=None,
                at=dt.datetime(2026, 1, 2, tzinfo=dt.UTC).isoformat(),
                actor="",
                kind="edit",
                summary="an old line",
                data={"summary_message": {"template": "{x} other", "params": {"x": 1}}},
                step=None,
            )
        )
    old, mismatched = service.series_history(sid)[-2:]
    assert old["summary"] == "series 1 edited — paused: False → True"
    assert translate(old["summary"], "ru") == old["summary"]
    assert mismatched["summary"] == "an old line"
