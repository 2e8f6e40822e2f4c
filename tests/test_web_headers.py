"""Security headers (issue 13.12): a strict Content-Security-Policy on every response,
nosniff, Referrer-Policy, X-Frame-Options, and HSTS only over HTTPS; the pages carry no
inline script or handler, and still work in Chromium under the policy (a result button
records a result) with no violation reported."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from test_service_support import migrated

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from crosstable.web.headers import content_security_policy
from tests.asgi_client import TestClient
from tests.browser import chromium, needs_chromium, sign_in, web_server

TEMPLATES = Path(__file__).resolve().parents[1] / "crosstable" / "web" / "templates"
#: inline event handlers (onclick=…) and scripts without src: forbidden by script-src 'self'
_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I)


def _tournament(service: Service, accounts: Accounts) -> int:
    admin = accounts.create_user("arbiter", "password-arbiter", is_admin=True)
    names = [PlayerInfo(f"Player {i}", 1800 + i) for i in range(1, 5)]
    tid = service.create_tournament(Regulations(name="Club"), players=names).tournament_id
    accounts.claim(tid, admin)
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    return tid


@pytest.fixture()
def site(tmp_path: Path) -> Iterator[tuple[TestClient, int]]:
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'headers.db'}")))
    tid = _tournament(service, Accounts(service.store))
    with TestClient(create_app(service=service)) as client:
        yield client, tid


def directives(policy: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def test_every_response_has_the_strict_policy(site: tuple[TestClient, int]) -> None:
    client, tid = site
    for path in (
        "/",
        f"/t/{tid}",
        f"/t/{tid}/rounds/1",
        "/static/app.js",
        "/nowhere",
        f"/api/v1/tournaments/{tid}",
        f"/t/{tid}/print/crosstable",
    ):
        answer = client.get(path)
        policy = directives(answer.headers["content-security-policy"])
        assert policy["default-src"] == ["'self'"], path
        assert policy["script-src"] == ["'self'"], path
        assert policy["object-src"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'none'"]
        assert policy["base-uri"] == ["'self'"]
        assert policy["form-action"] == ["'self'"]
        assert "'unsafe-inline'" not in policy["style-src"]
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "same-origin"
        assert answer.headers["x-frame-options"] == "DENY"
        assert "strict-transport-security" not in answer.headers  # plain HTTP


def test_hsts_only_over_https(site: tuple[TestClient, int]) -> None:
    client, _tid = site
    client.base_url = client.base_url.copy_with(scheme="https")
    answer = client.get("/")
    assert answer.headers["strict-transport-security"] == "max-age=31536000"


def test_the_print_pages_style_block_is_allowed_by_its_hash(
    site: tuple[TestClient, int],
) -> None:
    client, tid = site
    answer = client.get(f"/t/{tid}/print/crosstable")
    blocks = re.findall(r"<style>(.*?)</style>", answer.text, re.S)
    assert blocks
    allowed = directives(answer.headers["content-security-policy"])["style-src"]
    for block in blocks:
        digest = base64.b64encode(hashlib.sha256(block.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in allowed


def test_the_api_docs_alone_may_run_inline_script() -> None:
    assert "'unsafe-inline'" in directives(content_security_policy("/api/docs"))["script-src"]
    assert directives(content_security_policy("/api/v1/me"))["script-src"] == ["'self'"]


def test_no_template_has_an_inline_handler_or_script() -> None:
    for path in sorted(TEMPLATES.glob("*.html")):
        text = path.read_text(encoding="utf-8")
        assert not _HANDLER.search(text), f"{path.name}: an inline event handler"
        assert not _INLINE_SCRIPT.search(text), f"{path.name}: an inline script"
        assert "javascript:" not in text, path.name


@needs_chromium
def test_result_buttons_work_under_the_policy_without_violations(tmp_path: Path) -> None:
    db = tmp_path / "browser.db"
    service = Service(open_store(migrated(f"sqlite:///{db}")))
    tid = _tournament(service, Accounts(service.store))
    service.store.close()
    problems: list[str] = []
    with web_server(db) as url, chromium() as browser:
        page = browser.new_page()
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', function (e) {"
            " console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI); });"
        )
        sign_in(page, url, "arbiter", "password-arbiter")
        page.goto(f"{url}/t/{tid}/rounds/1")
        card = page.locator("#g1-1")
        card.locator(".res-btn", has_text="1-0").first.click()
        card.locator(".result", has_text="1-0").wait_for()
        # the explanation's close button and the print page work too
        page.goto(f"{url}/t/{tid}/print/crosstable")
        page.wait_for_load_state("load")
        page.goto(f"{url}/t/{tid}/history")
        page.wait_for_load_state("load")
    assert problems == []
    service = Service(open_store(migrated(f"sqlite:///{db}")))
    games = [g for g in service.overview(tid).games if g.round == 1 and g.board == 1]
    assert games and games[0].result == "1-0"
    service.store.close()
