"""The outbox's mails and Telegram messages in the recipient's language (issue 11): every
kind written from a template and its parameters, in English or Russian — the account's
choice, else the site's default — with moments in the series' zone; a real SMTP server
(aiosmtpd) and the loopback Bot API receive them; no outbox text is left untranslated in
Russian; the petitions' answers reach the petitioners; one retry loop for both channels."""

# ruff: noqa: F811 - pytest fixtures imported from the other test modules

from __future__ import annotations

import ast
import dataclasses
import datetime as dt
import random
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from sqlalchemy import select
from test_series_sender import settings_for, smtp  # noqa: F401
from test_series_telegram import TOKEN, BotApi, bot  # noqa: F401
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.text import PLACEHOLDER
from crosstable.service import FixedClock, Service
from crosstable.service.series import SeriesSettings, inbox, mail_text, telegram
from crosstable.service.series.mail_text import Context, letter
from crosstable.service.series.sender import KINDS, MailSettings, send_due, set_address
from crosstable.service.series.telegram_sender import TelegramSettings, send_due_telegram
from crosstable.store import Store
from crosstable.store.series_models import SeriesOutboxRow

MORNING = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
PO = Path(mail_text.LOCALE_DIR) / "ru" / "LC_MESSAGES" / "mail.po"

#: a payload of each kind, as the service writes it
SAMPLES: dict[str, dict[str, Any]] = {
    "registered": {"edition": 1, "series": "Blitz", "start": "2026-12-04T16:00:00+00:00"},
    "start-moved": {"edition": 1, "series": "Blitz", "start": "2026-12-07T16:00:00+00:00"},
    "stage-starts": {
        "edition": 1,
        "series": "Blitz",
        "stage": 2,
        "kind": "groups",
        "group": "B",
        "tournament": 7,
        "first_game": {"round": 1, "board": 2, "colour": "black", "opponent": "Anna"},
    },
    "qualified": {"edition": 1, "series": "Blitz", "stage": 1, "played": True},
    "eliminated": {"edition": 1, "series": "Blitz", "stage": 1, "played": False},
    "news": {
        "edition": 1,
        "series": "Blitz",
        "series_id": 3,
        "stage": 3,
        "kind": "final",
        "title": "Blitz #2: the final is over — Anna wins",
        "edition_number": 2,
        "winner": "Anna",
        "going": 4,
        "finished": False,
        "place": 2,
        "awarded": True,
        "points": "4.5",
    },
    "petition-accepted": {"series": "Blitz", "level": "class 3", "tournament": 9},
    "petition-refused": {"series": "Blitz", "level": "class 3", "reason": "not all class 3"},
    "round-starts": {
        "series": "Cup",
        "tournament": 4,
        "round": 2,
        "game_round": 2,
        "board": 1,
        "colour": "black",
        "opponent": "Anna",
        "deadline": "2026-12-09T18:00:00+00:00",
    },
    "start-waits": {
        "series": "Cup",
        "tournament": 4,
        "start": "2026-12-07T18:00:00+00:00",
        "reason": "3 of 4",
    },
    "results-missing": {
        "series": "Cup",
        "tournament": 4,
        "round": 2,
        "deadline": "2026-12-09T18:00:00+00:00",
        "games": "round 2 board 1",
    },
}
CONTEXT = Context("Europe/Moscow", 3, 2, "2026-12-01T16:00:00+00:00")


def _templates() -> list[str]:
    tree = ast.parse(Path(mail_text.__file__).read_text(encoding="utf-8"))
    return [
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "M_"
        and isinstance(node.args[0], ast.Constant)
    ]


def test_no_outbox_text_is_left_untranslated_in_russian() -> None:
    with PO.open("rb") as handle:
        catalogue = read_po(handle, locale="ru")
    templates = _templates()
    assert len(templates) > 40
    for template in templates:
        entry = catalogue.get(template)
        assert entry is not None and entry.string, f"not translated: {template!r}"
        assert "fuzzy" not in entry.flags, template
        placeholders = set(PLACEHOLDER.findall(template))
        assert set(PLACEHOLDER.findall(entry.string)) == placeholders, template


