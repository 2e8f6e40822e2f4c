"""Dutch pairing speed on every kind of history, as a whole process.

The time the engine needs depends on the history it is given: a history paired
by the engine itself leaves brackets that pair almost as the first candidate
says, while a history paired some other way leaves many players whose best
opponents were taken. Each *shape* below is a tournament of ``rounds`` rounds
written as TRF; the next round is then paired by ``crosstable engine --dutch
FILE -p OUT`` in a child process, whose CPU time (user + system) comes from
``os.wait4`` and whose peak memory (VmHWM) it reports itself.

Shapes (results drawn from ratings, seeded; all but ``engine`` paired by a
simple greedy pairer that is none of the engines: players by score then
number, each takes the first player below it not met yet, the lowest player
without a bye gets it):

* ``greedy``: the neutral history;
* ``engine``: paired by crosstable's own engine (the generator);
* ``byes``: greedy, with half-point byes, zero-point absences and forfeits;
* ``baku``: greedy, with Baku acceleration (C.04.5.1) named in the header and
  its fictitious points in ``XXA`` lines (bbpPairings reads only those);
* ``withdrawn``: greedy, 3 % of the field withdrawing each round (absent from
  then on, and absent for the round to pair: a zero-point bye in that round's
  column, which bbpPairings reads too; it ignores ``XXZ``);
* ``real``: the reference events of ../shared/data/swiss-dutch (7-299
  players), each cut before its last round (sizes ignored).

    python bench/bench_dutch_shapes.py                      # every shape, 500 1000 2000
    python bench/bench_dutch_shapes.py --shapes greedy,byes 1000 2000 5000
    python bench/bench_dutch_shapes.py --events DIR --tag after 1000
    python bench/bench_dutch_shapes.py --events DIR --compare before after

``--timeout S`` stops a pairing after S seconds of wall time (900 by default).
``--events DIR`` keeps the TRF files (generating the ``engine`` shape takes a
while) and writes each pairing as ``FILE.TAG.txt``; ``--compare A B`` lists the
files whose pairings under tags A and B differ (a check that a change to the
engine pairs the same). ``bbpPairings`` and ``py4swiss``, when installed, are
timed on the same files (``--peers``); they are benchmarks only. bbpPairings'
pairings are kept as ``FILE.bbpPairings.txt``, so ``--compare TAG bbpPairings``
lists the files where crosstable and bbpPairings pair differently.
"""

from __future__ import annotations

import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from crosstable.core.model import (
    Bye,
    ByeKind,
    Colour,
    Game,
    GameResult,
    Outcome,
    Player,
    Round,
    Settings,
    System,
    Tournament,
)
from crosstable.core.pairing.dutch.acceleration import baku
from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate
from crosstable.formats.trf import read_trf, write_trf
from crosstable.formats.trf_model import TrfDocument

SHAPES = ("greedy", "engine", "byes", "baku", "withdrawn")
ROUNDS = 5  # rounds played before the one paired
PLANNED = 9
REFERENCE = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "swiss-dutch"


