"""A timed start's plan says how the clock will draw, and the clock then draws so: a
Swiss (stored system ``dutch``) by rating, a round robin by lots from the seed, an
online knockout in a random order (over the board, by rating: its start needs eligible
accounts, tests/test_typed_read_views.py reads its plan)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from crosstable.core.model import System
from crosstable.service import FixedClock, PlayerInfo, Regulations, Service
from crosstable.service.clockwork import tick_all
from crosstable.service.start_plan import start_plan
from crosstable.store import open_store
from crosstable.store.models import TournamentRow

T0 = dt.datetime(2026, 12, 7, 12, 0, tzinfo=dt.UTC)
START = "2026-12-07T18:00:00+00:00"
#: the plan's word for the draw → the lots' method the clock's start stores
METHOD = {"rating": "rating", "lots": "random", "random": "random"}


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[tuple[Service, FixedClock]]:
    store = open_store(f"sqlite:///{tmp_path / 'plan.db'}")
    clock = FixedClock(T0)
    try:
        yield Service(store, clock=clock, random=random.Random(5)), clock
    finally:
        store.close()


@pytest.mark.parametrize(
    ("system", "details", "draw"),
    [
        (System.SWISS_DUTCH, {"rounds": "3"}, "rating"),
        (System.ROUND_ROBIN, {}, "lots"),
        (System.KNOCKOUT, {}, "random"),
    ],
)
def test_the_start_plan_names_the_draw_the_clock_makes(
    clocked: tuple[Service, FixedClock], system: System, details: dict[str, str], draw: str
) -> None:
    service, clock = clocked
    rounds = int(details.pop("rounds")) if "rounds" in details else None
    tid = service.create_tournament(
        Regulations(
            name="Timed", system=system, rounds=rounds, details={"starts_at": START, **details}
        )
    ).tournament_id
    for index in range(4):
        service.add_player(tid, PlayerInfo(f"Player {index + 1}", rating=2000 + 10 * index))
    assert start_plan(service, tid).draw == draw
    clock.advance(dt.timedelta(hours=6))
    said = tick_all(service)
    assert len(said) == 1, said
    with service.store.reading() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None and row.status != "registration"
        assert row.draw_method == METHOD[draw]
