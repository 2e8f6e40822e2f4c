"""Dutch pairing speed: crosstable against py4swiss, side by side, same input.

For each field size a tournament of 4 rounds is generated (seeded, results drawn
from ratings, 9 rounds planned) and round 5 is paired by each engine in its own
process; the script prints wall and CPU time of the pairing (crosstable: the
request built from the TRF, then paired; py4swiss: its pairing call), peak
memory of the process (VmHWM: ru_maxrss would carry the parent's peak over the
fork), whether the two pairings agree, and the machine's load average (CPU
time is the steadier figure on a shared machine).

    python bench/bench_dutch.py            # 500, 1000 and 2000 players
    python bench/bench_dutch.py 200 500    # chosen sizes
    python bench/bench_dutch.py --round 2 --events DIR 1000   # round 2; keep the events
    python bench/bench_dutch.py --crosscheck 1000 [SEED]  # random events vs py4swiss

The cross-check pairs a random round of random events (6-400 players, half-point
byes, absences, forfeits) with both engines, keeps every event as TRF with
crosstable's pairing beside it, and labels each difference: the py4swiss
reading that explains it (see READINGS), C5, or "unexplained".

py4swiss is a benchmark peer only: ``pip install py4swiss`` in your shell.
"""

from __future__ import annotations

import json
import math
import os
import platform
import random
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crosstable.core.pairing.dutch import Pairing

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


def make_event(players: int, folder: Path, round_number: int = 5) -> Path:
    """A generated event of ``players`` with ``round_number - 1`` rounds played
    (reused when ``folder`` already holds it: generating large fields takes a while)."""
    from crosstable.core.model import Colour, Settings, System
    from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate
    from crosstable.formats.trf import write_trf
    from crosstable.formats.trf_model import TrfDocument

    path = folder / f"swiss{players}_r{round_number}.trf"
    if path.exists():
        return path
    settings = GeneratorSettings(players=players, rounds=round_number - 1, seed=players)
    tournament = generate(settings)
    tournament = replace(tournament, settings=Settings(system=System.SWISS_DUTCH, rounds=9))
    doc = TrfDocument.from_tournament(tournament)
    order = sorted(doc.file_points, key=lambda start: (-doc.file_points[start], start))
    ranks: dict[int, int | None] = {start: rank for rank, start in enumerate(order, 1)}
    doc = replace(doc, initial_colour=Colour.WHITE, file_ranks=ranks)
    path.write_text(write_trf(doc))
    return path


def child_env() -> dict[str, str]:
    """The environment for a child process: this checkout importable."""
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def run(code: str, path: Path) -> dict[str, object] | None:
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        capture_output=True,
        text=True,
        check=False,
        env=child_env(),
    )
    if done.returncode:
        print(done.stderr.strip().splitlines()[-1] if done.stderr else "failed")
        return None
    result: dict[str, object] = json.loads(done.stdout)
    return result


