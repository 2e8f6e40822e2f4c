"""Benchmark: the live table's one-result update where byes are about (issue 27 item 6).

Run from the project root:  python bench/bench_live_byes.py

Three live tables, every result of the tournament recorded one at a time in round
order (``LiveStandings.record`` then ``standings()``), CPU time per result:

* a 100-player round robin with DE, WIN, SB, KS, BH (no byes: the path of
  bench/bench_tiebreaks.py, over the whole tournament);
* a 99-player round robin under 3-1-0 with a free round worth 3 points (a bye in
  every round: its points enter the table with the round's first result);
* a 300-player, 7-round Swiss with a pairing-allocated bye every round and a few
  half-point byes, BH/C1, BH, SB.

Printed: the median and the 99th percentile of the update (record + ranking), the
worst single result, and the same for the first result of each round alone (it
brings that round's byes in: where any extra work shows).
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import time
from fractions import Fraction

from crosstable.core.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    Round,
    Settings,
    System,
    Tournament,
)
from crosstable.core.schedule.berger import berger_table
from crosstable.core.scoring import PointSystem
from crosstable.core.standings.live import LiveStandings

RESULTS = (GameResult.WHITE_WINS(), GameResult.DRAW(), GameResult.BLACK_WINS())


def round_robin(size: int, settings: Settings) -> Tournament:
    players = tuple(Player(i, f"P{i}", rating=1500 + 7 * i) for i in range(1, size + 1))
    schedule = berger_table(size)
    rounds = []
    for rnd in schedule.rounds:
        games = tuple(
            Game(rnd.number, board, w, b)
            for board, (w, b) in enumerate(rnd.boards, start=1)
            if w <= size and b <= size
        )
        byes = tuple(
            Bye(rnd.number, w if b > size else b, ByeKind.FREE)
            for w, b in rnd.boards
            if (w > size) != (b > size)
        )
        rounds.append(Round(rnd.number, games, byes))
    return Tournament(settings=settings, players=players, rounds=tuple(rounds))


def swiss(size: int = 300, rounds: int = 7, seed: int = 27) -> Tournament:
    """Pairings made up front (score order, no results): the live table is then fed the
    results; a pairing-allocated bye every round and a few half-point byes."""
    rng = random.Random(seed)
    players = tuple(Player(i, f"P{i}", rating=rng.randint(1200, 2700)) for i in range(1, size + 1))
    built = []
    for number in range(1, rounds + 1):
        order = list(range(1, size + 1))
        rng.shuffle(order)
        half = order[:5]
        rest = order[5:]
        byes = [Bye(number, s, ByeKind.HALF) for s in half]
        if len(rest) % 2:
            byes.append(Bye(number, rest.pop(), ByeKind.PAIRING))
        games = tuple(
            Game(number, board, rest[i], rest[i + 1])
            for board, i in enumerate(range(0, len(rest), 2), start=1)
        )
        built.append(Round(number, games, tuple(byes)))
    settings = Settings(system=System.SWISS_DUTCH, rounds=rounds)
    return Tournament(settings=settings, players=players, rounds=tuple(built))


def run(label: str, t: Tournament, codes: list[str]) -> None:
    live = LiveStandings(t, codes)
    rng = random.Random(7)
    times: list[float] = []
    opening: list[float] = []  # the first result of each round (its byes come in)
    for rnd in t.rounds:
        for game in rnd.games:
            start = time.process_time()
            live.record(rnd.number, game.white, game.black, rng.choice(RESULTS))
            live.standings()
            times.append(time.process_time() - start)
            if game is rnd.games[0]:
                opening.append(times[-1])
    times.sort()
    p99 = times[int(len(times) * 0.99)]
    print(
        f"{label}: {len(times)} results, update + ranking median "
        f"{statistics.median(times) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, "
        f"worst {times[-1] * 1000:.2f} ms; a round's first result median "
        f"{statistics.median(opening) * 1000:.2f} ms, worst {max(opening) * 1000:.2f} ms"
    )


def main() -> None:
    print(
        f"{platform.node()} {platform.processor() or platform.machine()}, "
        f"Python {sys.version.split()[0]}, load {os.getloadavg()[0]:.2f}"
    )
    codes = ["DE", "WIN", "SB", "KS", "BH"]
    run("round robin, 100 players, no byes", round_robin(100, Settings()), codes)
    three = Settings(point_system=PointSystem.three_one_zero(), bye_points=Fraction(3))
    run("round robin, 99 players, 3-1-0, free round 3", round_robin(99, three), codes)
    run("Swiss, 300 players x 7, PAB and H byes", swiss(), ["BH/C1", "BH", "SB"])


if __name__ == "__main__":
    main()