class Greedy:
    """A Dutch-like pairer that is none of the engines (the neutral history)."""

    def __init__(self, players: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.ratings = sorted((self.rng.randint(1400, 2400) for _ in range(players)), reverse=True)
        self.starts = list(range(1, players + 1))
        self.score = dict.fromkeys(self.starts, Fraction(0))
        self.met: dict[int, set[int]] = {s: set() for s in self.starts}
        self.whites = dict.fromkeys(self.starts, 0)
        self.last: dict[int, Colour] = dict.fromkeys(self.starts, Colour.NONE)
        self.had_bye: set[int] = set()

    def colours(self, a: int, b: int) -> tuple[int, int]:
        """White and black: the one with fewer whites (then the one who had
        black last, then at random) takes white."""
        if self.whites[a] != self.whites[b]:
            return (a, b) if self.whites[a] < self.whites[b] else (b, a)
        if self.last[a] is not self.last[b]:
            return (a, b) if self.last[a] is not Colour.WHITE else (b, a)
        return (a, b) if self.rng.random() < 0.5 else (b, a)

    def pair(self, present: list[int]) -> tuple[list[tuple[int, int]], int | None]:
        order = sorted(present, key=lambda s: (-self.score[s], s))
        bye = None
        if len(order) % 2:
            bye = next((s for s in reversed(order) if s not in self.had_bye), order[-1])
            order.remove(bye)
        left = list(order)
        pairs: list[tuple[int, int]] = []
        while left:
            a = left.pop(0)
            index = next((k for k, b in enumerate(left) if b not in self.met[a]), 0)
            b = left.pop(index)  # no fresh opponent left: a rematch, rare and harmless
            pairs.append(self.colours(a, b))
        return pairs, bye

    def result(self, white: int, black: int, forfeit_rate: float) -> GameResult:
        rng = self.rng
        if rng.random() < forfeit_rate:
            if rng.random() < 0.5:
                return GameResult(Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS)
            return GameResult(Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN)
        expected = 1 / (1 + 10 ** ((self.ratings[black - 1] - self.ratings[white - 1]) / 400))
        draw = 0.3 * (1 - abs(2 * expected - 1))
        roll = rng.random()
        if roll < expected - draw / 2:
            return GameResult.WHITE_WINS()
        if roll < expected + draw / 2:
            return GameResult.DRAW()
        return GameResult.BLACK_WINS()


def greedy_event(
    players: int,
    seed: int,
    *,
    half_bye: float = 0.0,
    absence: float = 0.0,
    forfeit: float = 0.0,
    withdraw: float = 0.0,
    played: int = ROUNDS,
) -> tuple[Tournament, tuple[int, ...]]:
    """``played`` rounds paired greedily; the players absent from the next round."""
    pairer = Greedy(players, seed)
    rng = pairer.rng
    points = Settings().point_system
    withdrawn: set[int] = set()
    rounds: list[Round] = []
    for number in range(1, played + 1):
        byes: list[Bye] = []
        for start in pairer.starts:
            if start in withdrawn:
                byes.append(Bye(number, start, ByeKind.ZERO))
                continue
            roll = rng.random()
            if roll < half_bye:
                byes.append(Bye(number, start, ByeKind.HALF))
                pairer.score[start] += Fraction(1, 2)
            elif roll < half_bye + absence:
                byes.append(Bye(number, start, ByeKind.ZERO))
        away = {b.player for b in byes}
        present = [s for s in pairer.starts if s not in away]
        pairs, bye = pairer.pair(present)
        games = []
        for board, (white, black) in enumerate(pairs, 1):
            result = pairer.result(white, black, forfeit)
            games.append(Game(number, board, white, black, result))
            for me, other, colour, outcome in (
                (white, black, Colour.WHITE, result.white),
                (black, white, Colour.BLACK, result.black),
            ):
                pairer.score[me] += outcome.points(points)
                pairer.met[me].add(other)
                if not outcome.is_forfeit:
                    pairer.last[me] = colour
                    pairer.whites[me] += colour is Colour.WHITE
        if bye is not None:
            byes.append(Bye(number, bye, ByeKind.PAIRING))
            pairer.had_bye.add(bye)
            pairer.score[bye] += Fraction(1)
        rounds.append(Round(number, tuple(games), tuple(sorted(byes, key=lambda b: b.player))))
        if withdraw:
            active = [s for s in pairer.starts if s not in withdrawn]
            withdrawn.update(rng.sample(active, int(len(active) * withdraw)))
    tournament = Tournament(
        settings=Settings(system=System.SWISS_DUTCH, rounds=PLANNED),
        players=tuple(
            Player(s, f"Player {s:04d}", rating) for s, rating in enumerate(pairer.ratings, 1)
        ),
        rounds=tuple(rounds),
        name=f"Greedy Swiss {players}",
    )
    return tournament, tuple(sorted(withdrawn))


def make_event(shape: str, players: int, folder: Path) -> Path:
    """The TRF of ``shape`` at ``players`` (kept in ``folder`` and reused)."""
    path = folder / f"{shape}{players}.trf"
    if path.exists():
        return path
    absent: tuple[int, ...] = ()
    if shape == "engine":
        settings = GeneratorSettings(players=players, rounds=ROUNDS, seed=players)
        tournament = generate(settings)
        tournament = replace(
            tournament, settings=Settings(system=System.SWISS_DUTCH, rounds=PLANNED)
        )
    elif shape == "byes":
        tournament, absent = greedy_event(
            players, players, half_bye=0.05, absence=0.05, forfeit=0.05
        )
    elif shape == "withdrawn":
        tournament, absent = greedy_event(players, players, withdraw=0.03)
    else:
        tournament, absent = greedy_event(players, players)
    if absent:  # a zero-point bye in the round to pair, which every engine reads
        number = len(tournament.rounds) + 1
        away = tuple(Bye(number, start, ByeKind.ZERO) for start in absent)
        tournament = replace(tournament, rounds=(*tournament.rounds, Round(number, (), away)))
    doc = replace(ranked(TrfDocument.from_tournament(tournament)), initial_colour=Colour.WHITE)
    if shape == "baku":
        # the header names the system; the XXA lines give its fictitious points to the
        # engines that do not read the header (bbpPairings)
        table = baku(players, PLANNED)
        doc = replace(
            doc,
            headers={**doc.headers, "092": "Individual: Swiss-System (Baku)"},
            fictitious_points={start: tuple(row) for start, row in table.items()},
        )
    path.write_text(write_trf(doc))
    return path


def ranked(doc: TrfDocument) -> TrfDocument:
    """``doc`` with each player's rank column filled (by points, then starting number):
    py4swiss refuses a file without it."""
    order = sorted(doc.file_points, key=lambda start: (-doc.file_points[start], start))
    ranks: dict[int, int | None] = {start: rank for rank, start in enumerate(order, 1)}
    return replace(doc, file_ranks=ranks)


def timed(
    command: list[str], limit: float, env: dict[str, str] | None = None
) -> tuple[float, float, float, int]:
    """Wall s, CPU s (user + system) and peak MiB of one child process, and
    its exit status (killed after ``limit`` seconds of wall time); ``env``, the
    child's environment, is :func:`child_env`'s unless given."""
    start = time.perf_counter()
    child = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env or child_env()
    )
    timer = threading.Timer(limit, child.kill)
    timer.start()
    errors = child.stderr.read() if child.stderr is not None else b""
    _, status, usage = os.wait4(child.pid, 0)
    timer.cancel()
    wall = time.perf_counter() - start
    if child.stderr is not None:
        child.stderr.close()
    child.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    peak = usage.ru_maxrss / 1024
    for line in errors.decode(errors="replace").splitlines():
        if line.startswith("VmHWM "):
            peak = int(line.split()[1]) / 1024
    return wall, cpu, peak, child.returncode


