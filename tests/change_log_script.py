"""A scripted run of tournaments whose event log is pinned byte for byte
(tests/test_typed_change_records.py, tests/data/change_log.json).

Every kind of row change the services write: a creation with players, registrations,
a player's and the regulations' edits, the lots, the start, results on the fast path
(plain, and with a reason that changes the row's reason), on the ordinary path, a
correction, a report, an undo, a revert, the finish by the last result, a Swiss's
pairings, a withdrawal, a TRF import and a JSON import. Only the public service is
used, so the same script runs on the code from before the change records were typed
and wrote ``tests/data/change_log.json`` there:

    python tests/change_log_script.py OUT.json      # on a fresh SQLite file

The clock and the random source are fixed, so the log is the same on every run.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import sqlite3
import sys
import tempfile
from pathlib import Path

from crosstable.core.model import LotsMethod, Reason, System
from crosstable.service import FixedClock, PlayerInfo, Regulations, Service
from crosstable.store import Store, open_store

NAMES = ("Ann", "Bob", "Cem", "Dora", "Emil", "Fay", "Gus")


def scripted_service(store: Store) -> Service:
    clock = FixedClock(dt.datetime(2026, 5, 1, 18, 0, tzinfo=dt.UTC), dt.timedelta(seconds=1))
    return Service(store, clock=clock, random=random.Random(7))


def run_script(service: Service) -> list[int]:
    """Run the script; the tournaments it made, in order."""
    made = [_round_robin(service), _swiss(service)]
    made.append(service.import_tournament(service.tournament(made[0])).tournament_id)
    made.append(service.import_json(service.export_json(made[0])))
    return made


def _round_robin(service: Service) -> int:
    players = [PlayerInfo(name, rating=2300 - 25 * index) for index, name in enumerate(NAMES[:2])]
    regulations = Regulations(name="Club “Ü” ½", tiebreaks=("DE", "SB"))
    tid = service.create_tournament(regulations, players=players).tournament_id
    for index, name in enumerate(NAMES[2:6], 2):
        service.add_player(tid, PlayerInfo(name, rating=2300 - 25 * index, federation="ARM"))
    service.edit_player(tid, 3, rating=2111)
    service.edit_regulations(tid, time_control="G/60")
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    games = [(g.round, g.board) for g in service.overview(tid).games]
    service.record_result(tid, *games[0], "1-0")
    service.record_result(tid, *games[1], "+-", reason=Reason.NO_SHOW)
    service.record_result(tid, *games[2], "1/2-1/2", idempotency_key="k-1")
    service.correct_result(tid, *games[0], "0-1")
    view = service.overview(tid).games[3]
    service.report_result(tid, view.round, view.board, "1-0", player=view.white)
    service.undo(tid)
    mark = service.history(tid)[-1].seq
    service.record_result(tid, *games[3], "0-1")
    service.record_result(tid, *games[4], "1-0")
    service.revert_to(tid, mark)
    service.frame.fast_path = False
    try:
        service.record_result(tid, *games[5], "1/2-1/2")
    finally:
        service.frame.fast_path = True
    for index, spot in enumerate(games[3:]):
        if spot != games[5]:
            service.record_result(tid, *spot, ("1-0", "0-1", "1/2-1/2")[index % 3])
    service.undo(tid, reason="a typo", confirm=True)
    return tid


def _swiss(service: Service) -> int:
    regulations = Regulations(name="Open", system=System.SWISS_DUTCH, rounds=3)
    tid = service.create_tournament(regulations).tournament_id
    for index, name in enumerate(NAMES):
        service.add_player(tid, PlayerInfo(name, rating=2400 - 30 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    service.publish_round(tid)
    for game in service.overview(tid).games:
        service.record_result(tid, game.round, game.board, "1-0")
    service.withdraw(tid, 2)
    service.publish_round(tid)
    service.undo(tid)
    return tid


def stored_log(rows: list[tuple[int, int, str, str]], made: list[int]) -> list[list[object]]:
    """(tournament's place in ``made``, seq, kind, row changes as stored) of every event."""
    place = {tid: index for index, tid in enumerate(made)}
    return sorted([place[tid], seq, kind, text] for tid, seq, kind, text in rows if tid in place)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "script.db"
        store = open_store(f"sqlite:///{path}")
        made = run_script(scripted_service(store))
        store.close()
        with sqlite3.connect(path) as connection:
            rows = connection.execute("SELECT tournament_id, seq, kind, changes FROM events")
            log = stored_log(list(rows), made)
    Path(sys.argv[1]).write_text(json.dumps(log, ensure_ascii=False, indent=0) + "\n")


if __name__ == "__main__":
    main()
