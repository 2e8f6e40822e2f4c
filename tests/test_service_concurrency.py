"""No lost or conflicting results: racing threads and processes, and SIGKILL at random moments."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import multiprocessing
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from test_service_support import db_url, make_service, started, store  # noqa: F401

from crosstable.service import ConflictError, Service
from crosstable.store import Store, open_store

ROOT = Path(__file__).resolve().parents[1]


def _race(url: str, calls: list[dict[str, object]]) -> list[object]:
    """Run one service call per thread, all released at once; their answers or errors."""
    barrier = threading.Barrier(len(calls))
    answers: list[object] = [None] * len(calls)

    def worker(index: int) -> None:
        store = open_store(url)
        try:
            service = make_service(store)
            barrier.wait()
            try:
                answers[index] = service.record_result(**calls[index])  # type: ignore[arg-type]
            except ConflictError as error:
                answers[index] = error
        finally:
            store.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_two_people_record_the_same_game_at_once(db_url: str, store: Store) -> None:
    service = make_service(store)
    tid = started(service, 4)
    base = {"tournament_id": tid, "round_number": 1, "board": 1}
    answers = _race(db_url, [base | {"result": "1-0"}, base | {"result": "0-1"}])
    errors = [a for a in answers if isinstance(a, ConflictError)]
    winners = [a for a in answers if not isinstance(a, ConflictError)]
    assert len(errors) == 1 and len(winners) == 1
    stored = next(g.result for g in service.overview(tid).games if (g.round, g.board) == (1, 1))
    assert errors[0].current == stored
    assert f"already has {stored}" in str(errors[0])
    assert [h.kind for h in service.history(tid)].count("result") == 1
    assert service.verify(tid) == []


def test_the_same_report_sent_twice_at_once_counts_once(db_url: str, store: Store) -> None:
    service = make_service(store)
    tid = started(service, 4)
    call = {
        "tournament_id": tid,
        "round_number": 2,
        "board": 1,
        "result": "½-½",
        "idempotency_key": "server-7",
    }
    answers = _race(db_url, [dict(call) for _ in range(4)])
    assert not any(isinstance(a, Exception) for a in answers)
    assert sorted(a.replayed for a in answers) == [False, True, True, True]  # type: ignore[attr-defined]
    assert len({a.seq for a in answers}) == 1  # type: ignore[attr-defined]
    assert [h.kind for h in service.history(tid)].count("result") == 1


def _writer(url: str, tid: int, spots: list[tuple[int, int, str]], seed: int) -> tuple[int, int]:
    """A separate process recording results; returns (accepted, conflicts)."""
    store = open_store(url)
    service = Service(store, random=random.Random(seed))
    accepted = conflicts = 0
    shuffled = list(spots)
    random.Random(seed).shuffle(shuffled)
    for round_number, board, value in shuffled:
        try:
            change = service.record_result(tid, round_number, board, value)
        except ConflictError:
            conflicts += 1
        else:
            accepted += 0 if change.replayed else 1
    store.close()
    return accepted, conflicts


def test_concurrent_writers_from_several_processes_lose_nothing(db_url: str, store: Store) -> None:
    service = make_service(store)
    tid = started(service, 8)
    games = [(g.round, g.board) for g in service.overview(tid).games]  # 28 games
    # three processes each try every game; process k says its own result for each
    plans = [[(r, b, value) for r, b in games] for value in ("1-0", "½-½", "0-1")]
    context = multiprocessing.get_context("spawn")
    with context.Pool(3) as pool:
        outcomes = pool.starmap(_writer, [(db_url, tid, plan, k) for k, plan in enumerate(plans)])
    accepted = sum(a for a, _ in outcomes)
    conflicts = sum(c for _, c in outcomes)
    assert accepted == len(games)  # every game won by exactly one writer
    assert conflicts == 2 * len(games)  # the two others told so
    view = service.overview(tid)
    assert all(g.result is not None for g in view.games)
    assert [h.kind for h in service.history(tid)].count("result") == len(games)
    assert service.verify(tid) == []
    assert service.live_standings(tid)["revision"] == service.history(tid)[-1].seq


CRASH_WORKER = """
import sys
from crosstable.service import Service
from crosstable.store import open_store
url, tid = sys.argv[1], int(sys.argv[2])
service = Service(open_store(url))
for line in sys.stdin:
    round_number, board, value = line.split()
    service.record_result(tid, int(round_number), int(board), value)
    print("ack", round_number, board, value, flush=True)
"""


@pytest.mark.parametrize("kills", [3])
def test_sigkill_at_random_moments_loses_no_acknowledged_result(
    db_url: str, store: Store, kills: int
) -> None:
    service = make_service(store)
    tid = started(service, 10)
    todo = [(g.round, g.board) for g in service.overview(tid).games]  # 45 games
    values = ("1-0", "½-½", "0-1")
    acknowledged: dict[tuple[int, int], str] = {}
    chance = random.Random(2026)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for attempt in range(kills + 1):
        pending = [spot for spot in todo if spot not in acknowledged]
        if not pending:
            break
        worker = subprocess.Popen(
            [sys.executable, "-c", CRASH_WORKER, db_url, str(tid)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert worker.stdin is not None and worker.stdout is not None
        for round_number, board in pending:
            worker.stdin.write(f"{round_number} {board} {values[(round_number + board) % 3]}\n")
        worker.stdin.flush()
        deadline = time.monotonic() + (chance.uniform(0.5, 2.0) if attempt < kills else 120)
        while time.monotonic() < deadline:
            line = worker.stdout.readline()
            if not line:
                break
            _, round_number, board, value = line.split()
            acknowledged[(int(round_number), int(board))] = value
            if len(acknowledged) == len(todo):
                break
        worker.send_signal(signal.SIGKILL)  # whatever it was doing
        worker.wait(30)
        for line in worker.stdout:  # acknowledged before the kill, not yet read
            if not line.endswith("\n") or len(line.split()) != 4:
                continue  # cut by the kill while being written: not an acknowledgement
            _, round_number, board, value = line.split()
            acknowledged[(int(round_number), int(board))] = value
    # after the restart: every acknowledged result is there, and the database is consistent
    reopened = open_store(db_url)
    try:
        after = make_service(reopened)
        stored = {(g.round, g.board): g.result for g in after.overview(tid).games}
        for spot, value in acknowledged.items():
            assert stored[spot] == {"1-0": "1-0", "½-½": "½-½", "0-1": "0-1"}[value]
        recorded = sum(1 for v in stored.values() if v is not None)
        assert recorded >= len(acknowledged)  # at most the unacknowledged last one more
        assert [h.kind for h in after.history(tid)].count("result") == recorded
        assert after.verify(tid) == []
        assert after.live_standings(tid)["revision"] == after.history(tid)[-1].seq
        if reopened.dialect == "sqlite":
            with reopened.engine.connect() as connection:
                check = connection.exec_driver_sql("PRAGMA integrity_check").scalar()
            assert check == "ok"
    finally:
        reopened.close()
