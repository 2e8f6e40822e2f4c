"""Two ``serve`` processes on one PostgreSQL database stay in step (LISTEN/NOTIFY):
a result posted to one process reaches a spectator connected to the other."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.browser import wait_until_served

pytest.importorskip("fastapi")

PG_URL = os.environ.get("CROSSTABLE_TEST_PG_URL", "")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def pg_url() -> Iterator[str]:
    if not PG_URL:
        pytest.skip("CROSSTABLE_TEST_PG_URL is not set (bash scripts/postgres.sh starts a server)")
    import psycopg

    schema = "w_" + uuid.uuid4().hex[:16]
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        options = quote(f"-csearch_path={schema}")
        yield PG_URL + ("&" if "?" in PG_URL else "?") + f"options={options}"
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


def _serve(url: str) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    env = dict(os.environ, CROSSTABLE_DB=url, CROSSTABLE_SECRET="pg-test")
    process = subprocess.Popen(
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
        ],
        env=env,
        cwd=ROOT,
    )
    try:
        wait_until_served(process, f"http://127.0.0.1:{port}/")  # slow when every core runs tests
    except BaseException:
        process.terminate()
        raise
    return process, port


def test_two_processes_share_live_updates(pg_url: str) -> None:
    import httpx

    from crosstable.service import Service
    from crosstable.service.accounts import Accounts
    from crosstable.store import open_store
    from crosstable.web.demo import build_demo

    service = Service(open_store(pg_url))
    demo = build_demo(service)
    tid = demo["tournaments"][1]
    accounts = Accounts(service.store)
    user = accounts.find_user(demo["username"])
    assert user is not None
    token = accounts.create_token(user.id)
    revision = service.overview(tid).revision
    service.store.close()

    first, port_a = _serve(pg_url)
    second, port_b = _serve(pg_url)
    seen: list[str] = []
    stop = threading.Event()

    def watch() -> None:
        url = f"http://127.0.0.1:{port_b}/t/{tid}/events?rev={revision}"
        try:
            with httpx.stream("GET", url, timeout=20) as response:
                for line in response.iter_lines():
                    seen.append(line)
                    if stop.is_set():
                        return
        except httpx.HTTPError:  # the servers stop at the end of the test
            return

    watcher = threading.Thread(target=watch, daemon=True)
    try:
        watcher.start()
        deadline = time.monotonic() + 10
        while not seen and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seen, "the spectator is connected"
        answer = httpx.post(
            f"http://127.0.0.1:{port_a}/api/v1/tournaments/{tid}/rounds/2/boards/1/result",
            json={"result": "1-0"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
        seq = answer.json()["seq"]
        deadline = time.monotonic() + 10
        while f"id: {seq}" not in seen and time.monotonic() < deadline:
            time.sleep(0.05)
        assert f"id: {seq}" in seen and "event: crosstable" in seen
    finally:
        stop.set()
        for process in (first, second):
            process.terminate()
            process.wait(10)
