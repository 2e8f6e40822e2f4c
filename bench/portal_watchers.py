"""Light spectators in their own processes, for bench/bench_portal.py.

One process can hold only as many connections as it may open files (20 000 on the
machine of docs/benchmarks.md, without the right to raise it), and one Python loop
reading every spectator's stream takes a core of its own. So the spectators are
spread over ``processes`` children (``spawn``), each one epoll loop over its
:class:`Watcher` s; the parent talks to each through a pipe:

1. the child connects its watchers and answers ``("connected", n)``;
2. the parent, once the game server has posted, sends ``("converge", newest, sent,
   seconds)``: the last revision of every tournament and every accepted result
   ``(tournament, seq, moment sent)``;
3. the child waits until each of its watchers is at its tournament's last revision
   (or the time is up) and answers ``("done", report)``: the delays from a result's
   sending to each of its tournament's watchers reading it (ms), how many deliveries
   are missing, how many watchers did not converge, the reconnections, and its own
   CPU while the game server posted.

A watcher reads only the revision of each message, from whole chunks of its stream.
When it connects again it does what a page does: it
waits for nchan's messages (after an nginx restart the app processes publish again
every tournament they published lately), it does not ask the app.
"""

from __future__ import annotations

import asyncio
import heapq
import multiprocessing
import random
import re
import resource
import select
import socket
import time
from typing import Any

#: a message's revision; a marker's (``"fetch"`` follows: no table in it, crosstable/web/push.py)
#: is not a delivery of the state — its table follows, and that is what is measured
_REVISION = re.compile(rb'"revision":\s*(\d+)(,"fetch")?')


class Watcher:
    """One light spectator: an EventSource on a tournament's nchan channel (HTTP/1.0,
    so the stream is plain lines), each message's revision read; reconnects."""

    def __init__(self, tournament: int, revision: int) -> None:
        self.tournament = tournament
        self.revision = revision
        self.arrivals: dict[int, float] = {}
        self.connects = 0
        self.sock: socket.socket | None = None
        self.streaming = False  # past the response's header
        self.rest = b""

    def take(self, data: bytes, now: float) -> bool:
        """Bytes read from the stream; False when the response is not a stream."""
        self.rest += data
        if not self.streaming:
            head, found, body = self.rest.partition(b"\r\n\r\n")
            if not found:
                return len(self.rest) < 65536
            if b" 200" not in head.split(b"\r\n", 1)[0]:
                return False
            self.streaming, self.rest = True, body
            self.connects += 1
        # whole lines only (a number cut at the chunk's end is read next time); a
        # message's own revision is its only "revision" key (cells and tables carry
        # theirs as data-revision="…", escaped)
        end = self.rest.rfind(b"\n") + 1
        if end:
            found_revisions = [
                int(n) for n, marker in _REVISION.findall(self.rest, 0, end) if not marker
            ]
            self.rest = self.rest[end:]
            if found_revisions:
                self.have(max(found_revisions), now)
        return True

    def have(self, revision: int, now: float) -> None:
        if revision <= self.revision:
            return
        for known in range(self.revision + 1, revision + 1):
            self.arrivals.setdefault(known, now)
        self.revision = revision


class _Loop:
    """Every watcher of this process on one epoll (a Python asyncio stream per watcher
    costs several times the CPU per message; the spectators' CPU is not what is
    measured, and it shares the machine with what is)."""

    def __init__(self, port: int, watchers: list[Watcher]) -> None:
        self.port = port
        self.watchers = watchers
        self.poll = select.epoll()
        self.by_fd: dict[int, Watcher] = {}
        self.later: list[tuple[float, int]] = []  # (when, watcher's index) to connect

    def connect(self, index: int) -> None:
        w = self.watchers[index]
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        w.sock, w.streaming, w.rest = sock, False, b""
        sock.connect_ex(("127.0.0.1", self.port))
        self.by_fd[sock.fileno()] = w
        self.poll.register(sock.fileno(), select.EPOLLOUT)

    def drop(self, w: Watcher, index: int) -> None:
        """The connection went: connect again after a browser's retry delay."""
        if w.sock is not None:
            fd = w.sock.fileno()
            self.by_fd.pop(fd, None)
            self.poll.unregister(fd)
            w.sock.close()
        w.sock, w.streaming = None, False
        heapq.heappush(self.later, (time.monotonic() + 0.2 + random.random() * 0.8, index))

    def run_until(self, done: Any, deadline: float, extra: int | None = None) -> bool:
        """Serve the streams until ``done()`` or the deadline; True if ``extra`` (a
        descriptor, the pipe) became readable first."""
        index_of = {id(w): i for i, w in enumerate(self.watchers)}
        if extra is not None:
            self.poll.register(extra, select.EPOLLIN)
        request = "GET /push/live/{}-en HTTP/1.0\r\nHost: 127.0.0.1\r\n"
        request += "Accept: text/event-stream\r\n\r\n"
        try:
            while not done() and time.monotonic() < deadline:
                now = time.monotonic()
                while self.later and self.later[0][0] <= now:
                    self.connect(heapq.heappop(self.later)[1])
                for fd, events in self.poll.poll(0.05):
                    if fd == extra:
                        return True
                    w = self.by_fd.get(fd)
                    if w is None or w.sock is None:
                        continue
                    if events & select.EPOLLOUT:
                        if w.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                            self.drop(w, index_of[id(w)])
                            continue
                        try:
                            w.sock.send(request.format(w.tournament).encode())
                        except OSError:
                            self.drop(w, index_of[id(w)])
                        else:
                            self.poll.modify(fd, select.EPOLLIN)
                        continue
                    try:
                        data = w.sock.recv(65536)
                    except (BlockingIOError, InterruptedError):
                        continue
                    except OSError:
                        data = b""
                    if not data or not w.take(data, time.time()):
                        self.drop(w, index_of[id(w)])
            return False
        finally:
            if extra is not None:
                self.poll.unregister(extra)


