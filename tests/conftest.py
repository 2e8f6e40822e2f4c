"""Shared test fixtures: where the reference data lives, and the CI no-skip rule."""

from __future__ import annotations

import os
from pathlib import Path

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
