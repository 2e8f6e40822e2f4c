"""Property-based fuzzing of the JSON API from its OpenAPI description (Schemathesis):
whatever the request, the answer is never a 500."""

from __future__ import annotations

import tempfile
from pathlib import Path

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

_folder = Path(tempfile.mkdtemp(prefix="crosstable-fuzz-"))
_service = Service(open_store(migrated(f"sqlite:///{_folder / 'fuzz.db'}")))
build_demo(_service)
_accounts = Accounts(_service.store)
_admin = _accounts.find_user("demo")
assert _admin is not None
TOKEN = _accounts.create_token(_admin.id, "fuzz")
app = create_app(service=_service)
schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)


@schema.parametrize()
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_server_errors(case) -> None:  # type: ignore[no-untyped-def]
    response = case.call(headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code < 500, (case.method, case.path, response.text[:300])
