"""TRF read / write / JSON timing, and a cross-check against two peer TRF readers.

Run: python bench/bench_trf.py [SHARED_DATA_DIR]   (results go to docs/benchmarks.md by hand)

Peers (install in your shell only, never a dependency): ``trf`` (PyPI 1.1.1) and
``py4swiss`` (its TRF(x) parser). For every reference file, every player's
round entries (opponent, colour, result code) as crosstable reads them are
compared with what ``trf`` reads; py4swiss is timed only (it reads UTF-8 files).
"""

from __future__ import annotations

import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
from crosstable.formats.json_io import dump_json, load_json
from crosstable.formats.trf import TrfDocument, decode_trf, parse_trf, write_trf

DATA = (
    Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "shared/data"
)


def best(call: Callable[[], object], repeat: int = 3) -> float:
    result = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        result = min(result, time.perf_counter() - start)
    return result


def big_swiss(players: int, rounds: int, seed: int = 1) -> TrfDocument:
    """A random Swiss-shaped tournament (random pairings, results and byes)."""
    rng = random.Random(seed)
    field = tuple(
        Player(s, f"Player {s:05d}", rating=rng.randint(1000, 2800)) for s in range(1, players + 1)
    )
    results = [GameResult.WHITE_WINS(), GameResult.DRAW(), GameResult.BLACK_WINS()]
    played = []
    for number in range(1, rounds + 1):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        pairs = sorted((order[i], order[i + 1]) for i in range(0, players - 1, 2))
        games = tuple(
            Game(number, b, w, k, rng.choice(results)) for b, (w, k) in enumerate(pairs, 1)
        )
        byes = (Bye(number, order[-1], ByeKind.PAIRING),) if players % 2 else ()
        played.append(Round(number, games, byes))
    settings = Settings(System.SWISS_DUTCH, rounds=rounds)
    return TrfDocument.from_tournament(Tournament(settings, field, tuple(played), name="Bench"))


def _peer_reads(read: Callable[[Any], object], source: object) -> bool:
    """Whether a peer reader accepts the input (its rejections are reported, not raised)."""
    try:
        read(source)
    except Exception:
        return False
    return True


def cross_check(paths: list[Path]) -> tuple[int, int]:
    """Entries compared with the ``trf`` package; returns (entries compared, differences)."""
    import trf  # peer package, benchmark only

    compared = differences = 0
    for path in paths:
        text = decode_trf(path.read_bytes())
        if not _peer_reads(trf.loads, text):
            print(f"  trf rejects {path.name}")
            continue
        ours = parse_trf(text, source=str(path)).tournament
        theirs = {p.startrank: p for p in trf.loads(text).players}
        for player in ours.players:
            games = {g.round: g for g in theirs[player.start].games}
            for entry in ours.entries(player.start):
                game = games.get(entry.round)
                if game is None:  # blank entry in the file: not in the round
                    continue
                compared += 1
                mine = (entry.opponent or 0, entry.colour.value, entry.outcome.value.strip())
                other = (
                    game.startrank or 0,
                    game.color.strip() or "-",
                    game.result.strip().upper(),
                )
                if mine != other:
                    differences += 1
                    print(f"  {path.name} player {player.start}: {mine} vs trf {other}")
    return compared, differences


def main() -> None:
    paths = sorted(DATA.glob("**/*.trf"))
    texts = [decode_trf(p.read_bytes()) for p in paths]
    lines = sum(t.count("\n") for t in texts)
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"{len(paths)} reference files, {lines} lines\n")
    print("| case | best of 3 |\n|---|---|")
    docs = [parse_trf(t) for t in texts]
    seconds = best(lambda: [parse_trf(t) for t in texts])
    print(f"| read all reference files | {seconds * 1000:.0f} ms |")
    print(f"| write all (TRF-2026) | {best(lambda: [write_trf(d) for d in docs]) * 1000:.0f} ms |")
    dumped = [dump_json(d) for d in docs]
    print(f"| JSON dump all | {best(lambda: [dump_json(d) for d in docs]) * 1000:.0f} ms |")
    print(f"| JSON load all | {best(lambda: [load_json(j) for j in dumped]) * 1000:.0f} ms |")
    for players, rounds in ((300, 9), (2000, 11)):
        text = write_trf(big_swiss(players, rounds))
        seconds = best(lambda text=text: parse_trf(text))
        print(f"| read {players} players × {rounds} rounds | {seconds * 1000:.0f} ms |")
    try:
        import trf
    except ImportError:
        print("\n(peer package trf not installed: pip install trf)")
    else:
        readable = [t for t in texts if _peer_reads(trf.loads, t)]
        seconds = best(lambda: [trf.loads(t) for t in readable])
        mine = best(lambda: [parse_trf(t) for t in readable])
        print(
            f"| peer `trf` 1.1.1: the {len(readable)} files it accepts "
            f"(ours: {mine * 1000:.0f} ms) | {seconds * 1000:.0f} ms |"
        )
    try:
        from py4swiss.trf.trf_parser import TrfParser
    except ImportError:
        print("\n(peer package py4swiss not installed)")
    else:
        utf8 = [p for p, t in zip(paths, texts, strict=True) if t.isascii()]

        def p4s() -> None:
            for path in utf8:
                _peer_reads(TrfParser.parse, path)

        ours = best(lambda: [parse_trf(texts[paths.index(p)]) for p in utf8])
        print(
            f"| py4swiss TrfParser ({len(utf8)} ASCII files; ours: {ours * 1000:.0f} ms) "
            f"| {best(p4s) * 1000:.0f} ms |"
        )
    if "trf" in sys.modules:
        compared, differences = cross_check(paths)
        print(f"\ncross-check with `trf`: {compared} round entries, {differences} differences")


if __name__ == "__main__":
    main()