def _watch(connection: Any, port: int, assignments: list[tuple[int, int]], wait: float) -> None:
    watchers = [Watcher(tournament, revision) for tournament, revision in assignments]
    loop = _Loop(port, watchers)
    start = time.monotonic()
    for index in range(len(watchers)):  # 500 every 50 ms (the listen queue)
        heapq.heappush(loop.later, (start + (index // 500) * 0.05, index))
    loop.run_until(lambda: all(w.connects for w in watchers), start + wait)
    connected = [w for w in watchers if w.connects]
    connection.send(("connected", len(connected)))
    cpu = time.process_time()  # this process's CPU while the game server posts
    loop.run_until(lambda: False, float("inf"), extra=connection.fileno())
    _kind, newest, sent, seconds = connection.recv()
    loop.run_until(
        lambda: all(w.revision >= newest.get(w.tournament, 0) for w in connected),
        time.monotonic() + seconds,
    )
    cpu = time.process_time() - cpu
    by_tournament: dict[int, list[Watcher]] = {}
    for w in connected:
        by_tournament.setdefault(w.tournament, []).append(w)
    delays: list[tuple[int, float, float]] = []
    missing = 0
    for tournament, seq, moment in sent:
        for w in by_tournament.get(tournament, ()):
            arrival = w.arrivals.get(seq)
            if arrival is None:
                missing += 1
            else:
                delays.append((tournament, (arrival - moment) * 1000, moment))
    connection.send(
        (
            "done",
            {
                "delays": delays,
                "missing": missing,
                "not_converged": sum(
                    1 for w in connected if w.revision < newest.get(w.tournament, 0)
                ),
                "reconnects": sum(max(w.connects - 1, 0) for w in watchers),
                "cpu_s": cpu,
            },
        )
    )


def _child(connection: Any, port: int, assignments: list[tuple[int, int]], wait: float) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    _watch(connection, port, assignments, wait)


class WatcherPool:
    """The spectators, spread over ``processes`` children (see the module's text)."""

    def __init__(
        self, port: int, assignments: list[tuple[int, int]], processes: int, wait: float
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self.children: list[tuple[Any, Any]] = []
        for index in range(processes):
            mine = assignments[index::processes]
            parent, child = context.Pipe()
            process = context.Process(target=_child, args=(child, port, mine, wait), daemon=True)
            self.children.append((process, parent))
        self.assignments = assignments

    async def start(self) -> int:
        """Start the children; the number of watchers connected within the wait."""
        loop = asyncio.get_running_loop()
        for process, _pipe in self.children:
            process.start()
        answers = await asyncio.gather(
            *(loop.run_in_executor(None, pipe.recv) for _p, pipe in self.children)
        )
        return sum(int(n) for _kind, n in answers)

    @property
    def pids(self) -> list[int]:
        return [process.pid for process, _pipe in self.children if process.pid]

    async def finish(
        self, newest: dict[int, int], sent: list[tuple[int, int, float]], seconds: float
    ) -> dict[str, Any]:
        """Converge, stop, and gather the children's reports into one."""
        loop = asyncio.get_running_loop()
        for _process, pipe in self.children:
            pipe.send(("converge", newest, sent, seconds))
        answers = await asyncio.gather(
            *(loop.run_in_executor(None, pipe.recv) for _p, pipe in self.children)
        )
        report: dict[str, Any] = {"delays": [], "missing": 0, "not_converged": 0}
        report |= {"reconnects": 0, "cpu_s": 0.0}
        for _kind, part in answers:
            report["delays"] += part["delays"]
            for key in ("missing", "not_converged", "reconnects", "cpu_s"):
                report[key] += part[key]
        for process, _pipe in self.children:
            process.join(30)
        return report

    def close(self) -> None:
        for process, _pipe in self.children:
            if process.is_alive():
                process.kill()
                process.join(5)
