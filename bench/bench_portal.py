"""The simulated portal day on loopback (issue 17 item 4): PostgreSQL, two app
processes behind nginx/nchan, 10 000 running tournaments, a game server posting
batches of results at a steady rate across them, and spectators through nchan with
a skew (a quarter of them on one tournament, the rest spread over many).

    python bench/bench_portal.py --tournaments 10000 --spectators 5000 --rate 20 --seconds 60

Needs ``CROSSTABLE_TEST_PG_URL`` (bash scripts/postgres.sh) and nginx with nchan
(bash scripts/nginx.sh); uses bench/push_rig.py (nginx.conf rendered from deploy/,
``crosstable serve --push-url``) and bench/portal_fill.py (the tournaments: one made
through the service, copied with INSERT … SELECT). Prints one JSON object:

* results/s sustained, p50/p95/p99 from a batch's POST to a spectator's reading of
  each of its results (or a newer revision), per watched result and spectator;
* CPU per result of the app processes, of PostgreSQL (the backends whose
  ``application_name`` is this run's) and of nginx;
* memory: nginx's RSS per spectator, the app processes' RSS, and per live
  tournament (tracemalloc, in this process: the write side's live table and the
  pages' read model of a tournament like the bench's), and the time to bring a
  cold tournament's table up (a result on a tournament whose live table was let go);
* that nothing was lost: every accepted result is in the history, every
  spectator ended at its tournament's last revision.

The spectators are light (bench/portal_watchers.py): one asyncio stream each, in
``--watcher-processes`` child processes (a process may open at most as many
connections as files), reading only the revision of each message (their own CPU is
not what is measured). ``--kill app|nginx`` kills one app process or nginx with
``kill -9`` ``--kill-at`` seconds into the posting and starts it again two seconds
later: the game server sends a batch again (same idempotency keys) until it is
answered, the spectators reconnect by themselves (and get the newest state from the
app processes' publishing again after an nginx restart), and the run checks again
that nothing was lost.
``--keep-tables N`` lets each app process keep N tournaments' tables (as a portal's
processes are configured, docs/deploy.md), and ``--prewarm`` has each process read
every table once before the day (a portal that has run for a while; without it
nearly every result finds its tournament cold in the process that takes it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from portal_fill import analyze, clone_tournaments  # noqa: E402
from portal_watchers import WatcherPool  # noqa: E402
from push_rig import (  # noqa: E402
    AppProcess,
    PushServer,
    _group,
    cpu_seconds,
    free_port,
    percentile,
    prepare,
)


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def nchan_status(publish_url: str) -> dict[str, float]:
    """nchan's counters (deploy/nginx.conf's ``/push/status`` on the publisher's port)."""
    import httpx

    status_url = publish_url.rsplit("/push/", 1)[0] + "/push/status"
    counters: dict[str, float] = {}
    with contextlib.suppress(httpx.HTTPError):
        for line in httpx.get(status_url, timeout=5).text.splitlines():
            name, _, value = line.partition(":")
            with contextlib.suppress(ValueError):
                counters[name.strip()] = float(value.split()[0])
    return counters


def _pg_backends(connection: Any, application: str) -> list[int]:
    rows = connection.execute(
        "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (application,)
    ).fetchall()
    return [int(pid) for (pid,) in rows]


