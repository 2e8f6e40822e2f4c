"""The simulated season (issue 11, "How it is checked"): a workdays series, three
editions over three weeks of injected time, 40 players who sign up and register
themselves through the JSON API, one edition postponed for lack of players (R-SE-3),
stage 1 in groups, stage 2, the final and the super-final (R-SE-4, R-SE-5), every
result posted through the API, a player with forfeits only not going on (R-SE-6),
news and awards after every stage, and every notification mailed to the test's SMTP
server (aiosmtpd on loopback) exactly once — on SQLite and PostgreSQL, and on
PostgreSQL with two ``crosstable tick --send`` processes started at once at every
due moment of the first edition and at the postponement (two editions there).

Results are decided by a strength the test gives each player (the stronger wins), so
the places are known whatever colours the lots drew."""

from __future__ import annotations

import datetime as dt
import os
import random
import socket
import subprocess
import sys
import uuid
from collections import Counter
from collections.abc import Iterator
from email import message_from_bytes
from email.policy import default
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("aiosmtpd")

from aiosmtpd.controller import Controller
from sqlalchemy import select
from test_service_support import PG_URL, migrated, pg_schema_url

from crosstable.service import FixedClock, Service
from crosstable.service.accounts import Accounts
from crosstable.service.series.mail_text import Context, context_of, letter
from crosstable.service.series.sender import SUBJECTS, MailSettings, send_due
from crosstable.store import Store, open_store
from crosstable.store.models import EntryRow, GameRow
from crosstable.store.series_models import (
    SeriesEditionRow,
    SeriesGroupRow,
    SeriesOutboxRow,
    SeriesStageRow,
)
from crosstable.web.app import create_app
from crosstable.web.security import ResultLimits
from tests.asgi_client import TestClient

ROOT = Path(__file__).resolve().parents[1]
#: Tuesday 1 December 2026, 09:00 UTC; the series starts at 19:00 Moscow time
MORNING = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
SERIES = {
    "name": "Workday blitz",
    "kind": "workdays",
    "start_time": "19:00",
    "zone": "Europe/Moscow",
    "max_group_size": 6,
    "qualifiers_per_group": 2,
    "final_min": 4,
    "time_control": "G/5",
    "pre_registration": True,
}
FORFEITER = "Player 40"  # the strongest: wins every game of stage 1 by forfeit


class Mailbox:
    def __init__(self) -> None:
        self.mails: list[Any] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        self.mails.append(message_from_bytes(envelope.content, policy=default))
        return "250 Message accepted"


@pytest.fixture
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


@pytest.fixture(params=["sqlite", "postgresql", "postgresql, two processes"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, int]]:
    """A fresh database at the newest schema (from the worker's template) and how many
    processes tick it at once (0: in-process)."""
    if request.param == "sqlite":
        yield migrated(f"sqlite:///{tmp_path}/season.db"), 0
        return
    if not PG_URL:
        pytest.skip("CROSSTABLE_TEST_PG_URL is not set (bash scripts/postgres.sh starts a server)")
    import psycopg

    schema = "t_" + uuid.uuid4().hex[:16]
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield migrated(pg_schema_url(PG_URL, schema)), 2 if "two" in request.param else 0
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


class _Unlimited(ResultLimits):
    """Results a minute without the per-caller limit (counted in memory, as on SQLite)."""

    def check(self, key: str, what: str, limit: int = 0, count: int = 1) -> None:
        super().check(key, what, 1_000_000, count)