def child_env() -> dict[str, str]:
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


# crosstable's command line, reporting the process's own peak memory (VmHWM)
# last on stderr: ru_maxrss would carry over what the parent held at the fork
OURS = r"""
import runpy, sys
sys.argv = ["crosstable", *sys.argv[1:]]
try:
    runpy.run_module("crosstable", run_name="__main__")
finally:
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM"):
            print("VmHWM", int(line.split()[1]), file=sys.stderr)
"""


def ours(path: Path, tag: str) -> list[str]:
    out = path.with_suffix(f".{tag}.txt")
    return [sys.executable, "-c", OURS, "engine", "--dutch", str(path), "-p", str(out)]


def peers() -> dict[str, object]:
    """Peer engines found on this machine: name -> command builder."""
    found: dict[str, object] = {}
    bbp = shutil.which("bbpPairings") or shutil.which("bbpPairings.exe")
    if bbp:
        # its pairings kept beside ours: --compare TAG bbpPairings checks them
        found["bbpPairings"] = lambda path: [
            bbp,
            "--dutch",
            str(path),
            "-p",
            str(path.with_suffix(".bbpPairings.txt")),
        ]
    try:
        import importlib.util

        if importlib.util.find_spec("py4swiss"):
            found["py4swiss"] = lambda path: [
                sys.executable,
                "-c",
                "import sys; from pathlib import Path;"
                "from py4swiss.engines import DutchEngine;"
                "from py4swiss.trf import TrfParser;"
                "DutchEngine.generate_pairings(TrfParser.parse(Path(sys.argv[1])))",
                str(path),
            ]
    except ImportError:  # pragma: no cover
        pass
    return found


