"""Loopback load test of the live crosstable (issue 5): N SSE viewers, results posted.

Starts one ``uvicorn`` process of the web app on a fresh SQLite file with a
ten-player round robin, connects N viewers to ``/t/{id}/events`` (raw asyncio
sockets, so the client costs little), then posts results through the JSON API
with an API token, one after the other, as fast as the server answers (or at a
fixed rate). For every result it records when the POST was sent and when each
viewer received the crosstable event with that revision.

Prints p50/p95/p99 of POST → event received over all (viewer, result) pairs,
how many events viewers received (renders are coalesced: a viewer that is
behind gets the newest table, not every one), results per second sustained,
and the crosstable page's requests per second.

    python bench/bench_web.py --viewers 1000 --results 60
    python bench/bench_web.py --viewers 1000 --results 60 --rate 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def prepare(db: Path) -> tuple[int, str]:
    sys.path.insert(0, str(ROOT))
    from crosstable.service import Service
    from crosstable.service.accounts import Accounts
    from crosstable.store import open_store
    from crosstable.web.demo import build_demo

    service = Service(open_store(f"sqlite:///{db}"))
    demo = build_demo(service)
    live = demo["tournaments"][1]
    accounts = Accounts(service.store)
    user = accounts.find_user(demo["username"])
    assert user is not None
    token = accounts.create_token(user.id, "bench")
    service.store.close()
    return live, token


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def viewer(
    port: int, path: str, arrivals: dict[int, float], ready: asyncio.Event, counter: list[int]
) -> None:
    """One spectator: reads the stream in chunks and notes when each revision arrives
    (cheap parsing, so the client's own cost on this machine stays small)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    marker = b"event: crosstable\r\nid: "
    pending = b""
    counted = False
    try:
        while True:
            chunk = await reader.read(1 << 20)
            if not chunk:
                return
            moment = time.perf_counter()
            if not counted and b":" in chunk:
                counted = True
                counter[0] += 1
                if counter[0] >= counter[1]:
                    ready.set()
            pending = pending[-64:] + chunk
            at = pending.find(marker)
            while at >= 0:
                end = pending.find(b"\r", at + len(marker))
                if end < 0:
                    break
                revision = int(pending[at + len(marker) : end])
                arrivals.setdefault(revision, moment)
                at = pending.find(marker, end)
    except (asyncio.CancelledError, ConnectionError):
        return
    finally:
        writer.close()


async def post(port: int, path: str, body: dict[str, object], token: str) -> tuple[int, dict]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode()
    writer.write(
        (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
            "Connection: close\r\n\r\n"
        ).encode()
        + data
    )
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    if b"chunked" in head.lower():
        payload = payload.split(b"\r\n", 1)[1].rsplit(b"\r\n0\r\n", 1)[0]
    return status, json.loads(payload or b"{}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="crosstable-bench-"))
    db = folder / "bench.db"
    tid, token = prepare(db)
    port = free_port()
    env = dict(os.environ, CROSSTABLE_DB=str(db), CROSSTABLE_SECRET="bench")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "crosstable.web.app:create_app",
            "--factory",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--backlog",
            "4096",
        ],
        env=env,
        cwd=ROOT,
    )
    try:
        for _ in range(200):
            try:
                _r, w = await asyncio.open_connection("127.0.0.1", port)
                w.close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        arrivals: list[dict[int, float]] = [{} for _ in range(args.viewers)]
        ready = asyncio.Event()
        counter = [0, args.viewers]
        path = f"/t/{tid}/events?rev=999999"
        tasks = []
        for i in range(args.viewers):
            tasks.append(asyncio.create_task(viewer(port, path, arrivals[i], ready, counter)))
            if i % 100 == 99:
                await asyncio.sleep(0.05)
        await asyncio.wait_for(ready.wait(), 120)
        await asyncio.sleep(1.0)
        for a in arrivals:
            a.clear()
        sent: dict[int, float] = {}
        games = [(r, b) for r in range(2, 10) for b in range(1, 6)]
        started = time.perf_counter()
        cycle = ["1-0", "0-1", "½-½"]
        count = 0
        index = 0
        while count < args.results:
            rnd, board = games[index % len(games)]
            first_pass = index < len(games)
            index += 1
            if first_pass:
                route = f"/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/result"
                body: dict[str, object] = {"result": cycle[count % 3]}
            else:
                route = f"/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/correct"
                body = {"result": cycle[(count + 1) % 3]}
            moment = time.perf_counter()
            status, answer = await post(port, route, body, token)
            if status != 200:
                continue
            sent[int(answer["seq"])] = moment
            count += 1
            if args.rate:
                delay = started + count / args.rate - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
        elapsed = time.perf_counter() - started
        await asyncio.sleep(3.0)
        latencies: list[float] = []
        received = 0
        for a in arrivals:
            for revision, moment in a.items():
                if revision in sent:
                    latencies.append((moment - sent[revision]) * 1000)
                    received += 1
        newest = max(sent)
        got_last = sum(1 for a in arrivals if newest in a)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        page_rps = await page_rate(port, tid, args.page_requests)
        return {
            "viewers": args.viewers,
            "results": count,
            "rate_limit": args.rate or None,
            "seconds": round(elapsed, 2),
            "results_per_second": round(count / elapsed, 1),
            "events_received": received,
            "events_possible": count * args.viewers,
            "viewers_with_last_result": got_last,
            "p50_ms": round(percentile(latencies, 0.50), 1),
            "p95_ms": round(percentile(latencies, 0.95), 1),
            "p99_ms": round(percentile(latencies, 0.99), 1),
            "max_ms": round(max(latencies), 1) if latencies else None,
            "crosstable_page_requests_per_second": page_rps,
        }
    finally:
        server.terminate()
        server.wait(10)


async def page_rate(port: int, tid: int, total: int) -> float:
    """Requests per second for the crosstable page, 8 connections (keep-alive)."""

    async def worker(n: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(n):
            writer.write(f"GET /t/{tid} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
        writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(worker(total // 8) for _ in range(8)))
    return round(total / (time.perf_counter() - started), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--results", type=int, default=60)
    parser.add_argument("--rate", type=float, default=0.0, help="results per second (0: max)")
    parser.add_argument("--page-requests", type=int, default=400)
    args = parser.parse_args()
    result = asyncio.run(run(args))
    result["machine"] = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    result["python"] = platform.python_version()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