class Season:
    def __init__(self, url: str, processes: int, port: int) -> None:
        self.url = url
        self.processes = processes
        self.store: Store = open_store(url)
        self.clock = FixedClock(MORNING)
        self.service = Service(self.store, clock=self.clock, random=random.Random(2))
        app = create_app(service=self.service)
        # the arbiter posts ~260 results in seconds: the per-caller limit of 60 a minute
        # (real time, not the injected clock) is lifted for this site
        app.state.site.report_limit = _Unlimited()
        self.client = TestClient(app)
        self.accounts = Accounts(self.store, clock=self.clock)
        self.mail = MailSettings(host="127.0.0.1", port=port, sender="series@example.org")
        admin = self.accounts.create_user("arbiter", "password-arbiter", is_admin=True)
        self.admin = {"Authorization": f"Bearer {self.accounts.create_token(admin.id)}"}
        self.tokens: dict[str, dict[str, str]] = {}
        self.strength: dict[str, int] = {}
        self.ticked: list[str] = []

    def sign_up(self, count: int) -> None:
        for index in range(1, count + 1):
            name = f"Player {index:02d}"
            user = self.accounts.create_user(
                f"player{index:02d}", f"password-{index:02d}", display_name=name
            )
            auth = {"Authorization": f"Bearer {self.accounts.create_token(user.id)}"}
            self.tokens[name] = auth
            self.strength[name] = index
            answer = self.client.put(
                "/api/v1/notifications/preferences",
                json={"email": f"player{index:02d}@example.org", "mailed": list(SUBJECTS)},
                headers=auth,
            )
            assert answer.status_code == 200, answer.text

    def register(self, sid: int, number: int, names: list[str]) -> None:
        for name in names:
            answer = self.client.post(
                f"/api/v1/series/{sid}/editions/{number}/registrations", headers=self.tokens[name]
            )
            assert answer.status_code == 201, answer.text

    def at(self, moment: dt.datetime) -> None:
        self.clock.advance(moment - self.clock.now())

    def tick(self) -> list[str]:
        """The clock's pass and the mail, in-process or by two processes at once."""
        if not self.processes:
            done = self.service.tick()
            send_due(self.store, self.clock, self.mail)
            self.ticked += done
            return done
        env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        command = [
            sys.executable, "-m", "crosstable", "tick", "--send", "--db", self.url,
            "--now", self.clock.now().isoformat(), "--smtp-host", "127.0.0.1",
            "--smtp-port", str(self.mail.port), "--smtp-from", "series@example.org",
        ]  # fmt: skip
        runs = [
            subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
            for _ in range(self.processes)
        ]
        done: list[str] = []
        for run in runs:
            out, err = run.communicate(timeout=300)
            assert run.returncode == 0, err.decode()
            done += [
                line
                for line in out.decode().splitlines()
                if line.startswith("edition ") or "cannot go on" in line
            ]
        # both tried, one did the work (the other found the lock taken), then both sent
        send_due(self.store, self.clock, self.mail)
        self.ticked += done
        return done

    def current(self, edition_id: int) -> tuple[str, list[int]]:
        with self.store.reading() as session:
            edition = session.get(SeriesEditionRow, edition_id)
            assert edition is not None
            stage = session.scalars(
                select(SeriesStageRow).where(
                    SeriesStageRow.edition_id == edition_id,
                    SeriesStageRow.number == edition.stage,
                )
            ).one()
            tids = [
                g.tournament_id
                for g in session.scalars(
                    select(SeriesGroupRow).where(SeriesGroupRow.stage_id == stage.id)
                )
            ]
            return stage.kind, [t for t in tids if t is not None]

    def play(self, tids: list[int], forfeiter: str = "") -> None:
        """Every game's result posted through the API by the arbiter."""
        with self.store.reading() as session:
            names = {
                (e.tournament_id, e.number): e.name
                for e in session.scalars(select(EntryRow).where(EntryRow.tournament_id.in_(tids)))
            }
            games = [
                (g.tournament_id, g.round, g.board, g.white, g.black)
                for g in session.scalars(
                    select(GameRow)
                    .where(GameRow.tournament_id.in_(tids))
                    .order_by(GameRow.tournament_id, GameRow.round, GameRow.board)
                )
            ]
        for tid, rnd, board, white, black in games:
            w, b = names[tid, white], names[tid, black]
            if forfeiter in (w, b):
                result = "+-" if w == forfeiter else "-+"
            else:
                result = "1-0" if self.strength[w] > self.strength[b] else "0-1"
            answer = self.client.post(
                f"/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/result",
                json={"result": result},
                headers=self.admin,
            )
            assert answer.status_code == 200, answer.text

    def _why(self, tids: list[int]) -> list[tuple[int, str, int, int]]:
        """Each group's status, games and results (what a failed stage end shows)."""
        from crosstable.store.models import TournamentRow

        with self.store.reading() as session:
            found = []
            for tid in tids:
                row = session.get(TournamentRow, tid)
                games = list(session.scalars(select(GameRow).where(GameRow.tournament_id == tid)))
                known = sum(g.result is not None for g in games)
                found.append((tid, row.status if row else "?", len(games), known))
            return found

    def run_edition(self, edition_id: int, stages: list[str], forfeiter: str = "") -> None:
        """From stage 1 (started) to the edition's end, one hour a stage."""
        seen = []
        for _ in stages:
            kind, tids = self.current(edition_id)
            seen.append(kind)
            self.play(tids, forfeiter if kind == "groups" and len(seen) == 1 else "")
            self.at(self.clock.now() + dt.timedelta(hours=1))
            done = self.tick()
            assert any("ended" in line for line in done), (done, self._why(tids))
        assert seen == stages
        with self.store.reading() as session:
            edition = session.get(SeriesEditionRow, edition_id)
            assert edition is not None and edition.state == "finished"


