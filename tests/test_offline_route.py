"""``/offline/``: the built app's files served with a policy that lets Pyodide compile
WebAssembly, nothing outside the built directory, and a clear answer when it is not built."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_service_support import migrated

from crosstable.cli import main
from crosstable.offline.build import PYODIDE_VERSION
from crosstable.web.app import create_app
from tests.asgi_client import TestClient


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("offline-route")
    url = migrated(f"sqlite:///{folder / 'site.db'}")  # from the migrated template
    with TestClient(create_app(url)) as made:
        yield made


def test_r_x_7_the_built_app_is_served_with_its_own_policy(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = tmp_path / "dist"
    (built / "pyodide").mkdir(parents=True)
    (built / "index.html").write_text("<!doctype html><title>app</title>", encoding="utf-8")
    (built / "sw.js").write_text("// worker", encoding="utf-8")
    (built / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm")
    (built / "manifest.json").write_text(json.dumps({"files": {}}), encoding="utf-8")
    (tmp_path / "secret.txt").write_text("not served", encoding="utf-8")
    monkeypatch.setenv("CROSSTABLE_OFFLINE_DIR", str(built))
    assert client.get("/offline", follow_redirects=False).headers["location"] == "/offline/"
    page = client.get("/offline/")
    assert page.status_code == 200 and "<title>app</title>" in page.text
    policy = page.headers["content-security-policy"]
    assert "'wasm-unsafe-eval'" in policy and "'unsafe-inline'" not in policy
    wasm = client.get("/offline/pyodide/pyodide.asm.wasm")
    assert wasm.headers["content-type"] == "application/wasm" and wasm.content == b"\0asm"
    assert client.get("/offline/sw.js").headers["service-worker-allowed"] == "/offline/"
    for outside in ("/offline/../secret.txt", "/offline/%2e%2e/secret.txt", "/offline/nothing"):
        answer = client.get(outside)
        assert answer.status_code == 404 and "not served" not in answer.text
    site = client.get("/print/blank")  # the rest of the site keeps its strict policy
    assert "'wasm-unsafe-eval'" not in site.headers["content-security-policy"]


def test_r_x_7_an_app_not_built_says_how_to_build_it(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROSSTABLE_OFFLINE_DIR", str(tmp_path / "missing"))
    answer = client.get("/offline/")
    assert answer.status_code == 404 and "crosstable offline build" in answer.text


def test_r_x_7_the_build_refuses_a_pyodide_package_that_is_not_the_pinned_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "npm-cache"
    cache.mkdir()
    forged = cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    forged.write_bytes(b"not the package npm published")
    assert main(["offline", "build", "--out", str(tmp_path / "dist")]) == 2
    err = capsys.readouterr().err
    assert "not the pinned one" in err and "Traceback" not in err
    assert not forged.exists() and not (tmp_path / "dist" / "index.html").exists()
