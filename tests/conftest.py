"""Shared test fixtures: where the reference data lives, the CI no-skip rule, and the
PostgreSQL database of each pytest-xdist worker."""

from __future__ import annotations

import gc
import json
import os
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from hypothesis import HealthCheck, settings

from tests.chromium import chromium

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

#: Passwords in the tests are hashed with argon2id at a small cost (one pass over
#: 1 MiB, one lane) instead of the product's (three passes over 64 MiB, four lanes: a
#: quarter of a second of CPU for each account made and each sign-in, thousands of times
#: in a run). The product asks argon2 for its hasher when it hashes or checks a password,
#: so it gets this one; what the tests check is the same — an argon2id hash, checked by
#: argon2 — and a hash records its own parameters, so one made by a served app or a
#: command in another process (which keep the product's cost) is checked as before.
try:
    import argon2
except ImportError:  # the web extra is not installed: no accounts to make
    argon2 = None  # type: ignore[assignment]
if argon2 is not None and not getattr(argon2.PasswordHasher, "quick", False):

    class QuickHasher(argon2.PasswordHasher):
        quick = True

        def __init__(
            self,
            time_cost: int = 1,
            memory_cost: int = 1024,
            parallelism: int = 1,
            **rest: object,
        ) -> None:
            super().__init__(time_cost, memory_cost, parallelism, **rest)  # type: ignore[arg-type]

    argon2.PasswordHasher = QuickHasher  # type: ignore[misc]

#: FastAPI (0.165) analyses the signature of every endpoint again for each app it serves,
#: at the app's first request (its included routers are built lazily, per app): a quarter
#: of a second of CPU for every app a test makes, thousands in a run. What it builds from
#: an endpoint, its path and its dependencies (the ``Dependant``: parameters, body fields,
#: sub-dependencies) is the same for every app, and FastAPI shares one between all the
#: requests of an app; the tests share it between apps too. What is the app's own (the
#: dependency overrides, the handler, the body limit) is still built for each app.
try:
    from fastapi import routing as fastapi_routing
except ImportError:  # the web extra is not installed
    fastapi_routing = None  # type: ignore[assignment]
ANALYSE = "_build_dependant_with_parameterless_dependencies"
analyse = getattr(fastapi_routing, ANALYSE, None)
if analyse is not None and not hasattr(analyse, "analysed"):
    analysed: dict[tuple[object, ...], tuple[object, ...]] = {}

    def analyse_once(*, path: str, call: object, dependencies: object) -> tuple[object, ...]:
        try:
            key = (path, call, tuple(dependencies))  # type: ignore[call-overload]
            known = analysed.get(key)
        except TypeError:  # a dependency that cannot be a key: analysed each time
            return analyse(path=path, call=call, dependencies=dependencies)  # type: ignore[misc]
        if known is None:
            known = analysed[key] = analyse(path=path, call=call, dependencies=dependencies)  # type: ignore[misc]
        return known

    analyse_once.analysed = analysed  # type: ignore[attr-defined]
    setattr(fastapi_routing, ANALYSE, analyse_once)

#: The same for the response's field of each route (a pydantic ``TypeAdapter`` built for
#: its model, 60 % of what is left of an app's first request): made once a process for a
#: route's name, model and mode, and shared by the apps, as each app shares it between
#: its requests.
FIELD = "create_model_field"
make_field = getattr(fastapi_routing, FIELD, None)
if make_field is not None and not hasattr(make_field, "made"):
    made: dict[tuple[object, ...], object] = {}

    def field_once(name: str, type_: object, *args: object, **options: object) -> object:
        if args or set(options) - {"mode"}:  # a default, an alias: made each time
            return make_field(name, type_, *args, **options)  # type: ignore[misc]
        try:
            key = (name, type_, options.get("mode"))
            known = made.get(key)
        except TypeError:  # a model that cannot be a key
            return make_field(name, type_, **options)  # type: ignore[misc]
        if known is None:
            known = made[key] = make_field(name, type_, **options)  # type: ignore[misc]
        return known

    field_once.made = made  # type: ignore[attr-defined]
    setattr(fastapi_routing, FIELD, field_once)

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CROSSTABLE_SHARED", ROOT.parent / "shared"))
DATA = SHARED / "data"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for a test file's tests that ask for it (each test opens its own
    context): started at the first, closed after the file's last test."""
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA.is_dir():
        pytest.fail(f"reference data not found at {DATA} (set CROSSTABLE_SHARED)")
    return DATA


