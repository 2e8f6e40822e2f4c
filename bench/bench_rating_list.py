"""Issue 16 item 1: importing a FIDE rating list and looking players up.

Builds a TXT list of ``--players`` players (default 300 000) in FIDE's exact layout
(players_list_foa.txt, zipped as players_list.zip), imports it into a fresh database,
imports it again (every row an update), then times look-ups by FIDE id and by name
prefix. docs/benchmarks.md reports the figures.

    python bench/bench_rating_list.py [--players 300000] [--db URL] [--lookups 200]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
import zipfile
from pathlib import Path

from crosstable.formats.rating_list import ListedPlayer
from crosstable.formats.rating_list_write import fide_txt_header, fide_txt_line
from crosstable.service import Service
from crosstable.service.rating_lists import RatingLists
from crosstable.store import open_store

SURNAMES = ("Ivanov", "Smith", "Müller", "García", "Nguyen", "Kowalski", "Silva", "Novák")
FIRST = ("Anna", "Boris", "Chen", "Dmitri", "Elena", "Farid", "Greta", "Hugo")
FEDS = ("RUS", "USA", "GER", "ESP", "VIE", "POL", "BRA", "CZE")


def build(path: Path, players: int, rng: random.Random) -> list[ListedPlayer]:
    made = []
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("players_list_foa.txt", "w") as raw,
    ):
        raw.write((fide_txt_header() + "\n").encode())
        for k in range(players):
            p = ListedPlayer(
                fide_id=100_000 + k * 7,
                name=f"{rng.choice(SURNAMES)}{k % 9973}, {rng.choice(FIRST)}",
                federation=rng.choice(FEDS),
                sex=rng.choice("mw"),
                title=rng.choice(("", "", "", "", "FM", "IM", "GM")),
                birth_year=rng.randint(1940, 2018),
                standard=rng.choice((None, rng.randint(1400, 2800))),
                rapid=rng.choice((None, rng.randint(1400, 2800))),
                blitz=rng.choice((None, rng.randint(1400, 2800))),
            )
            raw.write((fide_txt_line(p) + "\n").encode("latin-1"))
            if k % 1000 == 0:
                made.append(p)
    return made


def median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 2)


def run(players: int, db: str | None, lookups: int) -> dict[str, object]:
    rng = random.Random(16)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "players_list.zip"
        sample = build(path, players, rng)
        store = open_store(db or f"sqlite:///{folder}/bench.db")
        lists = RatingLists(Service(store))
        started, cpu = time.perf_counter(), time.process_time()
        report = lists.import_file(path)
        first, first_cpu = time.perf_counter() - started, time.process_time() - cpu
        started, cpu = time.perf_counter(), time.process_time()
        lists.import_file(path)
        again, again_cpu = time.perf_counter() - started, time.process_time() - cpu
        by_id, by_name = [], []
        for k in range(lookups):
            p = sample[k % len(sample)]
            t = time.perf_counter()
            assert lists.find(str(p.fide_id))[0].fide_id == p.fide_id
            by_id.append(time.perf_counter() - t)
            t = time.perf_counter()
            assert lists.find(p.name[: 3 + k % 6])
            by_name.append(time.perf_counter() - t)
        store.close()
    return {
        "players": report.players,
        "dialect": store.dialect,
        "import_s": round(first, 2),
        "import_cpu_s": round(first_cpu, 2),
        "reimport_s": round(again, 2),
        "reimport_cpu_s": round(again_cpu, 2),
        "find_by_id_ms_median": median_ms(by_id),
        "find_by_name_ms_median": median_ms(by_name),
        "find_by_name_ms_max": round(max(by_name) * 1000, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=300_000)
    parser.add_argument("--db", default=None)
    parser.add_argument("--lookups", type=int, default=200)
    args = parser.parse_args()
    print(json.dumps(run(args.players, args.db, args.lookups), indent=2))


if __name__ == "__main__":
    main()