def load() -> str:
    """The machine's load average (1, 5, 15 minutes): figures on a busy machine mislead."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def main(sizes: list[int], round_number: int = 5, events: Path | None = None) -> None:
    if events is None:
        with tempfile.TemporaryDirectory() as folder:
            main(sizes, round_number, Path(folder))
        return
    events.mkdir(parents=True, exist_ok=True)
    cores = os.cpu_count()
    print(
        f"{platform.processor() or platform.machine()}, {cores} cores,"
        f" Python {platform.python_version()}, load {load()}"
    )
    print(f"round {round_number} of a generated event (results drawn from ratings)")
    print(
        f"{'players':>8} {'crosstable s':>13} {'cpu s':>6} {'MiB':>5}"
        f" {'py4swiss s':>11} {'cpu s':>6} {'MiB':>5}  same"
    )
    for players in sizes:
        path = make_event(players, events, round_number)
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
            f"  (load {load()})"
        )


PEER_WORKER = r"""
import json, sys
from pathlib import Path
from py4swiss.engines import DutchEngine
from py4swiss.trf import TrfParser
for line in sys.stdin:
    path = Path(line.strip())
    try:
        pairings = DutchEngine.generate_pairings(TrfParser.parse(path))
        out = path.with_suffix(".py4swiss.txt")
        DutchEngine.write_pairings_to_file(pairings, out)
        words = out.read_text().split()[1:]
        pairs = [[int(words[k]), int(words[k + 1])] for k in range(0, len(words), 2)]
        print(json.dumps({"pairs": pairs}), flush=True)
    except Exception as error:  # a failure is reported, not fatal
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}), flush=True)
"""

# py4swiss follows the 2017 text of C.04.3 in three places where the 2026 text
# (and the endorsed engine's reference pairings) say otherwise; docs/swiss.md,
# "Verified against", gives the rules. To classify a difference, crosstable
# pairs the event again with the older reading(s) switched on: if it then
# agrees with py4swiss, the difference is that reading.
READINGS = {
    "unplayed-downfloat": "a round not played over the board (forfeit loss, zero-point bye) "
    "counts as a downfloat (2017 A.4.b; 2026 art. 1.4.3: only when it scores more than a loss)",
    "absent-number": "a player absent and never paired keeps a pairing number "
    "(reference data: the endorsed engine renumbers)",
    "no-c9": "no C9 (2026: the PAB goes to the candidate with the fewest unplayed games)",
}


@contextmanager
def older_readings(names: tuple[str, ...]) -> Iterator[None]:
    """Switch on py4swiss's readings inside crosstable's engine (diagnosis only)."""
    from crosstable.core.pairing.dutch import engine, players

    saved: list[tuple[object, str, object]] = []

    def patch(owner: object, name: str, value: object) -> None:
        saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)

    if "unplayed-downfloat" in names:
        current = players._float

        def float_2017(competitor, rounds_back, paired_round, request, states):  # type: ignore[no-untyped-def]
            if (
                paired_round >= rounds_back
                and not competitor.history[paired_round - rounds_back].played
            ):
                return players.Float.DOWN
            return current(competitor, rounds_back, paired_round, request, states)

        patch(players, "_float", float_2017)
    if "absent-number" in names:
        build = players.build_states

        def keep_numbers(request):  # type: ignore[no-untyped-def]
            everyone, states = build(replace(request, absent=frozenset()))
            return [p for p in everyone if p.start not in request.absent], states

        patch(engine, "build_states", keep_numbers)
    if "no-c9" in names:
        choose = engine._Pairer._choose_bye_score

        def without_c9(self):  # type: ignore[no-untyped-def]
            choose(self)
            self.unplayed_rank = {}

        patch(engine._Pairer, "_choose_bye_score", without_c9)
    try:
        yield
    finally:
        for owner, name, value in reversed(saved):
            setattr(owner, name, value)


def classify(path: Path, peer: list[list[int]]) -> str:
    """Why crosstable and py4swiss differ on the event in ``path``."""
    from crosstable.cli.pair import request_from_document
    from crosstable.core.pairing.dutch import pair_round
    from crosstable.formats.trf import read_trf

    request = request_from_document(read_trf(path))
    for size in range(1, len(READINGS) + 1):
        for names in combinations(READINGS, size):
            with older_readings(names):
                if as_pairs(pair_round(request)) == peer:
                    return "+".join(names)
    ours = pair_round(request)
    scores = {c.start: c.score() for c in request.competitors}
    played = {c.start: sum(r.played for r in c.history) for c in request.competitors}
    peer_bye = next((a for a, b in peer if b == 0), None)
    if ours.bye is not None and peer_bye is not None:
        if scores[peer_bye] > scores[ours.bye]:
            return "C5"  # py4swiss's PAB recipient has a higher score
        if scores[peer_bye] == scores[ours.bye] and played[peer_bye] < played[ours.bye]:
            return "C9"  # same score, more unplayed games
    return "unexplained"


def as_pairs(pairing: Pairing) -> list[list[int]]:
    pairs = [list(board) for board in pairing.boards]
    return pairs + ([[pairing.bye, 0]] if pairing.bye is not None else [])


def random_event(rng: random.Random, index: int, folder: Path) -> tuple[Path, str] | None:
    """A random event cut before a random round, as TRF, or None if it cannot be made."""
    from crosstable.core.model import Colour, Settings, System
    from crosstable.core.pairing.dutch import NoValidPairingError
    from crosstable.core.pairing.dutch.from_tournament import before_round
    from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate
    from crosstable.formats.trf import write_trf
    from crosstable.formats.trf_model import TrfDocument

    players = round(math.exp(rng.uniform(math.log(6), math.log(400))))
    rounds = min(players - 1, rng.randint(3, 11))
    settings = GeneratorSettings(
        players=players,
        rounds=rounds,
        seed=rng.randrange(10**9),
        draw_rate=rng.choice([0.2, 0.4]),
        half_bye_rate=rng.choice([0.0, 0.02, 0.06]),
        absence_rate=rng.choice([0.0, 0.02, 0.05]),
        forfeit_rate=rng.choice([0.0, 0.02, 0.05]),
    )
    number = rounds if rng.random() < 0.25 else rng.randint(2, rounds)
    try:
        tournament = generate(replace(settings, rounds=number))
    except NoValidPairingError:
        return None
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
    return path, f"{players} players, round {number} of {rounds}"


def crosscheck(count: int, seed: int) -> None:
    """Pair a random round of ``count`` random events (6–400 players, byes,
    absences, forfeits) with both engines; classify every difference."""
    from crosstable.cli.pair import request_from_document
    from crosstable.core.pairing.dutch import NoValidPairingError, pair_round
    from crosstable.formats.trf import read_trf

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="dutch-crosscheck-"))
    print(f"events kept in {folder}")
    worker = subprocess.Popen(
        [sys.executable, "-c", PEER_WORKER],
        env=child_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert worker.stdin is not None and worker.stdout is not None
    tally: Counter[str] = Counter()
    for index in range(count):
        made = random_event(rng, index, folder)
        if made is None:
            tally["not generated"] += 1
            continue
        path, what = made
        try:
            mine = as_pairs(pair_round(request_from_document(read_trf(path))))
        except NoValidPairingError:
            mine = None
        path.with_suffix(".crosstable.json").write_text(json.dumps(mine))
        worker.stdin.write(f"{path}\n")
        worker.stdin.flush()
        answer = json.loads(worker.stdout.readline())
        peer = answer.get("pairs")
        if mine is None or peer is None:
            tally["crosstable failed" if mine is None else "py4swiss failed"] += 1
            print(f"failed: {path} ({what}) {answer.get('error', '')}")
        elif peer == mine:
            tally["identical"] += 1
        else:
            label = classify(path, peer)
            tally[label] += 1
            print(f"differs: {path} ({what}): {label}")
    worker.stdin.close()
    worker.wait()
    print(", ".join(f"{n} {label}" for label, n in tally.most_common()))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    args = sys.argv[1:]
    if args[:1] == ["--crosscheck"]:
        crosscheck(int(args[1]), int(args[2]) if len(args) > 2 else 1)
    else:
        options: dict[str, str] = {}
        while args and args[0] in ("--round", "--events"):
            options[args[0]] = args[1]
            args = args[2:]
        main(
            [int(a) for a in args] or [500, 1000, 2000],
            int(options.get("--round", 5)),
            Path(options["--events"]) if "--events" in options else None,
        )
