"""Results recorded per second through the service layer, live standings updated each time.

    python bench/bench_store.py --db /tmp/bench.db --writers 1 2 4
    python bench/bench_store.py --db "$(bash scripts/postgres.sh)" --writers 1 2 4 8
    python bench/bench_store.py --db /tmp/bench.db --path ordinary   # without the fast path

Each writer process records every result of its own round robins (``--players``
players each, ``--tournaments-per-writer`` of them) through
``Service.record_result``: one transaction per result, with the event log, the
live standings updated and stored, and the change notification. A writer starts
cold (its first result of each tournament loads the tournament). The database
runs with the settings the product ships with (SQLite: WAL, synchronous=NORMAL;
``CROSSTABLE_SQLITE_SYNCHRONOUS=FULL`` for the stricter one; PostgreSQL: its
defaults, synchronous_commit=on). Besides results per second it prints the
writers' CPU per result (their notification threads included), the CPU per
result of the PostgreSQL server processes that served the writers' connections
(``server_cpu_ms_per_result``; the server must run on this machine), that of the
whole server (``server_total_cpu_ms_per_result``: its WAL writer and
checkpointer, and other clients if any) and how busy the whole machine was
(other jobs included), so figures from a shared machine can be read.
With ``--repeat N`` each writer count runs N times and a summary line gives the
best and the median (and the load averages seen). ``--warm`` lets each writer
record one extra tournament's results before the clock starts (the process's
caches and connections warmed up, as in a server that has been running; each
timed tournament still loads on its first result).

Two lengths of run: ``--tournaments-per-writer`` (default 3: a cold burst of
about a second, which mostly measures process warm-up and the jitter of the
disk flushes) and ``--sustained N`` (default 20; 0: none), run after it for
each writer count: N tournaments per writer, several seconds of steady
recording — the throughput figure. ``--wait-quiet`` starts each run only once
the machine has been less than 10 % busy for 3 s (other jobs on a shared
machine), and says how long it waited. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import time
import uuid

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service import bus as bus_module
from crosstable.store import open_store

RESULTS = ("1-0", "½-½", "0-1")


def prepare(url: str, tournaments: int, players: int) -> list[int]:
    """``tournaments`` started round robins (made by up to 4 processes at once: each
    takes about 20 commits)."""
    parts = min(4, max(1, tournaments // 4))
    if parts == 1:
        return _prepare(url, tournaments, players)
    shares = [tournaments // parts + (k < tournaments % parts) for k in range(parts)]
    with multiprocessing.get_context("spawn").Pool(parts) as pool:
        made = pool.starmap(_prepare, [(url, share, players) for share in shares])
    return [tid for ids in made for tid in ids]


def _prepare(url: str, tournaments: int, players: int) -> list[int]:
    store = open_store(url)
    service = Service(store)
    ids = []
    for index in range(tournaments):
        tid = service.create_tournament(
            Regulations(name=f"bench {index}", tiebreaks=("DE", "SB", "WIN"))
        ).tournament_id
        for number in range(players):
            service.add_player(tid, PlayerInfo(f"Player {number + 1}", rating=2400 - number))
        service.draw_lots(tid, LotsMethod.RATING)
        service.start(tid)
        ids.append(tid)
    store.close()
    return ids


def writer(
    url: str,
    tournament_ids: list[int],
    start_at: float,
    fast: bool = True,
    part: tuple[int, int] = (0, 1),
    warm: int | None = None,
) -> tuple[int, float, float, float]:
    """Record the results of the tournaments' games (``part``: this writer's share,
    every n-th game from the k-th, when writers share the tournaments; ``warm``: a
    tournament whose results are recorded first, untimed)."""
    store = open_store(url)
    service = Service(store)
    service.fast_path = fast
    if warm is not None:
        for index, g in enumerate(service.overview(warm).games):
            service.record_result(warm, g.round, g.board, RESULTS[index % 3])
    games = []
    for tid in tournament_ids:
        games += [(tid, g.round, g.board) for g in service.overview(tid).games]
    k, n = part
    games = games[k::n]
    late = time.time() - start_at  # > 0: this writer was not ready in time
    while time.time() < start_at:
        time.sleep(0.001)
    began = time.perf_counter()
    cpu = time.process_time()
    for index, (tid, round_number, board) in enumerate(games):
        service.record_result(tid, round_number, board, RESULTS[index % 3])
    elapsed = time.perf_counter() - began
    cpu = time.process_time() - cpu
    if store.dialect == "postgresql":
        # the notifications still waiting go out now; the connections stay open until
        # the pool ends, so that the parent can read their server processes' CPU time
        notifier_for = getattr(bus_module, "notifier_for", None)  # (older versions: none)
        if notifier_for is not None:
            notifier_for(store).flush()
        _KEPT.append(store)
    else:
        store.close()
    return len(games), elapsed, cpu, late


#: a writer's store, kept open after its run (see ``_backend_cpu``)
_KEPT: list[object] = []


def _backend_cpu(url: str, tag: str) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL server process serving the connections
    named ``tag`` (this run's writers: other clients of the server are left out)."""
    import psycopg

    with psycopg.connect(url.replace("+psycopg", "")) as connection:
        pids = [
            pid
            for (pid,) in connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (tag,)
            )
        ]
    ticks = os.sysconf("SC_CLK_TCK")
    found: dict[int, float] = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[pid] = (int(fields[11]) + int(fields[12])) / ticks
    return found


