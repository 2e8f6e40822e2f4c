"""The Swiss tables kept for the pages belong to one database: two databases in one
process (a test worker, a server with several sites) each get their own tournament's
table, also when the tournament numbers and revisions are the same."""

from __future__ import annotations

from pathlib import Path

from test_service_support import migrated

from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store
from crosstable.web.pairing_views import SWISS_TABLES


def _swiss(path: Path, prefix: str) -> tuple[Service, int]:
    service = Service(open_store(migrated(f"sqlite:///{path}")))
    regulations = Regulations(name="Open", system=System.SWISS_DUTCH, rounds=3)
    tid = service.create_tournament(regulations).tournament_id
    for index in range(4):
        service.add_player(tid, PlayerInfo(f"{prefix} {index + 1}", rating=2000 - index))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    service.publish_round(tid)
    return service, tid


def test_two_databases_with_the_same_tournament_number_keep_their_own_tables(
    tmp_path: Path,
) -> None:
    first, tid = _swiss(tmp_path / "a.db", "Anna")
    second, other = _swiss(tmp_path / "b.db", "Boris")
    try:
        views = [service.crosstable(tid) for service in (first, second)]
        assert tid == other and views[0][0].revision == views[1][0].revision
        for service, (view, table), name in zip(
            (first, second), views, ("Anna", "Boris"), strict=True
        ):
            swiss = SWISS_TABLES.get(service, view, table)
            assert {line.name.split()[0] for line in swiss.lines} == {name}
    finally:
        first.store.close()
        second.store.close()
