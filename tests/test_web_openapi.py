"""Property-based fuzzing of the JSON API from its OpenAPI description (Schemathesis):
whatever the request, the answer is never a 500."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from test_service_support import migrated  # noqa: E402

from crosstable.service import Service  # noqa: E402
from crosstable.service.accounts import Accounts  # noqa: E402
from crosstable.store import open_store  # noqa: E402
from crosstable.web.app import create_app  # noqa: E402
from crosstable.web.demo import build_demo  # noqa: E402


@pytest.fixture(scope="module")
def served_demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    """The demo served by the web app, with its administrator's API token: built only where
    this file runs, not in every worker's collection; its store closed afterwards."""
    folder = tmp_path_factory.mktemp("fuzz")
    with open_store(migrated(f"sqlite:///{folder / 'fuzz.db'}")) as store:
        service = Service(store)
        build_demo(service)
        accounts = Accounts(store)
        admin = accounts.find_user("demo")
        assert admin is not None
        yield create_app(service=service), accounts.create_token(admin.id, "fuzz")


@pytest.fixture(scope="module")
def api_schema(served_demo: tuple[Any, str]) -> Any:
    """The API's description, which Schemathesis reads when the test starts."""
    return schemathesis.openapi.from_asgi("/api/openapi.json", served_demo[0])


@pytest.fixture(scope="module")
def api_token(served_demo: tuple[Any, str]) -> str:
    return served_demo[1]


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_server_errors(case, api_token: str) -> None:  # type: ignore[no-untyped-def]
    response = case.call(headers={"Authorization": f"Bearer {api_token}"})
    assert response.status_code < 500, (case.method, case.path, response.text[:300])
