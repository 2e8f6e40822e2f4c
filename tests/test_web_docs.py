"""The API's documentation page works without the internet: Swagger UI's files are served
by the application itself (from the fastapi-offline package), not fetched from a CDN."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("fastapi_offline", reason="the web extra ships Swagger UI's files")

from test_service_support import migrated

from crosstable.service import Service
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient


def test_api_docs_load_everything_from_this_server(tmp_path: Path) -> None:
    app = create_app(service=Service(open_store(migrated(f"sqlite:///{tmp_path / 'docs.db'}"))))
    with TestClient(app) as client:
        page = client.get("/api/docs")
        assert page.status_code == 200
        sources = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
        assert sources and all(s.startswith("/") for s in sources), sources
        assert "cdn" not in page.text.lower()
        for source in sources:
            asset = client.get(source)
            assert asset.status_code == 200, source
        script = client.get("/api/docs/assets/swagger-ui-bundle.js")
        assert "SwaggerUIBundle" in script.text
        assert "/api/openapi.json" in page.text
        assert client.get("/api/openapi.json").json()["openapi"].startswith("3.")
