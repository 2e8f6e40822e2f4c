"""Dutch pairing speed: crosstable against py4swiss, side by side, same input.

For each field size a tournament of 4 rounds is generated (seeded, results drawn
from ratings, 9 rounds planned) and round 5 is paired by each engine in its own
process; the script prints wall time of the pairing call, peak memory of the
process (VmHWM: ru_maxrss would carry the parent's peak over the fork) and
whether the two pairings agree.

    python bench/bench_dutch.py            # 500 and 1000 players
    python bench/bench_dutch.py 200 500    # chosen sizes
    python bench/bench_dutch.py --crosscheck 100 [SEED]   # random events vs py4swiss

py4swiss is a benchmark peer only: ``pip install py4swiss`` in your shell.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

OURS = r"""
import json, sys, time
from crosstable.cli.pair import request_from_document
from crosstable.core.pairing.dutch import pair_round
from crosstable.formats.trf import read_trf
doc = read_trf(sys.argv[1])
start, cpu = time.perf_counter(), time.process_time()
pairing = pair_round(request_from_document(doc))
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
pairs = [list(b) for b in pairing.boards] + ([[pairing.bye, 0]] if pairing.bye else [])
peak = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")) / 1024
print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mib": peak, "pairs": pairs}))
"""

PEER = r"""
import json, sys, time
from pathlib import Path
from py4swiss.engines import DutchEngine
from py4swiss.trf import TrfParser
trf = TrfParser.parse(Path(sys.argv[1]))
start, cpu = time.perf_counter(), time.process_time()
pairings = DutchEngine.generate_pairings(trf)
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
out = Path(sys.argv[1]).with_suffix(".py4swiss.txt")
DutchEngine.write_pairings_to_file(pairings, out)
lines = out.read_text().split()[1:]
pairs = [[int(lines[k]), int(lines[k + 1])] for k in range(0, len(lines), 2)]
peak = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")) / 1024
print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mib": peak, "pairs": pairs}))
"""


def make_event(players: int, folder: Path) -> Path:
    from dataclasses import replace

    from crosstable.core.model import Colour, Settings, System
    from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate
    from crosstable.formats.trf import write_trf
    from crosstable.formats.trf_model import TrfDocument

    tournament = generate(GeneratorSettings(players=players, rounds=4, seed=players))
    tournament = replace(tournament, settings=Settings(system=System.SWISS_DUTCH, rounds=9))
    doc = TrfDocument.from_tournament(tournament)
    order = sorted(doc.file_points, key=lambda start: (-doc.file_points[start], start))
    ranks: dict[int, int | None] = {start: rank for rank, start in enumerate(order, 1)}
    doc = replace(doc, initial_colour=Colour.WHITE, file_ranks=ranks)
    path = folder / f"swiss{players}.trf"
    path.write_text(write_trf(doc))
    return path


def run(code: str, path: Path) -> dict[str, object] | None:
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=False
    )
    if done.returncode:
        print(done.stderr.strip().splitlines()[-1] if done.stderr else "failed")
        return None
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main(sizes: list[int]) -> None:
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(
        f"{'players':>8} {'crosstable s':>13} {'cpu s':>6} {'MiB':>5}"
        f" {'py4swiss s':>11} {'cpu s':>6} {'MiB':>5}  same"
    )
    with tempfile.TemporaryDirectory() as folder:
        for players in sizes:
            path = make_event(players, Path(folder))
            ours = run(OURS, path)
            peer = run(PEER, path)
            same = "n/a"
            if ours and peer:
                same = "yes" if ours["pairs"] == peer["pairs"] else "NO"

            def cell(r: dict[str, object] | None, key: str, fmt: str) -> str:
                return format(r[key], fmt) if r else "-"

            print(
                f"{players:>8} {cell(ours, 'seconds', '13.2f')} {cell(ours, 'cpu', '6.2f')}"
                f" {cell(ours, 'peak_mib', '5.0f')} {cell(peer, 'seconds', '11.2f')}"
                f" {cell(peer, 'cpu', '6.2f')} {cell(peer, 'peak_mib', '5.0f')}  {same}"
            )


def crosscheck(count: int, seed: int) -> None:
    """Pair a random round of ``count`` random events with both engines and
    list the events where the pairings differ (TRF files kept for study)."""
    import random
    from dataclasses import replace

    from crosstable.cli.pair import request_from_document
    from crosstable.core.model import Colour, Settings, System
    from crosstable.core.pairing.dutch import NoValidPairingError, pair_round
    from crosstable.core.pairing.dutch.from_tournament import before_round
    from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate
    from crosstable.formats.trf import read_trf, write_trf
    from crosstable.formats.trf_model import TrfDocument

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="dutch-crosscheck-"))
    same = differ = 0
    for index in range(count):
        players = rng.randint(8, 160)
        rounds = min(players - 2, rng.randint(3, 9))
        settings = GeneratorSettings(
            players=players,
            rounds=rounds,
            seed=rng.randrange(10**9),
            half_bye_rate=rng.choice([0.0, 0.05]),
            forfeit_rate=rng.choice([0.0, 0.04]),
        )
        number = rng.randint(2, rounds)
        try:
            tournament = generate(settings)
        except NoValidPairingError:
            continue
        cut = replace(
            before_round(tournament, number),
            settings=Settings(system=System.SWISS_DUTCH, rounds=rounds),
        )
        doc = TrfDocument.from_tournament(cut)
        order = sorted(doc.file_points, key=lambda start: (-doc.file_points[start], start))
        ranks: dict[int, int | None] = {start: rank for rank, start in enumerate(order, 1)}
        doc = replace(doc, initial_colour=Colour.WHITE, file_ranks=ranks)
        path = folder / f"event{index}.trf"
        path.write_text(write_trf(doc))
        ours = pair_round(request_from_document(read_trf(path)))
        mine = [list(b) for b in ours.boards] + ([[ours.bye, 0]] if ours.bye else [])
        peer = run(PEER, path)
        if peer is None:
            continue
        if peer["pairs"] == mine:
            same += 1
        else:
            differ += 1
            print(f"differs: {path} ({players} players, round {number} of {rounds})")
    print(f"{same} identical, {differ} different")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--crosscheck"]:
        crosscheck(int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    else:
        main([int(a) for a in sys.argv[1:]] or [500, 1000])