def measure_tables(db_url: str, tids: list[int], games: list[tuple[int, int]]) -> dict[str, Any]:
    """Memory per live tournament and the time of a cold and of a warm result, in this
    process (a service on the bench's database; results on ``tids``, not watched)."""
    from crosstable.service import Service
    from crosstable.service.tables import ReadModel
    from crosstable.store import open_store

    service = Service(open_store(db_url))
    try:
        for tid in tids:
            service.live_tables.checkout(tid)
        model = ReadModel(service.store)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        cold = []
        for tid in tids:
            began = time.perf_counter()
            service.record_result(tid, *games[0], "1-0", actor="bench")
            cold.append(time.perf_counter() - began)
        gc.collect()
        middle = tracemalloc.get_traced_memory()[0]
        for tid in tids:
            model.get(tid)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        warm = []
        for tid in tids:
            began = time.perf_counter()
            service.record_result(tid, *games[1], "1-0", actor="bench")
            warm.append(time.perf_counter() - began)
        for tid in tids:  # cold again without tracemalloc (it slows the first pass)
            service.live_tables.checkout(tid)
        cold = []
        for tid in tids:
            began = time.perf_counter()
            service.record_result(tid, *games[2], "1-0", actor="bench")
            cold.append(time.perf_counter() - began)
        return {
            "live_table_kib": round((middle - before) / len(tids) / 1024, 1),
            "read_model_kib": round((after - middle) / len(tids) / 1024, 1),
            "cold_result_ms_p50": round(percentile(cold, 0.5) * 1000, 1),
            "warm_result_ms_p50": round(percentile(warm, 0.5) * 1000, 1),
        }
    finally:
        service.store.close()


def make_game_server(db_url: str) -> str:
    from crosstable.service.accounts import Accounts
    from crosstable.service.accounts.tokens import new_game_server
    from crosstable.store import open_store

    store = open_store(db_url)
    try:
        _id, token = new_game_server(
            Accounts(store), "bench-server", every_tournament=True, per_minute=600_000
        )
        return token
    finally:
        store.close()


