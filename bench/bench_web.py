"""Loopback load test of the live crosstable (issue 5): N SSE viewers, results posted.

Starts one ``uvicorn`` process of the web app on a fresh SQLite file with the
demo's ten-player round robin, and a second process holding N spectators on
``/t/{id}/events`` (plain non-blocking sockets and one ``epoll``, every read
into one reused buffer, events found by a byte search: the clients cost
little). This process posts results through the JSON API with an API token,
one after the other, as fast as the server answers or at ``--rate`` results
per second, and notes when each POST was sent. ``--cells`` makes the
spectators ask for the changed cells instead of whole tables, as the pages do.

"Received" is the moment the kernel put the end of the crosstable (or cells)
event into the spectator's socket (``SO_TIMESTAMPNS``): what one machine with a
thousand clients on it adds by reading the sockets one after the other is not
the server's latency (a real spectator has a CPU of their own). The moment the
client process got to it is printed too (``client_*``).

A spectator that is behind may get the newest table instead of every
intermediate one (the table is the whole state), so the latency of result r
for a spectator is the first table event with a revision ≥ r. After the last
POST the spectators read on until every one has the last result (at most a
minute); ``missing`` counts results a spectator never got that way, and
``changes_missing`` change events that never arrived. The server's debug log
gives each broadcast's times: ``post_to_publish`` (POST sent → change
published after its commit), ``taken_up`` (→ the event loop starts the
broadcast), ``render`` and ``write_all`` (writing to every spectator).

    python bench/bench_web.py --viewers 1000 --results 60 --rate 2 --cells
    python bench/bench_web.py --viewers 1000 --results 60 --cells     # as fast as possible
    python bench/bench_web.py --viewers 1000 --results 60 --rate 2    # whole tables
    python bench/bench_web.py --viewers 100 --http h11 --loop asyncio
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import select
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SO_TIMESTAMPNS = 35  # Linux (socket doesn't export it); the control message has the same number
CROSSTABLE = b"event: crosstable\r\nid: "
CELLS = b"event: cells\r\nid: "
CHANGE = b"event: change\r\nid: "
SEQ = re.compile(rb'"seq": ?(\d+)')
BROADCAST = re.compile(
    r"broadcast t\d+ r(\d+) \((\d+) changes\): published at ([\d.]+), taken up after ([\d.]+) ms, "
    r"rendered in ([\d.]+) ms, (\d+) viewers written in ([\d.]+) ms"
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr"}},
    "loggers": {
        "crosstable.web.hub": {"level": "DEBUG", "handlers": ["stderr"], "propagate": False}
    },
}


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


# -- the spectators' process ------------------------------------------------------------


class Spectator:
    __slots__ = ("buffer", "changes", "live", "newest", "received", "sock", "tables")

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""
        self.live = False
        #: (revision, kernel time, client time) of every crosstable event
        self.tables: list[tuple[int, float, float]] = []
        self.changes: set[int] = set()
        self.received = 0  # bytes
        self.newest = -1  # the newest revision of a table

    def feed(self, chunk: bytes, kernel: float, now: float) -> None:
        self.received += len(chunk)
        data = self.buffer + chunk
        if not self.live and b": live" in data:
            self.live = True
        done = 0
        while True:
            # (the changed cells stand for the table)
            found = [i for i in (data.find(CROSSTABLE, done), data.find(CELLS, done)) if i >= 0]
            table = min(found, default=-1)
            change = data.find(CHANGE, done)
            at = min(table, change) if table >= 0 and change >= 0 else max(table, change)
            if at < 0:
                done = max(done, len(data) - 64)
                break
            end = data.find(b"\r\n\r\n", at)
            if end < 0:
                done = at
                break
            if at == table:
                head = data.index(b"id: ", at) + 4
                revision = int(data[head : data.index(b"\r", head)])
                self.tables.append((revision, kernel, now))
                self.newest = max(self.newest, revision)
            else:
                self.changes.update(int(s) for s in SEQ.findall(data, at, end))
            done = end + 4
        self.buffer = data[done:]


def watch(port: int, path: str, count: int) -> None:
    """Connect ``count`` spectators, say ``ready``; on ``until N`` from stdin, read until every
    spectator has a table at revision N or newer (at most a minute), then dump JSON."""
    poller = select.epoll()
    spectators: dict[int, Spectator] = {}
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
    for index in range(count):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        sock.sendall(request.encode())
        sock.setblocking(False)
        spectators[sock.fileno()] = Spectator(sock)
        poller.register(sock.fileno(), select.EPOLLIN)
        if index % 100 == 99:
            time.sleep(0.02)
    poller.register(sys.stdin.fileno(), select.EPOLLIN)
    space = socket.CMSG_SPACE(16)
    # one receive buffer for every socket: no allocation per read
    buffer = bytearray(1 << 18)
    view = memoryview(buffer)
    ready = False
    until, deadline = None, 0.0
    while True:
        for fd, _mask in poller.poll(0.1):
            if fd == sys.stdin.fileno():
                until = int(sys.stdin.readline().split()[1])
                deadline = time.monotonic() + 60
                continue
            spectator = spectators[fd]
            try:
                size, ancillary, _flags, _addr = spectator.sock.recvmsg_into([buffer], space)
            except BlockingIOError:
                continue
            now = time.time()
            if not size:
                poller.unregister(fd)
                continue
            chunk = bytes(view[:size])
            kernel = now
            for level, kind, value in ancillary:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                    seconds, nanos = struct.unpack("qq", value[:16])
                    kernel = seconds + nanos / 1e9
            spectator.feed(chunk, kernel, now)
        if not ready and all(s.live for s in spectators.values()):
            ready = True
            print("ready", flush=True)
        if until is not None and (
            all(s.newest >= until for s in spectators.values()) or time.monotonic() > deadline
        ):
            dump(spectators)
            return


def dump(spectators: dict[int, Spectator]) -> None:
    out: list[dict[str, object]] = [
        {"tables": s.tables, "changes": sorted(s.changes), "bytes": s.received}
        for s in spectators.values()
    ]
    out.append({"cpu": time.process_time()})  # (the process ends before anyone can look)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    sys.stdout.flush()


# -- the poster and the report ----------------------------------------------------------


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
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(args: argparse.Namespace) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="crosstable-bench-"))
    db = folder / "bench.db"
    tid, token = prepare(db)
    port = free_port()
    env = dict(os.environ, CROSSTABLE_DB=str(db), CROSSTABLE_SECRET="bench")
    command = [sys.executable, "-m", "uvicorn", "crosstable.web.app:create_app", "--factory"]
    command += ["--port", str(port), "--log-level", "warning", "--backlog", "4096"]
    command += ["--http", args.http, "--loop", args.loop]
    # the hub's debug lines tell how long each broadcast took to render and to write
    logging_config = folder / "logging.json"
    logging_config.write_text(json.dumps(LOGGING))
    command += ["--log-config", str(logging_config)]
    server_log = (folder / "server.log").open("w")
    server = subprocess.Popen(command, env=env, cwd=ROOT, stderr=server_log)
    spectators = None
    try:
        for _ in range(200):
            try:
                _r, w = await asyncio.open_connection("127.0.0.1", port)
                w.close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        path = f"/t/{tid}/events?rev=999999" + ("&cells=1" if args.cells else "")
        spectators = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--watch",
            str(port),
            path,
            str(args.viewers),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            limit=2**30,
        )
        assert spectators.stdout is not None and spectators.stdin is not None
        line = await asyncio.wait_for(spectators.stdout.readline(), 180)
        assert line.strip() == b"ready", line
        await asyncio.sleep(1.0)
        sent: dict[int, float] = {}
        answered: list[float] = []
        games = [(r, b) for r in range(2, 10) for b in range(1, 6)]
        cycle = ["1-0", "0-1", "½-½"]
        count = index = 0
        cpu_before = cpu_seconds(server.pid)
        client_cpu_before = cpu_seconds(spectators.pid)
        started = time.perf_counter()
        while count < args.results:
            rnd, board = games[index % len(games)]
            first_pass = index < len(games)
            index += 1
            action = "result" if first_pass else "correct"
            route = f"/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/{action}"
            body = {"result": cycle[(count + (0 if first_pass else 1)) % 3]}
            moment, tick = time.time(), time.perf_counter()
            status, answer = await post(port, route, body, token)
            if status != 200:
                continue
            answered.append((time.perf_counter() - tick) * 1000)
            sent[int(answer["seq"])] = moment
            count += 1
            if args.rate:
                delay = started + count / args.rate - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
        elapsed = time.perf_counter() - started
        # the spectators report once every one has the last result (or after a minute)
        spectators.stdin.write(f"until {max(sent)}\n".encode())
        await spectators.stdin.drain()
        report = json.loads(await spectators.stdout.readline())
        cpu = cpu_seconds(server.pid) - cpu_before
        client_cpu = report.pop()["cpu"] - client_cpu_before
        await spectators.wait()
        spectators = None
        kernel: list[float] = []
        client: list[float] = []
        missing = changes_missing = events = received = 0
        for seen in report:
            received += seen["bytes"]
            tables = seen["tables"]
            events += len(tables)
            changes = set(seen["changes"])
            for revision, moment in sent.items():
                changes_missing += revision not in changes
                first = next((t for t in tables if t[0] >= revision), None)
                if first is None:
                    missing += 1
                    continue
                kernel.append((first[1] - moment) * 1000)
                client.append((first[2] - moment) * 1000)
        page_rps = await page_rate(port, tid, args.page_requests)
        server_log.flush()
        broadcasts = [
            (int(r), int(c), float(p), float(u), float(d), int(n), float(w))
            for r, c, p, u, d, n, w in BROADCAST.findall((folder / "server.log").read_text())
        ]
        full = [b for b in broadcasts if b[5] == args.viewers]
        renders = [b[4] for b in full]
        writes = [b[6] for b in full]
        taken_up = [b[3] for b in full]
        # from sending the POST to the change's publication (the commit), single-change broadcasts
        committed = [(b[2] - sent[b[0]]) * 1000 for b in full if b[1] == 1 and b[0] in sent]
        return {
            "viewers": args.viewers,
            "cells": args.cells,
            "http": args.http,
            "loop": args.loop,
            "results": count,
            "rate_limit": args.rate or None,
            "seconds": round(elapsed, 2),
            "results_per_second": round(count / elapsed, 1),
            "post_p50_ms": percentile(answered, 0.5),
            "post_p95_ms": percentile(answered, 0.95),
            "table_events_received": events,
            "bytes_per_spectator_per_result": round(received / max(len(report) * count, 1)),
            "missing": missing,
            "changes_missing": changes_missing,
            "p50_ms": percentile(kernel, 0.50),
            "p95_ms": percentile(kernel, 0.95),
            "p99_ms": percentile(kernel, 0.99),
            "max_ms": round(max(kernel), 1) if kernel else None,
            "client_p50_ms": percentile(client, 0.50),
            "client_p95_ms": percentile(client, 0.95),
            "server_cpu_ms_per_result": round(cpu * 1000 / max(count, 1), 1),
            "spectators_cpu_ms_per_result": round(client_cpu * 1000 / max(count, 1), 1),
            "broadcasts": len(writes),
            "post_to_publish_p50_ms": percentile(committed, 0.5),
            "post_to_publish_p95_ms": percentile(committed, 0.95),
            "taken_up_p50_ms": percentile(taken_up, 0.5),
            "taken_up_p95_ms": percentile(taken_up, 0.95),
            "render_p50_ms": percentile(renders, 0.5),
            "render_p95_ms": percentile(renders, 0.95),
            "write_all_p50_ms": percentile(writes, 0.5),
            "write_all_p95_ms": percentile(writes, 0.95),
            "crosstable_page_requests_per_second": page_rps,
        }
    finally:
        if spectators is not None:
            spectators.kill()
        server.terminate()
        server.wait(20)


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
    if len(sys.argv) == 5 and sys.argv[1] == "--watch":
        watch(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--results", type=int, default=60)
    parser.add_argument("--rate", type=float, default=0.0, help="results per second (0: max)")
    parser.add_argument("--page-requests", type=int, default=400)
    parser.add_argument("--http", default="auto", help="uvicorn --http: auto, h11, httptools")
    parser.add_argument("--loop", default="auto", help="uvicorn --loop: auto, asyncio, uvloop")
    parser.add_argument(
        "--cells", action="store_true", help="spectators take only the changed cells"
    )
    args = parser.parse_args()
    result = asyncio.run(run(args))
    result["machine"] = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    result["python"] = platform.python_version()
    result["load_average"] = os.getloadavg()[0]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