def _machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far (Linux /proc/stat)."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(v) for v in stat.readline().split()[1:]]
    except OSError:
        return 0.0, 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / ticks, sum(fields[:8]) / ticks


def _server_cpu(url: str) -> float | None:
    """CPU seconds used so far by a local PostgreSQL server (postmaster + backends)."""
    if not url.startswith("postgres"):
        return None
    try:
        import psycopg

        with psycopg.connect(url.replace("+psycopg", "")) as connection:
            directory = connection.execute("SHOW data_directory").fetchone()[0]
        with open(f"{directory}/postmaster.pid") as pidfile:
            postmaster = int(pidfile.readline())
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for pid in [postmaster, *_children(postmaster)]:
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:  # a backend that just ended (the postmaster counts it now)
                continue
            # utime, stime; for the postmaster also the ended backends' cutime, cstime
            total += sum(int(v) for v in fields[11 : 15 if pid == postmaster else 13])
        return total / ticks
    except Exception:
        return None


def _children(parent: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == parent:
                        found.append(int(entry))
            except (OSError, ValueError):
                continue
    return found


def run(
    url: str,
    writers: int,
    per_writer: int,
    players: int,
    fast: bool = True,
    shared: bool = False,
    warm: bool = False,
) -> dict[str, object]:
    if shared:  # every writer records a share of the results of the same tournaments
        ids = prepare(url, per_writer, players)
        jobs = [(ids, (k, writers)) for k in range(writers)]
    else:
        ids = prepare(url, writers * per_writer, players)
        jobs = [(ids[k * per_writer : (k + 1) * per_writer], (0, 1)) for k in range(writers)]
    warmers: list[int | None] = prepare(url, writers, players) if warm else [None] * writers
    postgres = url.startswith("postgres")
    tag = f"crosstable-bench-{uuid.uuid4().hex[:12]}"
    if postgres:  # the writers' connections carry a name: their server processes' CPU
        url = url + ("&" if "?" in url else "?") + f"application_name={tag}"
    # every writer started, imported and ready (its start-up must not overlap the
    # others' timed runs: the figure would count it); see "late_start_seconds"
    start_at = time.time() + 3 + writers * (8 if warm else 3)
    context = multiprocessing.get_context("spawn")
    with context.Pool(writers) as pool:
        pending = pool.starmap_async(
            writer,
            [
                (url, group, start_at, fast, part, warmers[k])
                for k, (group, part) in enumerate(jobs)
            ],
        )
        while time.time() < start_at:
            time.sleep(0.0005)
        busy, total = _machine_busy()
        server = _server_cpu(url)
        backends = _backend_cpu(url, tag) if postgres else {}
        outcomes = pending.get()
        busy2, total2 = _machine_busy()
        server2 = _server_cpu(url)
        backends2 = _backend_cpu(url, tag) if postgres else {}
    recorded = sum(n for n, _, _, _ in outcomes)
    slowest = max(t for _, t, _, _ in outcomes)
    cpu = sum(c for _, _, c, _ in outcomes)
    late = max(lateness for _, _, _, lateness in outcomes)
    out: dict[str, object] = {
        "db": "postgresql" if postgres else "sqlite",
        "path": "fast" if fast else "ordinary",
        "tournaments": "shared" if shared else "own",
        "start": "warm" if warm else "cold",
        "writers": writers,
        "players": players,
        "results": recorded,
        "seconds": round(slowest, 3),
        "results_per_second": round(recorded / slowest, 1),
        "writer_cpu_ms_per_result": round(1000 * cpu / recorded, 3),
    }
    mine = sum(spent - backends.get(pid, 0.0) for pid, spent in backends2.items())
    if backends2:  # the server processes of this run's connections
        out["server_cpu_ms_per_result"] = round(1000 * mine / recorded, 3)
    if server is not None and server2 is not None:
        # the whole server: its own processes (WAL writer, checkpointer…) and other
        # clients too, if any
        out["server_total_cpu_ms_per_result"] = round(1000 * (server2 - server) / recorded, 3)
    if total2 > total:
        cores = os.cpu_count() or 1
        out["machine_busy_percent"] = round(100 * (busy2 - busy) / (total2 - total), 1)
        used = cpu + (mine if backends2 else (server2 or 0) - (server or 0))
        others = (busy2 - busy) - used
        out["other_jobs_cpu_percent"] = round(max(0.0, 100 * others / (total2 - total)), 1)
        out["cores"] = cores
    out["load_average"] = round(os.getloadavg()[0], 1)
    if late > 0:  # a writer started after the others (its start-up overlapped theirs)
        out["late_start_seconds"] = round(late, 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="SQLite file or postgresql:// URL")
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--tournaments-per-writer", type=int, default=3)
    parser.add_argument(
        "--sustained",
        type=int,
        default=20,
        metavar="N",
        help="then also runs of N tournaments per writer (several seconds; 0: none)",
    )
    parser.add_argument(
        "--wait-quiet",
        action="store_true",
        help="start each run once the machine was < 10%% busy for 3 s (at most 120 s)",
    )
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=1, help="runs per writer count")
    parser.add_argument(
        "--shared",
        action="store_true",
        help="all writers record into the same tournaments (game k to writer k mod n)",
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="each writer first records one untimed tournament (a warmed-up process)",
    )
    parser.add_argument(
        "--path",
        choices=("fast", "ordinary"),
        default="fast",
        help="ordinary: Service.fast_path = False (every result through the ORM path)",
    )
    args = parser.parse_args()
    print(
        json.dumps(
            {
                "machine": f"{platform.machine()} {os.cpu_count()} cpus",
                "python": platform.python_version(),
                "sqlite_synchronous": os.environ.get("CROSSTABLE_SQLITE_SYNCHRONOUS", "NORMAL"),
                "date": time.strftime("%Y-%m-%d"),
            }
        )
    )
    lengths = [("short", args.tournaments_per_writer)]
    if args.sustained > 0:
        lengths.append(("sustained", args.sustained))
    for writers in args.writers:
        for length, per_writer in lengths:
            rates: list[float] = []
            cpus: list[float] = []
            loads: list[float] = []
            for _ in range(args.repeat):
                waited = wait_quiet() if args.wait_quiet else None
                url = args.db
                if not url.startswith("postgres"):
                    url = f"{args.db}.{uuid.uuid4().hex[:8]}"
                figures = run(
                    url,
                    writers,
                    per_writer,
                    args.players,
                    args.path == "fast",
                    args.shared,
                    args.warm,
                )
                figures = {"run": length, "tournaments_per_writer": per_writer, **figures}
                if waited is not None:
                    figures["waited_for_quiet_seconds"] = waited
                print(json.dumps(figures), flush=True)
                rates.append(float(figures["results_per_second"]))  # type: ignore[arg-type]
                cpus.append(
                    float(figures["writer_cpu_ms_per_result"])  # type: ignore[arg-type]
                    + float(figures.get("server_cpu_ms_per_result", 0.0))  # type: ignore[arg-type]
                )
                loads.append(float(figures["load_average"]))  # type: ignore[arg-type]
            if args.repeat > 1:
                summary = {
                    "writers": writers,
                    "run": length,
                    "runs": len(rates),
                    "best_results_per_second": max(rates),
                    "median_results_per_second": statistics.median(rates),
                    "worst_results_per_second": min(rates),
                    "median_cpu_ms_per_result": round(statistics.median(cpus), 3),
                    "load_averages": loads,
                }
                print(json.dumps({"summary": summary}), flush=True)


def wait_quiet(busy_below: float = 10.0, span: float = 3.0, limit: float = 120.0) -> float:
    """Wait until the whole machine has been less than ``busy_below`` % busy for
    ``span`` seconds (or ``limit`` seconds have passed); the seconds waited."""
    began = time.monotonic()
    quiet_since = time.monotonic()
    busy, total = _machine_busy()
    while time.monotonic() - began < limit:
        time.sleep(0.5)
        busy2, total2 = _machine_busy()
        if total2 > total and 100 * (busy2 - busy) / (total2 - total) >= busy_below:
            quiet_since = time.monotonic()
        busy, total = busy2, total2
        if time.monotonic() - quiet_since >= span:
            break
    return round(time.monotonic() - began, 1)


if __name__ == "__main__":
    main()
