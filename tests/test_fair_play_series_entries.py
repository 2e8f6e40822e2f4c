"""Fair play and a series' group tournaments (issue 12 item 2, R-SE-8), on SQLite and
PostgreSQL. A series registers its players by name and keeps the account with the
registration; the group tournaments' entries are not linked to accounts. Still:

* flagging a player who plays in a running group asks the administrator, as for any
  running tournament, whether the player withdraws (under the tournament's withdrawal
  rule) or stays until the end, and records the decision;
* a player who registered and was flagged before stage 1 is made does not take part:
  stage 1 is made without them, and its line in the series' history says so."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import random

import pytest
from sqlalchemy import select
from test_series_service import current_groups
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.service import FixedClock, Service
from crosstable.service.accounts import Accounts
from crosstable.service.series import SeriesSettings
from crosstable.store import Store
from crosstable.store.series_models import SeriesEventRow

MORNING = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def _edition(store: Store) -> tuple[Service, Accounts, FixedClock, int]:
    clock = FixedClock(MORNING)
    service = Service(store, clock=clock, random=random.Random(3))
    accounts = Accounts(store, clock=clock)
    sid = service.create_series(SeriesSettings("Blitz", "workdays", "19:00", "Europe/Moscow"))
    return service, accounts, clock, service.open_edition(sid)


def _field(service: Service, edition: int, count: int = 19) -> None:
    for index in range(count):
        service.register_for_edition(edition, f"Player {index + 1:02d}", rating=1500 + index)


def test_flagging_a_player_of_a_running_group_asks_and_withdraws(store: Store) -> None:
    service, accounts, clock, edition = _edition(store)
    cheat = accounts.create_user("cheat", "password-cheat")
    service.register_for_edition(edition, "Cheat", rating=2000, user_id=cheat.id)
    _field(service, edition)
    clock.advance(dt.timedelta(hours=8))
    service.tick()
    _kind, tids = current_groups(store, edition)
    group = next(t for t in tids if "Cheat" in {p.name for p in service.overview(t).players})
    assert service.overview(group).status == "running"
    assert [r.tournament_id for r in accounts.running_entries(cheat.id)] == [group]

    with pytest.raises(RuleError) as asked:
        accounts.flag(cheat.id, "engine moves", service=service, actor="admin")
    assert "fair play: cheat plays in running tournaments" in str(asked.value)
    assert f"(tournament {group})" in str(asked.value)
    assert not accounts.user(cheat.id).flagged  # nothing done by the refusal

    withdrawn = accounts.flag(
        cheat.id, "engine moves", decisions={group: "withdraw"}, service=service, actor="admin"
    )
    assert [w.tournament_id for w in withdrawn] == [group]
    entry = next(p for p in service.overview(group).players if p.name == "Cheat")
    assert entry.withdrawn_from is not None  # the tournament's own withdrawal rule
    assert service.history(group)[-1].kind == "withdrawal"
    record = accounts.account_history(cheat.id)[-1]
    assert [(t["tournament_id"], t["decision"]) for t in record.data["tournaments"]] == [
        (group, "withdraw")
    ]
    assert accounts.running_entries(cheat.id) == []  # withdrawn: no longer asked about


def test_a_player_flagged_before_stage_one_does_not_take_part(store: Store) -> None:
    service, accounts, clock, edition = _edition(store)
    cheat = accounts.create_user("cheat", "password-cheat")
    service.register_for_edition(edition, "Cheat", rating=2000, user_id=cheat.id)
    _field(service, edition, 20)
    accounts.flag(cheat.id, "engine moves in another site's games", service=service)
    clock.advance(dt.timedelta(hours=8))
    service.tick()
    _kind, tids = current_groups(store, edition)
    assert tids
    players = {p.name for t in tids for p in service.overview(t).players}
    assert "Cheat" not in players and len(players) == 20
    with store.reading() as session:
        made = session.scalars(
            select(SeriesEventRow).where(SeriesEventRow.kind == "stage-made")
        ).one()
    assert made.summary.endswith("; left out (fair play: flagged for computer help): Cheat")
