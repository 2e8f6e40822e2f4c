"""Shared test fixtures: where the reference data lives, the CI no-skip rule, and the
PostgreSQL database of each pytest-xdist worker."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from hypothesis import HealthCheck, settings

# Property tests: no per-example deadline (CI machines are shared and slow at times);
# in CI the examples are derandomized so that a run is reproducible and a red CI
# always points at a known example. Locally they are random, to keep finding new ones.
settings.register_profile("crosstable", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "crosstable-ci",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("crosstable-ci" if os.environ.get("CI") == "true" else "crosstable")

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CROSSTABLE_SHARED", ROOT.parent / "shared"))
DATA = SHARED / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA.is_dir():
        pytest.fail(f"reference data not found at {DATA} (set CROSSTABLE_SHARED)")
    return DATA


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Benchmarks (marked ``bench``) never run in the test suite."""
    skip_bench = pytest.mark.skip(reason="benchmark: run it from bench/")
    for item in items:
        if "bench" in item.keywords:
            item.add_marker(skip_bench)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """With CI=true a skipped test is a failure: CI installs every service and package."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") == "true" and report.skipped and "bench" not in item.keywords:
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, which is a failure: {report.longrepr}"


#: the worker's server URL and database (to drop it at the end)
_WORKER_DATABASE = pytest.StashKey[tuple[str, str]]()
#: the environment variable that names the tests' PostgreSQL server (tests/test_service_support.py)
PG_VARIABLE = "CROSSTABLE_TEST_PG_URL"


def worker_database_url(base: str, worker: str, run: str) -> tuple[str, str]:
    """The URL and name of the database of xdist ``worker`` in test run ``run``, on the
    server of ``base`` (its database name suffixed).

    >>> worker_database_url("postgresql://u@h:5/crosstable_test?sslmode=off", "gw1", "ab12cd34")
    ('postgresql://u@h:5/crosstable_test_ab12cd34_gw1?sslmode=off', 'crosstable_test_ab12cd34_gw1')
    """
    parts = urlsplit(base)
    name = f"{parts.path.lstrip('/') or 'postgres'}_{run}_{worker}"
    return urlunsplit(parts._replace(path="/" + name)), name


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist every worker gets a PostgreSQL database of its own.

    The tests make a schema per test, but NOTIFY channels, advisory locks (the tick's,
    the migrations') and connection counts are per database: workers sharing one would
    wait on or hear each other. So a worker creates ``<database>_<run>_<worker>`` and
    points ``CROSSTABLE_TEST_PG_URL`` at it before any test module reads it; the
    processes the tests start (serve, tick, a second process) inherit it. The run's id
    in the name keeps two people's runs on one server apart. Serial runs are unchanged.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    base = os.environ.get(PG_VARIABLE, "")
    workerinput = getattr(config, "workerinput", None)
    if not worker or not base or workerinput is None:
        return
    import psycopg

    url, name = worker_database_url(base, worker, str(workerinput["testrunuid"])[:8])
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    config.stash[_WORKER_DATABASE] = (base, name)
    os.environ[PG_VARIABLE] = url


def pytest_unconfigure(config: pytest.Config) -> None:
    """The worker's database goes when the worker ends (FORCE: a test's leftover
    connection must not keep it)."""
    made = config.stash.get(_WORKER_DATABASE, None)
    if made is None:
        return
    base, name = made
    os.environ[PG_VARIABLE] = base
    import psycopg

    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
