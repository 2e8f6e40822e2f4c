"""The portal's deployment, for real (issue 17 items 1, 3 and 5): nginx with nchan from
deploy/nginx.conf, two ``crosstable serve --push-url`` processes on PostgreSQL, a few
hundred spectators (EventSource, some WebSocket, some Russian) and a game server
posting results through nginx.

Checks: every spectator ends with exactly the table the app renders at the newest
revision (so it got every result, or a newer state), every accepted POST is in the
history; a ``kill -9`` of one app process mid-run loses no accepted result and the
spectators converge through nginx; a ``kill -9`` of nginx and a restart: the
spectators reconnect by themselves and converge, changes made while it was down
included. Needs ``CROSSTABLE_TEST_PG_URL`` (scripts/postgres.sh) and nginx with nchan
(scripts/nginx.sh); CI=true turns the skip into a failure.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.push_rig import (
    AppProcess,
    Portal,
    PushServer,
    Spectator,
    free_port,
    nginx_binary,
    prepare,
)
from tests.test_service_support import new_database

SPECTATORS = 240
WEBSOCKETS = 24  # of them
RUSSIAN = 24  # of them


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    if nginx_binary() is None:
        pytest.skip("nginx with nchan is not installed (scripts/system-packages.sh installs it)")
    with new_database("postgresql", tmp_path) as url:
        yield url


class GameServer:
    """Posts results through nginx with idempotency keys; a failed call is sent again
    with the same key (to whichever process answers), as a game server does."""

    def __init__(self, client: Any, portal: Portal, base: str) -> None:
        self.client = client
        self.portal = portal
        self.base = base
        self.next = dict.fromkeys(portal.tournaments, 0)
        #: (tournament, round, board) → (result, seq) of every accepted POST
        self.accepted: dict[tuple[int, int, int], tuple[str, int]] = {}
        self.retries = 0

    async def post(self, tid: int, base: str | None = None) -> None:
        rnd, board = self.portal.games[tid][self.next[tid]]
        self.next[tid] += 1
        result = ("1-0", "0-1", "½-½")[(rnd + board) % 3]
        body = {"result": result, "idempotency_key": f"{tid}-{rnd}-{board}"}
        url = f"{base or self.base}/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/result"
        for _attempt in range(20):
            try:
                headers = {"Authorization": f"Bearer {self.portal.tokens[tid]}"}
                response = await self.client.post(url, json=body, headers=headers)
            except Exception:  # the process died under the request: again, same key
                self.retries += 1
                await asyncio.sleep(0.2)  # (as a game server waits: nginx may be starting,
                continue  # the pool may hold connections to the nginx that was killed)
            if response.status_code in (502, 503, 504):
                self.retries += 1
                await asyncio.sleep(0.2)
                continue
            assert response.status_code == 200, response.text
            self.accepted[(tid, rnd, board)] = (result, int(response.json()["seq"]))
            return
        raise AssertionError(f"result {tid} {rnd}.{board} was never accepted")

    async def round_of_results(self, base: str | None = None) -> None:
        for tid in self.portal.tournaments:
            await self.post(tid, base)


async def converged(spectators: list[Spectator], newest: dict[int, int], seconds: float) -> None:
    async def one(spectator: Spectator) -> None:
        while spectator.revision < newest[spectator.tournament]:
            spectator.changed.clear()
            await spectator.changed.wait()

    try:
        await asyncio.wait_for(asyncio.gather(*(one(s) for s in spectators)), seconds)
    except TimeoutError:
        behind = [
            (s.tournament, s.locale, s.websocket, s.revision, newest[s.tournament])
            for s in spectators
            if s.revision < newest[s.tournament]
        ]
        raise AssertionError(f"{len(behind)} spectators never caught up: {behind[:5]}") from None


async def read(client: Any, url: str, **options: Any) -> Any:
    """GET ``url``, sent again when the connection drops before an answer: the pool may
    hold a connection to the nginx that was killed, or one its new workers close, and a
    browser re-sends an idempotent request on such a connection the same way."""
    for _attempt in range(5):
        try:
            return await client.get(url, **options)
        except httpx.TransportError:
            await asyncio.sleep(0.2)
    return await client.get(url, **options)


async def newest_revisions(client: Any, base: str, portal: Portal) -> dict[int, int]:
    newest = {}
    for tid in portal.tournaments:
        response = await read(client, f"{base}/api/v1/tournaments/{tid}")
        response.raise_for_status()
        newest[tid] = int(response.json()["revision"])
    return newest


async def scenario(db_url: str, folder: Path) -> dict[str, Any]:
    # (each tournament its own organiser: results are limited per account and process)
    portal = prepare(db_url, tournaments=4, players=8, separate_organisers=True)
    ports = [free_port(), free_port()]
    nginx = PushServer(folder, ports).start()
    apps = [
        AppProcess(db_url, port, nginx.publish_url, log=folder / f"app{port}.log").start()
        for port in ports
    ]
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    tasks: list[asyncio.Task[None]] = []
    try:
        async with httpx.AsyncClient(limits=limits, timeout=10) as client:
            spectators = [
                Spectator(
                    nginx.base_url,
                    portal.tournaments[index % len(portal.tournaments)],
                    locale="ru" if index % (SPECTATORS // RUSSIAN) == 1 else "en",
                    websocket=index % (SPECTATORS // WEBSOCKETS) == 2,
                )
                for index in range(SPECTATORS)
            ]
            for chunk in range(0, SPECTATORS, 60):
                await asyncio.gather(*(s.load(client) for s in spectators[chunk : chunk + 60]))
            tasks = [asyncio.create_task(s.run(client, stop)) for s in spectators]
            await asyncio.wait_for(asyncio.gather(*(s.connected.wait() for s in spectators)), 60)
            game_server = GameServer(client, portal, nginx.base_url)

            # 1. results through nginx, both processes answering
            for _ in range(3):
                await game_server.round_of_results()
            await converged(spectators, await newest_revisions(client, nginx.base_url, portal), 30)

            # 2. kill -9 of one app process mid-run: nginx sends the rest to the other
            await game_server.round_of_results()
            apps[0].kill9()
            for _ in range(3):
                await game_server.round_of_results()
            await converged(spectators, await newest_revisions(client, nginx.base_url, portal), 30)

            # 3. kill -9 of nginx: results go on straight to the living process meanwhile;
            # nginx comes back empty, the spectators reconnect by themselves
            connects_before = sum(s.connects for s in spectators)
            nginx.kill()
            direct = f"http://127.0.0.1:{ports[1]}"
            await game_server.round_of_results(direct)
            nginx.start()
            for _ in range(2):
                await game_server.round_of_results()
            newest = await newest_revisions(client, nginx.base_url, portal)
            await converged(spectators, newest, 45)
            reconnected = sum(s.connects for s in spectators) - connects_before

            # every spectator has exactly the table the app renders now, in its language
            for spectator in spectators:
                response = await client.get(
                    f"{direct}/t/{spectator.tournament}/live",
                    headers={"Accept-Language": spectator.locale},
                )
                assert spectator.html == response.text, (spectator.tournament, spectator.locale)
            stop.set()
            return {
                "portal": portal,
                "accepted": game_server.accepted,
                "retries": game_server.retries,
                "newest": newest,
                "reconnected": reconnected,
                "problems": [p for s in spectators for p in s.problems],
                "websockets": sum(1 for s in spectators if s.websocket and s.connects),
                "fulls": sum(s.fulls for s in spectators),
                "published": await redirect_check(client, nginx.base_url, portal),
            }
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for app in apps:
            app.stop()
        nginx.stop()


async def redirect_check(client: Any, base: str, portal: Portal) -> str:
    """A page's EventSource asks the app: it answers with nchan's location."""
    tid = portal.tournaments[0]
    response = await read(
        client,
        f"{base}/t/{tid}/events?rev=1&cells=1",
        headers={"Accept-Language": "ru", "Last-Event-ID": "1796140544:3"},
        follow_redirects=False,
    )
    assert response.status_code == 307
    return str(response.headers["location"])


def test_live_updates_through_nginx_nchan_survive_kills(pg_url: str, tmp_path: Path) -> None:
    outcome = asyncio.run(scenario(pg_url, tmp_path))
    portal: Portal = outcome["portal"]
    accepted = outcome["accepted"]
    assert len(accepted) == 4 * 10  # 10 rounds of results over the 4 tournaments
    assert outcome["problems"] == []
    assert outcome["websockets"] == WEBSOCKETS
    assert outcome["reconnected"] >= SPECTATORS  # every spectator came back after nginx's kill
    tid = portal.tournaments[0]
    assert outcome["published"] == f"/push/live/{tid}-ru?last_event_id=1796140544%3A3"

    # every accepted POST is in the history, with its result
    from crosstable.service import Service
    from crosstable.store import open_store

    service = Service(open_store(pg_url))
    try:
        for tid in portal.tournaments:
            history = {item.seq: item for item in service.history(tid)}
            mine = {k: v for k, v in accepted.items() if k[0] == tid}
            for (_, rnd, board), (result, seq) in mine.items():
                item = history[seq]
                assert item.kind == "result" and not item.undone, (tid, rnd, board, item)
                assert f"round {rnd} board {board}: {result}" in str(item.summary), item
            assert outcome["newest"][tid] == max(seq for _r, seq in mine.values())
    finally:
        service.store.close()
    print(json.dumps({k: v for k, v in outcome.items() if k not in ("portal", "accepted")}))
