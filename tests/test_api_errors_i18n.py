"""The JSON API's answer to a malformed request (issue 29 item 15): not pydantic's raw
English ("Field required", "Input should be a valid integer") but the pages' message
for the same fault with the field named, in the language of ``Accept-Language``; each
item keeps ``loc``, ``msg`` and ``type`` (the OpenAPI description's shape) and adds
``field``. A fuzz test sends arbitrary JSON bodies: always a 4xx whose every message
names its field, never a 500."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import migrated
from web_support import signed_in

from crosstable.service import Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.api_errors import error_message, field_of, validation_detail
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.strategies import JSON

RAW = ("Field required", "Input should be", "String should have", "valid integer")


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str, int]]:
    db = tmp_path_factory.mktemp("api-errors") / "api.db"
    service = Service(open_store(migrated(f"sqlite:///{db}")), random=random.Random(15))
    accounts = Accounts(service.store)
    accounts.create_user("boss", "password-boss", is_admin=True)
    tid = service.create_tournament(Regulations(name="Кубок")).tournament_id
    with TestClient(create_app(service=service), raise_server_exceptions=False) as client:
        token = signed_in(client, "boss")
        accounts.claim(tid, accounts.find_user("boss"))
        yield client, token, tid


def _post(api: tuple[TestClient, str, int], path: str, body: Any, language: str) -> Any:
    client, token, _tid = api
    return client.post(
        path,
        content=json.dumps(body),
        headers={
            "X-CSRF-Token": token,
            "Content-Type": "application/json",
            "Accept-Language": language,
        },
    )


def test_a_missing_and_a_wrong_field_are_named_and_translated(api: Any) -> None:
    tid = api[2]
    path = f"/api/v1/tournaments/{tid}/players"
    english = _post(api, path, {"rating": "много", "title": "x" * 11}, "en")
    russian = _post(api, path, {"rating": "много", "title": "x" * 11}, "ru")
    assert english.status_code == russian.status_code == 422
    by_field = {item["field"]: item for item in english.json()["detail"]}
    assert by_field["name"]["msg"] == "name: required"
    assert by_field["rating"]["msg"] == "rating: 'много' is not a whole number"
    assert by_field["title"]["msg"] == "title: at most 10 characters"
    assert by_field["rating"]["loc"] == ["body", "rating"]
    assert by_field["rating"]["type"] == "int_parsing"
    ru = {item["field"]: item["msg"] for item in russian.json()["detail"]}
    assert ru == {
        "name": "name: обязательное поле",
        "rating": "rating: 'много' — не целое число",
        "title": "title: не больше 10 символов",
    }
    for answer in (english, russian):
        assert not any(raw in answer.text for raw in RAW), answer.text


def test_a_number_out_of_its_range_names_the_field_and_the_bound(api: Any) -> None:
    tid = api[2]
    answer = _post(api, f"/api/v1/tournaments/{tid}/lots", {"method": "random", "seed": -1}, "ru")
    assert answer.status_code == 422
    (item,) = answer.json()["detail"]
    assert item == {
        "field": "seed",
        "msg": "seed: не меньше 0",
        "loc": ["body", "seed"],
        "type": "greater_than_equal",
    }
    english = _post(api, f"/api/v1/tournaments/{tid}/lots", {"method": "coin"}, "en")
    (item,) = english.json()["detail"]
    assert item["msg"] == "method: 'coin' is not one of 'random', 'rating' or 'manual'"


def test_a_body_that_is_not_json_and_a_control_character(api: Any) -> None:
    client, token, tid = api
    answer = client.post(
        f"/api/v1/tournaments/{tid}/players",
        content=b"{not json",
        headers={
            "X-CSRF-Token": token,
            "Content-Type": "application/json",
            "Accept-Language": "ru",
        },
    )
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["msg"] == "тело запроса — не корректный JSON"
    control = _post(api, f"/api/v1/tournaments/{tid}/players", {"name": "A\x01"}, "ru")
    assert control.status_code == 422
    assert control.json()["detail"][0]["msg"] == "name: управляющие символы недопустимы"


def test_field_names_of_nested_items() -> None:
    assert field_of(("body", "players", 2, "rating")) == "players.2.rating"
    assert field_of(("query", "round")) == "round"
    message = error_message({"type": "some_new_type", "loc": ("body", "x"), "input": 3})
    assert str(message) == "x: 3 is not accepted here"


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.dictionaries(
        st.sampled_from(["name", "rating", "title", "team", "x"]), JSON, max_size=5
    )
)
def test_fuzz_any_body_is_a_named_4xx(api: Any, body: dict[str, Any]) -> None:
    tid = api[2]
    answer = _post(api, f"/api/v1/tournaments/{tid}/players", body, "ru")
    assert 200 <= answer.status_code < 500, answer.text[:300]
    if answer.status_code == 422 and isinstance(answer.json()["detail"], list):
        for item in answer.json()["detail"]:
            assert item["msg"] and not any(raw in item["msg"] for raw in RAW), item
            named = item["msg"].startswith(item["field"]) or ":" in item["msg"]
            assert item["field"] == "" or named, item


def test_validation_detail_keeps_the_openapi_shape() -> None:
    (item,) = validation_detail([{"type": "missing", "loc": ("body", "name")}], "en")
    assert set(item) == {"field", "msg", "loc", "type"}