async def day(args: argparse.Namespace) -> dict[str, Any]:
    import httpx
    import psycopg

    base_url = os.environ.get("CROSSTABLE_TEST_PG_URL")
    if not base_url:
        raise SystemExit("set CROSSTABLE_TEST_PG_URL (bash scripts/postgres.sh)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8192
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(wanted, hard), max(wanted, hard)))
        except (ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    schema = "portal_" + uuid.uuid4().hex[:12]
    application = schema
    with psycopg.connect(base_url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in base_url else "?"
    db_url = f"{base_url}{joiner}options={quote(f'-csearch_path={schema}')}"
    app_url = f"{db_url}&application_name={application}"
    folder = Path(tempfile.mkdtemp(prefix="crosstable-portal-"))
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    nginx = None
    apps: list[AppProcess] = []
    pool: WatcherPool | None = None
    # (opened before the spectators' sockets: libpq cannot wait on a descriptor ≥ 1024)
    admin = psycopg.connect(base_url, autocommit=True)
    try:
        began = time.perf_counter()
        portal = prepare(db_url, 1, 8)
        source = portal.tournaments[0]
        games = portal.games[source]
        token = make_game_server(db_url)
        with psycopg.connect(db_url) as connection:
            made = clone_tournaments(connection, source, args.tournaments - 1)
            analyze(connection)
            revision = int(
                connection.execute(
                    "SELECT revision FROM tournaments WHERE id = %s", (source,)
                ).fetchone()[0]
            )
        # the hot tournament: a bigger event (a round robin of --hot-players), so that a
        # tenth of the results last the whole run on it
        big = prepare(db_url, 1, args.hot_players)
        hot = big.tournaments[0]
        with psycopg.connect(db_url) as connection:
            hot_revision = int(
                connection.execute(
                    "SELECT revision FROM tournaments WHERE id = %s", (hot,)
                ).fetchone()[0]
            )
        tids = [source, *made]
        report["tournaments"] = len(tids) + 1
        report["hot_tournament_games"] = len(big.games[hot])
        report["fill_s"] = round(time.perf_counter() - began, 1)
        report["tables"] = measure_tables(db_url, tids[-20:], games)
        spare = set(tids[-20:])  # (the measurement's: three results each)
        playing = [t for t in tids if t not in spare]
        ports = [free_port() for _ in range(args.apps)]
        workers = args.nginx_workers
        # (the kernel does not share the connections evenly between the workers: each may
        # take nearly all, up to its limit of open files)
        most = resource.getrlimit(resource.RLIMIT_NOFILE)[1] - 256
        nginx = PushServer(
            folder, ports, connections=min(args.spectators + 4096, most), workers=workers
        ).start()
        if args.keep_tables:  # every process keeps every running tournament (docs/deploy.md)
            for name in ("CROSSTABLE_LIVE_TABLES", "CROSSTABLE_READ_MODEL_TABLES"):
                os.environ[name] = str(args.keep_tables)
            for name in ("CROSSTABLE_LIVE_TABLES_MB", "CROSSTABLE_READ_MODEL_MB"):
                os.environ[name] = str(max(128, args.keep_tables * 64 // 1024))
        apps = [
            AppProcess(app_url, p, nginx.publish_url, log=folder / f"app{p}.log").start()
            for p in ports
        ]
        if args.prewarm:  # each process has read every table once (a portal running a while)
            warming = time.perf_counter()
            gate = asyncio.Semaphore(16)
            async with httpx.AsyncClient(timeout=120, limits=httpx.Limits(max_connections=16)) as c:

                async def read(port: int, tid: int) -> None:
                    async with gate:
                        (await c.get(f"http://127.0.0.1:{port}/t/{tid}/live")).raise_for_status()

                await asyncio.gather(*(read(p, t) for p in ports for t in [hot, *playing]))
            report["prewarm_s"] = round(time.perf_counter() - warming, 1)
        spread = playing[: args.watched]
        assignments = [
            (hot, hot_revision) if i % 4 == 0 else (spread[i % len(spread)], revision)
            for i in range(args.spectators)
        ]
        nginx_rss = sum(rss_kib(p) for p in _group(nginx.process.pid))  # type: ignore[union-attr]
        pool = WatcherPool(nginx.port, assignments, args.watcher_processes, args.connect_wait)
        report["spectators"] = len(assignments)
        report["spectators_connected"] = await pool.start()
        report["watcher_processes"] = args.watcher_processes
        report["spectators_on_the_hot_tournament"] = sum(1 for t, _r in assignments if t == hot)
        report["watched_tournaments"] = len({t for t, _r in assignments})
        await asyncio.sleep(2)
        nginx_rss_after = sum(rss_kib(p) for p in _group(nginx.process.pid))  # type: ignore[union-attr]
        report["nginx_kib_per_spectator"] = round(
            (nginx_rss_after - nginx_rss) / max(len(assignments), 1), 2
        )

        # the game server: batches every `interval` seconds at `rate` results a second
        interval = args.interval
        per_batch = max(1, round(args.rate * interval))
        next_game = dict.fromkeys([hot, *playing], 0)
        games_of = {t: games for t in playing} | {hot: big.games[hot]}
        # (the last game finishes a tournament: the ordinary path, not measured)
        usable = {t: len(g) - 1 for t, g in games_of.items()}
        warm_until = time.time() + args.warmup
        rng = random.Random(17)
        pg_pids = _pg_backends(admin, application)
        app_cpu = sum(cpu_seconds(a.process.pid) for a in apps if a.process)
        pg_cpu = sum(cpu_seconds(p) for p in pg_pids)
        nginx_cpu = nginx.cpu_seconds()
        nchan_before = nchan_status(nginx.publish_url)
        gone_cpu = {"app": 0.0, "nginx": 0.0}  # of the processes killed
        sent: list[tuple[int, int, float]] = []
        retried: list[str] = []
        answered: list[float] = []  # each batch's round trip (ms)
        refused: list[str] = []
        limits = httpx.Limits(max_connections=8)
        in_flight = asyncio.Semaphore(args.in_flight)
        posts: list[asyncio.Task[None]] = []
        began = time.perf_counter()
        async with httpx.AsyncClient(limits=limits, timeout=60) as client:

            async def post(items: list[dict[str, Any]]) -> None:
                """One batch, sent at once (at most ``in_flight`` wait for their answer);
                sent again with the same keys until it is answered (a process or nginx
                was killed), as a game server does."""
                async with in_flight:
                    moment = time.time()
                    for _attempt in range(120):
                        try:
                            response = await client.post(
                                f"{nginx.base_url}/api/v1/results",
                                json={"results": items},
                                headers={"Authorization": f"Bearer {token}"},
                            )
                        except httpx.TransportError as error:
                            retried.append(type(error).__name__)
                        else:
                            if response.status_code not in (502, 503, 504):
                                break
                            retried.append(f"HTTP {response.status_code}")
                        await asyncio.sleep(0.5)
                answered.append((time.time() - moment) * 1000)
                if response.status_code == 200:
                    for item, answer in zip(items, response.json()["results"], strict=True):
                        if answer["status"] == "accepted":
                            sent.append((item["tournament"], answer["change"]["seq"], moment))
                        else:
                            refused.append(answer["detail"])
                else:
                    refused.append(f"HTTP {response.status_code}: {response.text[:200]}")

            async def kill() -> None:
                """kill -9 of one app process or of nginx, started again 2 s later."""
                await asyncio.sleep(args.kill_at)
                if args.kill == "app":
                    victim = apps[0]
                    gone_cpu["app"] += cpu_seconds(victim.process.pid)  # type: ignore[union-attr]
                    victim.kill9()
                    await asyncio.sleep(2)
                    await asyncio.to_thread(victim.start)
                else:
                    gone_cpu["nginx"] += nginx.cpu_seconds()
                    nginx.kill()
                    await asyncio.sleep(2)
                    await asyncio.to_thread(nginx.start)
                report["killed"] = {"what": args.kill, "at_s": args.kill_at}

            killing = asyncio.create_task(kill()) if args.kill != "none" else None
            batch_number = 0
            while time.perf_counter() - began < args.seconds:
                items = []
                for index in range(per_batch):
                    pick = hot if (batch_number * per_batch + index) % 10 == 0 else None
                    if pick is None or next_game[pick] >= usable[pick]:
                        pick = rng.choice(spread if rng.random() < 0.5 else playing)
                    if next_game[pick] >= usable[pick]:
                        continue
                    rnd, board = games_of[pick][next_game[pick]]
                    next_game[pick] += 1
                    items.append(
                        {
                            "tournament": pick,
                            "round": rnd,
                            "board": board,
                            "result": rng.choice(("1-0", "1/2-1/2", "0-1")),
                            "idempotency_key": f"b{batch_number}-{index}",
                        }
                    )
                posts.append(asyncio.create_task(post(items)))
                batch_number += 1
                pause = began + batch_number * interval - time.perf_counter()
                if pause > 0:
                    await asyncio.sleep(pause)
            await asyncio.gather(*posts)
            if killing is not None:
                await killing
            posting = time.perf_counter() - began
            newest: dict[int, int] = {}
            for tid, seq, _moment in sent:
                newest[tid] = max(seq, newest.get(tid, 0))

            watched = await pool.finish(newest, sent, 120)
            report["every_spectator_got_the_last_revision"] = watched["not_converged"] == 0
        elapsed = time.perf_counter() - began
        app_cpu = sum(cpu_seconds(a.process.pid) for a in apps if a.process) - app_cpu
        app_cpu += gone_cpu["app"]
        pg_cpu = sum(cpu_seconds(p) for p in pg_pids) - pg_cpu
        nginx_cpu = nginx.cpu_seconds() - nginx_cpu + gone_cpu["nginx"]
        watcher_cpu = watched["cpu_s"]
        nchan_after = nchan_status(nginx.publish_url)
        published = nchan_after.get("total published messages", 0) - nchan_before.get(
            "total published messages", 0
        )
        # (the latencies of results sent after the warm-up; every result checked)
        watched["delays"] = [(t, d) for t, d, moment in watched["delays"] if moment >= warm_until]
        delays = [delay for _tid, delay in watched["delays"]]
        hot_delays = [delay for tid, delay in watched["delays"] if tid == hot]
        other_delays = [delay for tid, delay in watched["delays"] if tid != hot]
        stored = {
            (int(t), int(s))
            for t, s in admin.execute(
                f"SELECT tournament_id, seq FROM {schema}.events WHERE actor = 'bench-server'"
            ).fetchall()
        }
        count = len(sent)
        report |= {
            "apps": args.apps,
            "results": count,
            "refused": len(refused),
            "refusals": sorted(set(refused))[:5],
            "results_per_s": round(count / posting, 1),
            "watched_deliveries": len(delays),
            "deliveries_missing": watched["missing"],
            "spectators_not_at_the_last_revision": watched["not_converged"],
            "batches_sent_again": len(retried),
            "why_sent_again": sorted(set(retried))[:5],
            "p50_ms": round(percentile(delays, 0.5), 1),
            "p95_ms": round(percentile(delays, 0.95), 1),
            "p99_ms": round(percentile(delays, 0.99), 1),
            "hot_deliveries": len(hot_delays),
            "hot_p50_p95_ms": [
                round(percentile(hot_delays, 0.5), 1),
                round(percentile(hot_delays, 0.95), 1),
            ],
            "others_p50_p95_ms": [
                round(percentile(other_delays, 0.5), 1),
                round(percentile(other_delays, 0.95), 1),
            ],
            "batch_answer_ms_p50_p95": [
                round(percentile(answered, 0.5), 1),
                round(percentile(answered, 0.95), 1),
            ],
            "app_cpu_ms_per_result": round(app_cpu * 1000 / max(count, 1), 2),
            "postgres_cpu_ms_per_result": round(pg_cpu * 1000 / max(count, 1), 2),
            "postgres_backends_measured": len(pg_pids),
            "nginx_cpu_ms_per_result": round(nginx_cpu * 1000 / max(count, 1), 2),
            "nchan_messages_per_result": round(published / max(count, 1), 2),
            "watchers_cpu_ms_per_result": round(watcher_cpu * 1000 / max(count, 1), 2),
            "elapsed_s": round(elapsed, 1),
            "app_rss_mib": [round(rss_kib(a.process.pid) / 1024, 1) for a in apps if a.process],
            "every_accepted_result_in_the_history": all((t, s) in stored for t, s, _ in sent),
            "reconnects": watched["reconnects"],
            "load_average": os.getloadavg(),
        }
        return report
    finally:
        if pool is not None:
            pool.close()
        for app in apps:
            app.stop()
        if nginx is not None:
            nginx.stop()
        admin.execute(f"DROP SCHEMA {schema} CASCADE")
        admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=10_000)
    parser.add_argument("--spectators", type=int, default=2_000)
    parser.add_argument("--watched", type=int, default=1_000, help="tournaments with spectators")
    parser.add_argument("--rate", type=float, default=20.0, help="results per second")
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between batches")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--apps", type=int, default=2)
    parser.add_argument("--in-flight", type=int, default=4, help="batches sent, not answered")
    parser.add_argument(
        "--prewarm",
        action="store_true",
        help="each app process reads every tournament's table once before the day",
    )
    parser.add_argument("--hot-players", type=int, default=20)
    parser.add_argument(
        "--warmup", type=float, default=10.0, help="seconds of results not in the latencies"
    )
    parser.add_argument("--watcher-processes", type=int, default=2)
    parser.add_argument("--nginx-workers", type=int, default=2)
    parser.add_argument("--kill", choices=("none", "app", "nginx"), default="none")
    parser.add_argument("--kill-at", type=float, default=20.0, help="seconds into the posting")
    parser.add_argument(
        "--keep-tables",
        type=int,
        default=0,
        help="live tables and read-model entries each app process keeps (0: the defaults)",
    )
    parser.add_argument(
        "--connect-wait", type=float, default=180.0, help="seconds for the spectators to connect"
    )
    args = parser.parse_args()
    print(json.dumps(asyncio.run(day(args)), indent=2))


if __name__ == "__main__":
    main()
