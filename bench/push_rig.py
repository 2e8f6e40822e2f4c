"""nginx + nchan + N ``crosstable serve`` processes on loopback, and spectators (issue 17).

For tests/test_push_deploy.py (CI) and the benchmarks (bench/bench_portal.py imports
it). Not part of the product; needs the Debian packages ``nginx`` and
``libnginx-mod-nchan`` (scripts/nginx.sh installs them) and a PostgreSQL database.

    from bench.push_rig import PushServer, AppProcess, prepare, Spectator

    with PushServer(folder, upstreams=[8001, 8002]) as nginx:      # deploy/nginx.conf, rendered
        apps = [AppProcess(db_url, port, nginx.publish_url).start() for port in (8001, 8002)]
        ...

* :class:`PushServer` renders **deploy/nginx.conf itself** into ``folder`` (ports,
  upstreams, pid/log/temp paths, the package's static files; every substitution
  must match, so a changed deploy file fails here instead of drifting; with
  ``redis_url`` its commented Redis lines on, for several nginx on one Redis:
  tests/test_push_redis.py) and runs
  ``nginx -p folder -c conf`` as the current user, in a process group of its own
  (:meth:`~PushServer.kill` is a ``kill -9`` of master and workers).
* :class:`AppProcess` is one ``python -m crosstable serve --push-url …`` process.
* :func:`prepare` makes an organiser, an API token and started round robins.
* :class:`Spectator` follows one tournament's channel through nginx as a page
  does (EventSource with Last-Event-ID, or WebSocket), applies cells to its own copy
  of the table, reads the whole table from nchan when the cells do not fit, and
  records when each revision arrived; it reconnects by itself.

``python bench/push_rig.py --spectators 1000 --results 60`` measures a first
figure through nginx/nchan (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
DEPLOY_CONF = ROOT / "deploy" / "nginx.conf"
NCHAN_MODULE = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")


def nginx_binary() -> str | None:
    """nginx, when it and the nchan module are installed (scripts/nginx.sh)."""
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    return found if found and NCHAN_MODULE.exists() else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(
    port: int, timeout: float = 30.0, process: subprocess.Popen[Any] | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the process on port {port} ended ({process.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


def render_config(
    folder: Path,
    *,
    port: int,
    publish_port: int,
    upstreams: list[int],
    connections: int = 8192,
    workers: int = 1,
    text: str | None = None,
    redis_url: str | None = None,
) -> str:
    """deploy/nginx.conf for a run as the current user in ``folder`` on these ports
    (``redis_url``: with its commented Redis lines on, channels kept in that Redis)."""
    text = DEPLOY_CONF.read_text() if text is None else text
    nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if nofile == resource.RLIM_INFINITY:
        nofile = 1 << 20
    servers = "".join(
        f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;\n" for p in upstreams
    )
    temp = "".join(
        f"    {kind}_temp_path {folder}/tmp/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    substitutions = [
        (r"\nuser www-data;\n", "\n"),
        (r"worker_processes auto;", f"worker_processes {workers};"),
        (r"worker_rlimit_nofile \d+;", f"worker_rlimit_nofile {min(nofile, 131072)};"),
        (r"pid /run/crosstable-nginx\.pid;", f"pid {folder}/nginx.pid;"),
        (
            r"error_log /var/log/nginx/crosstable-error\.log warn;",
            f"error_log {folder}/error.log warn;",
        ),
        (r"worker_connections \d+;", f"worker_connections {connections};"),
        (r"access_log /var/log/nginx/crosstable-access\.log;", "access_log off;"),
        (r"http \{\n", "http {\n" + temp),
        (r"(        server 127\.0\.0\.1:800\d max_fails=1 fail_timeout=2s;\n)+", servers),
        (r"listen 127\.0\.0\.1:8080;", f"listen 127.0.0.1:{publish_port};"),
        (r"listen 80;", f"listen 127.0.0.1:{port};"),
        (
            r"alias /usr/local/lib/python3/dist-packages/crosstable/web/static/;",
            f"alias {ROOT}/crosstable/web/static/;",
        ),
    ]
    for pattern, replacement in substitutions:
        text, count = re.subn(pattern, lambda _m, r=replacement: r, text, count=1)
        if count != 1:
            raise ValueError(f"deploy/nginx.conf: {pattern!r} not found (the rig must follow it)")
    if redis_url is not None:
        text = _with_redis(text, redis_url)
    return text


def _with_redis(text: str, redis_url: str) -> str:
    """deploy/nginx.conf's Redis upstream and every nchan location's
    ``nchan_redis_pass`` uncommented (docs/deploy.md "Several machines")."""
    upstream = re.search(
        r"    # upstream crosstable_redis \{\n((?:    #     .*\n)+)    # \}\n", text
    )
    if upstream is None or "nchan_redis_server" not in upstream.group(1):
        raise ValueError("deploy/nginx.conf: the commented crosstable_redis upstream is gone")
    lines = [line.removeprefix("    #     ") for line in upstream.group(1).splitlines()]
    inside = "".join(
        f"        nchan_redis_server {redis_url};\n"
        if line.startswith("nchan_redis_server ")
        else f"        {line}\n"
        for line in lines
    )
    text = text.replace(upstream.group(0), f"    upstream crosstable_redis {{\n{inside}    }}\n")
    locations = len(re.findall(r"\n +nchan_(?:publisher|subscriber) ", text))
    text, count = re.subn(r"# (nchan_redis_pass crosstable_redis;)", lambda m: m.group(1), text)
    if count != locations:
        raise ValueError(
            f"deploy/nginx.conf: {count} nchan_redis_pass lines for {locations} nchan locations"
        )
    return text


class PushServer:
    """nginx with nchan, run from deploy/nginx.conf in ``folder`` (see the module's text)."""

    def __init__(
        self,
        folder: Path,
        upstreams: list[int],
        *,
        port: int | None = None,
        publish_port: int | None = None,
        connections: int = 8192,
        workers: int = 1,
        redis_url: str | None = None,
    ) -> None:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx with nchan is not installed (bash scripts/nginx.sh)")
        self.binary = binary
        self.folder = Path(folder)
        self.port = port or free_port()
        self.publish_port = publish_port or free_port()
        self.upstreams = upstreams
        self.connections = connections
        self.workers = workers
        #: channels in this Redis (``redis://127.0.0.1:PORT``) instead of nginx's memory
        self.redis_url = redis_url
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def publish_url(self) -> str:
        return f"http://127.0.0.1:{self.publish_port}/push/publish"

    def start(self) -> PushServer:
        (self.folder / "tmp").mkdir(parents=True, exist_ok=True)
        conf = self.folder / "nginx.conf"
        conf.write_text(
            render_config(
                self.folder,
                port=self.port,
                publish_port=self.publish_port,
                upstreams=self.upstreams,
                connections=self.connections,
                workers=self.workers,
                redis_url=self.redis_url,
            )
        )
        log = (self.folder / "nginx.out").open("ab")
        self.process = subprocess.Popen(
            [self.binary, "-p", str(self.folder), "-c", str(conf), "-g", "daemon off;"],
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        wait_port(self.port, process=self.process)
        wait_port(self.publish_port, process=self.process)
        return self

    def kill(self) -> None:
        """``kill -9`` of nginx, master and workers (nchan's memory goes with them)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGQUIT)
            self.process.wait(10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            self.kill()
        self.process = None

    def cpu_seconds(self) -> float:
        """CPU of master and workers so far (Linux /proc)."""
        if self.process is None:
            return 0.0
        total = 0.0
        for pid in _group(self.process.pid):
            total += cpu_seconds(pid)
        return total

    def __enter__(self) -> PushServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def _group(pgid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getpgid(int(entry.name)) == pgid:
                    found.append(int(entry.name))
            except (ProcessLookupError, PermissionError):
                continue
    return found


def cpu_seconds(pid: int) -> float:
    """user + system CPU of one process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class AppProcess:
    """One ``crosstable serve`` with ``--push-url`` (its log in ``log``)."""

    def __init__(
        self,
        db_url: str,
        port: int,
        push_url: str | None,
        *,
        log: Path | None = None,
        secret: str = "push-rig",
    ) -> None:
        self.db_url = db_url
        self.port = port
        self.push_url = push_url
        self.log = log
        self.secret = secret
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> AppProcess:
        command = [sys.executable, "-m", "crosstable", "serve", "--db", self.db_url]
        command += ["--port", str(self.port), "--no-tick", "--trusted-proxy", "127.0.0.1"]
        if self.push_url:
            command += ["--push-url", self.push_url]
        env = dict(os.environ, CROSSTABLE_SECRET=self.secret, PYTHONPATH=str(ROOT))
        out = self.log.open("ab") if self.log else subprocess.DEVNULL
        self.process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=out, stderr=out)
        wait_port(self.port, 60, self.process)
        return self

    def kill9(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
            self.process = None


@dataclass
class Portal:
    """What :func:`prepare` made."""

    token: str
    tournaments: list[int]
    #: the games of each tournament, (round, board), in the order to post results
    games: dict[int, list[tuple[int, int]]]
    #: each tournament's organiser's token (results are limited per account and process)
    tokens: dict[int, str] = field(default_factory=dict)


def prepare(
    db_url: str, tournaments: int = 4, players: int = 8, *, separate_organisers: bool = False
) -> Portal:
    """An organiser with an API token and ``tournaments`` started round robins (with
    ``separate_organisers`` each tournament but the first has an organiser of its own)."""
    sys.path.insert(0, str(ROOT))
    from crosstable.core.model import LotsMethod
    from crosstable.service import Service
    from crosstable.service.accounts import Accounts
    from crosstable.service.players import PlayerInfo
    from crosstable.service.registration import Regulations
    from crosstable.store import open_store

    service = Service(open_store(db_url))
    try:
        accounts = Accounts(service.store, clock=service.clock)
        name = f"rig-{uuid.uuid4().hex[:8]}"
        user = accounts.create_user(name, uuid.uuid4().hex, display_name="Rig", is_admin=True)
        token = accounts.create_token(user.id, "push rig")
        tids: list[int] = []
        games: dict[int, list[tuple[int, int]]] = {}
        tokens: dict[int, str] = {}
        for number in range(tournaments):
            tid = service.create_tournament(
                Regulations(name=f"Rig {number + 1}"), actor=name
            ).tournament_id
            owner = user
            if separate_organisers and number:
                owner = accounts.create_user(f"{name}-{number}", uuid.uuid4().hex)
            accounts.claim(tid, owner)
            tokens[tid] = token if owner is user else accounts.create_token(owner.id, "rig")
            for index in range(players):
                service.add_player(tid, PlayerInfo(f"Player {index + 1}", 2000 + index), actor=name)
            service.draw_lots(
                tid, LotsMethod.MANUAL, order=tuple(range(1, players + 1)), actor=name
            )
            service.start(tid, actor=name)
            tids.append(tid)
            rounds = players - 1 if players % 2 == 0 else players
            games[tid] = [(r, b) for r in range(1, rounds + 1) for b in range(1, players // 2 + 1)]
        return Portal(token, tids, games, tokens)
    finally:
        service.store.close()


# -- spectators ---------------------------------------------------------------------------

_CELL = re.compile(r"<(t[dh])(?=[\s>])[^>]*>.*?</\1>", re.DOTALL)
_REVISION = re.compile(r' data-revision="(\d+)"')
_WRAP = re.compile(
    r'<div class="xt-wrap( swiss)?"[^>]*? data-num="([^"]*)" data-words=\'([^\']*)\'>'
)
_HEAD = re.compile(r"<thead><tr>(.*?)</tr></thead>", re.DOTALL)
_COLUMN = re.compile(r'<th(?:[^>]*? data-col="([^"]*)")?[^>]*>')
_BODY_ROW = re.compile(r'<tr id="p(\d+)"[^>]*>.*?</tr>', re.DOTALL)


def apply_cells(html: str, message: dict[str, Any]) -> str | None:
    """The cells of ``message`` (``{"revision", "cells": [{"row", "col", "value"}],
    "order"}``, crosstable/web/live_cells.py) applied to the fragment ``html`` as app.js
    applies them, each cell written by ``live_cells.cell_html`` (the templates' HTML),
    and its revision set (None: a cell is not there — the page's test ``fits``)."""
    from crosstable.web.live_cells import cell_html  # deferred, as prepare's imports

    wrap, head = _WRAP.search(html), _HEAD.search(html)
    if wrap is None or head is None:
        return None
    swiss, symbols = bool(wrap.group(1)), wrap.group(2).replace("&nbsp;", "\xa0")
    words = json.loads(wrap.group(3))
    index = {col: i for i, col in enumerate(_COLUMN.findall(head.group(1))) if col}
    rows = {int(m.group(1)): m for m in _BODY_ROW.finditer(html)}
    texts = {start: m.group(0) for start, m in rows.items()}
    for cell in message["cells"]:
        start, col = int(cell["row"]), cell["col"]
        if start not in texts or col not in index:
            return None
        found = list(_CELL.finditer(texts[start]))
        if index[col] >= len(found):
            return None
        old = found[index[col]]
        new = cell_html(start, col, cell["value"], words, symbols, swiss)
        texts[start] = texts[start][: old.start()] + new + texts[start][old.end() :]
    order = [int(s) for s in message.get("order") or sorted(rows, key=lambda s: rows[s].start())]
    if set(order) != set(rows):
        return None
    first, last = min(m.start() for m in rows.values()), max(m.end() for m in rows.values())
    joined = html[:first] + "".join(texts[s] for s in order) + html[last:]
    return _REVISION.sub(f' data-revision="{message["revision"]}"', joined, count=1)


#: a message's revision, unless it is a marker's (``"fetch"``: its table follows, or is read)
_LIGHT = re.compile(r'\{"revision":(\d+)(?!\d|,"fetch")')


def revision_of_html(html: str) -> int:
    found = _REVISION.search(html)
    return int(found.group(1)) if found else -1


@dataclass(eq=False)
class Spectator:
    """One page's live table through nginx/nchan (see the module's text)."""

    base: str
    tournament: int
    locale: str = "en"
    websocket: bool = False
    #: only the revisions (no table kept, no cells applied): a measurement's many
    #: spectators in one process, whose own CPU must not be what is measured
    light: bool = False
    revision: int = -1
    html: str = ""
    #: revision → when (time.time()) this spectator first had it (or a newer one)
    arrivals: dict[int, float] = field(default_factory=dict)
    connects: int = 0
    fulls: int = 0
    from_app: int = 0
    last_id: str | None = None
    problems: list[str] = field(default_factory=list)
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    #: the table a marker announced, read a moment later unless it came meanwhile
    _later: asyncio.Future[None] | None = None

    @property
    def channel(self) -> str:
        return f"{self.tournament}-{self.locale}"

    async def load(self, client: Any) -> None:
        """What a page load gives: the fragment from the app (through nginx)."""
        response = await client.get(
            f"{self.base}/t/{self.tournament}/live", headers={"Accept-Language": self.locale}
        )
        response.raise_for_status()
        self._have(response.text, revision_of_html(response.text))

    def _have(self, html: str, revision: int) -> None:
        if revision <= self.revision:
            return
        now = time.time()
        for known in range(max(self.revision, 0) + 1, revision + 1):
            self.arrivals.setdefault(known, now)
        self.revision, self.html = revision, html
        self.changed.set()

    async def run(self, client: Any, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                if self.websocket:
                    await self._websocket(client, stop)
                else:
                    await self._eventsource(client, stop)
            except Exception as error:  # the connection dropped: reconnect, as a browser does
                if stop.is_set():
                    return
                self.connected.clear()
                if (
                    not isinstance(error, OSError | asyncio.TimeoutError)
                    and "httpx" not in type(error).__module__
                    and "websockets" not in type(error).__module__
                ):
                    self.problems.append(repr(error))
            if not stop.is_set():
                await asyncio.sleep(0.2 + random.random() * 0.3)  # a browser's retry delay

    async def _eventsource(self, client: Any, stop: asyncio.Event) -> None:
        import httpx

        headers = {"Accept": "text/event-stream"}
        if self.last_id:
            headers["Last-Event-ID"] = self.last_id
        url = f"{self.base}/push/live/{self.channel}"
        timeout = httpx.Timeout(None, connect=5.0)
        async with client.stream("GET", url, headers=headers, timeout=timeout) as response:
            if response.status_code != 200:
                raise OSError(f"HTTP {response.status_code}")
            self.connects += 1
            self.connected.set()
            event_id, data = None, []
            async for line in response.aiter_lines():
                if stop.is_set():
                    return
                if line.startswith("id:"):
                    event_id = line[3:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].removeprefix(" "))
                elif line == "" and data:
                    await self._message("\n".join(data), client)
                    if event_id:
                        self.last_id = event_id
                    event_id, data = None, []

    async def _websocket(self, client: Any, stop: asyncio.Event) -> None:
        import websockets

        url = self.base.replace("http://", "ws://") + f"/push/live/{self.channel}"
        async with websockets.connect(url, subprotocols=None, open_timeout=5) as socket_:
            self.connects += 1
            self.connected.set()
            while not stop.is_set():
                try:
                    message = await asyncio.wait_for(socket_.recv(), 0.5)
                except TimeoutError:
                    continue
                await self._message(str(message), client)

    async def _message(self, text: str, client: Any) -> None:
        if self.light:
            found = _LIGHT.match(text)
            if found is not None:
                self._have("", int(found.group(1)))
                return
        try:
            message = json.loads(text)
        except ValueError:
            self.problems.append(f"not JSON: {text[:80]!r}")
            return
        revision = int(message["revision"])
        if revision <= self.revision:
            return
        if "cells" in message and message.get("base") == self.revision:
            html = apply_cells(self.html, message)
            if html is not None:
                self._have(html, revision)
                return
        if "table" in message:
            self._have(message["table"], revision)
            return
        if message.get("fetch"):  # a marker: as app.js, wait a moment for the table
            self._later = asyncio.ensure_future(self._wait(client, message["full"], revision))
            return
        await self._full(client, message["full"], revision)

    async def _wait(self, client: Any, path: str, revision: int) -> None:
        await asyncio.sleep(0.4 + random.random() * 0.8)
        if self.revision < revision:
            await self._full(client, path, revision)

    async def _full(self, client: Any, path: str, revision: int) -> None:
        self.fulls += 1
        try:
            response = await client.get(f"{self.base}{path}", timeout=5.0)
            if response.status_code == 200:
                body = response.json()
                if int(body["revision"]) >= revision:
                    self._have(body["table"], int(body["revision"]))
                    return
        except Exception:  # nchan has nothing (it was restarted): ask the app, as a page does
            pass
        self.from_app += 1
        await self.load(client)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- a first measurement ------------------------------------------------------------------


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    import httpx
    import psycopg

    base_url = os.environ.get("CROSSTABLE_TEST_PG_URL")
    if not base_url:
        raise SystemExit("set CROSSTABLE_TEST_PG_URL (bash scripts/postgres.sh)")
    schema = "bench_" + uuid.uuid4().hex[:12]
    with psycopg.connect(base_url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    db_url = f"{base_url}?options={quote(f'-csearch_path={schema}')}"
    folder = Path(tempfile.mkdtemp(prefix="crosstable-push-"))
    portal = prepare(db_url, args.tournaments, separate_organisers=True)
    ports = [free_port() for _ in range(args.apps)]
    nginx = PushServer(folder, ports, connections=max(4096, args.spectators * 2 + 512)).start()
    apps = [
        AppProcess(db_url, p, nginx.publish_url, log=folder / f"app{p}.log").start() for p in ports
    ]
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    try:
        async with httpx.AsyncClient(limits=limits, timeout=10) as client:
            spectators = [
                Spectator(
                    nginx.base_url, portal.tournaments[i % len(portal.tournaments)], light=True
                )
                for i in range(args.spectators)
            ]
            for chunk in range(0, len(spectators), 200):
                await asyncio.gather(*(s.load(client) for s in spectators[chunk : chunk + 200]))
            tasks = [asyncio.create_task(s.run(client, stop)) for s in spectators]
            await asyncio.wait_for(asyncio.gather(*(s.connected.wait() for s in spectators)), 120)
            sent: list[tuple[int, int, float]] = []
            # what the processes spend doing nothing (polls, pings), to tell it apart
            idle = sum(cpu_seconds(a.process.pid) for a in apps if a.process)
            await asyncio.sleep(args.idle)
            idle = sum(cpu_seconds(a.process.pid) for a in apps if a.process) - idle
            cpu = [cpu_seconds(a.process.pid) for a in apps if a.process]
            nginx_cpu = nginx.cpu_seconds()
            began = time.perf_counter()
            for index in range(args.results):
                tid = portal.tournaments[index % len(portal.tournaments)]
                rnd, board = portal.games[tid][index // len(portal.tournaments)]
                moment = time.time()
                response = await client.post(
                    f"{nginx.base_url}/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/result",
                    json={"result": "1-0", "idempotency_key": f"m{index}"},
                    headers={"Authorization": f"Bearer {portal.tokens[tid]}"},
                )
                if response.status_code == 200:
                    sent.append((tid, int(response.json()["seq"]), moment))
                pause = began + (index + 1) / args.rate - time.perf_counter()
                if pause > 0:
                    await asyncio.sleep(pause)
            newest = {tid: max(s for t, s, _ in sent if t == tid) for tid, _, _ in sent}
            watching = [s for s in spectators if s.tournament in newest]

            async def converged() -> None:
                for s in watching:
                    while s.revision < newest[s.tournament]:
                        s.changed.clear()
                        await s.changed.wait()

            await asyncio.wait_for(converged(), 60)
            elapsed = time.perf_counter() - began
            app_cpu = sum(cpu_seconds(a.process.pid) for a in apps if a.process) - sum(cpu)
            nginx_cpu = nginx.cpu_seconds() - nginx_cpu
            delays = [
                (s.arrivals[seq] - moment) * 1000
                for tid, seq, moment in sent
                for s in spectators
                if s.tournament == tid and seq in s.arrivals
            ]
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return {
            "apps": args.apps,
            "spectators": args.spectators,
            "tournaments": args.tournaments,
            "results": len(sent),
            "results_per_s": round(len(sent) / elapsed, 1),
            "p50_ms": round(percentile(delays, 0.5), 1),
            "p95_ms": round(percentile(delays, 0.95), 1),
            "p99_ms": round(percentile(delays, 0.99), 1),
            "app_cpu_ms_per_result": round(app_cpu * 1000 / max(len(sent), 1), 1),
            "app_idle_cpu_ms_per_s": round(idle * 1000 / max(args.idle, 0.001), 1),
            "app_cpu_ms_per_result_less_idle": round(
                (app_cpu - idle / max(args.idle, 0.001) * elapsed) * 1000 / max(len(sent), 1), 1
            ),
            "nginx_cpu_ms_per_result": round(nginx_cpu * 1000 / max(len(sent), 1), 1),
            "full_table_reads": sum(s.fulls for s in spectators),
        }
    finally:
        stop.set()
        for app in apps:
            app.stop()
        nginx.stop()
        with psycopg.connect(base_url, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--tournaments", type=int, default=4)
    parser.add_argument("--results", type=int, default=40)
    parser.add_argument("--rate", type=float, default=2.0, help="results per second")
    parser.add_argument("--apps", type=int, default=2)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle CPU measured")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args)), indent=2))


if __name__ == "__main__":
    main()
