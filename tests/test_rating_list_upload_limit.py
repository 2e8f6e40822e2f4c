"""Rating-list uploads are heavy uploads: an administrator sending them one after another
is refused past the limit a minute (429 with Retry-After), before a byte of the body is
read, counted in the database (tests/test_heavy_upload_limits.py has the limit itself)."""

from __future__ import annotations

from typing import Any

from test_service_support import db_url, store

from tests.test_rating_list_security import Body, cookie_of, form_head, form_tail, post, site
from tests.web_support import signed_in

__all__ = ["db_url", "site", "store"]


def test_rating_list_uploads_past_the_limit_are_refused_before_the_body(site: Any) -> None:
    client, _service, app = site
    token = signed_in(client, "admin")
    answers = []
    for _ in range(4):
        body = Body(form_head(token), chunks=0, tail=form_tail())
        status, answer = post(app, body, cookie=cookie_of(client), length=1000)
        answers.append((status, body.taken, answer))
    assert all(status != 429 for status, _taken, _answer in answers[:3])  # 3 a minute
    status, taken, answer = answers[3]
    assert status == 429 and taken == 0
    assert b"too many large uploads" in answer
