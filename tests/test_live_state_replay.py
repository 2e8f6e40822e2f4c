"""The kept in-memory state of a tournament against a full replay of its log.

Random change sequences on random round robins and Swiss events — results,
corrections, undo and revert, new Swiss rounds — and after every step: the write
side's live table (changed only by the one applier), a replay of the log's records
from the start onto the table built then, and the pages' read model (brought up to
date by the same records) all equal what a fresh load from the store gives.
"""

from __future__ import annotations

import copy
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_service_support import make_service, migrated, started

from crosstable.core.errors import CrosstableError
from crosstable.core.model import LotsMethod, System
from crosstable.core.row_changes import RowChange, read_changes
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.live import (
    LiveTable,
    build_table,
    catch_up,
    games_only,
    read_events,
    standings_text,
)
from crosstable.service.loading import load_live
from crosstable.service.tables import ReadModel
from crosstable.store import open_store
from crosstable.store.models import EventRow, TournamentRow

RESULTS = ("1-0", "0-1", "1/2-1/2", "+-", "-+")


def _fresh(service: Service, tid: int) -> LiveTable | None:
    with service.store.reading() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None
        source = load_live(session, row)
        return None if source is None else build_table(source, row.revision)


def _events_after(service: Service, tid: int, seq: int) -> list[tuple[RowChange, ...]]:
    with service.store.reading() as session:
        query = session.query(EventRow.changes).filter(
            EventRow.tournament_id == tid, EventRow.seq > seq
        )
        return [read_changes(changes) for (changes,) in query.order_by(EventRow.seq)]


def _games(table: LiveTable) -> dict[tuple[int, int], tuple[object, ...]]:
    return {
        spot: (g.white, g.black, g.result, g.reason, g.version) for spot, g in table.games.items()
    }


def _same(table: LiveTable, fresh: LiveTable) -> None:
    assert table.revision == fresh.revision
    assert _games(table) == _games(fresh)
    assert table.open_games == fresh.open_games
    assert standings_text(table) == standings_text(fresh)


def _step(service: Service, tid: int, source: random.Random, swiss: bool) -> None:
    view = service.overview(tid)
    open_games = [g for g in view.games if g.result is None]
    decided = [g for g in view.games if g.result is not None]
    history = [e.seq for e in service.history(tid)]
    choice = source.random()
    try:
        if choice < 0.6 and open_games:
            game = source.choice(open_games)
            service.record_result(tid, game.round, game.board, source.choice(RESULTS))
        elif choice < 0.75 and decided:
            game = source.choice(decided)
            service.correct_result(tid, game.round, game.board, source.choice(RESULTS))
        elif choice < 0.87 and decided:  # (mostly a result's undo; sometimes more)
            service.undo(tid, confirm=True)
        elif choice < 0.94 and decided and len(history) > 3:
            service.revert_to(tid, source.choice(history[len(history) // 2 : -1]), confirm=True)
        elif swiss and not open_games and view.status == "running":
            service.publish_round(tid)
    except CrosstableError:
        pass  # (e.g. nothing left to undo, a finished event: the log stays as it was)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    swiss=st.booleans(),
    players=st.integers(4, 7),
    seed=st.integers(0, 2**16),
    steps=st.integers(6, 12),
)
def test_kept_state_equals_a_full_replay_and_a_fresh_load(
    swiss: bool, players: int, seed: int, steps: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(migrated(f"sqlite:///{Path(folder) / 'replay.db'}"))
        try:
            service = make_service(store, seed)
            if swiss:
                regulations = Regulations(name="Open", system=System.SWISS_DUTCH, rounds=3)
                tid = service.create_tournament(regulations).tournament_id
                for index in range(players):
                    service.add_player(tid, PlayerInfo(f"P{index + 1}", rating=2500 - index))
                service.draw_lots(tid, LotsMethod.RATING)
                service.start(tid)
                service.publish_round(tid)  # (round 1)
            else:
                tid = started(service, players)
            origin = _fresh(service, tid)
            assert origin is not None
            watched = ReadModel(store)  # a reader kept across every step
            watched.current(tid)
            source = random.Random(seed)
            kinds: set[type] = set()
            for _ in range(steps):
                before = service.revision(tid)
                _step(service, tid, source, swiss)
                after = service.revision(tid)
                kinds.update(type(r) for r in read_events(_events_after(service, tid, before)))
                fresh = _fresh(service, tid)
                kept = service.live_tables.checkout(tid)
                if (
                    kept is not None and fresh is not None
                ):  # the write side's table, changed only by the applier
                    _same(kept, fresh)
                    service.live_tables.checkin(tid, kept)
                records = read_events(_events_after(service, tid, origin.revision))
                if fresh is not None and games_only(records):  # the log from the start
                    replayed = copy.deepcopy(origin)
                    events = _events_after(service, tid, origin.revision)
                    assert catch_up(replayed, events, after)
                    _same(replayed, fresh)
                state, loaded = watched.current(tid), ReadModel(store).current(tid)
                assert state.view == loaded.view
                assert state.tournament == loaded.tournament
                assert state.table.lines == loaded.table.lines
                assert state.table.ranked == loaded.table.ranked
            for kind in sorted(k.__name__ for k in kinds):
                event(kind)  # (hypothesis's statistics: which records the runs applied)
        finally:
            store.close()
