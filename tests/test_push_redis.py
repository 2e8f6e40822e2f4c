"""Several nginx machines on one Redis (issue 17 item 1; docs/deploy.md "Several
machines"): deploy/nginx.conf rendered twice with its Redis lines on (nginx A and B,
both ``nchan_redis_pass`` to one redis-server), two ``crosstable serve --push-url``
processes on PostgreSQL, app A publishing to nginx A only and app B to nginx B only,
spectators (EventSource, English and Russian) on both nginx.

Checks: results posted through either nginx reach every spectator on both (so what one
nginx is published reaches the other's subscribers through Redis) with exactly the
table the app renders; a ``kill -9`` of nginx A while results go on through B, and
a restart: A's spectators reconnect by themselves and catch up, and a new subscriber on
A gets the kept table, all from Redis — the app publishes nothing again to the
restarted nginx (at most its sentinel channel), which nginx A's own counter of
published messages shows; Redis restarted empty while results go on: nchan answers
503 until it has reconnected, the apps keep those changes and publish them then, and
the spectators (still connected) converge. Needs redis-server (scripts/redis.sh), nginx with nchan
(scripts/nginx.sh) and ``CROSSTABLE_TEST_PG_URL``; a missing redis-server or nginx is a
failure, not a skip.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.push_rig import (
    AppProcess,
    Portal,
    PushServer,
    Spectator,
    free_port,
    nginx_binary,
    prepare,
    wait_port,
)
from tests.test_push_deploy import GameServer, converged, newest_revisions
from tests.test_service_support import new_database

SPECTATORS = 36  # half on each nginx; every (nginx, tournament, language) has three
TOURNAMENTS = 3


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    if nginx_binary() is None:
        pytest.fail("nginx with nchan is not installed (scripts/system-packages.sh installs it)")
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed (scripts/system-packages.sh installs it)")
    with new_database("postgresql", tmp_path) as url:
        yield url


class RedisServer:
    """redis-server on a free loopback port, in ``folder``, keeping nothing on disk."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> RedisServer:
        self.folder.mkdir(parents=True, exist_ok=True)
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        log = (self.folder / "redis.log").open("ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=log, start_new_session=True)
        wait_port(self.port, process=self.process)
        return self

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


async def published_messages(client: Any, nginx: PushServer) -> int:
    """nchan's count of the messages published through this nginx since it started."""
    response = await client.get(f"http://127.0.0.1:{nginx.publish_port}/push/status")
    response.raise_for_status()
    found = re.search(r"total published messages: (\d+)", response.text)
    assert found is not None, response.text
    return int(found.group(1))


async def same_tables(client: Any, spectators: list[Spectator], app: str) -> None:
    """Every spectator has exactly the table the app renders now, in its language."""
    rendered: dict[tuple[int, str], str] = {}
    for spectator in spectators:
        key = (spectator.tournament, spectator.locale)
        if key not in rendered:
            response = await client.get(
                f"{app}/t/{spectator.tournament}/live", headers={"Accept-Language": key[1]}
            )
            response.raise_for_status()
            rendered[key] = response.text
        assert spectator.html == rendered[key], (spectator.base, key, spectator.revision)


async def scenario(db_url: str, folder: Path) -> dict[str, Any]:
    import httpx

    phases: dict[str, float] = {}
    #: per phase: (spectators then, how many times one of them read a table from the app)
    asked_app: dict[str, tuple[int, int]] = {}
    clock = time.monotonic()
    portal: Portal = prepare(db_url, tournaments=TOURNAMENTS, players=8, separate_organisers=True)
    redis = RedisServer(folder / "redis").start()
    ports = [free_port(), free_port()]
    nginx = [
        PushServer(folder / name, [port], redis_url=redis.url)
        for name, port in zip("ab", ports, strict=True)
    ]
    apps: list[AppProcess] = []
    tasks: list[asyncio.Task[None]] = []
    stop = asyncio.Event()
    try:
        for server in nginx:
            server.start()
        # app A publishes to nginx A only, app B to nginx B only: each nginx's upstream is
        # its own app, so each nginx's spectators get the other's results through Redis
        apps = [
            AppProcess(db_url, port, server.publish_url, log=folder / f"app{port}.log").start()
            for port, server in zip(ports, nginx, strict=True)
        ]
        a, b = nginx
        direct = f"http://127.0.0.1:{ports[1]}"
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        async with httpx.AsyncClient(limits=limits, timeout=10) as client:
            spectators = [
                Spectator(
                    nginx[index % 2].base_url,
                    portal.tournaments[(index // 2) % TOURNAMENTS],
                    locale="ru" if (index // (2 * TOURNAMENTS)) % 2 else "en",
                )
                for index in range(SPECTATORS)
            ]
            on_a = [s for s in spectators if s.base == a.base_url]
            await asyncio.gather(*(s.load(client) for s in spectators))
            tasks = [asyncio.create_task(s.run(client, stop)) for s in spectators]
            await asyncio.wait_for(asyncio.gather(*(s.connected.wait() for s in spectators)), 30)
            phases["setup"], clock = round(time.monotonic() - clock, 1), time.monotonic()
            game_server = GameServer(client, portal, a.base_url)

            # 1. results through both nginx (so published by both apps, each to its own)
            for base in (a.base_url, b.base_url, a.base_url, b.base_url):
                await game_server.round_of_results(base)
            await converged(spectators, await newest_revisions(client, direct, portal), 30)
            await same_tables(client, spectators, direct)
            phases["both"], clock = round(time.monotonic() - clock, 1), time.monotonic()
            asked_app["both"] = (len(spectators), sum(s.from_app for s in spectators))
            published = {"a": await published_messages(client, a)}
            published["b"] = await published_messages(client, b)

            # 2. kill -9 of nginx A; results go on through B meanwhile; A comes back
            # with empty memory: its spectators reconnect and catch up from Redis
            connects_before = sum(s.connects for s in on_a)
            a.kill()
            for _ in range(2):
                await game_server.round_of_results(b.base_url)
            a.start()
            newest = await newest_revisions(client, direct, portal)
            await converged(spectators, newest, 30)
            reconnected = sum(s.connects for s in on_a) - connects_before
            # a new subscriber on A that did not load the page: the kept messages and
            # the kept table, from Redis
            newcomers = [
                Spectator(a.base_url, tid, locale=locale)
                for tid in portal.tournaments
                for locale in ("en", "ru")
            ]
            tasks += [asyncio.create_task(s.run(client, stop)) for s in newcomers]
            await converged(newcomers, newest, 30)
            await same_tables(client, spectators + newcomers, direct)
            republished = await published_messages(client, a)
            phases["nginx_a_killed"], clock = round(time.monotonic() - clock, 1), time.monotonic()
            everyone = spectators + newcomers
            asked_app["nginx_a_killed"] = (len(everyone), sum(s.from_app for s in everyone))

            # 3. and on: results through both again
            for base in (a.base_url, b.base_url):
                await game_server.round_of_results(base)
            newest = await newest_revisions(client, direct, portal)
            await converged(spectators + newcomers, newest, 30)
            await same_tables(client, spectators + newcomers, direct)

            phases["again"], clock = round(time.monotonic() - clock, 1), time.monotonic()
            asked_app["again"] = (len(everyone), sum(s.from_app for s in everyone))

            # 4. Redis restarted (empty: no persistence), results meanwhile through both:
            # nchan answers 503 until it has reconnected (its connect timeout, ~10 s), the
            # apps keep those changes and publish them then; the spectators stay connected
            before = {"a": await published_messages(client, a)}
            before["b"] = await published_messages(client, b)
            connects_before = sum(s.connects for s in everyone)
            redis.kill()
            redis.start()
            for base in (a.base_url, b.base_url):
                await game_server.round_of_results(base)
            newest = await newest_revisions(client, direct, portal)
            await converged(everyone, newest, 45)
            await same_tables(client, everyone, direct)
            phases["redis_restarted"] = round(time.monotonic() - clock, 1)
            asked_app["redis_restarted"] = (len(everyone), sum(s.from_app for s in everyone))
            redis_restart = {
                "reconnected": sum(s.connects for s in everyone) - connects_before,
                "published_a": await published_messages(client, a) - before["a"],
                "published_b": await published_messages(client, b) - before["b"],
            }
            stop.set()
            return {
                "accepted": len(game_server.accepted),
                "published": published,
                "republished_to_a": republished,
                "reconnected_on_a": reconnected,
                "on_a": len(on_a),
                "problems": [p for s in everyone for p in s.problems],
                "from_app": sum(s.from_app for s in everyone),
                "newcomers_from_app": sum(s.from_app for s in newcomers),
                "asked_app": asked_app,
                "redis_restart": redis_restart,
                "seconds": phases,
            }
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for app in apps:
            app.stop()
        for server in nginx:
            server.stop()
        redis.kill()


def test_two_nginx_share_live_updates_through_redis(pg_url: str, tmp_path: Path) -> None:
    outcome = asyncio.run(scenario(pg_url, tmp_path))
    print(json.dumps(outcome))
    assert outcome["accepted"] == TOURNAMENTS * 10
    assert outcome["problems"] == []
    # both nginx took messages from their own app (and gave them to the other's spectators)
    assert outcome["published"]["a"] > 0 and outcome["published"]["b"] > 0, outcome
    # every spectator on A came back after its kill -9
    assert outcome["reconnected_on_a"] >= outcome["on_a"], outcome
    # the tables came through nchan: a spectator asks the app only when a marker's table
    # is late (a loaded machine), and then once in a phase at most, never in a loop
    asked, before = outcome["asked_app"], 0
    for phase, (spectators, total) in asked.items():
        assert total - before <= spectators, (phase, outcome)
        before = total
    # the restarted nginx A was given no tournament again (at most app A's sentinel,
    # sent again because it saw nginx A gone): what its spectators got was in Redis
    assert outcome["republished_to_a"] <= 1, outcome
