"""The command line's start: the CPU time of whole ``crosstable`` processes.

Each command runs once to warm the caches, then ``--runs`` times (7 by default); the
CPU time (user + system) of each run comes from ``os.wait4``, and the minimum, median
and maximum are printed beside the goal. The files are made in ``--folder`` (a new
temporary folder unless given) from ``bench_dutch_shapes``' greedy pairer: 500 players
after 5 rounds for ``engine --dutch``, and 1 000 players after 9 rounds for
``standings``.

    python bench/bench_cli_start.py
    python bench/bench_cli_start.py --runs 11 --folder /tmp/start

Run it with the bytecode cache writable (``PYTHONDONTWRITEBYTECODE`` unset): otherwise
every run compiles the package again and measures that instead. The ``crosstable`` run is
the script beside this Python (``pip install -e .`` wrote it): a version manager's shim
in front of it (pyenv's is a shell script) adds its own start to every run, about 50 ms
of CPU on the test machine. ``PYTHONPATH`` is passed on, so another checkout's package
can be measured with the same script.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

import bench_dutch_shapes as shapes

from crosstable.formats.trf import write_trf
from crosstable.formats.trf_model import TrfDocument

#: (what is run after ``crosstable``, the goal in seconds of CPU)
GOALS: tuple[tuple[tuple[str, ...], float], ...] = (
    (("--help",), 0.2),
    (("version",), 0.2),
    (("duration", "--help"), 0.2),
    (("duration", "-n", "10", "-t", "90+30"), 0.2),
    (("schedule", "berger", "6"), 0.2),
    (("standings", "{swiss}"), 0.3),
    (("engine", "--dutch", "{greedy500}", "-p", "{out}"), 0.8),
)


def swiss_1000x9(folder: Path) -> Path:
    """1 000 players, 9 rounds paired greedily (no rematches), as TRF."""
    path = folder / "swiss1000x9.trf"
    if not path.exists():
        tournament, _absent = shapes.greedy_event(1000, 1000, played=shapes.PLANNED)
        path.write_text(write_trf(TrfDocument.from_tournament(tournament)))
    return path


def runs(text: str) -> int:
    """``--runs``: a whole number from 1 to 100."""
    count = int(text) if text.isdigit() else 0
    if not 1 <= count <= 100:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of runs from 1 to 100")
    return count


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=runs, default=7, help="counted runs, 1 to 100")
    parser.add_argument("--folder", type=Path)
    args = parser.parse_args(argv)
    # the script pip wrote beside this Python, not a version manager's shim in front of it
    program = str(Path(sys.executable).with_name("crosstable"))
    if not Path(program).exists():
        print(f"{program} is missing: pip install -e .", file=sys.stderr)
        return 2
    folder = args.folder or Path(tempfile.mkdtemp(prefix="cli-start-"))
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "swiss": str(swiss_1000x9(folder)),
        "greedy500": str(shapes.make_event("greedy", 500, folder)),
        "out": str(folder / "pairs.txt"),
    }
    print(f"# {shapes.machine()}; load {shapes.load()}; {args.runs} runs after one warm-up")
    print("| command | goal | CPU min / median / max | met |")
    print("|---|---:|---:|---|")
    failed = 0
    for words, goal in GOALS:
        command = [program, *(word.format(**files) for word in words)]
        cpus = []
        for run in range(args.runs + 1):
            # this process's environment as it is: PYTHONPATH may name another checkout
            _wall, cpu, _peak, status = shapes.timed(command, 120.0, dict(os.environ))
            if status != 0:
                print(f"{' '.join(command)}: exit status {status}", file=sys.stderr)
                return 1
            if run:
                cpus.append(cpu)
        median = statistics.median(cpus)
        failed += median >= goal
        shown = " ".join(("FILE" if "{" in word else word) for word in words)
        print(
            f"| `crosstable {shown}` | < {goal} s | {min(cpus):.3f} / {median:.3f} / "
            f"{max(cpus):.3f} s | {'yes' if median < goal else '**no**'} |"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