def test_every_kind_is_written_in_both_languages() -> None:
    assert set(SAMPLES) == set(KINDS)  # a new kind needs its sample here
    for kind, payload in SAMPLES.items():
        english = letter(kind, payload, context=CONTEXT, base_url="https://x")
        russian = letter(kind, payload, language="ru", context=CONTEXT, base_url="https://x")
        assert english.subject != russian.subject, kind
        assert english.lines and len(english.lines) == len(russian.lines), kind
        for line_en, line_ru in zip(english.lines, russian.lines, strict=True):
            if not line_en.startswith("https://"):
                assert line_en != line_ru, (kind, line_en)
        text = " ".join((russian.subject, *russian.lines))
        assert "{" not in text and "None" not in text, text


def test_moments_in_the_series_zone_with_the_month_by_name() -> None:
    moved = SAMPLES["start-moved"]
    assert letter("start-moved", moved, context=CONTEXT).subject == (
        "Blitz: the start moved to 7 December 2026, 19:00 UTC+03:00 (Europe/Moscow)"
    )
    assert letter("start-moved", moved, language="ru", context=CONTEXT).subject == (
        "Blitz: начало перенесено на 7 декабря 2026 г., 19:00 UTC+03:00 (Europe/Moscow)"
    )


def test_the_first_game_and_the_stage_window_are_written_out() -> None:
    written = letter("stage-starts", SAMPLES["stage-starts"], context=CONTEXT, base_url="https://x")
    assert written.subject == "Blitz: stage 2 starts"
    assert "Your first game: round 1, board 2, Black against Anna" in written.lines
    # R-SE-2: the qualifier confirms within two weeks of the stage's start
    assert any("until 15 December 2026, 19:00 UTC+03:00" in line for line in written.lines)
    assert "https://x/series/3/editions/2" in written.lines
    final = dict(SAMPLES["stage-starts"], kind="final", stage=3)
    russian = letter("stage-starts", final, language="ru", context=CONTEXT)
    assert russian.subject == "Blitz: начинается финал"
    assert not any("Подтвердите" in line for line in russian.lines)  # automatic


def _service(store: Store) -> tuple[Service, FixedClock, int]:
    clock = FixedClock(MORNING)
    service = Service(store, clock=clock, random=random.Random(1))
    sid = service.create_series(
        SeriesSettings("Workday blitz", "workdays", "19:00", "Europe/Moscow", time_control="G/5")
    )
    service.open_edition(sid)
    return service, clock, sid


def test_mails_in_each_recipients_language_over_smtp(store: Store, smtp) -> None:
    recorder, controller = smtp
    service, clock, sid = _service(store)
    edition = service.series_info(sid)["editions"][0]["id"]
    for user, name in ((1, "Ivan Russkiy"), (2, "Jane English"), (3, "No Choice")):
        set_address(store, user, f"u{user}@example.org")
        service.register_for_edition(edition, name, user_id=user)
    inbox.set_language(store, 1, "ru")
    inbox.set_language(store, 2, "en")
    report = send_due(store, clock, settings_for(controller))
    assert report.sent == 3
    mails = {str(m["To"]): m for m in recorder.mails}
    russian = mails["u1@example.org"]
    assert russian["Subject"] == "Workday blitz: регистрация подтверждена"
    assert russian["Content-Language"] == "ru"
    body = russian.get_content()
    assert "Вы зарегистрированы." in body and "декабря 2026 г., 19:00 UTC+03:00" in body
    assert "Больше не присылать такие письма: https://chess.example.org/notifications/" in body
    for address in ("u2@example.org", "u3@example.org"):
        assert mails[address]["Subject"] == "Workday blitz: registration confirmed"
        assert "December 2026, 19:00 UTC+03:00 (Europe/Moscow)" in mails[address].get_content()


def test_the_sites_default_language_for_who_chose_none(store: Store, smtp) -> None:
    recorder, controller = smtp
    service, clock, sid = _service(store)
    edition = service.series_info(sid)["editions"][0]["id"]
    set_address(store, 1, "u1@example.org")
    set_address(store, 2, "u2@example.org")
    service.register_for_edition(edition, "No Choice", user_id=1)
    service.register_for_edition(edition, "English Please", user_id=2)
    inbox.set_language(store, 2, "en")
    settings = dataclasses.replace(settings_for(controller), language="ru")
    assert send_due(store, clock, settings).sent == 2
    subjects = {str(m["To"]): str(m["Subject"]) for m in recorder.mails}
    assert subjects == {
        "u1@example.org": "Workday blitz: регистрация подтверждена",
        "u2@example.org": "Workday blitz: registration confirmed",
    }
    env = {"CROSSTABLE_SMTP_HOST": "h", "CROSSTABLE_LANGUAGE": "ru"}
    mail = MailSettings.from_env(env)
    assert mail is not None and mail.language == "ru"
    assert MailSettings.from_env(env | {"CROSSTABLE_LANGUAGE": "xx"}).language == "en"  # type: ignore[union-attr]


