"""Fair play in a series (issue 11 via R-SE-8; seed 002 "players using computer programs
cannot take part"): an account flagged for computer help does not go on from a stage —
the next player of the group takes the place, as for a player who played no game
(R-SE-6) — and the stage's end says so (its history line and data, the player's
``eliminated`` notification); a flagged account cannot register. SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import random

import pytest
from sqlalchemy import select
from test_series_service import current_groups
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.series.qualification import outcome_of
from crosstable.service import FixedClock, Service
from crosstable.service.accounts import Accounts
from crosstable.service.series import SeriesSettings
from crosstable.service.series.stages import keys_by_start
from crosstable.store import Store
from crosstable.store.series_models import (
    SeriesEventRow,
    SeriesGroupRow,
    SeriesOutboxRow,
    SeriesRegistrationRow,
)

MORNING = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def test_a_flagged_player_does_not_go_on_and_the_next_one_does(store: Store) -> None:
    clock = FixedClock(MORNING)
    service = Service(store, clock=clock, random=random.Random(2))
    accounts = Accounts(store)
    star = accounts.create_user("star", "password-star")
    cheat = accounts.create_user("cheat", "password-cheat")
    accounts.flag(cheat.id, "engine moves", service=service)
    sid = service.create_series(SeriesSettings("Blitz", "workdays", "19:00", "Europe/Moscow"))
    edition = service.open_edition(sid)
    with pytest.raises(RuleError, match="fair play: an account flagged for computer help"):
        service.register_for_edition(edition, "Cheat", user_id=cheat.id)
    key = service.register_for_edition(edition, "Star", rating=2400, user_id=star.id)
    for index in range(19):
        service.register_for_edition(edition, f"Player {index + 1:02d}", rating=1500 + index)
    clock.advance(dt.timedelta(hours=8))
    service.tick()
    _kind, tids = current_groups(store, edition)
    # flagged during the stage: the administrator is asked about the star's group (a
    # running tournament), lets the star play on to the end; the star wins every game,
    # but does not go on
    group = next(t for t in tids if "Star" in {p.name for p in service.overview(t).players})
    with pytest.raises(RuleError, match="plays in running tournaments"):
        accounts.flag(star.id, "computer help found after round 1", service=service)
    accounts.flag(
        star.id, "computer help found after round 1", decisions={group: "stay"}, service=service
    )
    rng = random.Random(7)
    for tid in tids:
        view = service.overview(tid)
        names = {p.start: p.name for p in view.players}
        for game in view.games:
            result = rng.choice(("1-0", "0-1", "1/2-1/2"))
            if names[game.white] == "Star":
                result = "1-0"
            elif names[game.black] == "Star":
                result = "0-1"
            service.record_result(tid, game.round, game.board, result)
        assert service.overview(tid).status == "finished"
    clock.advance(dt.timedelta(hours=3))
    done = service.tick()
    assert "not going on (fair play: flagged for computer help): Star" in done[0]
    with store.reading() as session:
        groups = list(session.scalars(select(SeriesGroupRow).order_by(SeriesGroupRow.id)))
        home = next(g for g in groups if key in g.players)
        keys = keys_by_start(session, home)
        event = session.scalars(
            select(SeriesEventRow).where(SeriesEventRow.kind == "stage-end")
        ).one()
        rows = list(session.scalars(select(SeriesOutboxRow)))
        names = {r.id: r.name for r in session.scalars(select(SeriesRegistrationRow))}
    assert home.tournament_id is not None
    ranking = outcome_of(
        service.tournament(home.tournament_id), keys, 2, lots_seed=home.tournament_id
    ).ranking
    assert ranking[0] == key  # the star won the group
    expected = [k for k in ranking if k != key][:2]  # the next one takes the place
    assert event.data["barred"] == [key]
    assert set(expected) <= set(event.data["qualified"]) and key not in event.data["qualified"]
    star_rows = [r for r in rows if r.recipient == "Star" and r.kind == "eliminated"]
    assert len(star_rows) == 1, [(r.kind, r.dedupe_key, r.payload, r.user_id) for r in star_rows]
    assert star_rows[0].payload["barred"] is True
    assert {r.recipient for r in rows if r.kind == "qualified"} >= {names[k] for k in expected}
    # the next stage has the players who went on, not the flagged one
    _kind, following = current_groups(store, edition)
    players = {p.name for t in following for p in service.tournament(t).players}
    assert "Star" not in players and {names[k] for k in expected} <= players
