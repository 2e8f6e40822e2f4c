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

The spectators are light: one asyncio stream each in this process, reading only the
revision of each message (their own CPU is not what is measured).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
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
from push_rig import (  # noqa: E402
    AppProcess,
    PushServer,
    _group,
    cpu_seconds,
    free_port,
    percentile,
    prepare,
)

_REVISION = re.compile(rb'"revision":\s*(\d+)')


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Watcher:
    """One light spectator: an EventSource on a tournament's nchan channel (HTTP/1.0,
    so the stream is plain lines), each message's revision read; reconnects."""

    def __init__(self, port: int, tournament: int, revision: int) -> None:
        self.port = port
        self.tournament = tournament
        self.revision = revision
        self.arrivals: dict[int, float] = {}
        self.connects = 0
        self.connected = asyncio.Event()

    async def run(self, stop: asyncio.Event) -> None:
        request = (
            f"GET /push/live/{self.tournament}-en HTTP/1.0\r\nHost: 127.0.0.1\r\n"
            "Accept: text/event-stream\r\n\r\n"
        ).encode()
        while not stop.is_set():
            writer = None
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.write(request)
                status = await reader.readline()
                if b" 200" not in status:
                    raise OSError(status[:40])
                while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                    pass
                self.connects += 1
                self.connected.set()
                while not stop.is_set():
                    line = await reader.readline()
                    if not line:
                        break
                    if line.startswith(b"data:"):
                        found = _REVISION.search(line)
                        if found is not None:
                            self._have(int(found.group(1)))
            except (OSError, asyncio.IncompleteReadError, ValueError):
                pass
            finally:
                if writer is not None:
                    writer.close()
            if not stop.is_set():
                await asyncio.sleep(0.2 + random.random() * 0.3)

    def _have(self, revision: int) -> None:
        if revision <= self.revision:
            return
        now = time.time()
        for known in range(self.revision + 1, revision + 1):
            self.arrivals.setdefault(known, now)
        self.revision = revision


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
    wanted = args.spectators * 2 + 4096
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
    tasks: list[asyncio.Task[None]] = []
    stop = asyncio.Event()
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
        tids = [source, *made]
        report["tournaments"] = len(tids)
        report["fill_s"] = round(time.perf_counter() - began, 1)
        report["tables"] = measure_tables(db_url, tids[-20:], games)
        spare = set(tids[-20:])  # (the measurement's: three results each)
        playing = [t for t in tids if t not in spare]
        ports = [free_port() for _ in range(args.apps)]
        nginx = PushServer(folder, ports, connections=args.spectators + 4096).start()
        apps = [
            AppProcess(app_url, p, nginx.publish_url, log=folder / f"app{p}.log").start()
            for p in ports
        ]
        hot = playing[0]
        spread = playing[1 : 1 + args.watched]
        watchers = [
            Watcher(nginx.port, hot if i % 4 == 0 else spread[i % len(spread)], revision)
            for i in range(args.spectators)
        ]
        nginx_rss = sum(rss_kib(p) for p in _group(nginx.process.pid))  # type: ignore[union-attr]
        for chunk in range(0, len(watchers), 500):
            tasks += [asyncio.create_task(w.run(stop)) for w in watchers[chunk : chunk + 500]]
            await asyncio.sleep(0.05)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                asyncio.gather(*(w.connected.wait() for w in watchers)), args.connect_wait
            )
        report["spectators"] = len(watchers)
        report["spectators_connected"] = sum(1 for w in watchers if w.connected.is_set())
        report["spectators_on_the_hot_tournament"] = sum(1 for w in watchers if w.tournament == hot)
        report["watched_tournaments"] = len({w.tournament for w in watchers})
        await asyncio.sleep(2)
        nginx_rss_after = sum(rss_kib(p) for p in _group(nginx.process.pid))  # type: ignore[union-attr]
        report["nginx_kib_per_spectator"] = round(
            (nginx_rss_after - nginx_rss) / max(len(watchers), 1), 2
        )

        # the game server: batches every `interval` seconds at `rate` results a second
        interval = args.interval
        per_batch = max(1, round(args.rate * interval))
        next_game = dict.fromkeys(playing, 0)
        usable = len(games) - 1  # the last game finishes the tournament (ordinary path)
        rng = random.Random(17)
        pg_pids = _pg_backends(admin, application)
        app_cpu = sum(cpu_seconds(a.process.pid) for a in apps if a.process)
        pg_cpu = sum(cpu_seconds(p) for p in pg_pids)
        nginx_cpu = nginx.cpu_seconds()
        sent: list[tuple[int, int, float]] = []
        refused: list[str] = []
        limits = httpx.Limits(max_connections=8)
        in_flight = asyncio.Semaphore(args.in_flight)
        posts: list[asyncio.Task[None]] = []
        began = time.perf_counter()
        async with httpx.AsyncClient(limits=limits, timeout=60) as client:

            async def post(items: list[dict[str, Any]]) -> None:
                """One batch, sent at once (at most ``in_flight`` wait for their answer)."""
                async with in_flight:
                    moment = time.time()
                    response = await client.post(
                        f"{nginx.base_url}/api/v1/results",
                        json={"results": items},
                        headers={"Authorization": f"Bearer {token}"},
                    )
                if response.status_code == 200:
                    for item, answer in zip(items, response.json()["results"], strict=True):
                        if answer["status"] == "accepted":
                            sent.append((item["tournament"], answer["change"]["seq"], moment))
                        else:
                            refused.append(answer["detail"])
                else:
                    refused.append(f"HTTP {response.status_code}: {response.text[:200]}")

            batch_number = 0
            while time.perf_counter() - began < args.seconds:
                items = []
                for index in range(per_batch):
                    pick = hot if (batch_number * per_batch + index) % 10 == 0 else None
                    if pick is None or next_game[pick] >= usable:
                        pick = rng.choice(spread if rng.random() < 0.5 else playing)
                    if next_game[pick] >= usable:
                        continue
                    rnd, board = games[next_game[pick]]
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
            posting = time.perf_counter() - began
            newest: dict[int, int] = {}
            for tid, seq, _moment in sent:
                newest[tid] = max(seq, newest.get(tid, 0))

            async def converged() -> None:
                for w in (w for w in watchers if w.connected.is_set()):
                    while w.revision < newest.get(w.tournament, 0):
                        await asyncio.sleep(0.05)

            try:
                await asyncio.wait_for(converged(), 120)
                report["every_spectator_got_the_last_revision"] = True
            except TimeoutError:
                report["every_spectator_got_the_last_revision"] = False
        elapsed = time.perf_counter() - began
        app_cpu = sum(cpu_seconds(a.process.pid) for a in apps if a.process) - app_cpu
        pg_cpu = sum(cpu_seconds(p) for p in pg_pids) - pg_cpu
        nginx_cpu = nginx.cpu_seconds() - nginx_cpu
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        by_tournament: dict[int, list[Watcher]] = {}
        for w in watchers:
            by_tournament.setdefault(w.tournament, []).append(w)
        delays = [
            (w.arrivals[seq] - moment) * 1000
            for tid, seq, moment in sent
            for w in by_tournament.get(tid, ())
            if seq in w.arrivals
        ]
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
            "p50_ms": round(percentile(delays, 0.5), 1),
            "p95_ms": round(percentile(delays, 0.95), 1),
            "p99_ms": round(percentile(delays, 0.99), 1),
            "app_cpu_ms_per_result": round(app_cpu * 1000 / max(count, 1), 2),
            "postgres_cpu_ms_per_result": round(pg_cpu * 1000 / max(count, 1), 2),
            "postgres_backends_measured": len(pg_pids),
            "nginx_cpu_ms_per_result": round(nginx_cpu * 1000 / max(count, 1), 2),
            "elapsed_s": round(elapsed, 1),
            "app_rss_mib": [round(rss_kib(a.process.pid) / 1024, 1) for a in apps if a.process],
            "every_accepted_result_in_the_history": all((t, s) in stored for t, s, _ in sent),
            "reconnects": sum(w.connects for w in watchers) - len(watchers),
            "load_average": os.getloadavg(),
        }
        return report
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
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
        "--connect-wait", type=float, default=180.0, help="seconds for the spectators to connect"
    )
    args = parser.parse_args()
    print(json.dumps(asyncio.run(day(args)), indent=2))


if __name__ == "__main__":
    main()
