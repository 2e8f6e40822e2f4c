"""The account's record of fair play (issue 12 item 2): who flagged an account, when and
why — in the administrator's language, and for administrators only: no page or API
answer that anyone else can read carries the reason or the flag's record (the
withdrawal it decided is the tournament's own, public, without the reason)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_portal_rules_web import Portal, portal  # noqa: F401

from crosstable.service import Regulations
from tests.asgi_client import TestClient

REASON = "engine moves in games 3 and 7 (report 4411)"
RU = {"Accept-Language": "ru"}


def _flag(portal: Portal, decisions: dict[str, str]) -> None:  # noqa: F811
    client = TestClient(portal.app)
    done = client.post(
        f"/api/v1/users/{portal.anna.id}/flag",
        json={"reason": REASON, "decisions": decisions},
        headers=portal.api("admin"),
    )
    assert done.status_code == 200, done.text


def test_the_record_reads_in_the_administrators_language(portal: Portal) -> None:  # noqa: F811
    tid = portal.running("Spring")
    _flag(portal, {str(tid): "stay"})
    client = TestClient(portal.app)
    user = portal.anna.id
    adjusted = client.post(
        f"/api/v1/users/{user}/adjust",
        json={"games": 5, "reason": "games at the club"},
        headers=portal.api("admin"),
    )
    assert adjusted.status_code == 200, adjusted.text
    cleared = client.post(
        f"/api/v1/users/{user}/unflag",
        json={"reason": "appeal upheld"},
        headers=portal.api("admin"),
    )
    assert cleared.status_code == 200
    english = client.get(f"/api/v1/users/{user}/history", headers=portal.api("admin")).json()
    assert [e["summary"] for e in english["events"]] == [
        f"flagged for computer help: {REASON} — Spring: stays until the end",
        "eligibility adjusted: games +0 → +5, online tournaments +0 → +0: games at the club",
        "flag cleared: appeal upheld",
    ]
    assert all("summary_message" not in e["data"] for e in english["events"])
    russian = client.get(f"/api/v1/users/{user}/history", headers=portal.api("admin", **RU))
    lines = [e["summary"] for e in russian.json()["events"]]
    assert lines == [
        f"отмечен(а) за помощь компьютера: {REASON} — Spring: остаётся до конца",
        "учёт для допуска исправлен: партии +0 → +5, онлайн-турниры +0 → +0: games at the club",
        "отметка снята: appeal upheld",
    ]
    page = portal.client("admin").get("/admin", headers=RU).text
    assert f"отмечен(а) за помощь компьютера: {REASON} — Spring: остаётся до конца" in page
    assert "flagged for computer help: engine" not in page


def test_who_when_and_why_only_administrators_see(portal: Portal) -> None:  # noqa: F811
    tid = portal.running("Spring")
    stays = portal.running("Summer")
    _flag(portal, {str(tid): "withdraw", str(stays): "stay"})
    user = portal.anna.id
    assert portal.accounts.user(user).flagged
    readers: dict[str, Any] = {
        "anonymous": (TestClient(portal.app), {}),
        "anna": (portal.client("anna"), portal.api("anna")),
        "owner": (portal.client("owner"), portal.api("owner")),
    }
    pages = ["/", "/account", "/series"]
    for t in (tid, stays):
        pages += [
            f"/t/{t}",
            f"/t/{t}/history",
            f"/t/{t}/regulations",
            f"/t/{t}/rounds/1",
            f"/t/{t}/print/crosstable",
            f"/t/{t}/manage",
            f"/api/v1/tournaments/{t}",
            f"/api/v1/tournaments/{t}/history",
            f"/api/v1/tournaments/{t}/crosstable",
            f"/api/v1/tournaments/{t}/export/json",
            f"/api/v1/tournaments/{t}/export/trf2026",
        ]
    pages += [f"/api/v1/users/{user}/record", f"/api/v1/users/{user}/history", "/admin"]
    for name, (client, auth) in readers.items():
        for path in pages:
            answer = client.get(path, headers=auth)
            assert answer.status_code < 500, (name, path)
            assert "4411" not in answer.text, (name, path)  # the reason
        assert client.get(f"/api/v1/users/{user}/history", headers=auth).status_code in (401, 403)
    # the withdrawal itself is public (the tournament's history), without the reason
    public = TestClient(portal.app).get(f"/api/v1/tournaments/{tid}/history").json()
    assert public[-1]["kind"] == "withdrawal" and "computer" not in public[-1]["summary"]
    admin = portal.client("admin").get("/admin").text
    assert REASON in admin


def test_a_flagged_account_is_refused_registration_on_the_web(portal: Portal) -> None:  # noqa: F811
    """The API and the pages refuse a flagged account's registration — a tournament's
    and a series edition's — with the rule (in Russian too), never the reason."""
    from crosstable.service.series import SeriesSettings

    _flag(portal, {})
    tid = portal.service.create_tournament(Regulations(name="Open")).tournament_id
    portal.accounts.claim(tid, portal.owner)
    portal.accounts.set_access(tid, approval="approved", self_registration=True)
    series = portal.service.create_series(
        SeriesSettings("Evening", "workdays", "18:00", "Europe/Moscow")
    )
    portal.service.open_edition(series)
    client = TestClient(portal.app)
    for path in (
        f"/api/v1/tournaments/{tid}/registration",
        f"/api/v1/series/{series}/editions/1/registrations",
    ):
        refused = client.post(path, headers=portal.api("anna"))
        assert refused.status_code == 422, (path, refused.text)
        assert "fair play: an account flagged for computer help" in refused.json()["detail"]
        assert "4411" not in refused.text
        russian = client.post(path, headers=portal.api("anna", **RU))
        assert "честная игра" in russian.json()["detail"], path
    assert not portal.service.overview(tid).players
    page = portal.client("anna").get(f"/t/{tid}/regulations").text
    assert "fair play: an account flagged for computer help" in page