#: how long each test file took in a whole run (seconds, setup to teardown): the
#: parallel run hands out the slowest files first (see ``slowest_files_first``)
DURATIONS = Path(__file__).with_name("durations.json")
#: a file missing from DURATIONS (a new one) is taken to need this long per test
UNKNOWN_PER_TEST = 0.5


def file_of(nodeid: str) -> str:
    """The file of a test's node id (a doctest's is its module's file).

    >>> file_of("tests/test_store.py::test_migrations[sqlite]")
    'tests/test_store.py'
    """
    return nodeid.split("::", 1)[0]


def slowest_files_first(items: list[pytest.Item], seconds: dict[str, float]) -> None:
    """Orders ``items`` by file, the slowest file first (by ``seconds``; a file not in
    it by its number of tests), each file's tests in their own order.

    Under ``--dist loadfile --no-loadscope-reorder`` pytest-xdist hands out the files in
    this order, one at a time to the worker that runs out of work: the long files start
    at once and the short ones fill the gaps, so the workers finish together instead of
    one of them running the slowest file alone at the end.

    >>> class Item:
    ...     def __init__(self, nodeid): self.nodeid = nodeid
    >>> items = [Item(n) for n in ["a.py::x", "a.py::y", "b.py::z", "c.py::w"]]
    >>> slowest_files_first(items, {"a.py": 1.0, "b.py": 9.0})
    >>> [i.nodeid for i in items]
    ['b.py::z', 'a.py::x', 'a.py::y', 'c.py::w']
    """
    counts: dict[str, int] = defaultdict(int)
    for item in items:
        counts[file_of(item.nodeid)] += 1

    def cost(item: pytest.Item) -> float:
        name = file_of(item.nodeid)
        return -seconds.get(name, counts[name] * UNKNOWN_PER_TEST)

    items.sort(key=cost)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Benchmarks (marked ``bench``) never run in the test suite. In a parallel run the
    slowest files come first (a serial run keeps the files' order)."""
    skip_bench = pytest.mark.skip(reason="benchmark: run it from bench/")
    for item in items:
        if "bench" in item.keywords:
            item.add_marker(skip_bench)
    if os.environ.get("PYTEST_XDIST_WORKER") and DURATIONS.is_file():
        slowest_files_first(items, json.loads(DURATIONS.read_text(encoding="utf-8")))


#: the collector's thresholds for the run: a young collection every 10 000 objects made
#: instead of 700, and an older one every 20 of those instead of 10
GC_THRESHOLDS = (10_000, 20, 20)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Once every file is collected, what the imports and the collection made (the
    product, the libraries, the test modules: most of what a worker will ever hold) is
    moved out of the garbage collector's sight (``gc.freeze``), and the collector runs
    less often. It still runs: a reference cycle a test leaves is freed a little later.
    Before, the collector walked all of it again every few seconds: 6–10 % of the CPU
    time of a file's tests (measured on two sets of six files, docs/benchmarks.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


#: the variable naming where to write the run's durations of files (a JSON object),
#: e.g. ``CROSSTABLE_RECORD_DURATIONS=tests/durations.json bash scripts/test.sh``
RECORD_DURATIONS = "CROSSTABLE_RECORD_DURATIONS"
#: the seconds of each file in this run, summed from the reports
SPENT: dict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Adds up each file's time (setup, call and teardown of every test). A subtest's
    report (Schemathesis reports each operation of the API's fuzzing as one) is not
    added: its time is inside its test's call already."""
    if RECORD_DURATIONS in os.environ and getattr(report, "context", None) is None:
        SPENT[file_of(report.nodeid)] += report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Writes the durations of files when asked (by the main process of a parallel run,
    which hears every worker's reports)."""
    target = os.environ.get(RECORD_DURATIONS)
    if not target or not SPENT or hasattr(session.config, "workerinput"):
        return
    ordered = {name: round(seconds, 2) for name, seconds in sorted(SPENT.items())}
    Path(target).write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")


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
        # a commit need not wait for the disk: the tests never crash the server, and a
        # commit is seen by every other connection at once either way
        connection.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
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
