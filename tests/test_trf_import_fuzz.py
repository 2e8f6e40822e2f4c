"""A mutated TRF imported into a real store (SQLite) through the re-checking import: it is
refused with the program's own error, or asks for a confirmation, or imports; once
imported (confirmed when asked) it exports and the export reads again. Never a
traceback, never a half-stored tournament."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings

from crosstable.core.errors import CrosstableError
from crosstable.formats.trf_read import parse_trf
from crosstable.service import Service
from crosstable.service.trf_import import import_trf
from crosstable.service.warning_levels import ConfirmationNeeded
from crosstable.store import open_store
from tests.test_fuzz_support import bounded, examples, mutated_trf
from tests.test_service_support import migrated


@pytest.fixture(scope="module")
def fuzz_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    path = tmp_path_factory.mktemp("import-fuzz") / "store.db"
    store = open_store(migrated(f"sqlite:///{path}"))
    try:
        yield Service(store)
    finally:
        store.close()


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(mutated_trf())
def test_a_mutated_file_imports_or_is_refused_never_a_traceback(
    fuzz_store: Service, text: str
) -> None:
    service = fuzz_store
    before = len(service.tournaments())
    with bounded("importing a mutated TRF into the store"):
        try:
            doc = parse_trf(text, source="fuzz")
        except CrosstableError:
            return
        try:
            try:
                change = import_trf(service, doc, source="fuzz")
            except ConfirmationNeeded as asked:
                assert len(service.tournaments()) == before  # nothing stored yet
                change = import_trf(service, doc, source="fuzz", confirm=asked.token)
        except CrosstableError:
            assert len(service.tournaments()) == before  # refused whole
            return
        assert len(service.tournaments()) == before + 1
        exported = service.export_trf(change.tournament_id)
        parse_trf(exported, source="exported", lenient=True)
