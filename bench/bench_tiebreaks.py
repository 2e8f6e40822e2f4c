"""Benchmark: full standings with PTS, SB, BH, BH/C1, WIN, PS, ARO — ours against tiebreak-core.

Run from the project root:  python bench/bench_tiebreaks.py
(``pip install tiebreak-core`` first; it is a peer package for comparison only.)

Fields, generated from a fixed seed:
* a 1000-player, 9-round Swiss event (score-group pairings, a few half-point and
  zero-point byes and forfeits);
* a 100-player single round robin on the Berger table (99 rounds, 4950 games).

Both libraries start from their own in-memory model, built beforehand: ours from a
``Tournament``, tiebreak-core from its ``PlayerTiebreakData`` records. Each figure
is the best CPU time of several runs. Then the live table: one new result in the
100-player round robin (preset DE, WIN, SB, KS, plus BH), updated incrementally.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction

from crosstable.core.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    Round,
    RulesEdition,
    Settings,
    System,
    Tournament,
)
from crosstable.core.schedule.berger import berger_table
from crosstable.core.standings import compute_standings
from crosstable.core.standings.live import LiveStandings

CODES = ["SB", "BH", "BH/C1", "WIN", "PS", "ARO"]
PEER = ["sonneborn_berger", "buchholz", "buchholz_cut1", "wins", "progressive", "aro"]
WIN, DRAW, LOSS = GameResult.WHITE_WINS(), GameResult.DRAW(), GameResult.BLACK_WINS()


def random_result(rng: random.Random, forfeits: bool) -> GameResult:
    x = rng.random()
    if forfeits and x < 0.01:
        return GameResult.parse("+-")
    return WIN if x < 0.4 else DRAW if x < 0.7 else LOSS


def swiss(size: int = 1000, rounds: int = 9, seed: int = 2024) -> Tournament:
    rng = random.Random(seed)
    players = tuple(Player(i, f"P{i}", rating=rng.randint(1200, 2700)) for i in range(1, size + 1))
    score = {p.start: Fraction(0) for p in players}
    built = []
    for number in range(1, rounds + 1):
        order = sorted(score, key=lambda s: (-score[s], s))
        byes = []
        absent = set(rng.sample(order, 6))
        for k, start in enumerate(sorted(absent)):
            kind = ByeKind.HALF if k % 2 else ByeKind.ZERO
            byes.append(Bye(number, start, kind))
            score[start] += Fraction(1, 2) if kind is ByeKind.HALF else 0
        order = [s for s in order if s not in absent]
        games = []
        for board, i in enumerate(range(0, len(order) - 1, 2), start=1):
            white, black = order[i], order[i + 1]
            result = random_result(rng, True)
            games.append(Game(number, board, white, black, result))
            for who, outcome in ((white, result.white), (black, result.black)):
                score[who] += outcome.points(Settings().point_system)
        built.append(Round(number, tuple(games), tuple(byes)))
    settings = Settings(system=System.SWISS_DUTCH, rules=RulesEdition.C07_2024)
    return Tournament(settings=settings, players=players, rounds=tuple(built))


def round_robin(size: int = 100, seed: int = 2026, pending_last: bool = False) -> Tournament:
    rng = random.Random(seed)
    players = tuple(Player(i, f"P{i}", rating=rng.randint(1200, 2700)) for i in range(1, size + 1))
    schedule = berger_table(size)
    built = []
    last = len(schedule.rounds)
    for rnd in schedule.rounds:
        games = tuple(
            Game(
                rnd.number,
                board,
                w,
                b,
                None if pending_last and rnd.number == last else random_result(rng, False),
            )
            for board, (w, b) in enumerate(rnd.boards, start=1)
        )
        built.append(Round(rnd.number, games))
    return Tournament(players=players, rounds=tuple(built))


def peer_model(t: Tournament) -> dict[int, object]:
    """The same tournament as tiebreak-core's input records."""
    from tiebreak_core import GameRecord, PlayerTiebreakData

    rating = {p.start: p.rating or 0 for p in t.players}
    records: dict[int, list[object]] = {p.start: [] for p in t.players}
    for rnd in t.rounds:
        for g in rnd.games:
            assert g.result is not None
            for me, other, outcome, colour in (
                (g.white, g.black, g.result.white, "white"),
                (g.black, g.white, g.result.black, "black"),
            ):
                kind = {"+": "forfeit_win", "-": "forfeit_loss"}.get(outcome.value, "played")
                points = float(outcome.points(t.settings.point_system))
                records[me].append(
                    GameRecord(other, rating[other], points, colour, rnd.number, kind)
                )
        for bye in rnd.byes:
            points = 0.5 if bye.kind is ByeKind.HALF else 0.0
            records[bye.player].append(
                GameRecord(-1, 0, points, "white", rnd.number, "requested_bye")
            )
    return {
        p.start: PlayerTiebreakData(
            p.start, rating[p.start], float(t.score(p.start)), records[p.start]
        )
        for p in t.players
    }


