"""Fuzz target: ``Service.import_json`` of mutated exports (issue 13 item 6).

The seeds are exports of tournaments made through the service (a round robin with
results, one with an undone result); the mutations are those of the JSON reader's
target. The invariant for import: its own error (a CrosstableError), or a
consistent tournament — ``verify()`` finds nothing and the last change can be
undone — never another exception, never longer than the time bound. Only SQLite
here: a short fixed budget in CI (docs/fuzzing.md for a long run).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.core.errors import CrosstableError
from crosstable.service import Service
from crosstable.store import open_store
from tests.test_fuzz_support import bounded, examples, mutated_json
from tests.test_service_support import make_service, migrated, started


@pytest.fixture(scope="module")
def fuzz_service() -> Iterator[Service]:
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(migrated(f"sqlite:///{Path(folder) / 'fuzz.db'}"))
        try:
            yield make_service(store)
        finally:
            store.close()


def exports(service: Service) -> list[Any]:
    """Exports of a running round robin with results and of one with an undo."""
    first = started(service, 5)
    service.record_result(first, 1, 1, "1-0")
    service.record_result(first, 1, 2, "½-½")
    second = started(service, 4)
    service.record_result(second, 1, 1, "0-1")
    service.undo(second)
    service.record_result(second, 1, 2, "+-")
    return [json.loads(json.dumps(service.export_json(t), default=str)) for t in (first, second)]


_SEEDS: list[Any] = []


def seed_documents() -> list[Any]:
    if not _SEEDS:
        with tempfile.TemporaryDirectory() as folder:
            store = open_store(migrated(f"sqlite:///{Path(folder) / 'seeds.db'}"))
            try:
                _SEEDS.extend(exports(make_service(store)))
            finally:
                store.close()
    return _SEEDS


def test_seeds_import_and_verify(fuzz_service: Service) -> None:
    for document in seed_documents():
        tid = fuzz_service.import_json(document, source="seed")
        assert fuzz_service.verify(tid) == []


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_fuzz_import_json(fuzz_service: Service, data: st.DataObject) -> None:
    document = data.draw(mutated_json(seed_documents()))
    with bounded("importing a mutated export"):
        try:
            tid = fuzz_service.import_json(document, source="fuzz")
        except CrosstableError:
            return
        assert fuzz_service.verify(tid) == [], "an import must be consistent with its history"
        with suppress(CrosstableError):  # nothing to undo, or refused with its own message
            fuzz_service.undo(tid, confirm=True)