def test_a_language_that_is_not_the_sites_is_refused(store: Store) -> None:
    with pytest.raises(RuleError, match="not a language of the site"):
        inbox.set_language(store, 1, "de")
    inbox.set_language(store, 1, "ru")
    assert inbox.language(store, 1) == "ru"
    inbox.set_language(store, 1, None)
    assert inbox.language(store, 1) is None


def test_telegram_messages_in_the_users_language(store: Store, bot: BotApi) -> None:
    service, clock, sid = _service(store)
    edition = service.series_info(sid)["editions"][0]["id"]
    for user, chat in ((1, 5001), (2, 5002)):
        who = telegram.TelegramUser(chat, f"User {user}", "", f"user{user}", clock.now())
        telegram.link(store, user, who, clock.now())
    inbox.set_language(store, 1, "ru")
    clock.advance(dt.timedelta(minutes=1))
    service.register_for_edition(edition, "Ivan", user_id=1)
    service.register_for_edition(edition, "Jane", user_id=2)
    settings = TelegramSettings(TOKEN, api=bot.url, base_url="https://chess.example")
    assert send_due_telegram(store, clock, settings).sent == 2
    texts = {m["chat_id"]: m["text"] for m in bot.messages}
    assert texts[5001].startswith("Workday blitz: регистрация подтверждена\nВы зарегистрированы.")
    assert "декабря 2026 г." in texts[5001]
    assert texts[5002].startswith("Workday blitz: registration confirmed\nYou are registered.")
    assert texts[5002].endswith("https://chess.example/notifications")


ELEVEN = [(f"Level Two {i:02d}", 300 + i if i <= 3 else None) for i in range(1, 12)]


def test_the_petitioners_are_told_the_answer(store: Store, smtp) -> None:
    recorder, controller = smtp
    service, clock, sid = _service(store)
    for user in (301, 302, 303):
        set_address(store, user, f"p{user}@example.org")
    inbox.set_language(store, 301, "ru")
    refused = service.petition(sid, "level 2", ELEVEN)
    service.refuse_petition(refused, "not all of level 2")
    accepted = service.petition(sid, "level 2", ELEVEN)
    tid = service.accept_petition(accepted)
    with store.reading() as session:
        rows = list(session.scalars(select(SeriesOutboxRow).order_by(SeriesOutboxRow.id)))
    kinds = [(r.kind, r.user_id) for r in rows]
    assert kinds == [
        *(("petition-refused", u) for u in (301, 302, 303)),
        *(("petition-accepted", u) for u in (301, 302, 303)),
    ]
    assert rows[-1].payload["tournament"] == tid
    assert send_due(store, clock, settings_for(controller)).sent == 6
    got = sorted((str(m["To"]), str(m["Subject"])) for m in recorder.mails)
    assert got[:2] == [
        ("p301@example.org", "Workday blitz: ходатайство о турнире «level 2» отклонено"),
        ("p301@example.org", "Workday blitz: ходатайство о турнире «level 2» принято"),
    ]
    refusal = next(m for m in recorder.mails if "refused" in str(m["Subject"]))
    assert "The administrators' reason: not all of level 2" in refusal.get_content()
    # in the site, too (the notifications page lists them)
    assert [n.kind for n in inbox.notifications(store, 302)] == [
        "petition-accepted",
        "petition-refused",
    ]


def test_settings_made_by_hand_take_the_sites_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """``tick --send --smtp-host`` makes its settings without from_env: the default
    language still comes from CROSSTABLE_LANGUAGE."""
    monkeypatch.setenv("CROSSTABLE_LANGUAGE", "ru")
    assert MailSettings(host="127.0.0.1").language == "ru"
    assert TelegramSettings(TOKEN).language == "ru"
    monkeypatch.delenv("CROSSTABLE_LANGUAGE")
    assert MailSettings(host="127.0.0.1").language == "en"
