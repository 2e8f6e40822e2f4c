"""The round-robin tables published as "Crenshaw-Berger Tables" (tests/data/
crenshaw_berger_tables.txt, its source named there) against our FIDE Berger tables, for
every field they publish (3-14 players: an odd field plays the next table with a ghost,
whoever meets it has the bye): they are the same pairings with the same colours, round
for round, so this set is FIDE's Berger tables (docs/schedules.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crosstable.core.schedule import berger_table

DATA = Path(__file__).parent / "data" / "crenshaw_berger_tables.txt"


def published() -> dict[int, dict[int, frozenset[tuple[int, int]]]]:
    tables: dict[int, dict[int, frozenset[tuple[int, int]]]] = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        head, games = line.split(":")
        size, number = (int(part) for part in head.split())
        pairs = frozenset((int(w), int(b)) for w, b in (game.split("-") for game in games.split()))
        tables.setdefault(size, {})[number] = pairs
    return tables


TABLES = published()


def test_r_rr_6_the_published_set_is_complete() -> None:
    assert sorted(TABLES) == [4, 6, 8, 10, 12, 14]
    for size, rounds in TABLES.items():
        assert sorted(rounds) == list(range(1, size))
        assert all(len(pairs) == size // 2 for pairs in rounds.values())


@pytest.mark.parametrize("players", range(3, 15))
def test_r_rr_6_crenshaw_berger_tables_equal_ours(players: int) -> None:
    size = players + players % 2
    ghost = size if players % 2 else None
    for scheduled in berger_table(players).rounds:
        table = TABLES[size][scheduled.number]
        boards = {pair for pair in table if ghost not in pair}
        bye = next((w if b == ghost else b for w, b in table if ghost in (w, b)), None)
        assert set(scheduled.boards) == boards, (players, scheduled.number)
        assert scheduled.bye == bye