def best(fn: Callable[[], object], repeat: int) -> float:
    """The shortest CPU time of ``repeat`` runs (CPU time: other processes on the
    machine do not count, which matters on a shared two-core box)."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    try:
        from tiebreak_core import __version__ as peer_version
        from tiebreak_core import rank_standings_strict
    except ImportError:
        peer_version = ""
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"{platform.python_implementation()} {platform.python_version()}, {sys.platform}"
    )
    for label, t, rounds in (
        ("Swiss 1000 players × 9 rounds", swiss(), 9),
        ("round robin 100 players (99 rounds)", round_robin(), 99),
    ):
        ours_table = compute_standings(t, CODES)
        if not peer_version:
            ours = best(lambda t=t: compute_standings(t, CODES), 15)
            print(f"{label}: crosstable {ours * 1000:.1f} ms")
            continue
        model = peer_model(t)
        peer_table = rank_standings_strict(model, PEER, total_rounds=rounds, ruleset="fide-2024")
        # interleaved, so that both feel the same load from the rest of the machine
        ours_times, peer_times = [], []
        for _ in range(7):
            ours_times.append(best(lambda t=t: compute_standings(t, CODES), 2))
            peer_times.append(
                best(
                    lambda m=model, r=rounds: rank_standings_strict(
                        m, PEER, total_rounds=r, ruleset="fide-2024"
                    ),
                    1,
                )
            )
        ours, peer = min(ours_times), min(peer_times)
        same = [p.player_id for p in peer_table.players][:10] == [
            row.start for row in ours_table.rows
        ][:10]
        print(
            f"{label}: crosstable {ours * 1000:.1f} ms, tiebreak-core {peer_version} "
            f"{peer * 1000:.1f} ms, {peer / ours:.1f}× faster (top 10 agree: {same})"
        )
    # live: one new result in a 100-player round robin
    t = round_robin(pending_last=True)
    live = LiveStandings(t, ["DE", "WIN", "SB", "KS", "BH"])
    last = t.rounds[-1]
    updates = []
    cpu = []
    ranks = []
    rng = random.Random(7)
    for game in last.games:
        result = random_result(rng, False)
        start, start_cpu = time.perf_counter(), time.process_time()
        live.record(last.number, game.white, game.black, result)
        updates.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        start = time.perf_counter()
        live.standings()
        ranks.append(time.perf_counter() - start)
    print(
        f"live, 100-player round robin: one result updates DE, WIN, SB, KS, BH in "
        f"{statistics.median(updates) * 1000:.3f} ms (median of {len(updates)}; "
        f"CPU time at most {max(cpu) * 1000:.3f} ms, wall-clock at most "
        f"{max(updates) * 1000:.3f} ms); re-ranking the table "
        f"{statistics.median(ranks) * 1000:.2f} ms"
    )
    full = best(lambda: compute_standings(live.tournament, ["DE", "WIN", "SB", "KS", "BH"]), 5)
    print(f"(a full recount of that table: {full * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