def load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def machine() -> str:
    model = platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def real_event(path: Path, folder: Path) -> Path:
    """A reference event cut before its last round (that round is paired)."""
    cut = folder / path.name
    if not cut.exists():
        doc = read_trf(path)
        cut.write_text(write_trf(ranked(doc.before_round(len(doc.tournament.rounds)))))
    return cut


def events_of(shape: str, sizes: list[int], folder: Path) -> list[tuple[str, Path]]:
    if shape == "real":
        return [(p.stem, real_event(p, folder)) for p in sorted(REFERENCE.glob("*.trf"))]
    for size in sizes:  # made in a child: the parent stays small while it forks
        if not (folder / f"{shape}{size}.trf").exists():
            script = str(Path(__file__).resolve())
            command = [sys.executable, script, "--make", shape, str(size), str(folder)]
            subprocess.run(command, check=True, env=child_env())
    return [(f"{shape} {size}", folder / f"{shape}{size}.trf") for size in sizes]


def compare(folder: Path, first: str, second: str) -> int:
    differ = 0
    checked = 0
    for a in sorted(folder.glob(f"*.{first}.txt")):
        b = a.with_name(a.name.replace(f".{first}.txt", f".{second}.txt"))
        if not b.exists():
            continue
        checked += 1
        if a.read_text() != b.read_text():
            differ += 1
            print(f"differs: {a.name} / {b.name}")
    print(f"{checked} pairings compared, {differ} differ")
    return differ


def main(argv: list[str]) -> None:
    options: dict[str, str] = {}
    flags: set[str] = set()
    args = list(argv)
    if args[:1] == ["--make"]:
        make_event(args[1], int(args[2]), Path(args[3]))
        return
    while args and args[0].startswith("--"):
        if args[0] == "--peers":
            flags.add(args.pop(0))
            continue
        if args[0] == "--compare":
            options["--compare"] = f"{args[1]} {args[2]}"
            args = args[3:]
            continue
        options[args[0]] = args[1]
        args = args[2:]
    folder = Path(options.get("--events") or tempfile.mkdtemp(prefix="dutch-shapes-"))
    folder.mkdir(parents=True, exist_ok=True)
    if "--compare" in options:
        first, second = options["--compare"].split()
        sys.exit(1 if compare(folder, first, second) else 0)
    sizes = [int(a) for a in args] or [500, 1000, 2000]
    shapes = options.get("--shapes", ",".join(SHAPES)).split(",")
    tag = options.get("--tag", "crosstable")
    limit = float(options.get("--timeout", 900))
    others = peers() if "--peers" in flags else {}
    print(f"{machine()}; load {load()}; events in {folder}")
    print(f"round {ROUNDS + 1} of {PLANNED}; CPU = user + system of the child process")
    print(f"{'event':<34} {'engine':<12} {'wall s':>8} {'CPU s':>8} {'MiB':>6}  load")
    for shape in shapes:
        for label, path in events_of(shape, sizes, folder):
            runs: list[tuple[str, list[str]]] = [(tag, ours(path, tag))]
            runs += [(name, build(path)) for name, build in others.items()]  # type: ignore[operator]
            for name, command in runs:
                wall, cpu, mib, code = timed(command, limit)
                state = "" if code == 0 else f" (exit {code})"
                print(
                    f"{label:<34} {name:<12} {wall:>8.2f} {cpu:>8.2f} {mib:>6.0f}  {load()}{state}",
                    flush=True,
                )


if __name__ == "__main__":
    main(sys.argv[1:])
