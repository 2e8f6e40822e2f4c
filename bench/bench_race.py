"""Who can still win: time `race` on a round robin with games left (docs/race.md).

    python bench/bench_race.py [--players 20] [--left 60] [--top 3] [--system 1-0.5-0]

Plays a random round robin (FIDE Berger order, results drawn with a fixed seed) up to
the last ``--left`` games, then times the whole report (first, top K and the needs of
every player), best of five.
"""

from __future__ import annotations

import argparse
import random
import time

from crosstable.core.model import Game, GameResult, Player, Round, Settings, Tournament
from crosstable.core.race import race, race_problem
from crosstable.core.schedule.berger import berger_table
from crosstable.core.scoring import PointSystem


def tournament(players: int, left: int, system: str, seed: int = 1) -> Tournament:
    rng = random.Random(seed)
    schedule = berger_table(players).rounds
    games = [(r.number, b, w, bl) for r in schedule for b, (w, bl) in enumerate(r.boards, 1)]
    played = len(games) - left
    results = (GameResult.WHITE_WINS(), GameResult.DRAW(), GameResult.BLACK_WINS())
    rounds: dict[int, list[Game]] = {}
    for n, (r, b, w, bl) in enumerate(games):
        result = rng.choice(results) if n < played else None
        rounds.setdefault(r, []).append(Game(r, b, w, bl, result))
    return Tournament(
        settings=Settings(point_system=PointSystem.parse(system)),
        players=tuple(Player(i, f"Player {i}") for i in range(1, players + 1)),
        rounds=tuple(Round(r, tuple(g)) for r, g in sorted(rounds.items())),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--left", type=int, default=60)
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--system", default="1-0.5-0")
    args = parser.parse_args()
    t = tournament(args.players, args.left, args.system)
    best = cpu = float("inf")
    for _ in range(5):
        start, used = time.perf_counter(), time.process_time()
        report = race(race_problem(t), args.top)
        best = min(best, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - used)
    counts = {
        s: sum(r.first == s for r in report.rows) for s in ("clinched", "possible", "eliminated")
    }
    print(
        f"{args.players} players, {report.games_left} games left, {args.system}, top {args.top}: "
        f"{best * 1000:.1f} ms wall, {cpu * 1000:.1f} ms CPU (best of 5); first: {counts}; "
        f"exact: {report.exact}"
    )


if __name__ == "__main__":
    main()