def utc(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


#: what each edition of the season has: the players of each stage, the groups (for the
#: awards: three places a group), the winner of its super-final
EDITIONS = {
    1: {"played": [40, 14, 6, 4], "groups": 7 + 3 + 1 + 1, "winner": "Player 39"},
    2: {"played": [15, 6, 4], "groups": 3 + 1 + 1, "winner": "Player 15"},
    3: {"played": [15, 6, 4], "groups": 3 + 1 + 1, "winner": "Player 35"},
}


def test_a_simulated_season(database: tuple[str, int], mailbox: tuple[Mailbox, int]) -> None:
    """In-process, the whole season. With two processes at once at every due moment of
    week 1 and at week 2's postponement — every kind of step: registration closed, stage
    made and started, groups to groups, to the final and the super-final, the
    forfeiter not going on, an edition's end, a postponement — then the rest of week 2
    in-process; week 3 repeats week 2. 12 processes instead of 30."""
    url, processes = database
    box, port = mailbox
    season = Season(url, processes, port)
    try:
        _play_the_season(season, box, editions=2 if processes else 3)
    finally:
        season.store.close()


def _play_the_season(season: Season, box: Mailbox, editions: int) -> None:
    client, service = season.client, season.service
    season.sign_up(40)
    created = client.post("/api/v1/series", json=SERIES, headers=season.admin)
    assert created.status_code == 201, created.text
    sid = created.json()["id"]
    # this season's editions are opened by the organiser, a week apart: paused, the
    # series opens none by itself (tests/test_series_next_edition.py has that)
    paused = client.patch(f"/api/v1/series/{sid}", json={"paused": True}, headers=season.admin)
    assert paused.status_code == 200, paused.text
    everyone = [f"Player {i:02d}" for i in range(1, 41)]

    # week 1: 40 players, stage 1 (7 groups), stage 2, the final, the super-final
    first = created.json()["editions"][0]
    assert utc(first["planned_start"]) == dt.datetime(2026, 12, 1, 16, 0, tzinfo=dt.UTC)
    season.register(sid, 1, everyone)
    season.at(utc(first["planned_start"]) + dt.timedelta(minutes=1))
    done = season.tick()
    assert done == [
        "edition 1: registration closed with 40 players",
        "edition 1: stage 1 made — 7 groups: 5×6, 2×5",
        "edition 1: stage 1 (groups) started — 7 round robins, every game created",
    ]
    season.run_edition(first["id"], ["groups", "groups", "final", "super-final"], FORFEITER)

    # week 2: 10 register, the start moves to Wednesday; 5 more, then it runs
    season.at(dt.datetime(2026, 12, 8, 9, 0, tzinfo=dt.UTC))
    second = service.edition_info(service.open_edition(sid))
    assert utc(second["planned_start"]) == dt.datetime(2026, 12, 8, 16, 0, tzinfo=dt.UTC)
    season.register(sid, 2, everyone[:10])
    season.at(utc(second["deadline"]) + dt.timedelta(minutes=1))
    assert season.tick() == [
        "edition 2: 10 registered, fewer than 15 — the start moves to 2026-12-09T19:00:00+03:00"
    ]
    # (with two processes: the rest repeats week 1's kinds of steps, so it ticks in-process)
    season.processes = 0
    season.register(sid, 2, everyone[10:15])
    season.at(dt.datetime(2026, 12, 9, 16, 1, tzinfo=dt.UTC))
    assert season.tick()[-1].endswith("every game created")
    season.run_edition(second["id"], ["groups", "final", "super-final"])

    if editions == 3:  # week 3: 15 at once
        season.at(dt.datetime(2026, 12, 15, 9, 0, tzinfo=dt.UTC))
        third = service.edition_info(service.open_edition(sid))
        season.register(sid, 3, everyone[20:35])
        season.at(utc(third["planned_start"]) + dt.timedelta(minutes=1))
        assert season.tick()[-1].endswith("every game created")
        season.run_edition(third["id"], ["groups", "final", "super-final"])
    assert season.tick() == []  # nothing more is due
    played = {number: EDITIONS[number] for number in range(1, editions + 1)}

    # every step once, in order (with two processes: one of each pair did it)
    assert len(season.ticked) == len(set(season.ticked))
    history = [h for h in service.series_history(sid) if h["kind"] not in ("register",)]
    stages = sum(len(e["played"]) for e in played.values())
    assert [h["kind"] for h in history].count("stage-end") == stages
    assert [h["kind"] for h in history].count("postponed") == 1

    # R-SE-6: the forfeit-only winner of his group did not go on
    news = client.get(f"/api/v1/series/{sid}/news").json()["news"]
    assert len(news) == stages
    first_stage = news[-1]
    assert (first_stage["edition"], first_stage["stage"]) == (1, 1)
    assert FORFEITER not in first_stage["qualified"] and len(first_stage["qualified"]) == 14
    forfeit_group = next(g for g in first_stage["groups"] if g["winner"] == FORFEITER)
    assert forfeit_group["winner_played"] is False
    # the super-finals (the news come newest first): the strongest who played wins
    winners = [n["groups"][0]["winner"] for n in news if n["kind"] == "super-final"]
    assert winners == [e["winner"] for e in reversed(played.values())]
    awards = client.get(f"/api/v1/series/{sid}/awards").json()["awards"]
    expected_awards = sum(3 * e["groups"] for e in played.values()) - 1
    assert len(awards) == expected_awards  # the forfeiter's gold is not given
    assert FORFEITER not in {a["name"] for a in awards}
    table = client.get(f"/api/v1/series/{sid}/standings", params={"season": "2026"}).json()
    assert table["editions"] == list(played)
    points = [row["points"] for row in table["rows"]]
    assert points == sorted(points, reverse=True) and len(points) == 40

    # every notification mailed to its player exactly once
    with season.store.reading() as session:
        rows = list(session.scalars(select(SeriesOutboxRow)))
        subjects = {r.id: _subject(r, context_of(session, r.payload)) for r in rows}
    assert all(r.sent_at is not None and not r.mail_skipped for r in rows)
    kinds = Counter(r.kind for r in rows)
    stage_starts = sum(sum(e["played"]) for e in played.values())
    # those who played a stage before the super-final: each qualified or was eliminated
    decided = sum(sum(e["played"][:-1]) for e in played.values())
    qualified = sum(sum(e["played"][1:]) for e in played.values())
    assert kinds == {
        "registered": sum(e["played"][0] for e in played.values()),
        "start-moved": 10,
        "stage-starts": stage_starts,
        "news": stage_starts,
        "qualified": qualified,
        "eliminated": decided - qualified,
    }
    expected = Counter(
        (f"player{int(r.recipient.split()[-1]):02d}@example.org", subjects[r.id]) for r in rows
    )
    received = Counter((str(m["To"]), str(m["Subject"])) for m in box.mails)
    assert received == expected


def _subject(row: SeriesOutboxRow, context: Context) -> str:
    """The subject mail_text writes (in English: the players chose no language)."""
    return letter(row.kind, row.payload, context=context).subject
